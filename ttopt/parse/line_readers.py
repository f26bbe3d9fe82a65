"""Whole-op readers: the one-line ops and `#loc` alias runs the lexer hands the parser as single
tokens (OP_RUN, LOC_ALIASES, REDUCE_HEAD, MANUAL_HEAD), with the offsets of each op's parts.

Each reader takes exactly what the piecewise grammar would read, or declines (None), so the
lexer falls back to token-by-token lexing, which also reports the errors
(tests/parse/test_fast_lines.py checks both paths agree, on IR and on errors). Their strings
take no escape (scan.FAST_STR): an op with one is read piecewise.
"""

from __future__ import annotations

import re

from ttopt.ir.opdef import OP_FAMILIES
from ttopt.parse import scan
from ttopt.parse.lazy_regex import lazy_compile
from ttopt.parse.scan import ScanError


def generic_op_parts(text: str, pos: int) -> tuple[tuple, int] | None:
    """The parts and end of a region-free generic op starting at `pos` (None: not one; lex it
    piecewise). Parts, for IRBuilder.generic_op_line: (results_end | -1, head_start, head_end,
    props | None, attrs | None, sig_start, sig_end, loc | None), spans as (start, end).
    """
    p = pos
    results_end = -1
    if text[p] == "%":
        m = scan.RESULTS.match(text, p)
        if m is None:
            return None
        results_end = m.end()
        p = scan.skip_ws(text, results_end)
    m = scan.GENERIC_HEAD.match(text, p)
    if m is None:
        return None
    head = (p, m.end())
    p = scan.skip_ws(text, m.end())
    props = None
    if text.startswith("<{", p):
        e = scan.scan_balanced(text, p)
        props = (p, e)
        p = scan.skip_ws(text, e)
    attrs, p = _optional_attrs(text, p)
    if p >= len(text) or text[p] != ":":
        return None  # successors, regions or an error: the piecewise path reports it
    q = scan.skip_ws(text, p + 1)
    if q >= len(text) or text[q] != "(":
        return None
    sig_end = scan.scan_fntype(text, q)
    loc, end = _trailing_loc(text, sig_end)
    return (results_end, head[0], head[1], props, attrs, q, sig_end, loc), end


def pretty_op_parts(text: str, pos: int) -> tuple[tuple, int] | None:
    """The parts and end of a one-line custom-form op whose family is in `_LINE_FAMILIES` (most
    StableHLO lines), None otherwise (then it is lexed piecewise, which also reports any error).
    The common shapes are read by `fast_pretty_op_parts`, the rest by `general_pretty_op_parts`."""
    r = fast_pretty_op_parts(text, pos)
    return r if r is not None else general_pretty_op_parts(text, pos)


def _op_may_end(text: str, end: int) -> bool:
    """Can an op end at `end` for the piecewise parser, as far as the next character tells? It must
    start what may follow an op (another op, `}`, a block label, an alias, the end). Anything else
    is an error, which the piecewise parser reports (and words from the state inside the op)."""
    p = scan.skip_ws(text, end)
    if p >= len(text):
        return True
    c = text[p]
    return c in '%"}^#!' or (c.isascii() and c.isalpha()) or c == "_"


def general_pretty_op_parts(text: str, pos: int) -> tuple[tuple, int] | None:
    """pretty_op_parts for every shape, one piece at a time.
    Only OP_PRETTY ops may have no results (results_end is then `pos`):

    * OP_PRETTY   `%r = d.op %a, %b {attrs} : T | : (A, B) -> R [loc]`
    * OP_KWARGS   `%r = d.op %a, dims = [0, 1], dim = 2, ... {attrs} : type-spec [loc]`
    * OP_COMPARE  `%r = d.op  GE, %a, %b,  SIGNED {attrs} : type-spec [loc]`
    * OP_CONSTANT `%r = d.op {attrs} dense<...> : T [loc]`
    * OP_DOT      `%r = d.op %a, %b, contracting_dims = [1] x [0], precision = [..] : (A, B) -> R`
    * OP_REDUCE   `%r = d.op(%a init: %c), ... [applies d.op2] across dimensions = [1] : type-spec [loc]`
      (not the form with a `reducer(...) {...}` body)
    * OP_SDY_SHARDING `%r = d.op %a <@mesh, [...]> {attrs} : T [loc]`

    The parts are (results_end, (name_start, name_end), family, items, attrs | None,
    (type_start, type_end, "fn" | "type" | [(start, end) of each type of a list]) | None, loc | None); `items` are the family's
    pieces between the name and the attributes (see IRBuilder.pretty_op_line).
    """
    if text[pos] == "%":
        m = scan.RESULTS.match(text, pos)
        if m is None:
            return None
        results_end = m.end()
        p = scan.skip_ws(text, results_end)
    else:
        results_end = p = pos
    m = scan.BARE_ID.match(text, p)
    if m is None:
        return None
    family = OP_FAMILIES.get(m.group())
    if family not in _LINE_FAMILIES or (results_end == pos and family != "OP_PRETTY"):
        return None  # without results: only OP_PRETTY (`stablehlo.return %x : T`)
    name = (p, m.end())
    n = len(text)
    p = scan.skip_ws(text, m.end())
    items: list = []
    if family == "OP_CONSTANT":
        attrs, p = _optional_attrs(text, p)
        if p >= n or text[p] in "{%:":
            return None
        e = scan.scan_attr(text, p)
        items.append((p, e))
        loc, end = _trailing_loc(text, e)
        if not _op_may_end(text, end):
            return None
        return (results_end, name, family, items, attrs, None, loc), end
    if family == "OP_COMPARE":
        m = _COMPARE_HEAD.match(text, p)
        if m is None:
            return None
        items = [m.span(1), m.span(2), m.span(3), m.span(4) if m.group(4) else None]
        p = scan.skip_ws(text, m.end())
    elif family == "OP_DOT":
        m = _DOT_HEAD.match(text, p)
        if m is None:
            return None
        items = [m.span(1), m.span(2)]
        p = scan.skip_ws(text, m.end())
        while text.startswith(",", p):
            m = _DOT_ITEM.match(text, scan.skip_ws(text, p + 1))
            if m is None:
                return None  # `algorithm = <...>` and the like: the piecewise path
            items.append((m.span(1), m.span(2), m.span(3)) if m.group(2) else (m.span(1), m.span(4)))
            p = scan.skip_ws(text, m.end())
    elif family == "OP_REDUCE":
        inputs = []
        while True:
            m = _REDUCE_INPUT.match(text, p)
            if m is None:
                return None
            inputs.append((m.span(1), m.span(2)))
            p = scan.skip_ws(text, m.end())
            if not text.startswith(",", p):
                break
            p = scan.skip_ws(text, p + 1)
        m = _REDUCE_TAIL.match(text, p)
        if m is None:
            return None  # a comment inside, or not this form: the piecewise path
        items = [inputs, m.span(1) if m.group(1) else None, m.span(2)]
        p = scan.skip_ws(text, m.end())
    elif family == "OP_SDY_SHARDING":
        m = scan.VALUE.match(text, p)
        if m is None:
            return None
        items = [m.span()]
        p = scan.skip_ws(text, m.end())
        if not text.startswith("<", p):
            return None
        e = scan.scan_balanced(text, p)
        items.append((p, e))
        p = scan.skip_ws(text, e)
    elif family == "OP_KWARGS":
        while True:
            m = _KW_ITEM.match(text, p)
            if m is None:
                return None
            if m.group(1) is not None:
                items.append(m.span(1))
            else:
                g = m.lastindex or 0  # the value's group: 3 list, 4 int, 5 word, 6 string
                items.append((m.span(2), g, m.span(g)))
            p = scan.skip_ws(text, m.end())
            if not text.startswith(",", p):
                break
            p = scan.skip_ws(text, p + 1)
    else:
        while p < n and text[p] == "%":
            m = scan.VALUE.match(text, p)
            if m is None:
                return None
            items.append((p, m.end()))
            p = scan.skip_ws(text, m.end())
            if not text.startswith(",", p):
                break
            p = scan.skip_ws(text, p + 1)
            if not text.startswith("%", p):
                return None  # `%a, :`: the piecewise path reports the missing operand
    tail = _attrs_and_types(text, p)
    if tail is None:
        return None
    attrs, q, end, kind, after = tail
    if kind != "fn" and after < n and text[after] == "-":
        return None  # chlo's `A, B -> R`: the piecewise path reads it
    if family == "OP_REDUCE" and _REDUCER.match(text, scan.skip_ws(text, end)):
        return None  # the general `reducer(...) {...}` body: the piecewise path
    if family == "OP_SDY_SHARDING" and kind != "type":
        return None  # its rule takes one TYPE: the piecewise path reads (or reports) the rest
    types = (q, end, kind)
    loc, end = _trailing_loc(text, end)
    if not _op_may_end(text, end):
        return None
    return (results_end, name, family, items, attrs, types, loc), end


def _optional_attrs(text: str, p: int) -> tuple[tuple[int, int] | None, int]:
    """The span of an `{attr-dict}` at `p` (None when there is none) and the next non-blank offset."""
    if p < len(text) and text[p] == "{":
        e = scan.scan_balanced(text, p)
        return (p, e), scan.skip_ws(text, e)
    return None, p


def _attrs_and_types(text: str, p: int) -> tuple[tuple[int, int] | None, int, int, str | list[tuple[int, int]], int] | None:
    """From `p`, a one-line custom-form op's `{attrs} : type-spec`: the attributes' span (or None),
    where the type spec starts and ends, its kind ("fn" for `(A) -> R`, "type" for one type, or
    the spans of a type list such as `stablehlo.select`'s `tensor<i1>, tensor<f32>`) and the next
    non-blank offset; None when that is not what follows, or a list holds a parenthesised type
    (the piecewise path reads or reports it)."""
    attrs, p = _optional_attrs(text, p)
    n = len(text)
    if p >= n or text[p] != ":":
        return None
    q = scan.skip_ws(text, p + 1)
    if q >= n:
        return None
    if text[q] == "(":
        end = scan.scan_fntype(text, q)
        return attrs, q, end, "fn", scan.skip_ws(text, end)
    end = scan.scan_type(text, q)
    after = scan.skip_ws(text, end)
    if after >= n or text[after] != ",":
        return attrs, q, end, "type", after
    spans = [(q, end)]
    while after < n and text[after] == ",":
        t = scan.skip_ws(text, after + 1)
        if t >= n or text[t] == "(":
            return None
        end = scan.scan_type(text, t)
        spans.append((t, end))
        after = scan.skip_ws(text, end)
    return attrs, q, end, spans, after


def reduce_head_parts(text: str, pos: int) -> tuple[tuple, int] | None:
    """The parts and end of the header of a reduce written with a `reducer` body, from the op name
    at `pos` to just before the body's `{`: `d.op(%a init: %c), ... across dimensions = [1] {attrs}
    : type-spec reducer(%x: T [loc], %y: T [loc]) ...`. None for anything else (an `applies`, block
    arguments with attributes or a parenthesised type, comments in the dimensions): the piecewise
    path reads it. Parts, for IRBuilder.reduce_head: ((name_start, name_end), [(input span, init
    span)], dims span, attrs | None, types as pretty_op_parts gives them, [(arg, arg)] with each arg
    (value span, type span, loc span | None))."""
    try:
        return _reduce_head_parts(text, pos)
    except ScanError:
        return None  # malformed: the piecewise path reports it where it is


def _reduce_head_parts(text: str, pos: int) -> tuple[tuple, int] | None:
    m = scan.BARE_ID.match(text, pos)
    if m is None:
        return None
    name = m.span()
    n = len(text)
    p = scan.skip_ws(text, m.end())
    inputs = []
    while True:
        m = _REDUCE_INPUT.match(text, p)
        if m is None:
            return None
        inputs.append((m.span(1), m.span(2)))
        p = scan.skip_ws(text, m.end())
        if not text.startswith(",", p):
            break
        p = scan.skip_ws(text, p + 1)
    m = _REDUCE_TAIL.match(text, p)
    if m is None or m.start(1) >= 0:
        return None
    dims = m.span(2)
    p = scan.skip_ws(text, m.end())
    tail = _attrs_and_types(text, p)
    if tail is None:
        return None
    attrs, q, end, kind, after = tail
    types = (q, end, kind)
    m = _REDUCER.match(text, after)
    if m is None:
        return None
    p = scan.skip_ws(text, m.end())
    pairs = []
    while p < n and text[p] == "(":
        first = _reducer_arg(text, scan.skip_ws(text, p + 1))
        if first is None:
            return None
        p = scan.skip_ws(text, first[1])
        if not text.startswith(",", p):
            return None
        second = _reducer_arg(text, scan.skip_ws(text, p + 1))
        if second is None:
            return None
        p = scan.skip_ws(text, second[1])
        if not text.startswith(")", p):
            return None
        pairs.append((first[0], second[0]))
        end = p + 1
        p = scan.skip_ws(text, end)
    if not pairs or not text.startswith("{", p):
        return None
    return (name, inputs, dims, attrs, types, pairs), end


def manual_head_parts(text: str, pos: int) -> tuple[tuple, int] | None:
    """The parts and end of the header of an sdy.manual_computation, from the op name at `pos` to
    just before its body's `{`: `d.op(%a, %b) in_shardings=[..] out_shardings=[..] manual_axes={..}
    (%x: T [loc], ...)`. None for anything else (block arguments with attributes or a parenthesised
    type...): the piecewise path reads it. Parts, for IRBuilder.manual_head: (name span, operands
    span, in_shardings span, out_shardings span, manual_axes span, [(value span, type span, loc
    span | None)])."""
    try:
        return _manual_head_parts(text, pos)
    except ScanError:
        return None  # malformed: the piecewise path reports it where it is


_MANUAL_KEYS = (("in_shardings", "["), ("out_shardings", "["), ("manual_axes", "{"))


def _manual_head_parts(text: str, pos: int) -> tuple[tuple, int] | None:
    m = scan.BARE_ID.match(text, pos)
    if m is None:
        return None
    name = m.span()
    p = scan.skip_ws(text, m.end())
    m = scan.OPERANDS.match(text, p)
    if m is None:
        return None
    parts: list = [name, m.span()]
    p = scan.skip_ws(text, m.end())
    for key, opener in _MANUAL_KEYS:
        m = scan.BARE_ID.match(text, p)
        if m is None or m.group() != key:
            return None
        p = scan.skip_ws(text, m.end())
        if not text.startswith("=", p):
            return None
        p = scan.skip_ws(text, p + 1)
        if not text.startswith(opener, p):
            return None
        e = scan.scan_balanced(text, p)
        parts.append((p, e))
        p = scan.skip_ws(text, e)
    if not text.startswith("(", p):
        return None
    args = []
    p = scan.skip_ws(text, p + 1)
    if not text.startswith(")", p):
        while True:
            arg = _reducer_arg(text, p)
            if arg is None:
                return None
            args.append(arg[0])
            p = scan.skip_ws(text, arg[1])
            if not text.startswith(",", p):
                break
            p = scan.skip_ws(text, p + 1)
        if not text.startswith(")", p):
            return None
    end = p + 1
    if not text.startswith("{", scan.skip_ws(text, end)):
        return None
    parts.append(args)
    return tuple(parts), end


def _reducer_arg(text: str, p: int) -> tuple[tuple, int] | None:
    """`%x : T [loc(...)]` (a block_arg without attributes) at `p`: ((value, type, loc | None), end)."""
    m = scan.VALUE.match(text, p)
    if m is None:
        return None
    value = m.span()
    p = scan.skip_ws(text, m.end())
    if not text.startswith(":", p):
        return None
    t = scan.skip_ws(text, p + 1)
    if t >= len(text) or not ((text[t].isascii() and text[t].isalpha()) or text[t] in "_!"):
        return None  # what the piecewise lexer makes a type of only in other ways (`(`...)
    e = scan.scan_type(text, t)
    loc, end = _trailing_loc(text, e)
    return (value, (t, e), loc), end


# Families whose one-line ops the lexer hands over whole (IRBuilder.pretty_op_line builds them).
_LINE_FAMILIES = frozenset({"OP_PRETTY", "OP_KWARGS", "OP_COMPARE", "OP_CONSTANT", "OP_DOT", "OP_REDUCE", "OP_SDY_SHARDING"})
_V = rf"%{scan.SUFFIX_ID}(?:#\d+)?"
# The blanks the piecewise lexer skips (not `\s`, which also takes '\f', '\v' and Unicode spaces).
_S = scan.BLANK
# `(%x init: %c)` (reduce_input), then `[applies OP] across dimensions = [ints]` (reduce_op)
_REDUCE_INPUT = lazy_compile(rf"\({_S}*({_V}){_S}+init{_S}*:{_S}*({_V}){_S}*\)", re.ASCII)
_REDUCE_TAIL = lazy_compile(rf"(?:applies{_S}+([A-Za-z_][\w$.]*){_S}+)?across{_S}+dimensions{_S}*={_S}*(\[{_S}*(?:-?\d+(?:{_S}*,{_S}*-?\d+)*)?{_S}*\])", re.ASCII)
_REDUCER = lazy_compile(r"reducer(?![\w$.])")
# `GE, %a, %b[, SIGNED]` (compare_op in grammars/mlir.lark)
_COMPARE_HEAD = lazy_compile(rf"([A-Za-z_]\w*){_S}*,{_S}*({_V}){_S}*,{_S}*({_V})(?:{_S}*,{_S}*([A-Za-z_]\w*))?", re.ASCII)
_INTS = rf"\[{_S}*(?:-?\d+(?:{_S}*,{_S}*-?\d+)*)?{_S}*\]"
# `%a, %b` then `key = [ints] x [ints]` (groups 2, 3) or `key = [WORD, ...]` (group 4) (dot_op)
_DOT_HEAD = lazy_compile(rf"({_V}){_S}*,{_S}*({_V})", re.ASCII)
_DOT_ITEM = lazy_compile(rf"([A-Za-z_]\w*){_S}*={_S}*(?:({_INTS}){_S}*x{_S}*({_INTS})|\[{_S}*([A-Za-z_]\w*(?:{_S}*,{_S}*[A-Za-z_]\w*)*){_S}*\])", re.ASCII)
# One kwargs item: a value, or `key = [ints] | int | word | "string"` (groups 3..6 by kind).
_KW_ITEM = lazy_compile(
    rf'({_V})|([A-Za-z_]\w*){_S}*={_S}*(?:(\[{_S}*(?:-?\d+(?:{_S}*,{_S}*-?\d+)*)?{_S}*\])|(-?\d+)(?![\w.])|([A-Za-z_]\w*)|({scan.FAST_STR}))',
    re.ASCII,
)


# ---- fast_pretty_op_parts: the common one-line shapes in a few regex matches ------------------------
# Each piece is the general reader's own regex (or an exact regex equivalent of its scanner) inside an
# atomic group, so it matches exactly the text the general reader's piece does. Where the general
# reader calls skip_ws these take blanks only and require no `/` after them: an op with a comment
# inside or right after it is left to general_pretty_op_parts, as are nested brackets in a type,
# reduce, and dictionaries other than the attributes.
_B = rf"{scan.BLANK}*+"
_W = rf"{_B}(?!/)"
_F_NAME = r"(?>[A-Za-z_][\w$.]*)"
_F_HEAD = rf"(?:%{scan.SUFFIX_ID}{_B}(=)(?!=){_W})?({_F_NAME}){_W}"
# A type scan_type reads without nesting: `tensor<...>` whose body holds no bracket, string or `-`
# (so no `->`, and the first `>` closes it unless it is `>=`), `!name` or a bare word not followed by `<`.
_NO_BRACKET = scan.token_chars('<>(){}[]"-')  # no bracket, no string, no `->`
_F_TYPE = rf"(?>(?:tensor|memref|vector|complex|tuple)<{_NO_BRACKET}*>(?!=)|!(?>{scan.SUFFIX_ID})(?!<)|[A-Za-z_][\w$.]*+(?!{_B}<))"
_F_TYPE_RE = lazy_compile(_F_TYPE, re.ASCII)
# The trailing location as _trailing_loc reads it when SIMPLE_LOC matches (no other `loc(` may
# follow), then blanks and what may follow an op (_op_may_end, ASCII only; no comment, which
# skip_ws would look past).
_F_LOC = rf"(?:{_W}((?>{scan.SIMPLE_LOC.pattern}))|(?!{_B}loc\())(?={_B}(?:[%\"}}^#!A-Za-z_]|\Z))"
# `: (A) -> R` (group 1) | `: T[, T...]` (groups 2, 3), then the location (group 4); after a type
# (list) neither `,` nor `-` may follow (the general reader would read on, or decline).
_F_TAIL = rf":{_W}(?:((?>{scan.SIMPLE_FNTYPE.pattern}))|({_F_TYPE})((?:{_W},{_W}{_F_TYPE})*+)(?!{_B}[,\-])){_F_LOC}"
_F_TAIL_RE = lazy_compile(_W + _F_TAIL, re.ASCII)  # after the attributes
# The rest of the commonest line in one match: an OP_PRETTY op's operands (up to three, groups
# 1-3), no attributes, then _F_TAIL (groups 4-7).
_F_PRETTY = lazy_compile(rf"(?:((?>{_V}))(?:{_W},{_W}((?>{_V})))?(?:{_W},{_W}((?>{_V})))?)?{_W}{_F_TAIL}", re.ASCII)
_F_HEAD_RE = lazy_compile(_F_HEAD, re.ASCII)
_F_VALUES = lazy_compile(rf"((?>{_V})(?:{_W},{_W}(?>{_V}))*+)?{_W}", re.ASCII)
_F_KW_ITEM = lazy_compile(rf"(?>{_KW_ITEM.pattern}){_W}(?:(,){_W})?", re.ASCII)
_F_COMPARE = lazy_compile(rf"(?>{_COMPARE_HEAD.pattern}){_W}", re.ASCII)
_F_DOT_HEAD = lazy_compile(rf"(?>{_DOT_HEAD.pattern}){_W}", re.ASCII)
_F_DOT_ITEM = lazy_compile(rf",{_W}(?>{_DOT_ITEM.pattern}){_W}", re.ASCII)
# `dense<...> : T` as scan_attr reads it (brackets nested two deep at most, no string, no `->`),
# then the location.
_F_DENSE_CHAR = rf"(?:{_NO_BRACKET}|-(?!>))"
_F_CONSTANT = lazy_compile(
    rf"((?>dense<(?:{_F_DENSE_CHAR}|\[(?:{_F_DENSE_CHAR}|\[{_F_DENSE_CHAR}*\])*\])*>)(?!=){_W}:(?!:){_W}{_F_TYPE}){_F_LOC}",
    re.ASCII,
)


def fast_pretty_op_parts(text: str, pos: int) -> tuple[tuple, int] | None:
    """pretty_op_parts for the common shapes (None: not one of them, ask general_pretty_op_parts):
    the same parts, from a few regex matches instead of a scan per piece."""
    m = _F_HEAD_RE.match(text, pos)
    if m is None:
        return None
    head = m
    family = OP_FAMILIES.get(m.group(2))
    p = m.end()
    items: list
    if family == "OP_PRETTY":
        m = _F_PRETTY.match(text, p)
        if m is not None:
            return _f_finish(text, pos, head, 1, family, [m.span(g) for g in (1, 2, 3) if m.start(g) >= 0], None, m, 4)
        values = _F_VALUES.match(text, p)
        if values is None:  # it matches the empty string: only for the checker
            return None
        a, b = values.span(1)
        # The operands are separated by blanks and commas only (no comment): each `%` starts one.
        items = [] if a < 0 else [v.span() for v in scan.VALUE.finditer(text, a, b)]
        p = values.end()
    elif family == "OP_KWARGS":
        items = []
        while True:
            m = _F_KW_ITEM.match(text, p)
            if m is None:
                return None
            if m.start(1) >= 0:
                items.append(m.span(1))
            else:
                g = 3 if m.start(3) >= 0 else 4 if m.start(4) >= 0 else 5 if m.start(5) >= 0 else 6
                items.append((m.span(2), g, m.span(g)))
            p = m.end()
            if m.start(7) < 0:
                break
    elif family == "OP_COMPARE":
        m = _F_COMPARE.match(text, p)
        if m is None:
            return None
        items = [m.span(1), m.span(2), m.span(3), m.span(4) if m.start(4) >= 0 else None]
        p = m.end()
    elif family == "OP_DOT":
        m = _F_DOT_HEAD.match(text, p)
        if m is None:
            return None
        items = [m.span(1), m.span(2)]
        p = m.end()
        while text.startswith(",", p):
            m = _F_DOT_ITEM.match(text, p)
            if m is None:
                return None
            items.append((m.span(1), m.span(2), m.span(3)) if m.start(2) >= 0 else (m.span(1), m.span(4)))
            p = m.end()
    elif family == "OP_CONSTANT":
        m = _F_CONSTANT.match(text, p)
        if m is None:
            return None
        results_end = head.end(1)
        if results_end < 0:
            return None
        loc = m.span(2) if m.start(2) >= 0 else None
        return (results_end, head.span(2), family, [m.span(1)], None, None, loc), m.end()
    else:
        return None  # reduce and the families without a one-line form
    attrs = None
    if text.startswith("{", p):
        try:
            e = scan.scan_balanced(text, p)
        except ScanError:
            return None  # the general reader reports it
        attrs = (p, e)
        p = e
    m = _F_TAIL_RE.match(text, p)
    if m is None:
        return None
    return _f_finish(text, pos, head, 1, family, items, attrs, m, 1)


def _f_finish(text: str, pos: int, head: re.Match, h: int, family: str, items: list, attrs: tuple | None, tail: re.Match, t: int) -> tuple[tuple, int] | None:
    """The parts from the head match (group h: the `=`, h + 1: the name) and the tail match (groups
    t..t + 3: function type, type, more types, location)."""
    results_end = head.end(h)
    if results_end < 0:
        if family != "OP_PRETTY":
            return None  # without results: only OP_PRETTY (`stablehlo.return %x : T`)
        results_end = pos
    if tail.start(t) >= 0:
        types: tuple = (tail.start(t), tail.end(t), "fn")
    else:
        a, b = tail.span(t + 2)
        if a == b:
            types = (tail.start(t + 1), tail.end(t + 1), "type")
        else:
            types = (tail.start(t + 1), b, [tail.span(t + 1), *[x.span() for x in _F_TYPE_RE.finditer(text, a, b)]])
    loc = tail.span(t + 3) if tail.start(t + 3) >= 0 else None
    return (results_end, head.span(h + 1), family, items, attrs, types, loc), (loc[1] if loc else types[1])



_NO_BRACE = scan.token_chars('{}"')
_FLAT = rf"(?:{_NO_BRACE}|{scan.FAST_STR})*"  # a `{...}` body without nested braces (nested ones: generic_op_parts)
_OPERANDS = rf"{scan.BLANK}*\({scan.BLANK}*((?:{_V}(?:{scan.BLANK}*,{scan.BLANK}*{_V})*)?){scan.BLANK}*\)"
# Everything of the commonest generic line between its operand list and its location:
# `<{..}> {..} : (A, B) -> R` with flat dictionaries and a function type of simple types.
_TAIL = rf"(?:{scan.BLANK}*(<\{{{_FLAT}\}}>))?(?:{scan.BLANK}*(\{{{_FLAT}\}}))?{scan.BLANK}*:{scan.BLANK}*({scan.SIMPLE_FNTYPE.pattern})"
# The commonest generic line, in one match: `%r = "d.op"(%a, %b) <{..}> {..} : (A, B) -> R loc(..)`
# with one result and a common location form.
# Groups: 1 result, 2 head, 3 operands, 4 properties, 5 attributes, 6 function type, 7 location.
# It accepts a subset of what generic_op_parts accepts, ending at the same offset (`_fast_ok`).
FAST_GENERIC = lazy_compile(
    rf"(?:(%{scan.SUFFIX_ID}){scan.BLANK}*={scan.BLANK}*)?"
    rf'("[\w.$\-]+"{_OPERANDS})'
    rf"{_TAIL}"
    rf"(?:{scan.BLANK}*({scan.SIMPLE_LOC.pattern}))?",
    re.ASCII,
)
# FAST_GENERIC cut in two where the tail starts, for ops whose line holds nothing else (`op_run`):
# the head (groups: 1 result, 2 quoted name, 3 operands) is matched per op, the tail up to the
# location (groups: 1 properties, 2 attributes, 3 function type) once per distinct text, as files
# repeat a few hundred tails thousands of times.
FAST_HEAD = lazy_compile(rf'(?:(%{scan.SUFFIX_ID}){scan.BLANK}*={scan.BLANK}*)?("[\w.$\-]+"){_OPERANDS}', re.ASCII)
FAST_TAIL = lazy_compile(rf"{_TAIL}{scan.BLANK}*", re.ASCII)
_TAIL_PARTS: dict[str, tuple] = {}  # tail text -> tail_parts(text)
_NOT_A_TAIL = (-1, None, None, "")
_BALANCED: dict[str, bool] = {}  # dictionary text -> whether scan_balanced ends exactly at its end
_CACHE_BOUND = 100_000  # a bound, not an eviction policy: real files repeat a few hundred texts
_CACHED_TAIL_LEN = 4096  # the caches outlive the parse: long tails (big literals) are not kept


def _balanced(body: str) -> bool:
    ok = _BALANCED.get(body)
    if ok is None:
        try:
            ok = scan.scan_balanced(body, 0) == len(body)
        except ScanError:
            ok = False
        if len(_BALANCED) < _CACHE_BOUND:
            _BALANCED[body] = ok
    return ok


def _dicts_ok(props: str | None, attrs: str | None) -> bool:
    """Do the dictionaries balance as scan_balanced sees them (so the piecewise reading ends them
    where the regex does)?"""
    return (props is None or _balanced(props[1:-1])) and (attrs is None or _balanced(attrs))


def _fast_ok(text: str, m: re.Match) -> bool:
    """Does the piecewise reading of this op end where `m` does, with the same parts? Its
    dictionaries must balance (a `}>=` cannot follow the properties: FAST_GENERIC needs `{` or `:`
    there), and a location it did not take must not follow (a `loc(...)` beyond the common forms)."""
    if not _dicts_ok(m.group(4), m.group(5)):
        return False
    return m.group(7) is not None or not text.startswith("loc(", scan.skip_ws(text, m.end()))


def tail_parts(tail: str) -> tuple[int, str | None, str | None, str]:
    """(where the function type ends, properties, attributes, function type) of a FAST_TAIL text,
    or (-1, ...) when the text is not one the fast path takes. Cached: each distinct tail is
    matched once, here, for the lexer and the builder."""
    parts = _TAIL_PARTS.get(tail)
    if parts is None:
        m = FAST_TAIL.fullmatch(tail)
        if m is not None and _dicts_ok(m.group(1), m.group(2)):
            parts = (m.end(3), m.group(1), m.group(2), m.group(3))
        else:
            parts = _NOT_A_TAIL
        if len(_TAIL_PARTS) < _CACHE_BOUND and len(tail) < _CACHED_TAIL_LEN:
            _TAIL_PARTS[tail] = parts
    return parts


def simple_fntype_types(sig: str) -> tuple[list[str], list[str]]:
    """The input and result type texts of a SIMPLE_FNTYPE text, as split_signature gives them:
    its types contain no parentheses, so the inputs are those before the first `)`."""
    k = sig.index(")")
    types = scan.SIMPLE_TYPE.findall
    return types(sig, 0, k), types(sig, k)


def op_run(text: str, pos: int, cr: bool = False) -> tuple[list[tuple], int, int] | None:
    """The one-line ops from `pos` on, as many as follow each other, where the last ends and where
    the run stopped at an op it does not read (-1: at the end of the text), from where op_run finds
    no run (None when the op at `pos` is not one); `cr`: the text may hold a '\r', which ends a
    line too.
    Items, built by IRBuilder.op_run:
    ("t", match of FAST_HEAD, tail text, location text | None) | ("f", match of FAST_GENERIC) |
    ("g", start, generic_op_parts) | ("p", start, pretty_op_parts) |
    ("k", start, line end, the line split around its SSA names, its shape: see `_SHAPES`)."""
    items: list[tuple] = []
    n = len(text)
    end = pos
    fast = FAST_GENERIC.match
    head = FAST_HEAD.match
    find = text.find
    rfind = text.rfind
    loc_match = scan.SIMPLE_LOC.fullmatch
    skip = scan.WS.match
    tail_cache = _TAIL_PARTS
    shapes = _SHAPES
    split_names = _NAMES.split
    while pos < n:
        c = text[pos]
        if c in _LINE_STARTS and not cr:
            # The line by shape (see `_SHAPES`); a generic op's line goes to its own readers below.
            e = find("\n", pos)
            if e < 0:
                e = n
            line = text[pos:e]
            if c != "%" or '= "' not in line:
                pieces = split_names(line)
                key = tuple(pieces[0::2])
                ok = shapes.get(key)
                if ok is None:
                    ok = _shape_ok(text, pos, e, pieces, key)
                if ok:
                    m = skip(text, e)
                    nxt = m.end() if m else e
                    # What follows may follow an op (as `_op_may_end`), and is no `loc(` the op would
                    # take, nor the `reducer` of a reduce (pretty_op_parts leaves that to the grammar).
                    if nxt >= n or (
                        text[nxt] in _OP_FOLLOWERS
                        and not text.startswith("loc(", nxt)
                        and (ok is True or _REDUCER.match(text, nxt) is None)
                    ):
                        items.append(("k", pos, e, pieces, key))
                        end = e
                        pos = nxt
                        continue
        if c != "%" and c != '"':
            if not ((c.isascii() and c.isalpha()) or c == "_"):
                break
            try:
                r = pretty_op_parts(text, pos)
            except ScanError:
                break
            if r is None:
                break
            items.append(("p", pos, r[0]))
            end = r[1]
            pos = scan.skip_ws(text, end)
            continue
        # The line is `head tail [loc]` and nothing else: FAST_GENERIC's parts, its tail matched
        # once per distinct text. The tail's function type ends before blanks, so the location is
        # where the line's last " loc(" is, when what follows is a whole SIMPLE_LOC (which cannot
        # end early: its parentheses balance).
        h = head(text, pos)
        if h is not None:
            he = h.end()
            if cr:  # the line ends at the first '\r' or '\n' (neither search runs past it)
                e = find("\r", he)
                if e < 0:
                    e = n
                lf = find("\n", he, e)
                if lf >= 0:
                    e = lf
            else:
                e = find("\n", he)
                if e < 0:
                    e = n
            lp = rfind(" loc(", he, e) + 1
            if lp:
                tail = text[he:lp]
                t_end = (tail_cache.get(tail) or tail_parts(tail))[0]
                if t_end >= 0 and loc_match(text, lp, e) is not None:
                    items.append(("t", h, tail, text[lp:e]))
                    end = e
                    m = skip(text, e)
                    pos = m.end() if m else e
                    continue
            else:
                tail = text[he:e]
                t_end = (tail_cache.get(tail) or tail_parts(tail))[0]
                if t_end >= 0:
                    m = skip(text, he + t_end)
                    nxt = m.end() if m else he + t_end
                    if not text.startswith("loc(", nxt):  # on a later line: FAST_GENERIC's case
                        items.append(("t", h, tail, None))
                        end = he + t_end
                        pos = nxt
                        continue
        m = fast(text, pos)
        if m is not None and _fast_ok(text, m):
            items.append(("f", m))
            end = m.end()
        else:
            # `%r = d.op ...` (no generic head): the custom form's fast reader first.
            r = fast_pretty_op_parts(text, pos) if m is None and c == "%" else None
            kind = "p"
            try:
                if r is None:
                    r = generic_op_parts(text, pos)
                    kind = "g"
                    if r is None and c == "%":
                        r = general_pretty_op_parts(text, pos)
                        kind = "p"
            except ScanError:
                # Malformed: the run ends before it and the op is lexed piecewise, which reports
                # the error only after the ops before it are built (and report theirs), as the
                # general path does.
                break
            if r is None:
                break
            items.append((kind, pos, r[0]))
            end = r[1]
        pos = scan.skip_ws(text, end)
    if pos < n and items and not _starts_statement(text, pos):
        # The run stops before something that may be an error. After a piecewise op the grammar
        # would also accept a location there, after OP_RUN it does not, so the expected tokens
        # of that error would differ: the last op is lexed piecewise too (the run ends where it
        # starts), as the general path does.
        last = items.pop()
        end = last[1] if isinstance(last[1], int) else last[1].start()
    return (items, end, pos if pos < n else -1) if items else None


# ---- whole lines by shape: a line's text with its SSA names cut out ---------------------------------
# A line `%r = d.op %a, %b ... : T` is, around its names, one of a few hundred shapes a file repeats
# thousands of times; every line of one shape reads the same up to the names (the readers see a
# name only as a whole `_V` match, which `_NAMES` finds alike). So the one-line readers run once
# per shape, and a line whose shape they took whole, each name a result or an operand, is handed
# over as its pieces; the builder builds it from the shape's template (IRBuilder.line_op).
_NAMES = lazy_compile(rf"({_V})", re.ASCII)
# shape -> whether its lines are read whole by pretty_op_parts: True, False or _REDUCE_SHAPE (a
# reduce ... applies: read whole unless a `reducer` follows)
_SHAPES: dict[tuple, bool | str] = {}
_REDUCE_SHAPE = "reduce"
_LETTERS = "_ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
_LINE_STARTS = frozenset("%" + _LETTERS)  # what starts an op line read by shape
_OP_FOLLOWERS = frozenset('%"}^#!' + _LETTERS)  # what may follow an op (`_op_may_end`, ASCII)


def _line_value_spans(text: str, base: int, parts: tuple) -> list[tuple[int, int]] | None:
    """The result's and operands' name spans (in the order IRBuilder.pretty_op_line's template
    lists operands) of the pretty_op_parts `parts` of an op at `base`; None for an op the builder
    does not template (several result groups, a reduce without `applies`)."""
    results_end, _, family, items, _, _, _ = parts
    if results_end > base:
        head = text[base:results_end]
        if "," in head or ":" in head:
            return None
        m = scan.VALUE.match(text, base)
        if m is None:
            return None
        spans = [m.span()]
    else:
        spans = []
    if family == "OP_PRETTY":
        spans += items
    elif family == "OP_KWARGS":
        spans += [it for it in items if len(it) == 2]
    elif family == "OP_COMPARE":
        spans += items[1:3]
    elif family == "OP_DOT":
        spans += items[:2]
    elif family == "OP_SDY_SHARDING":
        spans += items[:1]
    elif family == "OP_REDUCE" and items[1] is not None:
        spans += [span for pair in items[0] for span in pair]
    elif family != "OP_CONSTANT":
        return None
    return spans


def _shape_ok(text: str, pos: int, e: int, pieces: list[str], key: tuple) -> bool | str:
    """Do pretty_op_parts read the line from `pos` to `e` whole, each of its names a result or an
    operand? Recorded for the line's shape (see `_SHAPES`)."""
    ok: bool | str = False
    try:
        r = pretty_op_parts(text, pos)
    except ScanError:
        r = None
    if r is not None and r[1] == e:
        spans = _line_value_spans(text, pos, r[0])
        if spans is not None:
            names = []
            p = pos
            for k, piece in enumerate(pieces):
                if k % 2:
                    names.append((p, p + len(piece)))
                p += len(piece)
            ok = sorted(spans) == names
            if ok and r[0][2] == "OP_REDUCE":
                ok = _REDUCE_SHAPE
    if len(_SHAPES) < _CACHE_BOUND:
        _SHAPES[key] = ok
    return ok


def _starts_statement(text: str, pos: int) -> bool:
    """Does `text[pos:]` start with a token that may follow an op in a region whatever the
    parser's state: `}`, an op's results, a generic op's name and operands, a registered op name
    or a block label?"""
    c = text[pos]
    if c == "}":
        return True
    if c == "%":
        return scan.RESULTS.match(text, pos) is not None
    if c == '"':
        return scan.GENERIC_HEAD.match(text, pos) is not None
    if c == "^":
        return scan.BLOCK_LABEL.match(text, pos) is not None
    m = scan.BARE_ID.match(text, pos)
    return m is not None and m.group() in OP_FAMILIES


def loc_alias_run(text: str, pos: int) -> tuple[list[re.Match], int] | None:
    """The `#name = loc(...)` definitions in the common location forms from `pos` on, separated
    by blanks only, as LOC_ALIAS_ITEM-shaped matches (groups: name, location), and where the last
    ends; None when the text at `pos` is not one."""
    m = scan.LOC_ALIAS_ITEM.match(text, pos)
    if m is None:
        return None
    items = [m]
    end = m.end()
    # finditer, not a match per item: one C-level loop. It stops at the first gap (a comment, a
    # rarer location form); the search past the gap ends at the next simple definition, and the
    # next run starts there, so the text is scanned once overall.
    for m in scan.LOC_ALIAS_NEXT.finditer(text, end):
        if m.start() != end:
            break
        items.append(m)
        end = m.end()
    return items, end


def _trailing_loc(text: str, end: int) -> tuple[tuple[int, int] | None, int]:
    """The span of a `loc(...)` after offset `end` (or None), and where the op now ends."""
    r = scan.skip_ws(text, end)
    if not text.startswith("loc(", r):
        return None, end
    m = scan.SIMPLE_LOC.match(text, r)
    e = m.end() if m else scan.scan_balanced(text, r + 3)
    return (r, e), e
