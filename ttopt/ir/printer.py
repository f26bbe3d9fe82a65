"""MLIR text output: aliases, the module, ops in generic or custom form, MLIR's value naming.

Value names follow MLIR's `SSANameState`: each isolated-from-above op restarts numbering; a
region is numbered completely before the regions nested in it, which continue its counters;
entry-block arguments are `%argN`; op-provided names (`%cst`, `%c`, `%iterArg`) are uniqued with
`_N` suffixes from one shared counter. Source names are not kept (mlir-opt renumbers too).
Aliases read from the input keep their names; those a pass created are named here, in the order
MLIR's printer would name them (`alias_names.py`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ttopt.ir.alias_names import AliasNames, managed_aliases
from ttopt.ir.attributes import Attribute, TypeAttr, UnitAttr
from ttopt.ir.opdef import ISOLATED, OP_DEFS
from ttopt.ir.spelled import canonical_type_spelling, keyword_or_string, quote, symbol_ref
from ttopt.ir.types import FunctionType, Type

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.ir.operation import Block, Operation, Region
    from ttopt.ir.values import Value

class _ReadTracker(dict):
    """A properties dict that records which keys a custom format looked at."""

    __slots__ = ("read",)  # the keys read, set by its maker (dict's own __init__ takes the copy)
    read: set[str]

    def __getitem__(self, key: str) -> Any:
        self.read.add(key)
        return dict.__getitem__(self, key)

    def get(self, key: str, default: Any = None) -> Any:
        self.read.add(key)
        return dict.get(self, key, default)

    def __contains__(self, key: object) -> bool:
        self.read.add(key)  # type: ignore[arg-type]
        return dict.__contains__(self, key)

    def items(self):  # type: ignore[override]
        self.read.update(dict.keys(self))
        return dict.items(self)

    def values(self):  # type: ignore[override]
        self.read.update(dict.keys(self))
        return dict.values(self)

    def __iter__(self):
        self.read.update(dict.keys(self))
        return dict.__iter__(self)

    def all_read(self) -> bool:
        return self.read.issuperset(dict.keys(self))


def sym_text(name: str) -> str:
    """`@name`, quoted when the name is not a bare identifier (MLIR's rule)."""
    return symbol_ref(name)


_QUOTED: dict[str, str] = {}  # op name -> its quoted spelling (generic form)
_UNKNOWN = "%<<UNKNOWN>>"
# Brackets an operand's number in the placeholder names of a line template's print: no parsed
# text holds a NUL then a newline (the reader blanks NULs outside strings, and no string literal
# holds a newline), and a built string attribute prints its control characters escaped.
_MARK = "\x00\n"
# Placeholder names by operand number, and the number each bracketed spelling stands for (an op
# with more operands than these is formatted every time).
_PLACEHOLDERS = tuple(f"{_MARK}{k}{_MARK}" for k in range(256))
_NUMBER_OF = {str(k): k for k in range(256)}.__getitem__


class PrintOptions:
    """The `--mlir-print-*` switches."""

    __slots__ = ("local_scope", "debuginfo", "generic")

    def __init__(self, local_scope: bool = False, debuginfo: bool = False, generic: bool = False) -> None:
        self.local_scope = local_scope
        self.debuginfo = debuginfo
        self.generic = generic


class Printer:
    """Prints one module; holds the value names and alias-expansion caches for that print."""

    def __init__(self, module: Module, options: PrintOptions | None = None) -> None:
        self.module = module
        self.opts = options or PrintOptions()
        # Keyed by the value (op) itself: values and ops hash by identity, without an `id()` call.
        self.names: dict[Value, str] = {}
        self.groups: dict[Operation, list[tuple[str, int]]] = {}
        self.out: list[str] = []
        self.default_dialect = ""  # ops of this dialect print without their prefix (func: `return`)
        # Per-print text caches keyed by object ids: types and attributes are immutable and shared
        # by many ops, and the module does not change while it prints. `_pinned` holds every keyed
        # object so a temporary one a custom format builds cannot die and lend its id to another.
        self._sigs: dict[tuple, str] = {}
        self._dicts: dict[tuple, str] = {}
        self._type_texts: dict[str, str] = {}  # a type's source spelling -> its canonical text
        # (default dialect, indent) -> a region-free op's custom form keyed by what a format reads
        # besides operand names (see `_custom_line`).
        self._lines: dict[tuple[str, str], dict[tuple, Any]] = {}
        self._pinned: list[Any] = []
        # The print-time names of the aliases ttopt's passes created (ir/alias_names.py), when
        # any: `expand` renames through them, as it inlines aliases in local scope.
        self.alias_names: AliasNames | None = None

    # -- entry point ------------------------------------------------------------------------
    def print_module(self) -> str:
        """The whole file text (aliases, module, trailing aliases), ending with a newline."""
        m = self.module
        opts = self.opts
        lines: list[str] = []
        # Aliases ttopt's passes created are named as MLIR names them, at print time: the names
        # come from a walk of what prints (a printer of its own: this one's caches must hold the
        # renamed texts), and every alias-bearing text goes through `expand`, as for local scope.
        managed = managed_aliases(m) if not opts.local_scope else {}
        if managed:
            self.alias_names = AliasNames(m, Printer(m, opts), managed)
        kept = []
        if not opts.local_scope:
            # Attribute and type aliases print first wherever they were written (MLIR requires a
            # definition before use); location aliases keep their place, and only with debuginfo.
            for d in m.aliases:
                if d.is_location and (d.after_module or not opts.debuginfo):
                    continue
                if d.prefix is not None and d.name in managed:
                    continue
                kept.append(d)
            if not managed:
                lines = [self._alias_line(d) for d in kept]
        self._assign_names(m.op)
        self.out = lines
        self.print_op(m.op, "")
        if self.alias_names is not None:  # after the ops: one the walk missed is named by now
            names = self.alias_names
            lines[:0] = names.lines(kept, self._alias_line)
        if opts.debuginfo and not opts.local_scope:
            # Tens of thousands in a printed file: one comprehension, location aliases are `#`.
            lines += [f"#{d.name} = {d.value_text}" for d in m.aliases if d.after_module and d.is_location]
        if m.metadata is not None:
            lines += ["", m.metadata.text()]
        return "\n".join(lines) + "\n"

    def _alias_line(self, d: Any) -> str:
        if d.kind == "attr":
            return f"#{d.name} = {d.value_text}"
        return f"!{d.name} = {canonical_type_spelling(d.value_text)}"

    # -- text of types / attributes with alias handling ---------------------------------------
    def expand(self, text: str) -> str:
        """`text` with alias references replaced by their definitions (for local scope), or by
        their print-time names (aliases ttopt created, see `alias_names`)."""
        if self.alias_names is not None:
            return self.alias_names.rename(text)
        if not self.opts.local_scope:
            return text
        return self.module.aliases.expand(text)

    def type(self, t: Type) -> str:
        """The type's text as MLIR prints it (aliases expanded in local scope)."""
        s = self._canonical_text(t)
        return self.expand(s) if self.opts.local_scope or self.alias_names is not None else s

    def attr(self, a: Attribute) -> str:
        return self.expand(a.text)

    def types(self, ts: Any) -> str:
        return ", ".join([self.type(t) for t in ts])

    def fn_type(self, ins: Any, outs: Any) -> str:
        """`(A, B) -> R`, with aliases expanded in local scope."""
        # The key of one input and one result is the id pair (the commonest op, see print_ops).
        key = (id(ins[0]), id(outs[0])) if len(ins) == 1 and len(outs) == 1 else (*map(id, ins), None, *map(id, outs))
        s = self._sigs.get(key)
        if s is None:
            # Built from each type's canonical text (cached per type, where a signature's own
            # text would be checked once per distinct combination of types).
            canon = self._canonical_text
            res = canon(outs[0]) if len(outs) == 1 and not isinstance(outs[0], FunctionType) else f"({', '.join([canon(t) for t in outs])})"
            s = self._sigs[key] = self.expand(f"({', '.join([canon(t) for t in ins])}) -> {res}")
            self._pinned.append((tuple(ins), tuple(outs)))
        return s

    def _canonical_text(self, t: Type) -> str:
        text = t.text
        s = self._type_texts.get(text)
        if s is None:
            s = self._type_texts[text] = canonical_type_spelling(text)
        return s

    def dict_body(self, d: dict[str, Attribute]) -> str:
        """`a = 1, b` (no braces)."""
        # Keyed by the keys in order and the value objects: the same dict contents give one text.
        key = (*d, *map(id, d.values()))
        s = self._dicts.get(key)
        if s is None:
            s = self._dicts[key] = self._dict_text(d)
            self._pinned.append(tuple(d.values()))
        return s

    def _dict_text(self, d: dict[str, Attribute]) -> str:
        parts = []
        for k, v in sorted(d.items()):
            key = keyword_or_string(k)
            if isinstance(v, UnitAttr):
                parts.append(key)
            elif isinstance(v, TypeAttr):
                parts.append(f"{key} = {self.expand(canonical_type_spelling(v.text))}")
            else:
                parts.append(f"{key} = {self.expand(v.text)}")
        return ", ".join(parts)

    def attr_dict(self, d: dict[str, Attribute], prefix: str = " ") -> str:
        """` {a = 1}` or "" when empty."""
        return f"{prefix}{{{self.dict_body(d)}}}" if d else ""

    def loc(self, location: Any) -> str:
        """` loc(...)` with debuginfo, else ""."""
        if location is None or not self.opts.debuginfo:
            return ""
        # No alias ttopt created names a location: only local scope changes its text.
        return " " + (self.expand(location.text) if self.opts.local_scope else location.text)

    # -- values -----------------------------------------------------------------------------
    def name(self, v: Value) -> str:
        """`%name` of a value (`%0#1` for a result of a multi-result op)."""
        n = self.names.get(v)
        if n is None:
            return "%<<UNKNOWN>>"
        return n

    def names_of(self, values: Any) -> str:
        """`%a, %b`."""
        get = self.names.get
        return ", ".join([get(v, _UNKNOWN) for v in values])

    def _assign_names(self, top: Operation) -> None:
        for r in top.regions:
            self._number_region(r, 0, 0, 0, set())

    def _unique(self, hint: str, used: set[str], added: list[str], conflict: list[int]) -> str:
        name = hint
        while name in used:
            name = f"{hint}_{conflict[0]}"
            conflict[0] += 1
        used.add(name)
        added.append(name)
        return name

    def _number_region(self, region: Region, nv: int, na: int, nc: int, used: set[str]) -> None:
        """MLIR's SSANameState for one region; nested regions start from this region's final state."""
        names = self.names
        added: list[str] = []
        conflict = [nc]
        owner = region.parent
        od = owner.opdef if owner is not None else None
        hinted = not self.opts.generic  # the generic form uses no op-provided names (as MLIR)
        arg_hint = od.extra.get("arg_name") if od is not None and hinted else None
        nested: list[Operation] = []  # ops with regions, numbered after this whole region
        for bi, block in enumerate(region.blocks):
            for arg in block.args:
                if arg_hint is not None and bi == 0:
                    names[arg] = "%" + self._unique(arg_hint, used, added, conflict)
                elif bi == 0:
                    names[arg] = f"%arg{na}"
                    na += 1
                else:
                    names[arg] = f"%{nv}"
                    nv += 1
            for op in block.ops:
                if op.regions:
                    nested.append(op)
                res = op.results
                if not res:
                    continue
                hint = None
                if hinted:
                    d = op._opdef
                    if d is False:  # `op.opdef`, without its property call (every op of a new module)
                        d = op._opdef = OP_DEFS.get(op.name)
                    if d is not None and d.result_name is not None:
                        hint = d.result_name(op)
                if hint is None:  # the commonest case first
                    base = f"%{nv}"
                    nv += 1
                elif isinstance(hint, (list, tuple)) and len(hint) == len(res):
                    groups = []
                    for r, h in zip(res, hint):
                        base = "%" + self._unique(h, used, added, conflict)
                        names[r] = base
                        groups.append((base, 1))
                    self.groups[op] = groups
                    continue
                elif isinstance(hint, str):
                    base = "%" + self._unique(hint, used, added, conflict)
                else:
                    base = f"%{nv}"
                    nv += 1
                if len(res) == 1:
                    names[res[0]] = base
                else:
                    for r in res:
                        names[r] = f"{base}#{r.index}"
        for op in nested:
            d = op.opdef
            iso = d is not None and d.has(ISOLATED)
            for sub in op.regions:
                if iso:
                    self._number_region(sub, 0, 0, 0, set())
                else:
                    self._number_region(sub, nv, na, conflict[0], used)
        for n in added:
            used.discard(n)

    def result_prefix(self, op: Operation) -> str:
        """`%0 = `, `%0:2 = `, or "" for ops without results."""
        res = op.results
        if not res:
            return ""
        groups = self.groups.get(op)
        if groups is not None:
            return ", ".join(b if n == 1 else f"{b}:{n}" for b, n in groups) + " = "
        n = self.names.get(res[0], _UNKNOWN)
        if len(res) == 1:
            return n + " = "
        return f"{n.partition('#')[0]}:{len(res)} = "

    # -- ops --------------------------------------------------------------------------------
    def print_op(self, op: Operation, indent: str) -> None:
        """Append the op's lines (its regions included) to the output."""
        d = op.opdef
        fmt = d.format if d is not None and not self.opts.generic else None
        text = self.custom(op, fmt, indent) if fmt is not None else None
        if text is None:
            text = self.generic(op, indent)
        self.out.append(indent + self.result_prefix(op) + text + self.loc(op.location))

    def print_ops(self, ops: list[Operation], indent: str) -> None:
        """`print_op` for each op of a block; the commonest op (generic form, no regions, no
        successors) is written inline here in one f-string: per-op calls and attribute lookups
        are most of the time of printing a big module."""
        names = self.names.get
        append = self.out.append
        generic = self.opts.generic
        debug = self.opts.debuginfo
        expand = self.expand if self.opts.local_scope else None
        groups = self.groups
        sigs = self._sigs
        dict_body = self.dict_body
        # The `_custom_line` templates of this block's place (default dialect and indent).
        lkey = (self.default_dialect, indent)
        lines = self._lines.get(lkey)
        if lines is None:
            lines = self._lines[lkey] = {}
        for op in ops:
            loc = op.location
            if loc is None or not debug:
                ltext = ""
            else:
                ltext = " " + (loc.text if expand is None else expand(loc.text))
            d = op._opdef  # `op.opdef` without the property call once known
            if d is False:
                d = op.opdef
            text = None
            if d is not None:
                if d.format is not None and not generic:
                    if op.regions or op.successors:
                        text = self.custom(op, d.format, indent)
                    else:
                        line = self._custom_line(op, d.format, indent, lines, ltext)
                        if line is not None:
                            append(line)
                            continue
                if text is None and (op.regions or op.successors or d.extra.get("body_optional")):
                    text = self.generic(op, indent)
            elif op.regions or op.successors:
                text = self.generic(op, indent)
            res = op.results
            if text is not None:
                if len(res) == 1 and not groups:
                    append(f"{indent}{names(res[0], _UNKNOWN)} = {text}{ltext}")
                else:
                    append(f"{indent}{self.result_prefix(op)}{text}{ltext}")
                continue
            # `generic` for an op without regions or successors, in one piece
            qn = _QUOTED.get(op.name)
            if qn is None:
                qn = _QUOTED[op.name] = quote(op.name)
            operands = op.operands
            n_in = len(operands)
            if len(res) == 1:
                out_id = id(res[0].type)
                if n_in == 1:
                    v = operands[0]
                    args = names(v, _UNKNOWN)
                    key: tuple = (id(v.type), out_id)
                elif n_in == 2:
                    v, w = operands
                    args = f"{names(v, _UNKNOWN)}, {names(w, _UNKNOWN)}"
                    key = (id(v.type), id(w.type), None, out_id)
                else:
                    args = ", ".join([names(v, _UNKNOWN) for v in operands])
                    key = (*[id(v.type) for v in operands], None, out_id)
            else:
                args = ", ".join([names(v, _UNKNOWN) for v in operands])
                key = (*[id(v.type) for v in operands], None, *[id(r.type) for r in res])
            sig = sigs.get(key)
            if sig is None:
                sig = self.fn_type([v.type for v in operands], [r.type for r in res])
            props = op.properties
            ptext = f" <{{{dict_body(props)}}}>" if props else ""
            attrs = op.attributes
            atext = f" {{{dict_body(attrs)}}}" if attrs else ""
            if len(res) == 1 and not groups:
                append(f"{indent}{names(res[0], _UNKNOWN)} = {qn}({args}){ptext}{atext} : {sig}{ltext}")
            else:
                append(f"{indent}{self.result_prefix(op)}{qn}({args}){ptext}{atext} : {sig}{ltext}")

    def _custom_line(self, op: Operation, fmt: Any, indent: str, lines: dict[tuple, Any], ltext: str) -> str | None:
        """The whole line (indent, results, custom form, location `ltext`) of an op without
        regions or successors, or None when it prints generic. Its custom form comes from a
        template per distinct (default dialect, indent, name, operand and result type objects,
        dictionary contents): a format reads the operands only through `name` / `names_of`, so
        ops alike in all else differ only in those names, and filling a template is far cheaper
        than running the format. `lines` holds the templates of the op's default dialect and
        indent."""
        operands = op.operands
        n = len(operands)
        res = op.results
        # An `id()` is dear (a call and an audit hook): an elementwise op's operand types are its
        # result type itself, written 1 (one operand) or 2 (two) in the key.
        if len(res) == 1:
            rt = res[0].type
            rk: Any = id(rt)
            if n == 1:
                t = operands[0].type
                tk: Any = 1 if t is rt else id(t)
            elif n == 2:
                t, u = operands[0].type, operands[1].type
                tk = 2 if t is rt and u is rt else (id(t), id(u))
            else:
                tk = tuple([id(v.type) for v in operands])
        else:
            rk = tuple([id(r.type) for r in res])
            tk = tuple([id(v.type) for v in operands])
        props = op.properties
        if not props:
            pk: Any = None
        elif len(props) == 1:
            for k in props:
                pk = (k, id(props[k]))
        else:
            pk = (*props, *map(id, props.values()))
        attrs = op.attributes
        key = (op.name, tk, rk, pk, (*attrs, *map(id, attrs.values())) if attrs else None)
        tpl = lines.get(key)
        if tpl is None:
            tpl = lines[key] = self._line_template(op, fmt, indent)
            self._pinned.append(op)  # the key's ids are its types' and attributes'
        get = self.names.get
        # The results part, written in the same f-string as the rest.
        if len(res) == 1 and not self.groups:
            r, eq = get(res[0], _UNKNOWN), " = "
        else:
            r, eq = self.result_prefix(op), ""
        if tpl.__class__ is not tuple:
            text = self.custom(op, fmt, indent) if tpl else None
            return None if text is None else f"{indent}{r}{eq}{text}{ltext}"
        lits, order, kind = tpl
        if kind == 1:
            return f"{indent}{r}{eq}{lits[0]}{get(operands[0], _UNKNOWN)}{lits[1]}{ltext}"
        if kind == 2:
            return f"{indent}{r}{eq}{lits[0]}{get(operands[0], _UNKNOWN)}{lits[1]}{get(operands[1], _UNKNOWN)}{lits[2]}{ltext}"
        if kind == 0:
            return f"{indent}{r}{eq}{lits[0]}{ltext}"
        return f"{indent}{r}{eq}{_fill(lits, order, [get(v, _UNKNOWN) for v in operands])}{ltext}"

    def _line_template(self, op: Operation, fmt: Any, indent: str) -> Any:
        """The `_custom_line` template of `op`: the literal text of its custom form around the
        operand names, which operand each name is, and 0, 1 or 2 when the names are none, the
        first operand's or the first two's in order (else None), found by printing it once with
        placeholder names (see `_MARK`); False when it prints generic; True when no template
        reproduces its form (an operand repeated): it is then formatted every time.

        The op's own text is this template filled in, as for every later op of its key: a format
        reads operands only through `name` / `names_of` and writes those names as they are."""
        vals = op.operands
        n = len(vals)
        if n > len(_PLACEHOLDERS) or (n > 1 and len(set(vals)) != n):
            return True
        names = self.names
        saved: list[Any] = list(map(names.get, vals))  # None: unnamed (deleted again below)
        names.update(zip(vals, _PLACEHOLDERS))
        try:
            marked = self.custom(op, fmt, indent)
        finally:
            names.update(zip(vals, saved))
            if None in saved:  # an operand defined nowhere prints as `_UNKNOWN` again
                for v, name in zip(vals, saved):
                    if name is None:
                        del names[v]
        if marked is None:
            return False
        parts = marked.split(_MARK)
        if len(parts) == 1:  # no operand name in the text
            return ((marked,), (), 0)
        if len(parts) == 3 and parts[1] == "0" and n:  # the first operand's name only (commonest)
            return ((parts[0], parts[2]), (0,), 1)
        if len(parts) == 5 and parts[1] == "0" and parts[3] == "1" and n > 1:  # the first two's
            return ((parts[0], parts[2], parts[4]), (0, 1), 2)
        try:
            order = tuple(map(_NUMBER_OF, parts[1::2]))
        except KeyError:
            order = None
        if order is None or len(parts) % 2 == 0 or (order and max(order) >= n):
            return True  # a placeholder's spelling in the op's own text: nothing to trust
        return (tuple(parts[0::2]), order, None)

    def custom(self, op: Operation, fmt: Any, indent: str) -> str | None:
        """The op in its custom form, or None when that form cannot say everything the op holds.

        Generic-form input can give a registered op properties its custom form has no place for,
        or of the wrong kind: printing those in the custom form would lose them or produce text
        the parser rejects, so such ops print generic (as mlir-opt's printer never drops data).
        """
        props = op.properties
        try:
            # Only what `print` reads counts: `printable` reads the op's own dict.
            if not fmt.printable(op):
                return None
            if not props:
                text: str | None = fmt.print(op, self, indent)
                return text
        except (AttributeError, KeyError, IndexError, TypeError, ValueError):
            return None
        tracker = _ReadTracker(props)
        tracker.read = set()
        op.properties = tracker
        try:
            text = fmt.print(op, self, indent)
        except (AttributeError, KeyError, IndexError, TypeError, ValueError):
            return None
        finally:
            op.properties = props
        return text if tracker.all_read() else None

    def generic(self, op: Operation, indent: str) -> str:
        """`"d.op"(%a) <{props}> ({...}) {attrs} : (A) -> R`."""
        qn = _QUOTED.get(op.name)
        if qn is None:
            qn = _QUOTED[op.name] = quote(op.name)
        parts = [qn, "(", self.names_of(op.operands), ")"]
        if op.successors:
            parts.append("[" + ", ".join(self.block_name(b) for b in op.successors) + "]")
        if op.properties:
            parts.append(f" <{{{self.dict_body(op.properties)}}}>")
        if op.regions:
            parts.append(" (" + ", ".join(self.region(r, indent, entry_args=True) for r in op.regions) + ")")
        elif op.opdef is not None and op.opdef.extra.get("body_optional"):
            parts.append(" ({\n" + indent + "})")  # a declaration's empty body, as MLIR writes it
        if op.attributes:
            parts.append(f" {{{self.dict_body(op.attributes)}}}")
        parts.append(" : ")
        parts.append(self.fn_type([v.type for v in op.operands], [r.type for r in op.results]))
        return "".join(parts)

    def block_name(self, block: Block) -> str:
        region = block.parent
        idx = region.blocks.index(block) if region is not None else 0
        return f"^bb{idx}"

    def region(self, region: Region, indent: str, entry_args: bool = False) -> str:
        """`{\\n ... \\n<indent>}`; the entry block's label only when it has printable args (or,
        in the generic form, no ops)."""
        saved = self.out
        self.out = lines = []
        inner = indent + "  "
        saved_dialect = self.default_dialect
        owner = region.parent
        d = owner.opdef if owner is not None else None
        # MLIR's rule: ops drop their dialect prefix only inside a region whose op names that
        # dialect its default (OpAsmOpInterface::getDefaultDialect: `func` in a func.func body);
        # any other op's regions print every op in full (`func.call` in sdy.manual_computation).
        self.default_dialect = d.extra.get("default_dialect", "") if d is not None else ""
        try:
            for i, block in enumerate(region.blocks):
                # The generic form labels an empty entry block too (`({\n^bb0:\n})`): without
                # the label MLIR reads a region with no block.
                if i > 0 or (entry_args and (block.args or not block.ops)):
                    args = ""
                    if block.args:
                        args = "(" + ", ".join(self.block_arg(a) for a in block.args) + ")"
                    lines.append(f"{indent}^bb{i}{args}:")
                self.print_ops(block.ops, inner)
        finally:
            # A custom form that fails inside a nested region falls back to generic: the
            # enclosing op's lines must still go to the enclosing output.
            self.out = saved
            self.default_dialect = saved_dialect
        if not lines:
            return "{\n" + indent + "}"
        return "{\n" + "\n".join(lines) + "\n" + indent + "}"

    def block_arg(self, a: Any) -> str:
        return f"{self.name(a)}: {self.type(a.type)}{self.loc(a.location)}"


def _fill(lits: tuple[str, ...], order: tuple[int, ...], names: list[str]) -> str:
    """A `_custom_line` template's text with the operand names in place."""
    out = [lits[0]]
    for lit, k in zip(lits[1:], order):
        out.append(names[k])
        out.append(lit)
    return "".join(out)


def print_module(module: Module, options: PrintOptions | None = None) -> str:
    """Module -> MLIR text."""
    import gc

    was = gc.isenabled()
    gc.disable()  # printing allocates only short-lived strings; a full collection is pure cost
    try:
        return Printer(module, options).print_module()
    finally:
        if was:
            gc.enable()
