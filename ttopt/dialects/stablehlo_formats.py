"""StableHLO's custom assembly: compare, keyword lists, slice, dot_general, reduce,
convolution, get_tuple_element, composite and while (StablehloOps.cpp's printers).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Protocol, Sequence, cast

from ttopt.dialects.format_base import (
    I64,
    Format,
    PrettyFormat,
    enum_attr,
    enum_value,
    i64_array,
    int_of,
    int_token,
    ints_of,
    ints_text,
    is_enum,
    items_of,
    print_types,
    resolve_types,
    resolved,
    str_of,
    without_entry_args,
)
from ttopt.ir.attributes import (
    ArrayAttr,
    Attribute,
    DenseArrayAttr,
    DenseElementsAttr,
    DialectAttr,
    IntegerAttr,
    StringAttr,
    quote,
    unquote,
)
from ttopt.ir.operation import Block, Operation, Region
from ttopt.ir.types import ScalarType, TensorType, Type
from ttopt.parse.lexer import FastToken
from ttopt.parse.opspec import OpSpec

if TYPE_CHECKING:
    from ttopt.ir.printer import Printer
    from ttopt.ir.values import Value
    from ttopt.parse.parser import IRBuilder





class CompareFormat(Format):
    """`stablehlo.compare  GE, %a, %b,  SIGNED : (A, B) -> R`."""

    family = "OP_COMPARE"

    def build(self, b: IRBuilder, c: list) -> OpSpec:
        _, direction, lhs, rhs, cmp_type, attrs, ts = c
        props: dict[str, Attribute] = {"comparison_direction": enum_attr("stablehlo", "comparison_direction", str(direction))}
        if cmp_type is not None:
            props["compare_type"] = enum_attr("stablehlo", "comparison_type", str(cmp_type))
        return self._spec(b, c, [lhs, rhs], properties=props, attributes=b.dict(attrs), finish=self._finish_types(b, ts))

    def printable(self, op: Operation) -> bool:
        """Direction (and compare type) must be enum attributes: their word is what prints."""
        ct = op.properties.get("compare_type")
        return len(op.operands) == 2 and is_enum(op.properties.get("comparison_direction"), "comparison_direction") and (
            ct is None or is_enum(ct, "comparison_type")
        )

    def print(self, op: Operation, p: Printer, indent: str) -> str:
        s = f"{self.name(op, p)} {enum_value(op.properties['comparison_direction'])}, {p.names_of(op.operands)}"
        ct = op.properties.get("compare_type")
        if ct is not None:
            s += f", {enum_value(ct)}"
        return s + self.attrs(op, p) + print_types(p, op, self.style)


class SliceFormat(Format):
    """`stablehlo.slice %x [0:4, 0:40:2] : (A) -> R`."""

    family = "OP_SLICE"

    def build(self, b: IRBuilder, c: list) -> OpSpec:
        _, value, *dims, attrs, ts = c
        props = {
            "start_indices": i64_array([d[0] for d in dims]),
            "limit_indices": i64_array([d[1] for d in dims]),
            "strides": i64_array([d[2] for d in dims]),
        }
        return self._spec(b, c, [value], properties=props, attributes=b.dict(attrs), finish=self._finish_types(b, ts))

    def print(self, op: Operation, p: Printer, indent: str) -> str:
        pr = op.properties
        dims = []
        for s, l, st in zip(ints_of(pr["start_indices"]), ints_of(pr["limit_indices"]), ints_of(pr["strides"])):
            dims.append(f"{s}:{l}" + (f":{st}" if st != 1 else ""))
        return f"{self.name(op, p)} {p.name(op.operands[0])} [{', '.join(dims)}]{self.attrs(op, p)}{print_types(p, op, self.style)}"


def slice_dim(b: IRBuilder, c: list) -> tuple:
    start, limit, stride = c
    return (int_token(b, start), int_token(b, limit), int_token(b, stride) if stride is not None else 1)


def make_dot_dimensions(lb: list[int], rb: list[int], lc: list[int], rc: list[int]) -> DialectAttr:
    """`#stablehlo.dot<...>` with MLIR's field order, empty fields omitted."""
    fields = []
    for name, vals in (
        ("lhs_batching_dimensions", lb),
        ("rhs_batching_dimensions", rb),
        ("lhs_contracting_dimensions", lc),
        ("rhs_contracting_dimensions", rc),
    ):
        if vals:
            fields.append(f"{name} = {ints_text(vals)}")
    body = ", ".join(fields)
    return DialectAttr("stablehlo.dot", body, f"#stablehlo.dot<{body}>")


class DotFormat(Format):
    """`stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1], ...`."""

    family = "OP_DOT"

    def build(self, b: IRBuilder, c: list) -> OpSpec:
        _, lhs, rhs, *items, attrs, ts = c
        props: dict[str, Attribute] = {}
        batch: tuple[list[int], list[int]] = ([], [])
        contract: tuple[list[int], list[int]] = ([], [])
        saw_dims = False
        for kind, key_tok, payload in items:
            key = str(key_tok)
            if kind == "dims" and key == "batching_dims":
                batch = payload
                saw_dims = True
            elif kind == "dims" and key == "contracting_dims":
                contract = payload
                saw_dims = True
            elif kind == "enums" and key == "precision":
                props["precision_config"] = ArrayAttr(tuple(enum_attr("stablehlo", "precision", w) for w in payload))
            elif kind == "angle" and key == "algorithm":
                props["algorithm"] = DialectAttr("stablehlo.dot_algorithm", payload[1:-1], f"#stablehlo.dot_algorithm{payload}")
            else:
                b.fail(key_tok, f"unknown option '{key}' for '{c[0]}'")
        if saw_dims or b._canonical_name(c[0]) == "stablehlo.dot_general":
            props = {"dot_dimension_numbers": make_dot_dimensions(batch[0], batch[1], contract[0], contract[1]), **props}
        return self._spec(b, c, [lhs, rhs], properties=props, attributes=b.dict(attrs), finish=self._finish_types(b, ts))

    def printable(self, op: Operation) -> bool:
        """Two operands; dimension numbers, precision and algorithm of the kinds the form spells."""
        dd = resolved(op.properties.get("dot_dimension_numbers"))
        if len(op.operands) != 2 or (dd is None and op.name == "stablehlo.dot_general"):
            return False
        if dd is not None and not (isinstance(dd, DialectAttr) and dd.name == "stablehlo.dot"):
            return False
        pc = resolved(op.properties.get("precision_config"))
        if pc is not None and not (isinstance(pc, ArrayAttr) and all(is_enum(a, "precision") for a in pc.items)):
            return False
        alg = resolved(op.properties.get("algorithm"))
        return alg is None or isinstance(alg, DialectAttr)

    def print(self, op: Operation, p: Printer, indent: str) -> str:
        parts = [p.name(op.operands[0]), p.name(op.operands[1])]
        dd = op.properties.get("dot_dimension_numbers")
        if dd is not None:
            d = dd.resolve().typed
            if d.lhs_batching_dimensions or d.rhs_batching_dimensions:
                parts.append(f"batching_dims = {ints_text(d.lhs_batching_dimensions)} x {ints_text(d.rhs_batching_dimensions)}")
            parts.append(f"contracting_dims = {ints_text(d.lhs_contracting_dimensions)} x {ints_text(d.rhs_contracting_dimensions)}")
        pc = op.properties.get("precision_config")
        if pc is not None:
            parts.append("precision = [" + ", ".join(enum_value(a) for a in items_of(pc)) + "]")
        alg = op.properties.get("algorithm")
        if alg is not None:
            parts.append(f"algorithm = <{alg.resolve().body}>")
        return f"{self.name(op, p)} {', '.join(parts)}{self.attrs(op, p)}{print_types(p, op, self.style)}"


def dot_dims(b: IRBuilder, c: list) -> tuple:
    return ("dims", c[0], (c[1], c[2]))


def dot_enum_list(b: IRBuilder, c: list) -> tuple:
    return ("enums", c[0], [str(t) for t in c[1:]])


def dot_angle(b: IRBuilder, c: list) -> tuple:
    return ("angle", c[0], str(c[1]))


class ReduceFormat(Format):
    """`stablehlo.reduce(%x init: %c) applies stablehlo.add across dimensions = [1] : ...` and the
    general `reducer(...) (...) { ... }` form."""

    family = "OP_REDUCE"

    def build(self, b: IRBuilder, c: list) -> OpSpec:
        inputs = [x for x in c[1:] if isinstance(x, ReduceInput)]
        rest = [x for x in c[1:] if not isinstance(x, ReduceInput)]
        applies, dims, attrs, ts, reducer = rest
        operands = [i[0] for i in inputs] + [i[1] for i in inputs]
        spec = self._spec(b, c, operands, properties={"dimensions": i64_array(dims)}, attributes=b.dict(attrs))
        if reducer is not None:
            spec.regions = [reducer]
        if applies is not None:
            k = len(inputs)
            spec.implied_body = lambda types: _binary_body(b, str(applies), types[k:])
        style = self.style

        def finish(spec: OpSpec, n: int) -> None:
            resolve_types(b, spec, ts, n, style)
            if spec.implied_body is not None:
                assert spec.operand_types is not None  # the grammar requires `: types` after a reduce
                spec.regions = [spec.implied_body(spec.operand_types)]

        spec.finish = finish
        return spec

    def print(self, op: Operation, p: Printer, indent: str) -> str:
        operands = op.operands
        n = len(operands) // 2
        if n == 1:  # the commonest, without a generator
            ins = f"({p.name(operands[0])} init: {p.name(operands[1])})"
        else:
            ins = ", ".join(f"({p.name(operands[i])} init: {p.name(operands[n + i])})" for i in range(n))
        dims = ints_text(ints_of(op.properties["dimensions"]))
        region = op.regions[0] if op.regions else None
        applied = _compact_body(region) if n == 1 and region is not None else None
        types = print_types(p, op, self.style)
        attrs = self.attrs(op, p)
        if applied is not None:
            return f"{self.name(op, p)}{ins} applies {applied} across dimensions = {dims}{attrs}{types}"
        s = f"{self.name(op, p)}{ins} across dimensions = {dims}{attrs}{types}"
        if region is None:
            return s
        entry = region.entry
        args = entry.args
        pairs = " ".join(f"({p.block_arg(args[i])}, {p.block_arg(args[n + i])})" for i in range(n))
        body = p.region(without_entry_args(region), indent)
        return f"{s}\n{indent} reducer{pairs}  {body}"




def _binary_body(b: IRBuilder, op_name: str, init_types: Sequence[Type]) -> Region:
    """The body `reduce ... applies OP` stands for: (acc, x) -> OP(acc, x)."""
    from ttopt.ir.opdef import OP_ALIASES

    name = OP_ALIASES.get(op_name, op_name)
    n = len(init_types)
    block = Block([*init_types, *init_types])
    args = block.args
    results: list[Value] = []
    for i in range(n):
        # Operation.parsed: the parser's constructor (one result, no region); one body per reduce op.
        bin_op = Operation.parsed(name, [args[i], args[n + i]], init_types[i], None, {}, {}, None)
        block.append(bin_op)
        results.append(bin_op.results[0])
    block.append(Operation.parsed("stablehlo.return", results, None, None, {}, {}, None))
    return Region([block])


def _compact_body(region: Region) -> str | None:
    """The op name if the body is exactly `return OP(arg0, arg1)`, else None."""
    if len(region.blocks) != 1:
        return None
    blk = region.blocks[0]
    if len(blk.args) != 2 or len(blk.ops) != 2:
        return None
    bin_op, ret = blk.ops
    if ret.name != "stablehlo.return" or len(ret.operands) != 1 or ret.operands[0] is not bin_op.results[0:1][0]:
        return None
    if bin_op.operands != [blk.args[0], blk.args[1]] or bin_op.attributes or bin_op.properties or bin_op.regions:
        return None
    d = bin_op.opdef
    if d is None or not isinstance(d.format, PrettyFormat):
        return None
    t = blk.args[0].type
    # `is` first: the types are one object as a rule, and `!=` is a Python-level comparison
    rt, t1 = bin_op.results[0].type, blk.args[1].type
    if (rt is not t and rt != t) or (t1 is not t and t1 != t):
        return None
    return bin_op.name


class ReduceInput(tuple):
    """(input value token, init value token) of one `(%x init: %c)`."""


class _Scratch(Protocol):
    """State one grammar callback leaves on the builder for a later one (reduce and while forms)."""

    reducer_pairs: list[tuple[Any, Any]]
    while_args: list[Any] | None


def _scratch(b: IRBuilder) -> _Scratch:
    return cast(_Scratch, b)


def reduce_input(b: IRBuilder, c: list) -> ReduceInput:
    _scratch(b).reducer_pairs = []
    return ReduceInput((c[0], c[1]))


def reducer_pair(b: IRBuilder, c: list) -> tuple:
    pairs = getattr(b, "reducer_pairs", None)
    if pairs is None:
        pairs = _scratch(b).reducer_pairs = []
    pairs.append((c[0], c[1]))
    # Block arguments are all accumulators first, then all elements (MLIR's order).
    b.expect_pending([p[0] for p in pairs] + [p[1] for p in pairs])
    return (c[0], c[1])


def reducer(b: IRBuilder, c: list) -> Region:
    _scratch(b).reducer_pairs = []
    return c[-1]


_TRAILING_COMMA = re.compile(r",\s*}$")
_WINDOW_KEYS = (
    ("stride", "window_strides"),
    ("pad", "padding"),
    ("lhs_dilate", "lhs_dilation"),
    ("rhs_dilate", "rhs_dilation"),
    ("reverse", "window_reversal"),
)


class ConvFormat(Format):
    """`stablehlo.convolution(%x, %w) dim_numbers = [..]x[..]->[..], window = {...} {attrs} : ...`."""

    family = "OP_CONV"

    def build(self, b: IRBuilder, c: list) -> OpSpec:
        _, lhs, rhs, dims_tok, window_tok, attrs, ts = c
        dims = re.sub(r"\s+", " ", str(dims_tok)).replace(" x ", "x").replace(" -> ", "->")
        props: dict[str, Attribute] = {"dimension_numbers": DialectAttr("stablehlo.conv", dims, f"#stablehlo.conv<{dims}>")}
        if window_tok is not None:
            # StableHLO's window parser takes a comma after the last option (`pad = [[1, 1]], }`).
            text = str(window_tok)
            trimmed = _TRAILING_COMMA.sub("}", text)
            window = b.dict(window_tok if trimmed == text else FastToken(window_tok.type, trimmed, window_tok.start_pos))
            known = dict(_WINDOW_KEYS)
            for key, value in window.items():
                prop = known.get(key)
                if prop is None:
                    b.fail(window_tok, f"unknown window option '{key}' (expected {', '.join(known)})")
                problem = _window_problem(key, value)
                if problem:
                    b.fail(window_tok, f"window option '{key}': {problem}")
                props[prop] = _window_value(key, value)
        return self._spec(b, c, [lhs, rhs], properties=props, attributes=b.dict(attrs), finish=self._finish_types(b, ts))

    def print(self, op: Operation, p: Printer, indent: str) -> str:
        pr = op.properties
        window = []
        for key, prop in _WINDOW_KEYS:
            a = pr.get(prop)
            if a is None:
                continue
            if prop == "padding":
                window.append(f"{key} = {_padding_text(a)}")
            elif prop == "window_reversal":
                window.append(f"{key} = [" + ", ".join("true" if v else "false" for v in ints_of(a)) + "]")
            else:
                window.append(f"{key} = {ints_text(ints_of(a))}")
        dims = pr["dimension_numbers"].resolve().body
        s = f"{self.name(op, p)}({p.names_of(op.operands)}) dim_numbers = {dims}"
        if window:
            s += ", window = {" + ", ".join(window) + "}"
        return s + self.attrs(op, p) + print_types(p, op, self.style)


def _padding_text(a: Attribute) -> str:
    """`[[lo, hi], ...]` for the window syntax, expanding a splat padding literal."""
    body = a.resolve().body.strip()
    if body.startswith("["):
        return body
    rows = a.resolve().type.shape[0]
    return "[" + ", ".join(f"[{body}, {body}]" for _ in range(rows)) + "]"


def _window_problem(key: str, value: Attribute) -> str:
    """Why a window option's value has the wrong shape ('' when it is fine)."""
    if not isinstance(value, ArrayAttr):
        return f"expected a list, got {value.text}"
    if key == "pad" and any(not isinstance(row, ArrayAttr) or len(row.items) != 2 for row in value.items):
        return f"expected one [low, high] pair per spatial dimension, got {value.text}"
    return ""


def _window_value(key: str, value: Attribute) -> Attribute:
    items = value.items if isinstance(value, ArrayAttr) else ()
    if key == "pad":
        rows = [[getattr(x, "value", 0) for x in items_of(row)] for row in items]
        flat = {v for r in rows for v in r}
        # MLIR prints a dense literal whose elements are all equal as a splat.
        body = str(flat.pop()) if len(flat) == 1 else "[" + ", ".join(ints_text(r) for r in rows) + "]"
        ty = TensorType((len(rows), 2), I64)
        return DenseElementsAttr(body, ty)
    if key == "reverse":
        return DenseArrayAttr("i1", tuple(bool(getattr(x, "value", False)) for x in items))
    return i64_array([getattr(x, "value", 0) for x in items])


class IndexedFormat(Format):
    """`stablehlo.get_tuple_element %t[0] : (tuple<A, B>) -> A`."""

    family = "OP_INDEXED"

    def __init__(self, prop: str = "index", element: str = "i32") -> None:
        super().__init__(style="functional")
        self.prop = prop
        self.element = ScalarType(element)

    def build(self, b: IRBuilder, c: list) -> OpSpec:
        _, value, index, attrs, ts = c
        n = int_token(b, index, int(self.element.text[1:]))
        props = {self.prop: IntegerAttr(n, self.element, f"{n} : {self.element.text}")}
        return self._spec(b, c, [value], properties=props, attributes=b.dict(attrs), finish=self._finish_types(b, ts))

    def printable(self, op: Operation) -> bool:
        v = op.properties.get(self.prop)
        return len(op.operands) == 1 and isinstance(v, IntegerAttr) and v.value >= 0

    def print(self, op: Operation, p: Printer, indent: str) -> str:
        index = int_of(op.properties[self.prop])
        return f"{self.name(op, p)} {p.name(op.operands[0])}[{index}]{self.attrs(op, p)}{print_types(p, op, self.style)}"


class CompositeFormat(Format):
    """`stablehlo.composite "my.op" %a, %b {composite_attributes = {..}, decomposition = @f,
    version = 1 : i32} : (A, B) -> R`: the name is written first, the rest in the attr-dict."""

    family = "OP_COMPOSITE"

    def __init__(self) -> None:
        super().__init__(style="functional", inherent=("composite_attributes", "decomposition", "version"))

    def build(self, b: IRBuilder, c: list) -> OpSpec:
        _, name_tok, values, attrs, ts = c
        props = {"name": StringAttr(unquote(str(name_tok)))}
        return self._spec(b, c, values or [], properties=props, attributes=b.dict(attrs), finish=self._finish_types(b, ts))

    def printable(self, op: Operation) -> bool:
        return isinstance(op.properties.get("name"), StringAttr)

    def print(self, op: Operation, p: Printer, indent: str) -> str:
        # MLIR writes the operand list after one space even when it is empty (two spaces then).
        operands = f" {p.names_of(op.operands)}"
        return f"{self.name(op, p)} {quote(str_of(op.properties['name']))}{operands}{self.attrs(op, p)}{print_types(p, op, self.style)}"


class BarrierFormat(Format):
    """`stablehlo.optimization_barrier {attrs} %a, %b : A, B` or `stablehlo.optimization_barrier()`:
    MLIR's `attr-dict ($operand^ : types):(`(` `)`)?`, attributes before the operands."""

    family = "OP_BARRIER"

    def __init__(self) -> None:
        super().__init__(style="variadic")

    def build(self, b: IRBuilder, c: list) -> OpSpec:
        if len(c) == 2:  # `()`: no operands, no results
            return self._spec(b, c, [], operand_types=[], result_types=[], attributes=b.dict(c[1]))
        _, before, values, after, ts = c
        attrs = {**b.dict(before), **b.dict(after)}
        return self._spec(b, c, values, attributes=attrs, finish=self._finish_types(b, ts))

    def printable(self, op: Operation) -> bool:
        return [v.type for v in op.operands] == [r.type for r in op.results] and not op.properties

    def print(self, op: Operation, p: Printer, indent: str) -> str:
        s = self.name(op, p) + self.attrs(op, p)
        if not op.operands:
            return s + "()"  # MLIR's spelling: no space, also after an attr-dict
        return f"{s} {p.names_of(op.operands)} : {p.types([v.type for v in op.operands])}"


class WhileFormat(Format):
    """`stablehlo.while(%iterArg = %a) : A [attributes {..}] cond { .. } do { .. }`."""

    family = "OP_WHILE"

    def build(self, b: IRBuilder, c: list) -> OpSpec:
        _, args, types, attrs, cond, body = c
        args = args or []
        if len(args) != len(types):
            b.fail(c[0], f"'{c[0]}' has {len(args)} loop value(s) but {len(types)} type(s)")
        return self._spec(
            b, c, [a[1] for a in args], operand_types=types, result_types=types,
            attributes=b.dict(attrs), regions=[cond, body],
        )

    def print(self, op: Operation, p: Printer, indent: str) -> str:
        cond, body = op.regions
        pairs = ", ".join(f"{p.name(a)} = {p.name(v)}" for a, v in zip(cond.entry.args, op.operands))
        s = f"{self.name(op, p)}({pairs}) : {p.types([r.type for r in op.results])}"
        if op.attributes:
            s += f" attributes {{{p.dict_body(op.attributes)}}}"
        return (
            f"{s}\n{indent}cond {p.region(without_entry_args(cond), indent)} "
            f"do {p.region(without_entry_args(body), indent)}"
        )


def while_args(b: IRBuilder, c: list) -> list:
    _scratch(b).while_args = list(c)
    return list(c)


def while_arg(b: IRBuilder, c: list) -> tuple:
    return (c[0], c[1])


def while_types(b: IRBuilder, c: list) -> list:
    types = [b.type(t) for t in c]
    # The cond and do regions both take the loop values as block arguments.
    args = getattr(b, "while_args", None) or []
    _scratch(b).while_args = None
    if len(args) == len(types):
        b.expect_pending([(a[0], t, {}, None) for a, t in zip(args, types)], repeat=2)
    return types
