"""MLIR text -> IR: drives grammars/mlir.lark and builds ops as the LALR parser reduces them.

The transformer is inlined into the parser (Lark `transformer=`), so no parse tree is built:
each rule's callback builds IR directly. Value scopes open when a region's `{` is reduced and
close with its `}`, so operands resolve against exactly the values visible at that point.
"""

from __future__ import annotations

import gc
import re
from functools import partial
from itertools import chain, compress, filterfalse, repeat
from operator import attrgetter, is_, itemgetter, lt
from typing import Any, Mapping, NoReturn, Sequence

from lark import Token, Transformer
from lark.exceptions import UnexpectedInput

from ttopt.ir.aliases import AliasDef, AliasScope, LocAliasDef, LocAliasRun
from ttopt.ir.attributes import Attribute, LocationAttr, unquote
from ttopt.ir.diagnostics import Diagnostic, SourceFile, SourcePos
from ttopt.ir.module import Module
from ttopt.ir.opdef import FORMAT_RULES, OP_ALIASES, OP_DEFS
from ttopt.ir.operation import Block, Operation, Region
from ttopt.ir.resources import FileMetadata
from ttopt.ir.types import Type
from ttopt.ir.values import BlockArgument, Value
from ttopt.parse.alias_order import LOC_ALIAS_ONLY, location_problem
from ttopt.parse.attr_parser import AttrParser, AttrSyntaxError
from ttopt.parse.errors import describe_unexpected
from ttopt.parse.lexer import FastToken, LexFailure
from ttopt.parse.line_readers import generic_op_parts, pretty_op_parts, simple_fntype_types, tail_parts
from ttopt.parse.literals import parse_int
from ttopt.parse.opspec import OpSpec
from ttopt.parse.resources import merged, read_file_metadata
from ttopt.parse.scan import (
    ALIAS_ID,
    LOC_AHEAD,
    LOC_ALIAS_ITEM,
    LOC_REF,
    MAX_NESTING,
    RESULT_GROUP,
    STR,
    ScanError,
    blank_comments,
    raw_dialect_body_problem,
)

_OPERAND = re.compile(r"%[\w$.\-]+(?:#\d+)?", re.ASCII)
_INT = re.compile(r"-?\d+", re.ASCII)
from ttopt.ir.location import Location


class ParseFailure(Exception):
    """Internal: a diagnostic at a character offset of the chunk being parsed."""

    def __init__(self, pos: int, message: str) -> None:
        super().__init__(message)
        self.pos = pos
        self.message = message


def _pos(tok: Token) -> int:
    """A token's offset (ours always carry one; lark types it as optional)."""
    return tok.start_pos or 0


class IRBuilder(Transformer):
    """Inline transformer for mlir.lark. One instance is reused; `reset()` starts a new file."""

    def reset(self, scope: AliasScope) -> None:
        self.scope = scope
        self.ap = AttrParser(scope)
        self.values: dict[str, Sequence[Value]] = {}
        self.undo: list[tuple[str, Sequence[Value] | None]] = []
        self.scope_marks: list[int] = []
        self.top = Block()
        self.blocks: list[Block] = [self.top]
        self.regions: list[Region] = []
        self.pending: list[tuple] | None = None  # block-argument specs for the next region
        self.pending_repeat = 0
        self.seen_op = False
        self.deferred_type_checks: list[tuple] = []
        self.deepest: tuple[int, int] = (0, 0)  # (region depth, offset) of the deepest region
        self.metadata: FileMetadata | None = None
        self.source_text = ""  # the text being parsed (the whole-op tokens carry only offsets)
        self.alias_refs: dict[str, list[str]] = {}  # `#name` -> aliases its definition names (when any)
        self.late_refs: list[str] = []  # those not defined before the definition naming them
        self.loc_runs: list[dict] = []  # the definitions of each location alias run (loc_aliases)
        # One-line custom-form op text with its SSA names cut out -> what building it gave
        # (see pretty_op_line): files repeat a few hundred distinct op shapes thousands of times.
        self.line_templates: dict[tuple, tuple] = {}
        # (quoted op name, tail text) of generic one-line ops -> what building the tail gave (see
        # op_run); the same idea for the generic form.
        self.tail_templates: dict[tuple[str, str], tuple] = {}
        # A line's text around its SSA names (line_readers.op_run's "k" items) -> what its op's
        # line template gives and where its names go (see line_op).
        self.shape_templates: dict[tuple, tuple] = {}
        # A line template's key with the attribute dictionary cut out too (`_attrs_cut`) -> that
        # template and the op's inherent attribute names: most ops of sharded files differ from
        # an earlier one only in their `{sdy.sharding = ...}` (see `_attrs_template`).
        self.attrs_templates: dict[tuple, tuple] = {}
        # The same with the types cut out too (`_types_cut`, `_types_template`).
        self.types_templates: dict[tuple, tuple] = {}

    def release(self) -> None:
        """Drop what one parse built (its blocks, values, text and templates): the builder outlives
        the parse, and the module it read must not stay alive through it."""
        self.reset(AliasScope())

    # ---- helpers used by custom formats ------------------------------------------------------
    def fail(self, tok: Any, message: str) -> NoReturn:
        """Abort with a diagnostic at a token (or offset)."""
        pos = tok if isinstance(tok, int) else getattr(tok, "start_pos", 0) or 0
        raise ParseFailure(pos, message)

    def type(self, tok: Token) -> Type:
        try:
            return self.ap.type(str(tok))
        except AttrSyntaxError as e:
            self.fail(_pos(tok) + e.offset, e.message)

    def attr(self, tok: Token) -> Attribute:
        try:
            return self.ap.attribute(str(tok))
        except AttrSyntaxError as e:
            self.fail(_pos(tok) + e.offset, e.message)

    def dict(self, tok: Token | None) -> dict[str, Attribute]:
        """A fresh (mutable) dict for an ATTR_DICT / PROPS token; {} for None."""
        if tok is None:
            return {}
        text = str(tok)
        base = _pos(tok)
        if text.startswith("<"):
            text = text[1:-1]
            base += 1
        try:
            return dict(self.ap.attr_dict(text).entries)
        except AttrSyntaxError as e:
            self.fail(base + e.offset, e.message)

    def signature(self, tok: Token) -> tuple[tuple[Type, ...], tuple[Type, ...]]:
        try:
            return self.ap.signature(str(tok))
        except AttrSyntaxError as e:
            self.fail(_pos(tok) + e.offset, e.message)
        except Exception as e:  # malformed pieces inside a well-bracketed signature
            self.fail(tok, f"malformed function type: {e}")

    def location(self, tok: Token | None, defining: bool = False) -> Any:
        if tok is None:
            return None
        try:
            return self.ap.location(str(tok), defining)
        except AttrSyntaxError as e:
            self.fail(_pos(tok) + 4 + e.offset, e.message)

    def operand_tokens(self, tok: Token) -> list[Any]:
        """Split an OPERANDS token `(%a, %b)` into operand names (positioned only on error)."""
        inner = str(tok)[1:-1]
        if not inner.strip():
            return []
        names = [p.strip() for p in inner.split(",")]
        self._operand_src = (str(tok), _pos(tok))
        return names

    def arg_spec(self, value_tok: Token, type_tok: Token, attrs: Token | None = None, loc: Token | None = None) -> tuple:
        """A block argument to be bound by the next region (name token, Type, attrs, location)."""
        return (value_tok, self.type(type_tok), self.dict(attrs), self.location(loc))

    def expect_pending(self, specs: list[tuple], repeat: int = 1) -> None:
        """The next `repeat` regions get these block arguments."""
        self.pending = specs
        self.pending_repeat = repeat

    # ---- values ------------------------------------------------------------------------
    def _define(self, tok: Token, group: Sequence[Value]) -> None:
        name = str(tok)
        prev = self.values.get(name)
        if prev is not None and self.undo_mark_contains(name):
            self.fail(tok, f"redefinition of SSA value '{name}'")
        self.undo.append((name, prev))
        self.values[name] = group

    def undo_mark_contains(self, name: str) -> bool:
        mark = self.scope_marks[-1] if self.scope_marks else 0
        for i in range(len(self.undo) - 1, mark - 1, -1):
            if self.undo[i][0] == name:
                return True
        return False

    def _name_pos(self, name: str, spec: OpSpec | None, index: int | None = None) -> int:
        """Where operand `name` (operand #index when known) is written."""
        if isinstance(name, Token):
            return _pos(name)
        src = spec.operand_src if spec is not None else None
        if src is not None:
            text, base = src
            starts = [m.start() for m in _OPERAND.finditer(text)]
            if index is not None and index < len(starts):
                return base + starts[index]
            for m in _OPERAND.finditer(text):
                if m.group() == name:
                    return base + m.start()
        return spec.pos if spec is not None else 0

    def use(self, tok: Any, spec: OpSpec | None = None) -> Value:
        """Resolve an operand (`%x` or `%x#1`)."""
        name, sep, idx = tok.partition("#")
        group = self.values.get(name)
        if group is None:
            self.fail(self._name_pos(tok, spec), f"use of undefined value '{name}'")
        assert group is not None  # fail() raised otherwise (narrowing for the checker)
        if sep:
            i = int(idx)
            if i >= len(group):
                self.fail(self._name_pos(tok, spec), f"'{name}' has {len(group)} result(s); '#{i}' is out of range")
            return group[i]
        if len(group) != 1:
            self.fail(self._name_pos(tok, spec), f"'{name}' names {len(group)} results; write '{name}#N' to pick one")
        return group[0]

    def _push_scope(self) -> None:
        self.scope_marks.append(len(self.undo))

    def _pop_scope(self) -> None:
        mark = self.scope_marks.pop()
        values = self.values
        undo = self.undo
        while len(undo) > mark:
            name, prev = undo.pop()
            if prev is None:
                del values[name]
            else:
                values[name] = prev

    # ---- top level -----------------------------------------------------------------------
    def start(self, c: list) -> None:
        return None

    def _split_alias(self, tok: Token) -> tuple[str, Token]:
        text = str(tok)
        eq = text.index("=")
        rest = text[eq + 1 :]
        off = eq + 1 + (len(rest) - len(rest.lstrip()))
        return text[1:eq].strip(), Token("ALIAS_VALUE", text[off:], start_pos=_pos(tok) + off)

    def attr_alias(self, c: list) -> None:
        name, value_tok = self._split_alias(c[0])
        loc = LOC_AHEAD.match(str(value_tok))
        if loc is not None:
            if loc.end() != 4:  # `loc (...)`: read as MLIR does, `loc(...)`
                value_tok = FastToken("LOC", "loc" + str(value_tok)[loc.end() - 1 :], _pos(value_tok))
            value: Any = LocationAttr(self.location(value_tok, defining=True), str(value_tok))
        else:
            value = self.attr(value_tok)
        self._alias(c[0], name, "attr", value)

    def file_metadata(self, c: list) -> None:
        """`{-# dialect_resources: ... #-}`: kept as data for the module; the blocks of a file
        (MLIR reads any number) are merged into one."""
        tok = c[0]
        try:
            block = read_file_metadata(str(tok), tok.start_pos)
        except ScanError as e:
            raise ParseFailure(e.pos, e.message) from None
        self.metadata = block if self.metadata is None else merged([*self.metadata.sections, *block.sections])

    def loc_aliases(self, c: list) -> None:
        """A run of `#name = loc(...)` definitions in their simple forms (line_readers.loc_alias_run).

        They become LocAliasDefs made by C-level maps (a printed file ends with tens of
        thousands). References are checked here: one not defined before the definition naming it
        goes to late_refs, checked at the end, and only then are the run's references recorded for
        the cycle check (_with_run_refs): printed files, whose references all point back, skip that."""
        scope = self.scope
        defs = scope.defs
        matches = c[0].end_pos
        names = list(map(_GROUP1, matches))
        texts = list(map(_GROUP2, matches))
        start = c[0].start_pos
        run = LocAliasRun(partial(_run_positions, self.source_text, start, start + len(c[0])), self.seen_op, scope)
        batch = dict(zip(zip(repeat("attr"), names), LocAliasDef.make(names, texts, run)))
        hashed = [i for i, text in enumerate(texts) if "#" in text]
        if hashed:
            self._check_run_refs(batch, texts, hashed, defs)
        if len(batch) != len(matches) or not defs.keys().isdisjoint(batch):
            seen: set[str] = set()
            for m in matches:
                name = m.group(1)
                if ("attr", name) in defs or name in seen:
                    self.fail(m.start(1) - 1, f"redefinition of attribute alias id '{name}'")
                seen.add(name)
        # Into the table in one update; the public define() (once per run, not per item) keeps
        # the scope's own bookkeeping.
        defs.update(batch)
        scope.define(batch["attr", names[-1]])
        self.loc_runs.append(batch)

    def _check_run_refs(self, batch: Mapping[tuple[str, str], Any], texts: list[str], hashed: list[int], defs: Any) -> None:
        """Each reference of a run's definitions (those at `hashed`) must name a location alias
        defined before it: earlier in the run (`batch`, by LocAliasDef index) or before the run
        (`defs`), as MLIR requires; the first that does not is an error."""
        with_refs = [texts[i] for i in hashed]
        if any(map(str.__contains__, with_refs, repeat('"'))):
            with_refs = [_LOC_STRING.sub('""', t) for t in with_refs]  # a `#` in a string names nothing
        # Each `#` starts a reference: all of them found in one pass, looked up and compared with
        # the index of the definition naming them by C-level maps (runs of hundreds of thousands
        # of definitions make a per-reference Python loop the cost); only a problem takes the loop.
        refs = LOC_REF.findall("\n".join(with_refs))
        keys = list(zip(repeat("attr"), refs))
        found = list(map(batch.get, keys, repeat(_OUTSIDE_RUN)))
        owners = chain.from_iterable(map(repeat, hashed, map(str.count, with_refs, repeat("#"))))
        if all(map(lt, map(_RUN_INDEX, found), owners)):
            outside = list(compress(keys, map(is_, found, repeat(_OUTSIDE_RUN))))
            if all(map(defs.__contains__, outside)) and all(defs[k].is_location for k in outside):
                return
        run = list(batch.values())
        for i in hashed:
            text = texts[i]

            def defined(key: tuple[str, str], i: int = i) -> bool:
                d = batch.get(key)
                return d[3] < i if d is not None else key in defs

            problem = location_problem(text, defined, lambda key: batch.get(key) or defs[key])
            if problem is not None:
                self.fail(self.source_text.find(text, run[i].pos) + problem[0], problem[1])

    def type_alias(self, c: list) -> None:
        name, value_tok = self._split_alias(c[0])
        self._alias(c[0], name, "type", self.type(value_tok))

    def _alias(self, tok: Token, name: str, kind: str, value: Any) -> None:
        text = value.text if isinstance(value, LocationAttr) else getattr(value, "text", "")
        if "#" in text or "!" in text:
            self._note_refs((kind, name), text)
        prev = self.scope.define(AliasDef(name, kind, value, after_module=self.seen_op, pos=tok.start_pos))
        if prev is not None:
            self.fail(tok, f"redefinition of {'attribute' if kind == 'attr' else 'type'} alias id '{name}'")

    def _note_refs(self, key: tuple[str, str], text: str) -> None:
        """Record the aliases a definition (not yet added) names. One not defined before it is
        checked at the end, and only such forward references can close a cycle."""
        refs = [sig + n for sig, n in _ALIAS_USE.findall(text) if sig]
        self.alias_refs[("#" if key[0] == "attr" else "!") + key[1]] = refs
        defs = self.scope.defs
        for r in refs:
            if ("attr" if r[0] == "#" else "type", r[1:]) not in defs:
                self.late_refs.append(r)

    # ---- operations ------------------------------------------------------------------------
    def op_run(self, c: list) -> None:
        """A run of one-line ops (one OP_RUN token from the lexer; see line_readers.op_run).

        The ("t", FAST_HEAD match, tail text, location text) items, most ops of printed files,
        are built here: what the tail builds (name, signature, dictionaries) is the same for
        every op written with that name and tail, so it is built once (`_tail_template`); per op
        only the operands, the result and the location are new. Anything such an op does not
        take as it comes (an unknown or multi-result value, a count or type mismatch, a
        redefinition) goes to generic_op_line, which builds or reports it as the piecewise
        grammar would."""
        templates = self.tail_templates
        values = self.values
        scope = self.scope
        note_loc = self.ap.loc_texts.setdefault  # location text -> aliases defined when first read
        defs = scope.defs
        undo = self.undo
        parsed = Operation.parsed
        line_op = self.line_op
        self.seen_op = True  # set before the ops: an error in one ends the parse anyway
        for item in c[0].end_pos:
            kind = item[0]
            if kind != "t":
                if kind == "k":
                    line_op(item)
                elif kind == "f":
                    self._fast_generic(item[1])
                elif kind == "g":
                    self.generic_op_line(item[1], item[2])
                else:
                    self.pretty_op_line(item[1], item[2])
                continue
            _, h, tail, loc = item
            res, qname, ops_text = h.groups()
            tpl = templates.get((qname, tail))
            if tpl is None:
                tpl = self._tail_template(qname, tail)
                if tpl is None:
                    self._slow_generic(h.start())
                    continue
            name, ins, rtype, properties, attributes = tpl
            operands = _simple_operands(values, ops_text, ins)
            if operands is None or (res is None) != (rtype is None):
                self._slow_generic(h.start())
                continue
            if res is not None:
                prev = values.get(res)
                if prev is not None and self.undo_mark_contains(res):
                    self._slow_generic(h.start())
                    continue
            location = None
            if loc is not None:
                # The lexer matched it as SIMPLE_LOC: no syntax check to do (AttrParser.location).
                location = Location(loc, scope)
                if "#" in loc:
                    note_loc(loc, len(defs))
            op = parsed(
                name,
                operands,
                rtype,
                res[1:] if res else None,
                dict(properties) if properties else {},
                dict(attributes) if attributes else {},
                location,
            )
            op.pos = h.start(2)
            if res is not None:
                undo.append((res, prev))
                values[res] = op.results
            block = self.blocks[-1]
            op.parent = block
            block.ops.append(op)

    def line_op(self, item: tuple) -> None:
        """A ("k", start, line end, pieces, shape) item of an op run (line_readers.op_run): a whole
        line `[%r =] d.op ...` given as its text split around its SSA names. Built from its shape's
        template (`_shape_template`) when it has one and every name resolves as on that shape's
        first line; otherwise read and built as a "p" item, which reports any error."""
        _, base, e, pieces, shape = item
        tpl = self.shape_templates.get(shape)
        if tpl is None:
            return self._line_op_read(base, e, pieces, shape, True)
        name, operand_pieces, otypes, rtype, props, attrs, name_off, loc, body = tpl
        values = self.values
        operands: list[Value] = []
        for k, t in zip(operand_pieces, otypes):
            group = values.get(pieces[k])
            if group is None or len(group) != 1:
                return self._line_op_read(base, e, pieces, shape, False)
            v = group[0]
            if v.type is not t and v.type.text != t.text:
                return self._line_op_read(base, e, pieces, shape, False)
            operands.append(v)
        res = prev = None
        if rtype is not None:
            res = pieces[1]
            prev = values.get(res)
            if prev is not None and self.undo_mark_contains(res):
                return self._line_op_read(base, e, pieces, shape, False)
            name_off += len(res)
        location = None
        if loc is not None:
            try:
                location = self.ap.location(loc)
            except AttrSyntaxError:
                return self._line_op_read(base, e, pieces, shape, False)
        op = _parsed(name, operands, rtype, res[1:] if res else None, dict(props) if props else {}, dict(attrs) if attrs else {}, location)
        op.pos = base + name_off
        if body is not None:
            op.add_region(body(otypes))
            if location is not None:
                _locate_implied_bodies(op)
        if res is not None:
            self.undo.append((res, prev))
            values[res] = op.results
        block = self.blocks[-1]
        op.parent = block
        block.ops.append(op)

    def _line_op_read(self, base: int, e: int, pieces: list[str], shape: tuple, first: bool) -> None:
        """line_op's line read and built as a "p" item (the general path: it reports any error);
        the `first` line of its shape in this parse leaves the shape's template."""
        try:
            r = pretty_op_parts(self.source_text, base)
        except ScanError as err:  # the lexer read this shape whole: reaching here is a bug
            raise ParseFailure(err.pos, err.message) from None
        if r is None or r[1] != e:
            raise ParseFailure(base, "internal error: the line reader took a line the op reader rejects")
        parts = r[0]
        results_end, (n0, _), family, items, _, types, _ = parts
        key = _line_key(self.source_text, base, results_end, n0, family, items, types)
        self._pretty_op_line(base, parts, key)
        if first and key is not None:
            self._shape_template(base, parts, pieces, shape, key)

    def _shape_template(self, base: int, parts: tuple, pieces: list[str], shape: tuple, key: tuple) -> None:
        """Record what the line at `base` (split into `pieces` around its names) built, for later
        lines of its shape: the line template of its op (see `_record_template`) with each operand
        the name at a piece index, where the op name sits after the result, and the location text.
        Only lines with at most one result whose op took a line template qualify (`key`: the
        op's `_line_key`)."""
        text = self.source_text
        results_end, (n0, _), _, _, _, _, loc = parts
        tpl = self.line_templates.get(key[0])
        if tpl is None:
            return
        name, order, otypes, rtypes, props, attrs, body = tpl
        has_result = results_end > base
        if otypes is None or len(rtypes) != has_result:
            return
        at: dict[int, int] = {}
        p = base
        for k, piece in enumerate(pieces):
            if k % 2:
                at[p] = k
            p += len(piece)
        spans = key[1]
        operand_pieces = tuple(at[spans[i][0]] for i in order)
        loc_text = text[loc[0] : loc[1]] if loc else None
        name_off = n0 - base - (len(pieces[1]) if has_result else 0)
        self.shape_templates[shape] = (name, operand_pieces, otypes, rtypes[0] if has_result else None, props, attrs, name_off, loc_text, body)

    def _tail_template(self, qname: str, tail: str) -> tuple | None:
        """(name, operand types, result type | None, properties, attributes) of ops written `"qname"(...)
        tail`, recorded in tail_templates; None when a piece does not parse (the general path
        then reports it)."""
        end, props, attrs, sig_text = tail_parts(tail)
        if end < 0:  # the lexer only hands over tails FAST_TAIL takes; reaching here is a bug
            return None
        ap = self.ap
        sig = ap.sigs.get(sig_text)
        if sig is None:
            # Interned as AttrParser.signature would, without its bracket-balancing split.
            ins_texts, outs_texts = simple_fntype_types(sig_text)
            try:
                sig = ap.sigs[sig_text] = (tuple(map(ap.type, ins_texts)), tuple(map(ap.type, outs_texts)))
            except Exception:  # malformed: the general path positions the error
                return None
        ins, outs = sig
        parts = self._name_and_dicts(qname, props, attrs)
        if parts is None:
            return None
        name, properties, attributes = parts
        if len(outs) > 1:
            return None  # several results: the general path (FAST_HEAD names one result at most)
        tpl = self.tail_templates[(qname, tail)] = (name, ins, outs[0] if outs else None, properties, attributes)
        return tpl

    def _name_and_dicts(self, qname: str, props: str | None, attrs: str | None) -> tuple[str, Any, Any] | None:
        """The op name of a one-line generic op (`"d.op"`, aliases resolved) and fresh properties
        and attributes from its `<{...}>` / `{...}` texts, inherent attributes promoted; None when a
        dictionary does not parse (the general path then reports it)."""
        ap = self.ap
        try:
            properties = dict(ap.attr_dict(props[1:-1]).entries) if props else {}
            attributes = dict(ap.attr_dict(attrs).entries) if attrs else {}
        except AttrSyntaxError:
            return None
        name = qname[1:-1]
        name = OP_ALIASES.get(name, name)
        if attributes:
            spec = OpSpec(name, [], None, None, properties, attributes)
            _promote_inherent(spec)
            properties, attributes = spec.properties, spec.attributes
        return name, properties, attributes

    def _fast_generic(self, m: re.Match) -> None:
        """A FAST_GENERIC match: the common generic line built directly. Anything it does not
        take as it comes (an unknown value, a count or type mismatch, a malformed piece) goes to
        generic_op_line, which builds or reports the op exactly as the piecewise grammar would."""
        res, head, ops_text, props, attrs, sig_text, loc = m.groups()
        ap = self.ap
        sig = ap.sigs.get(sig_text)
        if sig is None:
            try:
                sig = ap.signature(sig_text)
            except Exception:  # malformed: the general path positions the error
                return self._slow_generic(m.start())
        ins, outs = sig
        values = self.values
        operands = _simple_operands(values, ops_text, ins)
        if operands is None or len(outs) != (res is not None):
            return self._slow_generic(m.start())
        prev = None
        if res is not None:
            prev = values.get(res)
            if prev is not None and self.undo_mark_contains(res):
                return self._slow_generic(m.start())
        parts = self._name_and_dicts(head[: head.index('"', 1) + 1], props, attrs)
        if parts is None:
            return self._slow_generic(m.start())
        name, properties, attributes = parts
        location = None
        if loc is not None:
            # The lexer matched it as SIMPLE_LOC: no syntax check to do (AttrParser.location).
            location = Location(loc, self.scope)
            if "#" in loc:
                ap.loc_texts.setdefault(loc, len(self.scope.defs))
        op = Operation(name, operands, outs, properties, attributes, (), location, (), [res[1:]] if res else None)
        op.pos = m.start(2)
        if res is not None:
            self.undo.append((res, prev))
            values[res] = op.results[:]
        self.blocks[-1].append(op)
        self.seen_op = True

    def _slow_generic(self, start: int) -> None:
        """The generic op at `start` through the general per-op builder (which reports its errors)."""
        try:
            r = generic_op_parts(self.source_text, start)
        except ScanError as e:
            raise ParseFailure(e.pos, e.message) from None
        if r is None:  # FAST_GENERIC accepts a subset of generic_op_parts; reaching here is a bug
            raise ParseFailure(start, "internal error: the fast generic-op reader took an op the general one rejects")
        self.generic_op_line(start, r[0])

    def generic_op_line(self, base: int, parts: tuple) -> Operation:
        """A whole region-free generic op from its parts (line_readers.generic_op_parts)."""
        text = self.source_text
        results_end, h0, h1, props, attrs, s0, s1, loc = parts
        results = None
        if results_end >= 0:
            results = self._results(FastToken("RESULTS", text[base:results_end], base))
        head = text[h0:h1]
        q = head.index('"', 1)
        name = head[1:q] if "\\" not in head[:q] else unquote(head[: q + 1])
        if not name:
            self.fail(h0, "empty operation name is invalid")
        if "\0" in name:
            self.fail(h0, "null character not allowed in operation name")
        p = head.index("(", q)
        inner = head[p + 1 : -1]
        if inner.strip():
            operands = [x.strip() for x in inner.split(",")]
            self._operand_src = (head[p:], h0 + p)
        else:
            operands = []
        sig_text = text[s0:s1]
        sig = self.ap.sigs.get(sig_text)
        ins, outs = sig if sig is not None else self.signature(FastToken("FNTYPE", sig_text, s0))
        spec = OpSpec(
            OP_ALIASES.get(name, name),
            operands,
            list(ins),
            list(outs),
            self.dict(FastToken("PROPS", text[props[0] : props[1]], props[0])) if props else {},
            self.dict(FastToken("ATTR_DICT", text[attrs[0] : attrs[1]], attrs[0])) if attrs else {},
            [],
            h0,
        )
        if operands:
            spec.operand_src = self._operand_src
        loc_tok = FastToken("LOC", text[loc[0] : loc[1]], loc[0]) if loc else None
        return self._build(results, spec, loc_tok)

    def pretty_op_line(self, base: int, parts: tuple) -> Operation:
        """A whole one-line custom-form op with results (line_readers.pretty_op_parts), turned into the
        children its grammar rule would have given the family's format."""
        results_end, (n0, _), family, items, _, types, _ = parts
        return self._pretty_op_line(base, parts, _line_key(self.source_text, base, results_end, n0, family, items, types))

    def _pretty_op_line(self, base: int, parts: tuple, key: tuple | None) -> Operation:
        """pretty_op_line with the op's `_line_key` (None: not templated)."""
        text = self.source_text
        results_end, (n0, n1), family, items, attrs, types, loc = parts
        attrs_key = types_key = None
        if key is not None:
            tpl = self.line_templates.get(key[0])
            if tpl is None and attrs is not None:
                attrs_key = _attrs_cut(text, key, n0, attrs)
                tpl = self._attrs_template(key, attrs_key, attrs)
            if tpl is None and types is not None and family in _TYPED_FAMILIES:
                types_key = _types_cut(key, n0, attrs, types)
                tpl = self._types_template(key, types_key, attrs, types, 1 if results_end > base else 0, n0)
            if tpl is not None:
                op = self._from_template(tpl, key, base, results_end, n0, loc)
                if op is not None:
                    return op
            n_deferred = len(self.deferred_type_checks)
        results = self._results(FastToken("RESULTS", text[base:results_end], base)) if results_end > base else None
        name_tok = FastToken(family, text[n0:n1], n0)
        attrs_tok = FastToken("ATTR_DICT", text[attrs[0] : attrs[1]], attrs[0]) if attrs else None
        ts = self._line_types(text, types) if types is not None else None
        children: list
        if family == "OP_PRETTY":
            children = [name_tok, [FastToken("VALUE", text[a:b], a) for a, b in items] or None, attrs_tok, ts]
        elif family == "OP_KWARGS":
            children = [name_tok, *[self._line_kwarg(text, item) for item in items], attrs_tok, ts]
        elif family == "OP_COMPARE":
            (d0, d1), (a0, a1), (b0, b1), ct = items
            ct_tok = FastToken("BARE_ID", text[ct[0] : ct[1]], ct[0]) if ct else None
            children = [
                name_tok, FastToken("BARE_ID", text[d0:d1], d0), FastToken("VALUE", text[a0:a1], a0),
                FastToken("VALUE", text[b0:b1], b0), ct_tok, attrs_tok, ts,
            ]  # fmt: skip
        elif family == "OP_DOT":
            (a0, a1), (b0, b1), *dot_items = items
            children = [
                name_tok, FastToken("VALUE", text[a0:a1], a0), FastToken("VALUE", text[b0:b1], b0),
                *[self._line_dot_item(text, item) for item in dot_items], attrs_tok, ts,
            ]  # fmt: skip
        elif family == "OP_REDUCE":
            inputs, applies, (d0, d1) = items
            reduce_input = FORMAT_RULES["reduce_input"]
            inner = text[d0 + 1 : d1 - 1]
            dims = [FastToken("INT", x.strip(), d0) for x in inner.split(",")] if inner.strip() else [None]
            children = [
                name_tok,
                *[reduce_input(self, [FastToken("VALUE", text[a0:a1], a0), FastToken("VALUE", text[b0:b1], b0)])
                  for (a0, a1), (b0, b1) in inputs],
                FastToken("OPNAME_REF", text[applies[0] : applies[1]], applies[0]) if applies else None,
                self.int_list(dims), attrs_tok, ts, None,
            ]  # fmt: skip
        elif family == "OP_SDY_SHARDING":
            (a0, a1), (s0, s1) = items
            assert types is not None  # the lexer takes this family only with its type
            children = [
                name_tok, FastToken("VALUE", text[a0:a1], a0), FastToken("ANGLE", text[s0:s1], s0), attrs_tok,
                FastToken("TYPE", text[types[0] : types[1]], types[0]),
            ]  # fmt: skip
        else:  # OP_CONSTANT
            v0, v1 = items[0]
            children = [name_tok, attrs_tok, FastToken("ATTR", text[v0:v1], v0)]
        spec = self._format(name_tok).build(self, children)
        loc_tok = FastToken("LOC", text[loc[0] : loc[1]], loc[0]) if loc else None
        op = self._build(results, spec, loc_tok)
        if key is not None and len(self.deferred_type_checks) == n_deferred:
            tpl = self._record_template(key, spec, op)
            if tpl is not None and (attrs_key is not None or types_key is not None):
                self._record_cut_templates(op, tpl, attrs, attrs_key, types_key)
        return op

    def _record_cut_templates(self, op: Operation, tpl: tuple, attrs: tuple[int, int] | None, attrs_key: tuple | None, types_key: tuple | None) -> None:
        """Record `tpl` for the ops spelled like `op` up to its attribute dictionary
        (`attrs_templates`) or up to it and its types (`types_templates`), when no written
        attribute went to the properties (the format's or the op's inherent names): then nothing
        else the op holds depends on the dictionary."""
        d = OP_DEFS.get(op.name)
        if d is None:
            return
        inherent = frozenset([p.name for p in d.props] + list(d.format.inherent if d.format is not None else ()))
        if attrs is not None and not inherent.isdisjoint(self.ap.attr_dict(self.source_text[attrs[0] : attrs[1]]).entries):
            return
        if attrs_key is not None:
            self.attrs_templates.setdefault(attrs_key, (tpl, inherent))
        if types_key is not None and d.format is not None:
            self.types_templates.setdefault(types_key, (tpl, d.format, inherent))

    def _types_template(self, key: tuple, types_key: tuple | None, attrs: tuple[int, int] | None, types: tuple, n_results: int, n0: int) -> tuple | None:
        """The line template of an op spelled like an earlier one up to SSA names, its attribute
        dictionary and its types (`types_templates`: families whose properties do not depend on
        the types), with this op's dictionary and the operand and result types its format reads
        from its types, recorded for its own spelling; None when there is none, or a piece does
        not read (the general path then builds the op or reports the error)."""
        found = self.types_templates.get(types_key) if types_key is not None else None
        if found is None:
            return None
        (name, order, _, _, props, attributes, body), fmt, inherent = found
        if attrs is not None:
            attributes = self._own_attributes(attrs, inherent)
            if attributes is None:
                return None
        spec = OpSpec(name, [None] * len(order), pos=n0)
        try:
            fmt._finish_types(self, self._line_types(self.source_text, types))(spec, n_results)
        except ParseFailure:
            return None
        otypes, rtypes = spec.operand_types, spec.result_types or []
        if len(rtypes) != n_results or (otypes is not None and len(otypes) != len(order)):
            return None
        tpl = self.line_templates[key[0]] = (name, order, None if otypes is None else tuple(otypes), rtypes, props, attributes, body)
        return tpl

    def reduce_head(self, c: list) -> list:
        """A REDUCE_HEAD token (line_readers.reduce_head_parts): the reduce_op children before the region,
        from the rule builders the piecewise tokens go through, in their order; the reducer's block
        arguments are pending for the region that follows."""
        text = self.source_text
        (n0, n1), inputs, (d0, d1), attrs, types, pairs = c[0].end_pos
        reduce_input = FORMAT_RULES["reduce_input"]
        children: list = [FastToken("OP_REDUCE", text[n0:n1], n0)]
        for (a0, a1), (b0, b1) in inputs:
            children.append(reduce_input(self, [FastToken("VALUE", text[a0:a1], a0), FastToken("VALUE", text[b0:b1], b0)]))
        ints = [FastToken("INT", m.group(), m.start()) for m in _INT.finditer(text, d0, d1)]
        children += [None, self.int_list(ints or [None])]
        children.append(FastToken("ATTR_DICT", text[attrs[0] : attrs[1]], attrs[0]) if attrs else None)
        children.append(self._line_types(text, types))
        reducer_pair = FORMAT_RULES["reducer_pair"]
        for first, second in pairs:
            reducer_pair(self, [self._arg_spec(text, first), self._arg_spec(text, second)])
        return children

    def reduce_body_op(self, c: list) -> OpSpec:
        """`reduce_head region`: the reduce_op the piecewise rule would have built."""
        head, region = c
        body = FORMAT_RULES["reducer"](self, [region])
        return self._format(head[0]).build(self, [*head, body])

    def manual_head(self, c: list) -> list:
        """A MANUAL_HEAD token (line_readers.manual_head_parts): the sdy_manual_op children before the
        region, its block arguments pending for the region, through the rules the piecewise tokens
        go through, in their order."""
        text = self.source_text
        (n0, n1), (o0, o1), (i0, i1), (u0, u1), (x0, x1), args = c[0].end_pos
        specs = [self._arg_spec(text, arg) for arg in args]
        return [
            FastToken("OP_SDY_MANUAL", text[n0:n1], n0), FastToken("OPERANDS", text[o0:o1], o0),
            FastToken("BRACKET", text[i0:i1], i0), FastToken("BRACKET", text[u0:u1], u0),
            FastToken("AXIS_LIST", text[x0:x1], x0), self.block_args(specs),
        ]  # fmt: skip

    def sdy_manual_body_op(self, c: list) -> OpSpec:
        """`manual_head region [ATTR_DICT] ":" FNTYPE`: the sdy_manual_op the piecewise rule would have built."""
        head, region, attrs, sig = c
        return self._format(head[0]).build(self, [*head, region, attrs, sig])

    def _arg_spec(self, text: str, arg: tuple) -> tuple:
        """The block_arg rule's value for a lexer's (value span, type span, loc span | None)."""
        (v0, v1), (t0, t1), loc = arg
        loc_tok = FastToken("LOC", text[loc[0] : loc[1]], loc[0]) if loc else None
        return self.block_arg([FastToken("VALUE", text[v0:v1], v0), FastToken("TYPE", text[t0:t1], t0), None, loc_tok])

    def _line_types(self, text: str, types: tuple) -> Any:
        """A type_spec's value (type_list / fn_type) from the lexer's (start, end, kind)."""
        t0, t1, kind = types
        if kind == "fn":
            return self.fn_type([FastToken("FNTYPE", text[t0:t1], t0)])
        if kind == "type":
            return ("list", [self.type(FastToken("TYPE", text[t0:t1], t0))], t0)
        return ("list", [self.type(FastToken("TYPE", text[a:b], a)) for a, b in kind], t0)

    def _record_template(self, key: tuple, spec: OpSpec, op: Operation) -> tuple | None:
        """Remember what a one-line op built, for later ops spelled the same up to SSA names:
        which written value each operand is, the types the operands were checked against, the
        result types and the final dictionaries. Only ops built from the text alone qualify (no
        region but the one the form implies, no successor, every operand a written name)."""
        body = spec.implied_body
        if (spec.regions and body is None) or spec.successors:
            return None
        starts = [a for a, _ in key[1]]
        order = []
        for tok in spec.operands:
            if not isinstance(tok, FastToken) or tok.start_pos not in starts:
                return None
            order.append(starts.index(tok.start_pos))
        otypes = spec.operand_types
        tpl = self.line_templates[key[0]] = (
            op.name,
            tuple(order),
            None if otypes is None else tuple(otypes),
            [r.type for r in op.results],
            dict(op.properties),
            dict(op.attributes),
            body,
        )
        return tpl

    def _attrs_template(self, key: tuple, attrs_key: tuple | None, attrs: tuple[int, int]) -> tuple | None:
        """The line template of an op spelled like an earlier one up to SSA names and its attribute
        dictionary (`attrs_templates`), with this op's dictionary, recorded for its own spelling;
        None when there is none, or the dictionary does not parse or names an inherent attribute
        (the general path then builds the op or reports the error)."""
        found = self.attrs_templates.get(attrs_key) if attrs_key is not None else None
        if found is None:
            return None
        tpl, inherent = found
        attributes = self._own_attributes(attrs, inherent)
        if attributes is None:
            return None
        tpl = self.line_templates[key[0]] = (*tpl[:5], attributes, tpl[6])
        return tpl

    def _own_attributes(self, attrs: tuple[int, int], inherent: frozenset[str]) -> Mapping[str, Attribute] | None:
        """A fresh dictionary of the `{...}` at `attrs` for an op built from a template; None when it
        does not parse or names one of the op's `inherent` attributes (those go to the properties)."""
        try:
            attributes = dict(self.ap.attr_dict(self.source_text[attrs[0] : attrs[1]]).entries)
        except AttrSyntaxError:
            return None
        return attributes if inherent.isdisjoint(attributes) else None

    def _from_template(self, tpl: tuple, key: tuple, base: int, results_end: int, n0: int, loc: tuple | None) -> Operation | None:
        """Build an op from the template of an earlier op spelled the same up to SSA names, or
        None when anything differs from that op's case (an unknown or multi-result value, another
        operand type, a redefinition): then the general path builds it or reports the error."""
        text = self.source_text
        name, order, otypes, rtypes, props, attrs, body = tpl
        spans = key[1]
        values = self.values
        operands: list[Value] = []
        for i in order:
            a, b = spans[i]
            group = values.get(text[a:b])
            if group is None or len(group) != 1:
                return None
            operands.append(group[0])
        if otypes is not None:
            for v, t in zip(operands, otypes):
                if v.type is not t and v.type.text != t.text:
                    return None
        res = None
        if rtypes:
            res = text[base : results_end - 1].rstrip()
            prev = values.get(res)
            if prev is not None and self.undo_mark_contains(res):
                return None
        location = None
        if loc is not None:
            try:  # self.location without a token per op
                location = self.ap.location(text[loc[0] : loc[1]])
            except AttrSyntaxError as e:
                self.fail(loc[0] + 4 + e.offset, e.message)
        regions = (body(otypes),) if body is not None else ()
        op = Operation(name, operands, rtypes, dict(props), dict(attrs), regions, location, (), [res[1:]] if res else None)
        op.pos = n0
        if regions and location is not None:
            _locate_implied_bodies(op)
        if res is not None:
            self.undo.append((res, prev))
            values[res] = op.results[:]
        self.blocks[-1].append(op)
        self.seen_op = True
        return op

    def _line_dot_item(self, text: str, item: tuple) -> Any:
        """A dot_item from the lexer's spans, through the rule builders its grammar rules use."""
        key = FastToken("BARE_ID", text[item[0][0] : item[0][1]], item[0][0])
        if len(item) == 3:
            lists = [[int(x) for x in body.split(",")] if body.strip() else [] for body in (text[a + 1 : b - 1] for a, b in item[1:])]
            return FORMAT_RULES["dot_dims"](self, [key, *lists])
        w0, w1 = item[1]
        words = [FastToken("BARE_ID", w.strip(), w0) for w in text[w0:w1].split(",")]
        return FORMAT_RULES["dot_enum_list"](self, [key, *words])

    def _line_kwarg(self, text: str, item: tuple) -> Any:
        """A kwargs item from the lexer's spans: a VALUE token, or (key token, value) as `kwarg` gives."""
        if len(item) == 2:
            return FastToken("VALUE", text[item[0] : item[1]], item[0])
        (k0, k1), group, (v0, v1) = item
        key = FastToken("BARE_ID", text[k0:k1], k0)
        if group == 3:  # `[1, 2]`
            inner = text[v0 + 1 : v1 - 1]
            ints = [int(x) for x in inner.split(",")] if inner.strip() else []
            if any(not _I64_MIN <= v <= _I64_MAX for v in ints):
                self.int_list([FastToken("INT", m.group(), v0 + 1 + m.start()) for m in re.finditer(r"-?\d+", inner)])
            return (key, ints)
        kind = ("INT", "BARE_ID", "STRING")[group - 4]
        return (key, FastToken(kind, text[v0:v1], v0))

    def operation(self, c: list) -> Operation:
        results_tok, spec, loc_tok = c
        results = self._results(results_tok) if results_tok is not None else None
        return self._build(results, spec, loc_tok)

    def _build(self, results: list | None, spec: OpSpec, loc_tok: Token | None) -> Operation:
        """Resolve operands, check types, create the op, define its results, append it."""
        use = self.use
        operands = [v if isinstance(v, Value) else use(v, spec) for v in spec.operands]
        n_results = 0
        if results is not None:
            for tok, count in results:
                n_results += count
        if spec.finish is not None:
            spec.finish(spec, n_results)
        rtypes = spec.result_types or []
        if len(rtypes) != n_results:
            self.fail(
                spec.pos,
                f"'{spec.name}' is written with {n_results} result(s) but its type has {len(rtypes)}",
            )
        otypes = spec.operand_types
        if otypes is not None:
            if len(otypes) != len(operands):
                self.fail(spec.pos, f"'{spec.name}' has {len(operands)} operand(s) but its type lists {len(otypes)}")
            for i, (v, t) in enumerate(zip(operands, otypes)):
                if v.type is not t and v.type.text != t.text:
                    # Aliases may be defined later in the file: compare once all are known.
                    ref = spec.operands[i]
                    where = spec.pos if isinstance(ref, Value) else self._name_pos(ref, spec, i)
                    shown = "operand" if isinstance(ref, Value) else str(ref)
                    self.deferred_type_checks.append((v.type, t, where, shown, spec.name, i))
        if spec.attributes:
            _promote_inherent(spec)
        names: list[str | None] = []
        if results is not None:
            for tok, count in results:
                base = str(tok).partition(":")[0][1:]
                names.extend([base] * count)
        op = Operation(
            spec.name,
            operands,
            rtypes,
            spec.properties,
            spec.attributes,
            spec.regions,
            self.location(loc_tok),
            spec.successors,
            names,
        )
        op.pos = spec.pos
        if op.regions and op.location is not None:
            _locate_implied_bodies(op)
        if results is not None:
            i = 0
            for tok, count in results:
                self._define(tok, op.results[i : i + count])
                i += count
        self.blocks[-1].append(op)
        self.seen_op = True
        return op

    def _results(self, tok: Token) -> list[tuple[Token, int]]:
        """`%a, %b:2 =` -> [(VALUE token %a, 1), (VALUE token %b, 2)]."""
        text = str(tok)
        base = _pos(tok)
        if "," not in text and ":" not in text:  # the common `%0 =`
            return [(FastToken("VALUE", text[:-1].rstrip(), base), 1)]
        out: list[tuple[Token, int]] = []
        for m in RESULT_GROUP.finditer(text):
            n = m.group(2)
            count = parse_int(n) if n else 1
            if count < 1:
                self.fail(base + m.start(2), "expected named operation to have at least 1 result")
            out.append((FastToken("VALUE", m.group(1), base + m.start()), count))
        return out

    def _canonical_name(self, tok: Token) -> str:
        name = str(tok)
        return OP_ALIASES.get(name, name)

    def _format(self, tok: Token) -> Any:
        return OP_DEFS[self._canonical_name(tok)].format

    def generic_op(self, c: list) -> OpSpec:
        head, succ, props, regions, attrs, sig = c
        text = str(head)
        if text.startswith('"'):
            q = text.index('"', 1)
            name = unquote(text[: q + 1])
        else:  # a bare name that takes a generic body (lexer.GENERIC_BODY_OPS)
            q = text.index("(")
            name = text[:q].rstrip()
        name_tok = head
        if not name:
            self.fail(name_tok, "empty operation name is invalid")
        if "\0" in name:
            self.fail(name_tok, "null character not allowed in operation name")
        p = text.index("(", q)
        operands_tok = FastToken("OPERANDS", text[p:], head.start_pos + p)
        sig_text = str(sig)
        k = sig_text.index("(")
        ins, outs = self.signature(FastToken("FNTYPE", sig_text[k:], sig.start_pos + k))
        operands = self.operand_tokens(operands_tok)
        if regions and len(regions) == 1 and _is_empty(regions[0]):
            d = OP_DEFS.get(name)
            if d is not None and d.extra.get("body_optional"):
                regions = None  # `({ })`: a declaration, which the IR holds without a region
        spec = OpSpec(
            OP_ALIASES.get(name, name),
            operands,
            list(ins),
            list(outs),
            self.dict(props),
            self.dict(attrs),
            regions or [],
            name_tok.start_pos,
        )
        if succ:
            spec.successors = succ
        if operands:
            spec.operand_src = self._operand_src
        return spec

    def successors(self, c: list) -> list[str]:
        return [str(t) for t in c]

    def generic_regions(self, c: list) -> list[Region]:
        return list(c)

    def value_list(self, c: list) -> list[Token]:
        return list(c)

    def types(self, c: list) -> list:
        return list(c)

    def result_types(self, c: list) -> list:
        return list(c)

    def type_list(self, c: list) -> tuple:
        toks = c[0]
        return ("list", [self.type(t) for t in toks], toks[0].start_pos)

    def fn_type(self, c: list) -> tuple:
        ins, outs = self.signature(c[0])
        return ("fn", list(ins), list(outs), c[0].start_pos)

    def bare_fn_type(self, c: list) -> tuple:
        ins, outs = c
        return ("fn", [self.type(t) for t in ins], [self.type(t) for t in outs], ins[0].start_pos)

    def int_list(self, c: list) -> list[int]:
        out = []
        for t in c:
            if t is None:
                continue
            try:
                v = parse_int(t)
            except ValueError as e:
                self.fail(t, str(e))
            if not _I64_MIN <= v <= _I64_MAX:  # MLIR reads these lists as int64_t
                self.fail(t, "integer value too large")
            out.append(v)
        return out

    # ---- regions and blocks ------------------------------------------------------------
    def region_open(self, c: list) -> Region:
        depth = len(self.regions) + 1
        if depth > MAX_NESTING:
            self.fail(c[0], f"regions nested more than {MAX_NESTING} deep")
        if depth > self.deepest[0]:
            self.deepest = (depth, getattr(c[0], "start_pos", 0) or 0)
        region = Region()
        block = region.add_block(Block())
        self.regions.append(region)
        self.blocks.append(block)
        self._push_scope()
        if self.pending is not None:
            self._bind_args(block, self.pending)
            self.pending_repeat -= 1
            if self.pending_repeat <= 0:
                self.pending = None
        return region

    def _resolve_successors(self, region: Region) -> None:
        """Turn `^label` successor names into the region's Block objects."""
        labels = None
        for block in region.blocks:
            for op in block.ops:
                if op.successors and isinstance(op.successors[0], str):
                    if labels is None:
                        labels = {b.label: b for b in region.blocks if b.label is not None}
                    resolved = []
                    for name in op.successors:
                        b = labels.get(name[1:])
                        if b is None:
                            self.fail(op.pos, f"reference to an undefined block '{name}'")
                        resolved.append(b)
                    op.successors = resolved

    def _bind_args(self, block: Block, specs: list[tuple]) -> None:
        for tok, ty, attrs, loc in specs:
            hint = str(tok)[1:]
            arg = block.add_arg(BlockArgument(ty, block, 0, hint, loc))
            self._define(tok, [arg])

    def region(self, c: list) -> Region:
        region = c[0]
        self.blocks.pop()
        self.regions.pop()
        self._pop_scope()
        self._resolve_successors(region)
        # An empty unlabeled entry block followed by labeled blocks was a placeholder.
        if len(region.blocks) > 1 and not region.blocks[0].ops and not region.blocks[0].args:
            if region.blocks[0].label is None:
                region.blocks.pop(0)
        return region

    def block_header(self, c: list) -> Block:
        label_tok, args = c
        region = self.regions[-1]
        block = region.add_block(Block(label=str(label_tok)[1:]))
        self.blocks[-1] = block
        if args:
            self._bind_args(block, args)
        self.pending = None
        return block

    def labeled_block(self, c: list) -> None:
        return None

    def block_args(self, c: list) -> list[tuple]:
        specs = [a for a in c if a is not None]
        self.expect_pending(specs)
        return specs

    def block_arg(self, c: list) -> tuple:
        v, t, attrs, loc = c
        if attrs is not None:
            self.fail(attrs, "block arguments take no attribute dictionary")
        return self.arg_spec(v, t, attrs, loc)


def _simple_operands(values: dict[str, Sequence[Value]], names: str, types: tuple[Type, ...]) -> list[Value] | None:
    """The values of a FAST_HEAD or FAST_GENERIC operand group (no blanks around it, maybe around its commas)
    when each names one value and they have `types`; None otherwise (the general path decides)."""
    operands: list[Value] = []
    if names:
        for name in names.split(",") if "," in names else (names,):
            group = values.get(name.strip())
            if group is None or len(group) != 1:
                return None
            operands.append(group[0])
    if len(operands) != len(types):
        return None
    for v, t in zip(operands, types):
        if v.type is not t and v.type.text != t.text:
            return None
    return operands


def _line_key(text: str, base: int, results_end: int, n0: int, family: str, items: list, types: tuple | None) -> tuple | None:
    """(key, value spans) of a one-line custom-form op for IRBuilder.line_templates:
    the key is the op's text from its name to the end of its type with the written SSA names cut
    out, and the result count. None for ops not templated: several result groups, or a reduce
    without `applies` (whose format builds regions and block arguments)."""
    if results_end > base:
        head = text[base:results_end]
        if "," in head or ":" in head:
            return None
        n_results = 1
    else:
        n_results = 0
    if family == "OP_PRETTY":
        spans = items
    elif family == "OP_KWARGS":
        spans = [it for it in items if len(it) == 2]
    elif family == "OP_COMPARE":
        spans = items[1:3]
    elif family == "OP_DOT":
        spans = items[:2]
    elif family == "OP_SDY_SHARDING":
        spans = items[:1]
    elif family == "OP_CONSTANT":
        spans = []
    elif family == "OP_REDUCE" and items[1] is not None:
        spans = [span for pair in items[0] for span in pair]
    else:
        return None
    end = types[1] if types is not None else items[0][1]
    if not spans:
        return (n_results, text[n0:end]), spans
    pieces: list[Any] = [n_results]
    p = n0
    for a, b in spans:
        pieces.append(text[p:a])
        p = b
    pieces.append(text[p:end])
    return tuple(pieces), spans


def _attrs_cut(text: str, key: tuple, n0: int, attrs: tuple[int, int]) -> tuple | None:
    """`_line_key`'s key of an op whose name starts at `n0` with its attribute dictionary (the span
    `attrs`, after the last name in every one-line form) cut out too; None if it is not there."""
    pieces, spans = key
    start = spans[-1][1] if spans else n0
    last = pieces[-1]
    a0, a1 = attrs[0] - start, attrs[1] - start
    if a0 < 0 or a1 > len(last):
        return None
    return (*pieces[:-1], last[:a0], last[a1:])


# The one-line families whose formats build properties without the types (which only their
# `finish` reads): an op's template holds for another op spelled the same up to its types.
_parsed = Operation.parsed  # the parser's constructor, looked up once (IRBuilder.line_op)
_TYPED_FAMILIES = frozenset({"OP_PRETTY", "OP_KWARGS", "OP_COMPARE", "OP_DOT"})


def _types_cut(key: tuple, n0: int, attrs: tuple[int, int] | None, types: tuple) -> tuple | None:
    """`_line_key`'s key of an op whose name starts at `n0` with its types (which end the key) and
    its attribute dictionary (None: it has none) cut out too; None if they are not there."""
    pieces, spans = key
    start = spans[-1][1] if spans else n0
    last = pieces[-1]
    t0 = types[0] - start
    if t0 < 0 or types[1] - start != len(last):
        return None
    if attrs is None:
        return (*pieces[:-1], last[:t0], None)
    a0, a1 = attrs[0] - start, attrs[1] - start
    if not 0 <= a0 <= a1 <= t0:
        return None
    return (*pieces[:-1], last[:a0], last[a1:t0])


def _is_empty(region: Region) -> bool:
    """`{ }`: no ops, no block arguments, no labels."""
    return all(not b.ops and not b.args and b.label is None for b in region.blocks)


def _promote_inherent(spec: OpSpec) -> None:
    """Declared properties written in the attribute dictionary become properties, as MLIR reads
    `"stablehlo.slice"(%x) {start_indices = ...}` (so the op prints in its custom form)."""
    d = OP_DEFS.get(spec.name)
    if d is None or not d.props:
        return
    moved = {p.name for p in d.props if p.name in spec.attributes and p.name not in spec.properties}
    if moved:
        # Copies: the parser shares one dict between ops written with the same text.
        spec.properties = {**spec.properties, **{k: spec.attributes[k] for k in moved}}
        spec.attributes = {k: v for k, v in spec.attributes.items() if k not in moved}


def _family_methods() -> None:
    """Attach one transformer method per custom-format grammar rule, delegating to the formats."""
    for rule, fn in FORMAT_RULES.items():
        setattr(IRBuilder, rule, _make(fn))


def _make(fn: Any) -> Any:
    def method(self: IRBuilder, c: list) -> Any:
        return fn(self, c)

    return method


_BUILDER: IRBuilder | None = None


def _parser() -> tuple[Any, IRBuilder]:
    global _BUILDER
    from ttopt.parse.grammar import load

    if _BUILDER is None:
        _family_methods()
        _BUILDER = IRBuilder()
    return load("mlir.lark", ("start",), _BUILDER), _BUILDER


def parse_module(text: str, filename: str = "<input>", line_offset: int = 0) -> Module:
    """Parse one MLIR file (or `// -----` chunk) into a Module; errors raise `Diagnostic`."""
    source = SourceFile(filename, text, line_offset)
    gc_was_enabled = gc.isenabled()
    gc.disable()  # the parse allocates many long-lived objects; collections only cost time
    try:
        try:
            module = _parse(text, source)
        except Diagnostic:
            # The lexer does not skip comments or NULs (MLIR skips both like blanks), so any text
            # with one fails there (or earlier): parse it again with them blanked, every offset kept.
            # Text without either (what tools print) is read once, with no pass to look for them.
            blanked = blank_comments(text)
            if blanked is text:
                raise
            problem = raw_dialect_body_problem(text, blanked)
            if problem is not None:
                raise Diagnostic(problem.message, SourcePos(source, problem.pos)) from None
            module = _parse(blanked, source)
    finally:
        if gc_was_enabled:
            gc.enable()
    # The module's objects (a few hundred thousand on a 10k-op file) are long-lived: moved to the
    # oldest generation (freeze, then unfreeze), the collections the caller's next allocations
    # trigger do not traverse them all again; a full collection still frees them once garbage.
    # Not when the process froze objects itself (unfreeze would thaw those too).
    if gc_was_enabled and gc.get_freeze_count() == 0:
        gc.freeze()
        gc.unfreeze()
    module.source = source
    return module


def _parse(text: str, source: SourceFile) -> Module:
    """One parse of `text` (the source's text, or it with comments blanked)."""
    lark, builder = _parser()
    scope = AliasScope()
    builder.reset(scope)
    builder.source_text = text
    try:
        lark.parse(text)
        return _finish(builder, scope, source)
    except ParseFailure as e:
        raise Diagnostic(e.message, SourcePos(source, e.pos)) from None
    except LexFailure as e:
        raise Diagnostic(e.message, SourcePos(source, e.pos)) from None
    except UnexpectedInput as e:
        tok = getattr(e, "token", None)
        pos = getattr(tok, "start_pos", None)
        if pos is None or (tok is not None and tok.type == "$END"):
            pos = len(text.rstrip())
        raise Diagnostic(describe_unexpected(e), SourcePos(source, pos)) from None
    except RecursionError:
        raise Diagnostic("input nests too deeply", SourcePos(source, 0)) from None
    finally:
        builder.release()


def _finish(builder: IRBuilder, scope: AliasScope, source: SourceFile) -> Module:
    ops = builder.top.ops
    if len(ops) == 1 and ops[0].name == "builtin.module":
        mod_op = ops[0]
        mod_op.parent = None
    else:
        # The printer wraps bare top-level ops in `module { }`: that output must parse too.
        depth, pos = builder.deepest
        if depth + 1 > MAX_NESTING:
            raise ParseFailure(pos, f"regions nested more than {MAX_NESTING} deep (with the implicit module)")
        mod_op = Operation("builtin.module", regions=[Region([Block()])])
        body = mod_op.regions[0].entry
        for op in list(ops):
            body.append(op)
    module = Module(mod_op, scope, source)
    module.metadata = builder.metadata
    _check_aliases(builder, scope, source)
    if builder.late_refs:
        _check_alias_cycles(scope, _with_run_refs(builder.alias_refs, builder.loc_runs))
    for have, want, where, shown, op_name, i in builder.deferred_type_checks:
        if have != want:
            raise ParseFailure(where, f"type mismatch: '{shown}' is '{have.text}' where '{op_name}' expects '{want.text}' (operand #{i})")
    return module


# Readers of line_readers.loc_alias_run's matches, mapped over a whole run.
_GROUP1, _GROUP2 = itemgetter(1), itemgetter(2)
_RUN_INDEX = itemgetter(3)  # of a LocAliasDef
_OUTSIDE_RUN = ("", "", None, -1)  # what a run's lookup gives for a name it does not define


def _run_positions(text: str, start: int, end: int) -> dict[str, int]:
    """Where each definition of the location alias run at text[start:end] starts (its `#`);
    computed again only when a diagnostic needs one."""
    return {m.group(1): m.start() for m in LOC_ALIAS_ITEM.finditer(text, start, end)}


_I64_MIN, _I64_MAX = -(1 << 63), (1 << 63) - 1
_ALIAS_USE = re.compile(rf"{STR}|([#!])({ALIAS_ID})(?![\w$.\-<])", re.ASCII)
_IS_LOCATION = attrgetter("is_location")
_LOC_STRING = re.compile(r'"[^"\\\n]*(?:\\.[^"\\\n]*)*"')
# The alias a `loc(#name)` names (_ALIAS_USE's name), one per line of the joined location texts.
_LOC_REF_ONLY = re.compile(rf"^loc\(#({ALIAS_ID})\)$", re.M | re.ASCII)


def _with_run_refs(refs: dict[str, list[str]], runs: list[dict]) -> dict[str, list[str]]:
    """`refs` and the references of the location alias runs' definitions (loc_aliases records
    none: only a forward reference somewhere makes a cycle possible, and then they are needed)."""
    out = dict(refs)
    for run in runs:
        for d in run.values():
            text = d.value_text
            if "#" in text:
                out["#" + d.name] = [sig + n for sig, n in _ALIAS_USE.findall(text) if sig]
    return out


def _alias_key(ref: str) -> tuple[str, str]:
    """`#name` -> ("attr", "name"); `!name` -> ("type", "name") (keys of AliasScope.defs)."""
    return ("attr" if ref[0] == "#" else "type", ref[1:])


def _check_alias_cycles(scope: AliasScope, refs: dict[str, list[str]]) -> None:
    """An alias whose definition reaches itself through other aliases has no meaning (MLIR rejects it).
    Called only when some definition names an alias defined at or after it (IRBuilder.late_refs):
    printed files (definitions in numbering order, #loc runs of thousands) have none."""
    defs = scope.defs

    def pos(key: str) -> int:
        at = defs[_alias_key(key)].pos
        return at if isinstance(at, int) else -1

    state: dict[str, int] = {}  # 1 = on the DFS stack, 2 = done
    for root in sorted(refs, key=pos):
        if root in state:
            continue
        stack = [(root, iter(refs[root]))]
        state[root] = 1
        while stack:
            node, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                state[node] = 2
                stack.pop()
            elif nxt in refs and state.get(nxt) == 1:
                cycle = [n for n, _ in stack][[n for n, _ in stack].index(nxt) :] + [nxt]
                at = defs[_alias_key(nxt)].pos
                raise ParseFailure(at if isinstance(at, int) else 0, f"alias '{nxt}' refers to itself: {' -> '.join(cycle)}")
            elif nxt in refs and nxt not in state:
                state[nxt] = 1
                stack.append((nxt, iter(refs[nxt])))


def _check_aliases(builder: IRBuilder, scope: AliasScope, source: SourceFile) -> None:
    """What MLIR resolves only at the end: an op's (or block argument's) `loc(#name)` may name a
    location alias defined after it. Every other alias use was checked when read (AttrParser)."""
    ap = builder.ap
    text = builder.source_text  # comments blanked, offsets kept
    # Most locations that name an alias are exactly `loc(#name)` (one per op in a printed file):
    # they are checked by one set difference; the others (AttrParser.deferred_problem) in order.
    found = _LOC_REF_ONLY.findall("\n".join(ap.loc_texts))
    if len(found) != len(ap.loc_texts):
        found = [m.group(1) for m in map(LOC_ALIAS_ONLY.fullmatch, ap.loc_texts) if m is not None]
        problem = ap.deferred_problem()
        if problem is not None:
            loc_text, offset, message = problem
            raise ParseFailure(max(text.find(loc_text), 0) + offset, message)
    defs = scope.defs
    names = set(found)
    keys = list(zip(repeat("attr"), names))
    missing = {"#" + k[1] for k in filterfalse(defs.__contains__, keys)}
    missing.update(r for r in builder.late_refs if _alias_key(r) not in defs)
    if not missing:
        if all(map(_IS_LOCATION, map(defs.__getitem__, keys))):
            return
        wrong = [k for k in keys if not defs[k].is_location]
        pos, k = min((_first_loc_use(text, k[1]), k) for k in wrong)
        raise ParseFailure(pos, f"expected location, but found '{defs[k].value_text}'")
    # Report the undefined reference that comes first in the file.
    pos, ref = min((_first_loc_use(text, ref[1:]), ref) for ref in missing)
    if ref[1:] in names:
        raise ParseFailure(pos, "operation location alias was never defined")
    raise ParseFailure(pos, f"undefined symbol alias id '{ref[1:]}'")


def _first_loc_use(text: str, name: str) -> int:
    """Offset of the `#` of the first `loc(#name)` in `text` (whose comments are blanked)."""
    m = re.search(rf"loc[ \t\n\r]*\([ \t\n\r]*(#{re.escape(name)})[ \t\n\r]*\)", text)
    return m.start(1) if m is not None else len(text)


def _locate_implied_bodies(op: Operation) -> None:
    """A body a custom form implies (`stablehlo.reduce ... applies OP`) has no text of its own:
    its block arguments and ops take the op's location, as MLIR's parser gives them."""
    for region in op.regions:
        for block in region.blocks:
            if not block.ops or any(o.pos is not None for o in block.ops):
                continue
            for o in block.ops:
                if o.location is None:
                    o.location = op.location
            for a in block.args:
                if a.location is None:
                    a.location = op.location
