"""Names for the aliases ttopt's passes create, given at print time in the order MLIR gives them.

MLIR's printer (AsmPrinter.cpp, `AliasInitializer`) names aliases while printing. It walks the
operation as it will print it: a custom form in its text order (func.func: argument types and
attributes, result types, the attribute dictionary, then the body), the generic form regions
first, then operand types, result types and attributes (inherent and discardable together, by
name). It records each aliasable attribute or type when first met, the ones nested in it right
after it, with a depth: 1 for an alias holding no alias, else 1 + the depth of the deepest value
it holds (a value without an alias has depth 0, or 1 + its deepest one when it holds an alias).
The aliases are stably sorted by (depth, types before attributes, name), printed in that order,
and numbered per name: `#ttnn_layout`, `#ttnn_layout1`, ... (a name ending in a digit takes `_`:
`#l1`, `#l1_1`), skipping a name already taken.

ttopt keeps aliases as data: one read from the input keeps its name (a file MLIR printed comes
back byte for byte); one a pass creates (`AliasScope.add_attr`) is named in creation order, which
stays its key in the alias table. Printing renames the created aliases of a prefix as MLIR would,
when the prefix is ttopt's alone: no alias read from the input has a name of its numbering
(`P`, `P<n>`, `P_<n>` for a `P` ending in a digit). Otherwise the prefix keeps the creation
names: MLIR's numbering would rename the input's aliases too (the optimizer adds `#ttnn_layout9`
to a TTNN input with `#ttnn_layout` .. `#ttnn_layout8`), and those keep theirs. A renamed alias
the printed text never names is not printed (as MLIR prints only the aliases it met).

How: before printing, `_Walk` goes over the module as a printer of its own prints it (a custom
form's text is scanned as written, its regions walked where they print; an op whose types and
attributes were all met is skipped), and `AliasNames` sorts and numbers what it met. The printer
then renames in `Printer.expand`, the one place every alias-bearing text already goes through
(for `--mlir-print-local-scope`), once per distinct text.

Where this differs from MLIR: depth is read off the definition's text, every `<..>`, `[..]` or
`{..}` around a nested alias counting as one value (an array parameter of a dialect attribute is
no value in MLIR, a parenthesised one is), an alias kept by name counting depth 1; a skipped op's
operand types are taken as met where their values were defined (true unless a block uses a value
defined in a block printed after it); aliases kept by name print first, in definition order,
then the renamed ones in MLIR's order (each after the renamed aliases its text names). A renamed
alias that text names but the walk did not meet is numbered after the others, so it is still
defined.
"""

from __future__ import annotations

import re
from itertools import chain
from operator import attrgetter, itemgetter
from typing import TYPE_CHECKING, Any, Callable

from ttopt.ir.aliases import ALIAS_USE

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.ir.operation import Operation, Region
    from ttopt.ir.printer import Printer

# A string literal, an alias reference, or a bracket (`->` and `>=` close none).
_NESTING = re.compile(r'"[^"\\\n]*(?:\\.[^"\\\n]*)*"|([#!])([A-Za-z_][\w$\-]*)(?![\w$.\-<])|->|>=|([<\[{])|([>\]}])')
_REGION = re.compile("\x00R([0-9]+)\x00")  # where a custom form prints a region (_Walk.custom)
_NAME = itemgetter(0)
_NAME_OF = itemgetter(1)  # of a (kind, name) key of the alias table
_TYPE = attrgetter("type")


class _AllMet(Exception):
    """Every renamed alias has been met: the rest of the walk cannot change their order."""


def managed_aliases(module: Module) -> dict[str, Any]:
    """The created aliases to rename at print time (creation name -> definition): those of each
    prefix no alias read from the input shares a name with."""
    scope = module.aliases
    if not scope.created:
        return {}
    defs = scope.defs
    created = {d.name: d for d in scope.created if defs.get(("attr", d.name)) is d}
    if not created:
        return {}
    prefixes = {p for d in created.values() if (p := d.prefix) is not None}
    # A C-level filter of the names: a module may hold 10^5 location aliases.
    space = re.compile("(?:" + "|".join(map(re.escape, prefixes)) + r")_?[0-9]*\Z")
    near = [n for n in filter(space.match, map(_NAME_OF, defs)) if n not in created]
    shared = {p for n in near for p in prefixes if _in_space(n, p)}
    return {n: d for n, d in created.items() if d.prefix not in shared}


class AliasNames:
    """The print-time names of the renamed aliases of one print, and their definition lines."""

    def __init__(self, module: Module, walker: Printer, managed: dict[str, Any]) -> None:
        """Names for `managed` (creation name -> definition), from a walk of the module as
        `walker` (a printer with the same options, used for nothing else) prints it."""
        self.managed = managed
        # The names MLIR's numbering may give a renamed alias: none kept has one (else its prefix
        # would keep creation names), so only the renamed ones can take them from each other.
        self.taken: set[str] = set()
        self.counts: dict[str, int] = {}
        self._renamed: dict[str, str] = {}  # text -> renamed text (types recur in every op)
        met = _Walk(walker, module.aliases.defs, managed).run(module.op)
        depth: dict[str, int] = {}
        ranked = sorted(range(len(met)), key=lambda i: (_depth(met[i], managed, depth), managed[met[i]].prefix, i))
        # creation name -> print name, in MLIR's order (the order the definitions print in)
        self.names: dict[str, str] = {}
        for i in ranked:
            self._name(met[i])
        prefixes = sorted({d.prefix for d in managed.values()}, key=len, reverse=True)
        self._pattern = re.compile(
            r'("[^"\\\n]*(?:\\.[^"\\\n]*)*")|#((?:' + "|".join(map(re.escape, prefixes)) + r")[\w$\-]*)(?![\w$.\-<])"
        )

    def _name(self, old: str) -> str:
        """The print name of `old`, given now if it has none (MLIR's `uniqueAliasNameIndex`)."""
        name = self.names.get(old)
        if name is None:
            name = self.names[old] = _fresh(self.managed[old].prefix, self.taken, self.counts)
        return name

    def rename(self, text: str) -> str:
        """`text` with every renamed alias referenced by its print name (string literals untouched)."""
        got = self._renamed.get(text)
        if got is not None:
            return got
        if "#" not in text:
            return text
        parts = self._pattern.split(text)
        names = parts[2::3]  # re.split: [text, string, name, text, ...], string or name None
        managed, given = self.managed, self.names
        for n in names:
            if n is not None and n not in given and n in managed:
                self._name(n)  # named where the walk did not look: numbered last, still defined
        parts[1::3] = [s or "" for s in parts[1::3]]
        parts[2::3] = ["" if n is None else "#" + given.get(n, n) for n in names]
        got = self._renamed[text] = "".join(parts)
        return got

    def lines(self, kept: list[Any], line: Callable[[Any], str]) -> list[str]:
        """The definition lines: `kept` ones in their order (`line` of each), then the renamed
        ones as MLIR sorts them, each renamed one before the first definition naming it."""
        out: list[str] = []
        done: set[str] = set()
        managed = self.managed

        def before(text: str) -> None:
            for sigil, ref in _refs(text):
                if sigil == "#" and ref in managed and ref not in done:
                    self._name(ref)
                    emit(ref)

        def emit(name: str) -> None:
            done.add(name)
            d = managed[name]
            before(d.value_text)
            out.append(f"#{self.names[name]} = {self.rename(d.value_text)}")

        for d in kept:
            if d.is_location:  # names no alias ttopt created (and there may be 10^5 of them)
                out.append(line(d))
            else:
                before(d.value_text)
                out.append(self.rename(line(d)))
        for name in list(self.names):
            if name not in done:
                emit(name)
        return out


class _Walk:
    """MLIR's alias visitation over what the printer prints: the renamed aliases in the order
    they are first met. Custom forms are read off the printer's own text (so their order is the
    text's), generic forms as MLIR's `printGenericOp` visits them."""

    def __init__(self, printer: Printer, defs: Any, managed: dict[str, Any]) -> None:
        self.p = printer
        self.defs = defs
        self.managed = managed
        self.pending = set(managed)
        self.met: list[str] = []
        self.seen: set[tuple[str, str]] = set()
        self.done: set[int] = set()  # ids of the types / attributes whose aliases were all met
        self.refs: dict[str, list[tuple[str, str]]] = {}

    def run(self, top: Operation) -> list[str]:
        """The renamed aliases the print names, in first-met order."""
        p = self.p
        saved = p.default_dialect
        try:
            self.op(top, "")
        except _AllMet:
            pass  # every renamed alias is met: the rest of the module cannot change their order
        finally:
            p.default_dialect = saved
            p.__dict__.pop("region", None)
        return self.met

    def text(self, text: str) -> None:
        refs = self.refs.get(text)
        if refs is None:
            refs = self.refs[text] = _refs(text)
        for sigil, name in refs:
            key = ("attr" if sigil == "#" else "type", name)
            if key not in self.seen:
                self.meet(key)

    def meet(self, key: tuple[str, str]) -> None:
        """First meeting of an alias: recorded, then the aliases its definition names (MLIR
        visits a value's nested values right after it)."""
        self.seen.add(key)
        name = key[1]
        if name in self.pending and key[0] == "attr":
            self.met.append(name)
            self.pending.discard(name)
            if not self.pending:
                raise _AllMet
        d = self.defs.get(key)
        if d is not None and not d.is_location:
            self.text(d.value_text)

    def value(self, v: Any) -> None:
        """A type or attribute object (met once per object: their texts do not change)."""
        i = id(v)
        if i not in self.done:
            self.done.add(i)
            self.text(v.text)

    def op(self, op: Operation, indent: str) -> None:
        p = self.p
        d = op.opdef
        if d is not None and d.format is not None and not p.opts.generic:
            if op.regions or op.successors:
                if self.custom(op, d.format, indent):
                    return
            else:
                lines = p._lines.setdefault((p.default_dialect, indent), {})
                line = p._custom_line(op, d.format, indent, lines, "")
                if line is not None:
                    self.text(line)
                    return
        for r in op.regions:
            self.region(r, indent, True)
        done, value = self.done, self.value
        for x in op.operands:
            if id(x.type) not in done:
                value(x.type)
        for x in op.results:
            if id(x.type) not in done:
                value(x.type)
        props, attrs = op.properties, op.attributes
        if props or attrs:
            for _, v in sorted((*props.items(), *attrs.items()), key=_NAME):  # one dictionary, by name
                value(v)

    def custom(self, op: Operation, fmt: Any, indent: str) -> bool:
        """An op with regions in its custom form: its text, each region met where it prints."""
        p = self.p
        found: list[tuple[Region, str, bool]] = []

        def region(r: Region, ind: str, entry_args: bool = False) -> str:
            found.append((r, ind, entry_args))
            return f"\x00R{len(found) - 1}\x00"

        p.region = region  # type: ignore[method-assign,assignment]  # the regions are walked below instead
        try:
            text = p.custom(op, fmt, indent)
        finally:
            del p.region
        if text is None:
            return False
        parts = _REGION.split(text)
        for k, part in enumerate(parts):
            if k % 2:
                self.region(*found[int(part)])
            else:
                self.text(part)
        return True

    def region(self, region: Region, indent: str, entry_args: bool = False) -> None:
        """As `Printer.region` prints it: block labels with argument types, then the ops."""
        p = self.p
        saved = p.default_dialect
        owner = region.parent
        d = owner.opdef if owner is not None else None
        p.default_dialect = d.extra.get("default_dialect", "") if d is not None else ""
        inner = indent + "  "
        seen_all = self.done.issuperset
        try:
            for i, block in enumerate(region.blocks):
                if i > 0 or (entry_args and (block.args or not block.ops)):
                    for a in block.args:
                        self.value(a.type)
                for op in block.ops:
                    # An op without regions prints nothing but text of its types and attributes,
                    # in either form: when all were met, so were the aliases it names. One C-level
                    # test (most ops of a big module), as the walk runs to the end when a renamed
                    # alias goes unused. Operand types are not looked at: each was met where its
                    # value is defined, before (an op's results, a block's arguments).
                    if op.regions or op.successors or not seen_all(
                        map(id, chain(map(_TYPE, op.results), op.properties.values(), op.attributes.values()))
                    ):
                        self.op(op, inner)
        finally:
            p.default_dialect = saved


def _in_space(name: str, prefix: str) -> bool:
    """Is `name` one MLIR's numbering of `prefix` gives (`P`, `P<n>`, `P_<n>` after a digit)?"""
    if not name.startswith(prefix):
        return False
    rest = name[len(prefix):]
    if rest and prefix[-1].isdigit():
        if not rest.startswith("_"):
            return False
        rest = rest[1:]
    return rest == "" or rest.isdigit()


def _refs(text: str) -> list[tuple[str, str]]:
    """The alias references in `text`, in order: (sigil, name)."""
    return [(m.group(1), m.group(2)) for m in ALIAS_USE.finditer(text) if m.group(1) is not None]


def _depth(name: str, managed: dict[str, Any], memo: dict[str, int]) -> int:
    """MLIR's alias depth of a renamed alias, read off its definition (see the module docstring);
    an alias kept by name counts as depth 1."""
    got = memo.get(name)
    if got is not None:
        return got
    memo[name] = 1  # definitions come before use, so no cycle: this only bounds a bad table
    deepest = level = 0
    for m in _NESTING.finditer(managed[name].value_text):
        if m.group(3) is not None:
            level += 1
        elif m.group(4) is not None:
            level -= 1
        elif m.group(1) is not None:
            ref = m.group(2)
            inner = _depth(ref, managed, memo) if m.group(1) == "#" and ref in managed else 1
            # each value between this one and the reference adds a level
            deepest = max(deepest, inner + max(level - 1, 0))
    memo[name] = deepest + 1
    return deepest + 1


def _fresh(prefix: str, taken: set[str], counts: dict[str, int]) -> str:
    """`prefix` when free, else `prefix<n>` (`prefix_<n>` after a digit) with the first free n
    from the prefix's counter (MLIR's `uniqueAliasNameIndex`)."""
    if prefix not in taken:
        taken.add(prefix)
        return prefix
    probe = prefix + "_" if prefix[-1].isdigit() else prefix
    n = counts.get(probe, 1)
    while probe + str(n) in taken:
        n += 1
    counts[probe] = n + 1
    taken.add(probe + str(n))
    return probe + str(n)
