"""Custom assembly formats: one class per format family, each owning its parse and print side.

A family corresponds to one rule of grammars/mlir.lark (`pretty_op`, `kwargs_op`, ...). The
parse side turns the rule's children into canonical properties (the names MLIR uses in generic
form, e.g. `broadcast_dimensions = array<i64: 1>`), so `--mlir-print-op-generic` and passes see
the same op whichever way it was written; the print side reads those properties back.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Callable, Protocol, cast, overload

from lark import Token

from ttopt.ir.attributes import (
    ArrayAttr,
    Attribute,
    BoolAttr,
    DenseArrayAttr,
    DenseElementsAttr,
    DialectAttr,
    DictAttr,
    IntegerAttr,
    OpaqueAttr,
    StringAttr,
    SymbolRefAttr,
    TypeAttr,
    UnitAttr,
    quote,
    unquote,
)
from ttopt.ir.opdef import register_format_rules
from ttopt.ir.operation import Block, Operation, Region
from ttopt.ir.printer import sym_text
from ttopt.ir.types import FunctionType, ScalarType, TensorType, Type
from ttopt.ir.values import BlockArgument
from ttopt.parse.opspec import OpSpec

if TYPE_CHECKING:
    from ttopt.ir.printer import Printer
    from ttopt.parse.parser import IRBuilder

I64 = ScalarType("i64")


def _i64(v: int) -> IntegerAttr:
    return IntegerAttr(v, I64, f"{v} : i64")


def _i64_array(values: list[int] | tuple[int, ...]) -> DenseArrayAttr:
    return DenseArrayAttr("i64", tuple(values))


def _enum(dialect: str, kind: str, value: str) -> DialectAttr:
    return DialectAttr(dialect, f"{kind} {value}", f"#{dialect}<{kind} {value}>")


@overload
def enum_value(attr: Attribute) -> str: ...


@overload
def enum_value(attr: None) -> None: ...


@overload
def enum_value(attr: Attribute | None) -> str | None: ...


def enum_value(attr: Attribute | None) -> str | None:
    """The value word of an enum attribute such as `#stablehlo<comparison_direction GE>`."""
    if attr is None:
        return None
    a = attr.resolve()
    body = getattr(a, "body", None)
    if body is None:
        return a.text
    return body.split()[-1]


def _ints_text(values: Any) -> str:
    return "[" + ", ".join(str(v) for v in values) + "]"


# ---- typed reads of the attributes a printer (or a parsed literal) holds ----------------------------
# A printer runs on an op whose property kinds `printable()` (or the op's verifier) has checked, so
# these are casts for the type checker, with no runtime check: a wrong kind fails as it always did.
def _int(a: Attribute) -> int:
    return cast(IntegerAttr, a).value


def _bool(a: Attribute) -> bool:
    return cast(BoolAttr, a).value


def _str(a: Attribute) -> str:
    return cast(StringAttr, a).value


def _ints(a: Attribute) -> tuple[Any, ...]:
    """The elements of a dense array (`array<i64: ...>`, `array<i1: ...>`)."""
    return cast(DenseArrayAttr, a).values


def _items(a: Attribute) -> tuple[Attribute, ...]:
    return cast(ArrayAttr, a).items


# ---- type specs shared by the pretty families --------------------------------------------------
def resolve_types(b: IRBuilder, spec: OpSpec, ts: tuple | None, n_results: int, style: str) -> None:
    """Fill operand/result types from `: T`, `: T1, T2` or `: (A) -> R` as the style reads them."""
    n_ops = len(spec.operands)
    if ts is None:
        spec.operand_types = None
        spec.result_types = []
        if n_results:
            b.fail(spec.pos, f"'{spec.name}' needs a type after ':' for its result")
        return
    if ts[0] == "fn":
        spec.operand_types, spec.result_types = ts[1], ts[2]
        return
    types = ts[1]
    if n_results == 0:
        spec.operand_types, spec.result_types = types, []
    elif style == "result_only" and len(types) == 1:
        spec.operand_types, spec.result_types = None, types * n_results
    elif len(types) == 1:
        spec.operand_types, spec.result_types = types * n_ops, types * n_results
    elif style == "select" and len(types) == 2:
        spec.operand_types, spec.result_types = [types[0]] + [types[1]] * (n_ops - 1), [types[1]]
    elif len(types) == n_ops == n_results:
        spec.operand_types, spec.result_types = types, types
    else:
        b.fail(ts[2], f"cannot read {len(types)} type(s) for '{spec.name}' with {n_ops} operand(s) and {n_results} result(s)")


def print_types(p: Printer, op: Operation, style: str) -> str:
    """The ` : ...` suffix matching `resolve_types`."""
    ots = [v.type for v in op.operands]
    rts = [r.type for r in op.results]
    if not rts:
        return f" : {p.types(ots)}" if ots else ""
    if style == "result_only" and len(rts) == 1:
        return f" : {p.type(rts[0])}"
    if style == "chlo":
        return f" : {p.types(ots)} -> {format_result_list(p, rts)}"
    if style == "select" and len(ots) == 3 and ots[1] == ots[2] == rts[0]:
        return f" : {p.type(ots[0])}, {p.type(rts[0])}"
    if style != "functional":
        first = rts[0]
        if all(t is first or t == first for t in ots) and all(t is first or t == first for t in rts):
            return f" : {p.type(first)}"
        if style == "variadic" and ots == rts:
            return f" : {p.types(ots)}"
    return f" : {p.fn_type(ots, rts)}"


def format_result_list(p: Printer, rts: list) -> str:
    return p.type(rts[0]) if len(rts) == 1 else f"({p.types(rts)})"


class Format:
    """Base: a family name (grammar terminal) and the spelling the op prints with."""

    family = ""

    def __init__(self, print_name: str | None = None, style: str = "same", inherent: tuple[str, ...] = ()) -> None:
        self.print_name = print_name
        self.style = style
        # Inherent attributes (MLIR properties) that the pretty form writes in its attr-dict.
        self.inherent = inherent

    def name(self, op: Operation, p: Printer | None = None) -> str:
        """The spelling: short (`return`) where the op's dialect is the default one, else full."""
        if self.print_name is None:
            return op.name
        if op.name == "builtin.module":
            # MLIR elides `builtin.` for the top-level module and modules nested in modules only.
            parent = op.parent_op
            return self.print_name if parent is None or parent.name == "builtin.module" else op.name
        if p is None or p.default_dialect == op.dialect:
            return self.print_name
        return op.name

    def build(self, b: IRBuilder, c: list) -> OpSpec:
        raise NotImplementedError

    def print(self, op: Operation, p: Printer, indent: str) -> str:
        raise NotImplementedError

    def printable(self, op: Operation) -> bool:
        """Can the custom form represent `op` (property kinds it needs)? Else it prints generic."""
        return True

    def _spec(self, b: IRBuilder, c: list, operands: list, **kw: Any) -> OpSpec:
        tok = c[0]
        name = b._canonical_name(tok)
        spec = OpSpec(name, operands, pos=tok.start_pos, **kw)
        if self.inherent and spec.attributes:
            for k in self.inherent:
                if k in spec.attributes:
                    spec.properties[k] = spec.attributes.pop(k)
        return spec

    def attrs(self, op: Operation, p: Printer) -> str:
        """The pretty form's ` {attr-dict}`: discardable attributes plus inherent ones it holds."""
        if not self.inherent:
            return p.attr_dict(op.attributes)
        merged = dict(op.attributes)
        for k in self.inherent:
            v = op.properties.get(k)
            if v is not None:
                merged[k] = v
        return p.attr_dict(merged)

    def _finish_types(self, b: IRBuilder, ts: tuple | None) -> Callable[[OpSpec, int], None]:
        style = self.style

        def finish(spec: OpSpec, n: int) -> None:
            resolve_types(b, spec, ts, n, style)

        return finish


class PrettyFormat(Format):
    """`op %a, %b {attrs} : T` — elementwise ops, returns, convert, reshape, select, ..."""

    family = "OP_PRETTY"

    def build(self, b: IRBuilder, c: list) -> OpSpec:
        _, values, attrs, ts = c
        return self._spec(b, c, values or [], attributes=b.dict(attrs), finish=self._finish_types(b, ts))

    def print(self, op: Operation, p: Printer, indent: str) -> str:
        s = self.name(op, p)
        if op.operands:
            s += " " + p.names_of(op.operands)
        return s + self.attrs(op, p) + print_types(p, op, self.style)


class ConstantFormat(Format):
    """`stablehlo.constant {attrs} dense<...> : T`."""

    family = "OP_CONSTANT"

    def build(self, b: IRBuilder, c: list) -> OpSpec:
        _, attrs, value_tok = c
        value = b.attr(value_tok)
        ty = getattr(value, "type", None)
        if not isinstance(ty, Type):
            b.fail(value_tok, "a constant's value needs a type, e.g. 'dense<1.0> : tensor<f32>'")
        return self._spec(b, c, [], operand_types=[], result_types=[ty], properties={"value": value}, attributes=b.dict(attrs))

    def print(self, op: Operation, p: Printer, indent: str) -> str:
        return f"{self.name(op, p)}{self.attrs(op, p)} {p.attr(op.properties['value'])}"


def constant_result_name(op: Operation) -> str:
    """MLIR's hint for constants: `%cst` for floats, `%c` otherwise."""
    v = op.properties.get("value")
    ty = getattr(v, "type", None)
    elem = getattr(ty, "element_type", ty)
    return "c" if isinstance(elem, ScalarType) and (elem.is_integer or elem.name == "i1") else "cst"


class CompareFormat(Format):
    """`stablehlo.compare  GE, %a, %b,  SIGNED : (A, B) -> R`."""

    family = "OP_COMPARE"

    def build(self, b: IRBuilder, c: list) -> OpSpec:
        _, direction, lhs, rhs, cmp_type, attrs, ts = c
        props: dict[str, Attribute] = {"comparison_direction": _enum("stablehlo", "comparison_direction", str(direction))}
        if cmp_type is not None:
            props["compare_type"] = _enum("stablehlo", "comparison_type", str(cmp_type))
        return self._spec(b, c, [lhs, rhs], properties=props, attributes=b.dict(attrs), finish=self._finish_types(b, ts))

    def printable(self, op: Operation) -> bool:
        """Direction (and compare type) must be enum attributes: their word is what prints."""
        ct = op.properties.get("compare_type")
        return len(op.operands) == 2 and _is_enum(op.properties.get("comparison_direction"), "comparison_direction") and (
            ct is None or _is_enum(ct, "comparison_type")
        )

    def print(self, op: Operation, p: Printer, indent: str) -> str:
        s = f"{self.name(op, p)} {enum_value(op.properties['comparison_direction'])}, {p.names_of(op.operands)}"
        ct = op.properties.get("compare_type")
        if ct is not None:
            s += f", {enum_value(ct)}"
        return s + self.attrs(op, p) + print_types(p, op, self.style)


class KwargsFormat(Format):
    """Operands, then `name = value` options mapped onto properties (dims, dim, sizes, ...)."""

    family = "OP_KWARGS"

    def __init__(self, options: dict[str, tuple[str, str]], style: str = "functional", parens: bool = False) -> None:
        super().__init__(style=style)
        # spelling -> (property name, kind); kind: "i64_array" | "i64" | "enum:<dialect>:<kind>"
        self.options = options
        self.parens = parens  # chlo.top_k(%x, k = 3)

    def build(self, b: IRBuilder, c: list) -> OpSpec:
        ts = c[-1]
        attrs = c[-2]
        operands: list = []
        props: dict[str, Attribute] = {}
        for item in c[1:-2]:
            if isinstance(item, Token):
                operands.append(item)
                continue
            key_tok, value = item
            key = str(key_tok)
            opt = self.options.get(key)
            if opt is None:
                b.fail(key_tok, f"unknown option '{key}' for '{c[0]}' (expected {', '.join(self.options) or 'none'})")
            prop, kind = opt
            v = _kw_value(b, key_tok, value, kind)
            if isinstance(v, dict):
                props.update(v)
            else:
                props[prop] = v
        return self._spec(b, c, operands, properties=props, attributes=b.dict(attrs), finish=self._finish_types(b, ts))

    def printable(self, op: Operation) -> bool:
        """Every option property present has the kind its `name = value` spelling parses back to."""
        shown = bool(op.operands)
        for prop, kind in self.options.values():
            if kind == "float_format":
                ok = all(isinstance(_resolved(op.properties.get(k)), (IntegerAttr, type(None))) for k in ("exponent_bits", "mantissa_bits"))
                shown = shown or "exponent_bits" in op.properties
            else:
                a = _resolved(op.properties.get(prop))
                ok = a is None or isinstance(a, _KW_KINDS.get(kind.split(":")[0], DialectAttr))
                shown = shown or a is not None
            if not ok:
                return False
        return shown

    def print(self, op: Operation, p: Printer, indent: str) -> str:
        parts = [p.name(v) for v in op.operands]
        for key, (prop, kind) in self.options.items():
            a = op.properties.get(prop)
            if a is None or kind == "float_format":
                continue
            if kind == "i64_array":
                parts.append(f"{key} = {_ints_text(_ints(a))}")
            elif kind == "i64":
                parts.append(f"{key} = {_int(a)}")
            elif kind == "bool":
                parts.append(f"{key} = {'true' if _bool(a) else 'false'}")
            elif kind == "string":
                parts.append(f"{key} = {quote(_str(a))}")
            else:
                parts.append(f"{key} = {enum_value(a)}")
        if "format" in self.options and "exponent_bits" in op.properties:
            e, m = _int(op.properties["exponent_bits"]), _int(op.properties["mantissa_bits"])
            parts.append(f"format = e{e}m{m}")
        args = f"({', '.join(parts)})" if self.parens else f" {', '.join(parts)}"
        return f"{self.name(op, p)}{args}{self.attrs(op, p)}{print_types(p, op, self.style)}"


_KW_KINDS: dict[str, type] = {"i64": IntegerAttr, "i64_array": DenseArrayAttr, "bool": BoolAttr, "string": StringAttr, "enum": DialectAttr}


def _is_enum(a: Attribute | None, kind: str) -> bool:
    """Is `a` a `#dialect<kind WORD>` enum attribute (the only spelling a pretty form can print)?"""
    a = _resolved(a)
    body = getattr(a, "body", None)
    return isinstance(a, DialectAttr) and isinstance(body, str) and body.split(" ")[0] == kind and len(body.split()) == 2


def _resolved(a: Attribute | None) -> Attribute | None:
    return a.resolve() if a is not None else None


def kwarg(b: IRBuilder, c: list) -> tuple:
    return (c[0], c[1])


_FLOAT_FORMAT = re.compile(r"e(\d+)m(\d+)$")
I32 = ScalarType("i32")


def _kw_value(b: IRBuilder, key_tok: Token, value: Any, kind: str) -> Attribute | dict[str, Attribute]:
    if kind == "i64_array":
        if not isinstance(value, list):
            b.fail(key_tok, f"'{key_tok}' takes a list of integers")
        return _i64_array(value)
    if kind == "i64":
        if not (isinstance(value, Token) and value.type == "INT"):
            b.fail(key_tok, f"'{key_tok}' takes an integer")
        return _i64(int(value))
    if kind == "bool":
        if not (isinstance(value, Token) and str(value) in ("true", "false")):
            b.fail(key_tok, f"'{key_tok}' takes true or false")
        return BoolAttr(str(value) == "true")
    if kind == "string":
        if not (isinstance(value, Token) and value.type == "STRING"):
            b.fail(key_tok, f"'{key_tok}' takes a string")
        return StringAttr(unquote(str(value)))
    if kind == "float_format":  # reduce_precision's `format = e5m10`
        m = _FLOAT_FORMAT.match(str(value)) if isinstance(value, Token) else None
        if m is None:
            b.fail(key_tok, f"'{key_tok}' takes a float format like e5m10")
        return {"exponent_bits": IntegerAttr(int(m.group(1)), I32), "mantissa_bits": IntegerAttr(int(m.group(2)), I32)}
    if kind.startswith("enum:"):
        _, dialect, enum = kind.split(":")
        if not (isinstance(value, Token) and value.type == "BARE_ID"):
            b.fail(key_tok, f"'{key_tok}' takes a keyword")
        return _enum(dialect, enum, str(value))
    raise AssertionError(kind)


class SliceFormat(Format):
    """`stablehlo.slice %x [0:4, 0:40:2] : (A) -> R`."""

    family = "OP_SLICE"

    def build(self, b: IRBuilder, c: list) -> OpSpec:
        _, value, *dims, attrs, ts = c
        props = {
            "start_indices": _i64_array([d[0] for d in dims]),
            "limit_indices": _i64_array([d[1] for d in dims]),
            "strides": _i64_array([d[2] for d in dims]),
        }
        return self._spec(b, c, [value], properties=props, attributes=b.dict(attrs), finish=self._finish_types(b, ts))

    def print(self, op: Operation, p: Printer, indent: str) -> str:
        pr = op.properties
        dims = []
        for s, l, st in zip(_ints(pr["start_indices"]), _ints(pr["limit_indices"]), _ints(pr["strides"])):
            dims.append(f"{s}:{l}" + (f":{st}" if st != 1 else ""))
        return f"{self.name(op, p)} {p.name(op.operands[0])} [{', '.join(dims)}]{self.attrs(op, p)}{print_types(p, op, self.style)}"


def slice_dim(b: IRBuilder, c: list) -> tuple:
    start, limit, stride = c
    return (int(start), int(limit), int(stride) if stride is not None else 1)


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
            fields.append(f"{name} = {_ints_text(vals)}")
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
                props["precision_config"] = ArrayAttr(tuple(_enum("stablehlo", "precision", w) for w in payload))
            elif kind == "angle" and key == "algorithm":
                props["algorithm"] = DialectAttr("stablehlo.dot_algorithm", payload[1:-1], f"#stablehlo.dot_algorithm{payload}")
            else:
                b.fail(key_tok, f"unknown option '{key}' for '{c[0]}'")
        if saw_dims or b._canonical_name(c[0]) == "stablehlo.dot_general":
            props = {"dot_dimension_numbers": make_dot_dimensions(batch[0], batch[1], contract[0], contract[1]), **props}
        return self._spec(b, c, [lhs, rhs], properties=props, attributes=b.dict(attrs), finish=self._finish_types(b, ts))

    def printable(self, op: Operation) -> bool:
        """Two operands; dimension numbers, precision and algorithm of the kinds the form spells."""
        dd = _resolved(op.properties.get("dot_dimension_numbers"))
        if len(op.operands) != 2 or (dd is None and op.name == "stablehlo.dot_general"):
            return False
        if dd is not None and not (isinstance(dd, DialectAttr) and dd.name == "stablehlo.dot"):
            return False
        pc = _resolved(op.properties.get("precision_config"))
        if pc is not None and not (isinstance(pc, ArrayAttr) and all(_is_enum(a, "precision") for a in pc.items)):
            return False
        alg = _resolved(op.properties.get("algorithm"))
        return alg is None or isinstance(alg, DialectAttr)

    def print(self, op: Operation, p: Printer, indent: str) -> str:
        parts = [p.name(op.operands[0]), p.name(op.operands[1])]
        dd = op.properties.get("dot_dimension_numbers")
        if dd is not None:
            d = dd.resolve().typed
            if d.lhs_batching_dimensions or d.rhs_batching_dimensions:
                parts.append(f"batching_dims = {_ints_text(d.lhs_batching_dimensions)} x {_ints_text(d.rhs_batching_dimensions)}")
            parts.append(f"contracting_dims = {_ints_text(d.lhs_contracting_dimensions)} x {_ints_text(d.rhs_contracting_dimensions)}")
        pc = op.properties.get("precision_config")
        if pc is not None:
            parts.append("precision = [" + ", ".join(enum_value(a) for a in _items(pc)) + "]")
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
        spec = self._spec(b, c, operands, properties={"dimensions": _i64_array(dims)}, attributes=b.dict(attrs))
        if reducer is not None:
            spec.regions = [reducer]
        style = self.style

        def finish(spec: OpSpec, n: int) -> None:
            resolve_types(b, spec, ts, n, style)
            if applies is not None:
                assert spec.operand_types is not None  # the grammar requires `: types` after a reduce
                spec.regions = [_binary_body(b, str(applies), spec.operand_types[len(inputs) :])]

        spec.finish = finish
        return spec

    def print(self, op: Operation, p: Printer, indent: str) -> str:
        n = len(op.operands) // 2
        ins = ", ".join(f"({p.name(op.operands[i])} init: {p.name(op.operands[n + i])})" for i in range(n))
        dims = _ints_text(_ints(op.properties["dimensions"]))
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
        body = p.region(_without_entry_args(region), indent)
        return f"{s}\n{indent} reducer{pairs}  {body}"


def _without_entry_args(region: Region) -> Region:
    """A view of the region for printing its ops only (the entry args print in the op syntax)."""
    view = Region.__new__(Region)
    # The printer reads only ops, args, parent and label of a block, which _BlockView provides.
    view.blocks = cast("list[Block]", [_BlockView(region.blocks[0])] + region.blocks[1:])
    view.parent = region.parent
    return view


class _BlockView:
    __slots__ = ("ops", "args", "parent", "label")

    def __init__(self, block: Block) -> None:
        self.ops = block.ops
        self.args: list[BlockArgument] = []
        self.parent = block.parent
        self.label = block.label


def _binary_body(b: IRBuilder, op_name: str, init_types: list[Type]) -> Region:
    """The body `reduce ... applies OP` stands for: (acc, x) -> OP(acc, x)."""
    from ttopt.ir.opdef import OP_ALIASES

    name = OP_ALIASES.get(op_name, op_name)
    block = Block()
    for t in init_types:
        block.add_arg(BlockArgument(t, block, 0))
    for t in init_types:
        block.add_arg(BlockArgument(t, block, 0))
    n = len(init_types)
    results = []
    for i in range(n):
        bin_op = Operation(name, [block.args[i], block.args[n + i]], [init_types[i]])
        block.append(bin_op)
        results.append(bin_op.results[0])
    block.append(Operation("stablehlo.return", results, []))
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
    if bin_op.results[0].type != t or blk.args[1].type != t:
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
            window = b.dict(window_tok)
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
                window.append(f"{key} = [" + ", ".join("true" if v else "false" for v in _ints(a)) + "]")
            else:
                window.append(f"{key} = {_ints_text(_ints(a))}")
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
        rows = [[getattr(x, "value", 0) for x in _items(row)] for row in items]
        flat = {v for r in rows for v in r}
        # MLIR prints a dense literal whose elements are all equal as a splat.
        body = str(flat.pop()) if len(flat) == 1 else "[" + ", ".join(_ints_text(r) for r in rows) + "]"
        ty = TensorType((len(rows), 2), I64)
        return DenseElementsAttr(body, ty)
    if key == "reverse":
        return DenseArrayAttr("i1", tuple(bool(getattr(x, "value", False)) for x in items))
    return _i64_array([getattr(x, "value", 0) for x in items])


class CalleeFormat(Format):
    """`call @f(%a) : (A) -> R` / `stablehlo.custom_call @target(%a) {attrs} : (A) -> R`."""

    family = "OP_CALLEE"

    def __init__(self, prop: str, print_name: str | None = None, inherent: tuple[str, ...] = ()) -> None:
        super().__init__(print_name, style="functional", inherent=inherent)
        self.prop = prop

    def build(self, b: IRBuilder, c: list) -> OpSpec:
        _, sym_tok, operands_tok, attrs, sig = c
        name = _symbol(str(sym_tok))
        value: Attribute = SymbolRefAttr(name) if self.prop == "callee" else StringAttr(name)
        ins, outs = b.signature(sig)
        spec = self._spec(
            b, c, b.operand_tokens(operands_tok), operand_types=list(ins), result_types=list(outs),
            properties={self.prop: value}, attributes=b.dict(attrs),
        )
        spec.operand_src = (str(operands_tok), operands_tok.start_pos)
        return spec

    def print(self, op: Operation, p: Printer, indent: str) -> str:
        v = op.properties[self.prop]
        name = v.root if isinstance(v, SymbolRefAttr) else _str(v)
        sig = p.fn_type([x.type for x in op.operands], [r.type for r in op.results])
        return f"{self.name(op, p)} {sym_text(name)}({p.names_of(op.operands)}){self.attrs(op, p)} : {sig}"


class IndexedFormat(Format):
    """`stablehlo.get_tuple_element %t[0] : (tuple<A, B>) -> A`."""

    family = "OP_INDEXED"

    def __init__(self, prop: str = "index", element: str = "i32") -> None:
        super().__init__(style="functional")
        self.prop = prop
        self.element = ScalarType(element)

    def build(self, b: IRBuilder, c: list) -> OpSpec:
        _, value, index, attrs, ts = c
        props = {self.prop: IntegerAttr(int(index), self.element, f"{int(index)} : {self.element.text}")}
        return self._spec(b, c, [value], properties=props, attributes=b.dict(attrs), finish=self._finish_types(b, ts))

    def printable(self, op: Operation) -> bool:
        v = op.properties.get(self.prop)
        return len(op.operands) == 1 and isinstance(v, IntegerAttr) and v.value >= 0

    def print(self, op: Operation, p: Printer, indent: str) -> str:
        index = _int(op.properties[self.prop])
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
        return f"{self.name(op, p)} {quote(_str(op.properties['name']))}{operands}{self.attrs(op, p)}{print_types(p, op, self.style)}"


def _symbol(tok: str) -> str:
    body = tok[1:]
    return unquote(body) if body.startswith('"') else body


class SymEqFormat(Format):
    """`sdy.mesh @mesh = <["x"=2]> {attrs}`, `ttcore.device @d = <...>`."""

    family = "OP_SYM_EQ"

    def __init__(self, prop: str, attr_name: str) -> None:
        super().__init__()
        self.prop = prop
        self.attr_name = attr_name

    def build(self, b: IRBuilder, c: list) -> OpSpec:
        _, sym_tok, body_tok, attrs = c
        body = str(body_tok)[1:-1]
        props = {
            "sym_name": StringAttr(_symbol(str(sym_tok))),
            self.prop: DialectAttr(self.attr_name, body, f"#{self.attr_name}<{body}>", scope=b.scope),
        }
        return self._spec(b, c, [], operand_types=[], result_types=[], properties=props, attributes=b.dict(attrs))

    def print(self, op: Operation, p: Printer, indent: str) -> str:
        body = p.expand(op.properties[self.prop].resolve().text)
        body = body[body.index("<") :]
        return f"{self.name(op, p)} {sym_text(_str(op.properties['sym_name']))} = {body}{self.attrs(op, p)}"


def _sharding(text: str, scope: Any = None) -> DialectAttr:
    """`<@mesh, [...]>` (as written inside sdy ops) as `#sdy.sharding<...>`."""
    body = text[1:-1]
    return DialectAttr("sdy.sharding", body, f"#sdy.sharding<{body}>", scope=scope)


def sharding_body(attr: Attribute) -> str:
    """`<...>` spelling of a `#sdy.sharding` attribute as sdy ops print it."""
    a = attr.resolve()
    return "<" + (a.body if getattr(a, "body", None) is not None else a.text) + ">"


class SdyShardingFormat(Format):
    """`sdy.sharding_constraint %x <@mesh, [{}, {"y"}]> : T` (and `sdy.reshard`)."""

    family = "OP_SDY_SHARDING"

    def build(self, b: IRBuilder, c: list) -> OpSpec:
        _, value, body_tok, attrs, type_tok = c
        t = b.type(type_tok)
        return self._spec(
            b, c, [value], operand_types=[t], result_types=[t],
            properties={"sharding": _sharding(str(body_tok), b.scope)}, attributes=b.dict(attrs),
        )

    def print(self, op: Operation, p: Printer, indent: str) -> str:
        body = p.expand(sharding_body(op.properties["sharding"]))
        return f"{self.name(op, p)} {p.name(op.operands[0])} {body}{self.attrs(op, p)} : {p.type(op.results[0].type)}"


class SdyCollectiveFormat(Format):
    """`sdy.all_gather [{}, {"x"}] %x out_sharding=<...> : T` and the other sdy collectives."""

    family = "OP_SDY_COLLECTIVE"

    def __init__(self, list_prop: str | None, list_kind: str | None) -> None:
        super().__init__()
        self.list_prop = list_prop
        self.list_kind = list_kind  # e.g. "list_of_axis_ref_lists", "axis_ref_list"

    def build(self, b: IRBuilder, c: list) -> OpSpec:
        _, kind_tok, list_tok, value, out_tok, attrs, type_tok = c
        t = b.type(type_tok)
        props: dict[str, Attribute] = {}
        if self.list_prop is not None:
            if list_tok is None:
                b.fail(value, f"'{c[0]}' needs its axes before the operand")
            text = str(list_tok)
            props[self.list_prop] = DialectAttr("sdy", f"{self.list_kind}{text}", f"#sdy<{self.list_kind}{text}>", scope=b.scope)
        elif list_tok is not None:
            b.fail(list_tok, f"'{c[0]}' takes no axis list")
        if kind_tok is not None:
            if str(kind_tok) not in ("max", "min", "sum"):
                b.fail(kind_tok, f"unknown reduction '{kind_tok}' (expected max, min or sum)")
            props["reduction_kind"] = OpaqueAttr(str(kind_tok))
        props["out_sharding"] = _sharding(str(out_tok), b.scope)
        return self._spec(b, c, [value], operand_types=[t], result_types=[t], properties=props, attributes=b.dict(attrs))

    def print(self, op: Operation, p: Printer, indent: str) -> str:
        s = self.name(op, p)
        kind = op.properties.get("reduction_kind")
        if kind is not None:
            s += f" {kind.text}"
        if self.list_prop is not None:
            body = op.properties[self.list_prop].resolve().body
            assert self.list_kind is not None  # given together with list_prop (sdy.py)
            s += " " + body[len(self.list_kind) :]
        out = p.expand(sharding_body(op.properties["out_sharding"]))
        return f"{s} {p.name(op.operands[0])} out_sharding={out}{self.attrs(op, p)} : {p.type(op.results[0].type)}"


class SdyKwFormat(Format):
    """`sdy.sharding_group %x group_id=0 : T`, `sdy.propagation_barrier %x allowed_direction=NONE : T`."""

    family = "OP_SDY_KW"

    def __init__(self, options: dict[str, str]) -> None:
        super().__init__()
        self.options = options  # key -> "i64" | "sharding" | "enum:<kind>"

    def build(self, b: IRBuilder, c: list) -> OpSpec:
        _, value, *kws, attrs, type_tok = c
        t = b.type(type_tok)
        props: dict[str, Attribute] = {}
        for key_tok, v in kws:
            kind = self.options.get(str(key_tok))
            if kind is None:
                b.fail(key_tok, f"unknown option '{key_tok}' for '{c[0]}'")
            if kind == "i64":
                props[str(key_tok)] = _i64(int(v))
            elif kind == "sharding":
                props[str(key_tok)] = _sharding(str(v), b.scope)
            else:
                props[str(key_tok)] = _enum("sdy", kind.split(":")[1], str(v))
        n_results = 0 if b._canonical_name(c[0]) == "sdy.sharding_group" else 1
        return self._spec(
            b, c, [value], operand_types=[t], result_types=[t] * n_results, properties=props, attributes=b.dict(attrs)
        )

    def print(self, op: Operation, p: Printer, indent: str) -> str:
        parts = [self.name(op, p), p.name(op.operands[0])]
        for key, kind in self.options.items():
            a = op.properties.get(key)
            if a is None:
                continue
            if kind == "i64":
                parts.append(f"{key}={_int(a)}")
            elif kind == "sharding":
                parts.append(f"{key}={p.expand(sharding_body(a))}")
            else:
                parts.append(f"{key}={enum_value(a)}")
        return " ".join(parts) + self.attrs(op, p) + f" : {p.type(op.operands[0].type)}"


def sdy_kw(b: IRBuilder, c: list) -> tuple:
    return (c[0], c[1])


class SdyManualFormat(Format):
    """`sdy.manual_computation(%a) in_shardings=[..] out_shardings=[..] manual_axes={..} (%arg: T) {..} : (A) -> R`."""

    family = "OP_SDY_MANUAL"

    def build(self, b: IRBuilder, c: list) -> OpSpec:
        _, operands_tok, in_tok, out_tok, axes_tok, _args, region, attrs, sig = c
        ins, outs = b.signature(sig)
        props = {
            "in_shardings": DialectAttr("sdy.sharding_per_value", str(in_tok), f"#sdy.sharding_per_value<{in_tok}>", scope=b.scope),
            "out_shardings": DialectAttr("sdy.sharding_per_value", str(out_tok), f"#sdy.sharding_per_value<{out_tok}>", scope=b.scope),
            "manual_axes": DialectAttr("sdy", f"manual_axes{axes_tok}", f"#sdy<manual_axes{axes_tok}>", scope=b.scope),
        }
        spec = self._spec(
            b, c, b.operand_tokens(operands_tok), operand_types=list(ins), result_types=list(outs),
            properties=props, attributes=b.dict(attrs), regions=[region],
        )
        spec.operand_src = (str(operands_tok), operands_tok.start_pos)
        return spec

    def print(self, op: Operation, p: Printer, indent: str) -> str:
        pr = op.properties
        axes = pr["manual_axes"].resolve().body[len("manual_axes") :]
        region = op.regions[0]
        args = ", ".join(p.block_arg(a) for a in region.entry.args)
        body = p.region(_without_entry_args(region), indent)
        sig = p.fn_type([v.type for v in op.operands], [r.type for r in op.results])
        return (
            f"{self.name(op, p)}({p.names_of(op.operands)}) in_shardings={p.expand(pr['in_shardings'].resolve().body)} "
            f"out_shardings={p.expand(pr['out_shardings'].resolve().body)} manual_axes={axes} ({args}) {body}"
            f"{self.attrs(op, p)} : {sig}"
        )


class SdyNamedFormat(Format):
    """`sdy.named_computation<"name">(%a) in_shardings=[..] out_shardings=[..] (%arg: T) {..} : (A) -> R`
    (both sharding lists optional)."""

    family = "OP_SDY_NAMED"

    def build(self, b: IRBuilder, c: list) -> OpSpec:
        _, name_tok, operands_tok, in_tok, out_tok, _args, region, attrs, sig = c
        ins, outs = b.signature(sig)
        name = str(name_tok)[1:-1].strip()
        if not name.startswith('"'):
            b.fail(name_tok, "expected a quoted name: sdy.named_computation<\"name\">")
        props: dict[str, Attribute] = {"name": StringAttr(unquote(name))}
        for key, tok in (("in_shardings", in_tok), ("out_shardings", out_tok)):
            if tok is not None:
                props[key] = DialectAttr("sdy.sharding_per_value", str(tok), f"#sdy.sharding_per_value<{tok}>", scope=b.scope)
        spec = self._spec(
            b, c, b.operand_tokens(operands_tok), operand_types=list(ins), result_types=list(outs),
            properties=props, attributes=b.dict(attrs), regions=[region],
        )
        spec.operand_src = (str(operands_tok), operands_tok.start_pos)
        return spec

    def printable(self, op: Operation) -> bool:
        pr = op.properties
        return isinstance(pr.get("name"), StringAttr) and len(op.regions) == 1 and all(
            isinstance(_resolved(pr.get(k)), DialectAttr) for k in ("in_shardings", "out_shardings") if k in pr
        ) and set(pr) <= {"name", "in_shardings", "out_shardings"}

    def print(self, op: Operation, p: Printer, indent: str) -> str:
        pr = op.properties
        region = op.regions[0]
        args = ", ".join(p.block_arg(a) for a in region.entry.args)
        body = p.region(_without_entry_args(region), indent)
        sig = p.fn_type([v.type for v in op.operands], [r.type for r in op.results])
        shardings = "".join(f" {k}={p.expand(pr[k].resolve().body)}" for k in ("in_shardings", "out_shardings") if k in pr)
        return (
            f"{self.name(op, p)}<{quote(_str(pr['name']))}>({p.names_of(op.operands)}){shardings} ({args}) {body}"
            f"{self.attrs(op, p)} : {sig}"
        )


class NullaryFormat(Format):
    """`%0 = ttir.empty() {attrs} : T` — no operands, one result whose type is written after `:`."""

    family = "OP_NULLARY"

    def build(self, b: IRBuilder, c: list) -> OpSpec:
        _, attrs, ty = c
        return self._spec(b, c, [], operand_types=[], result_types=[b.type(ty)], attributes=b.dict(attrs))

    def printable(self, op: Operation) -> bool:
        return not op.operands and len(op.results) == 1 and not op.properties and not op.regions

    def print(self, op: Operation, p: Printer, indent: str) -> str:
        return f"{self.name(op, p)}(){self.attrs(op, p)} : {p.type(op.results[0].type)}"


class D2MFormat(Format):
    """`%r = ttnn.d2m_subgraph @f ins(%a, %b : A, B) outs(%o : O) : R`."""

    family = "OP_D2M"

    def build(self, b: IRBuilder, c: list) -> OpSpec:
        _, sym_tok, attrs, ins, outs, ts = c
        ins = ins or ([], [])
        outs = outs or ([], [])
        operands = ins[0] + outs[0]
        props = {
            "callee": SymbolRefAttr(_symbol(str(sym_tok))),
            "operandSegmentSizes": DenseArrayAttr("i32", (len(ins[0]), len(outs[0]))),
        }
        spec = self._spec(b, c, operands, operand_types=ins[1] + outs[1], properties=props, attributes=b.dict(attrs))
        spec.result_types = (ts[1] if ts[0] == "list" else ts[2]) if ts is not None else []
        return spec

    def print(self, op: Operation, p: Printer, indent: str) -> str:
        n_in = _ints(op.properties["operandSegmentSizes"])[0]
        ins, outs = op.operands[:n_in], op.operands[n_in:]

        def group(vs: list) -> str:
            return f"{p.names_of(vs)} : {p.types([v.type for v in vs])}" if vs else ""

        callee = sym_text(cast(SymbolRefAttr, op.properties["callee"]).root)
        s = f"{self.name(op, p)} {callee}{self.attrs(op, p)} ins({group(ins)}) outs({group(outs)})"
        if op.results:
            s += f" : {p.types([r.type for r in op.results])}"
        return s


def typed_values(b: IRBuilder, c: list) -> tuple:
    values, *types = c
    ts = [b.type(t) for t in types]
    if len(ts) != len(values):
        b.fail(types[0], f"{len(values)} value(s) but {len(ts)} type(s)")
    return (values, ts)


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
            f"{s}\n{indent}cond {p.region(_without_entry_args(cond), indent)} "
            f"do {p.region(_without_entry_args(body), indent)}"
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


class ModuleFormat(Format):
    """`module @name attributes {...} { ... }` (also builtin.module, ttcore.device_module)."""

    family = "OP_MODULE"

    def build(self, b: IRBuilder, c: list) -> OpSpec:
        _, sym_tok, attrs, region = c
        props = {"sym_name": StringAttr(_symbol(str(sym_tok)))} if sym_tok is not None else {}
        return self._spec(b, c, [], operand_types=[], result_types=[], properties=props, attributes=b.dict(attrs), regions=[region])

    def print(self, op: Operation, p: Printer, indent: str) -> str:
        s = self.name(op, p)
        sym = op.properties.get("sym_name")
        if sym is not None:
            s += " " + sym_text(_str(sym))
        if op.attributes:
            s += f" attributes {{{p.dict_body(op.attributes)}}}"
        return s + " " + p.region(op.regions[0], indent)


class FuncFormat(Format):
    """`func.func [private] @f(%arg0: T {attrs} loc(..)) -> (R {attrs}) attributes {..} { .. }`."""

    family = "OP_FUNC"

    def build(self, b: IRBuilder, c: list) -> OpSpec:
        _, vis, sym_tok, args, results, attrs, region = c
        b.pending = None
        arg_types = [a[1] for a in args]
        arg_attrs = [a[2] for a in args]
        results = results or []
        res_types = [r[0] for r in results]
        res_attrs = [r[1] for r in results]
        props: dict[str, Attribute] = {"sym_name": StringAttr(_symbol(str(sym_tok)))}
        props["function_type"] = TypeAttr(FunctionType(tuple(arg_types), tuple(res_types)))
        if vis is not None:
            props["sym_visibility"] = StringAttr(str(vis))
        if any(arg_attrs):
            props["arg_attrs"] = ArrayAttr(tuple(DictAttr(d) for d in arg_attrs))
        if any(res_attrs):
            props["res_attrs"] = ArrayAttr(tuple(DictAttr(d) for d in res_attrs))
        return self._spec(
            b, c, [], operand_types=[], result_types=[], properties=props,
            attributes=b.dict(attrs), regions=[region] if region is not None else [],
        )

    def print(self, op: Operation, p: Printer, indent: str) -> str:
        pr = op.properties
        ft = cast(FunctionType, cast(TypeAttr, pr["function_type"]).type)
        s = self.name(op, p) + " "
        vis = pr.get("sym_visibility")
        if vis is not None:
            s += _str(vis) + " "
        s += sym_text(_str(pr["sym_name"]))
        arg_attrs, res_attrs = pr.get("arg_attrs"), pr.get("res_attrs")
        arg_dicts = _items(arg_attrs) if arg_attrs is not None else ()
        res_dicts = _items(res_attrs) if res_attrs is not None else ()
        args = []
        entry = op.regions[0].entry if op.regions and op.regions[0].blocks else None
        for i, t in enumerate(ft.inputs):
            a_attrs = cast(DictAttr, arg_dicts[i]).entries if i < len(arg_dicts) else {}
            if entry is not None and i < len(entry.args):
                arg = entry.args[i]
                args.append(f"{p.name(arg)}: {p.type(arg.type)}{p.attr_dict(a_attrs)}{p.loc(arg.location)}")
            else:
                args.append(f"{p.type(t)}{p.attr_dict(a_attrs)}")
        s += "(" + ", ".join(args) + ")"
        if ft.results:
            outs = []
            any_attrs = False
            for i, t in enumerate(ft.results):
                r_attrs = cast(DictAttr, res_dicts[i]).entries if i < len(res_dicts) else {}
                any_attrs = any_attrs or bool(r_attrs)
                outs.append(f"{p.type(t)}{p.attr_dict(r_attrs)}")
            if len(outs) == 1 and not any_attrs and not isinstance(ft.results[0], FunctionType):
                s += " -> " + outs[0]
            else:
                s += " -> (" + ", ".join(outs) + ")"
        if op.attributes:
            s += f" attributes {{{p.dict_body(op.attributes)}}}"
        if op.regions:
            s += " " + p.region(_without_entry_args(op.regions[0]), indent)
        return s


def func_args(b: IRBuilder, c: list) -> list:
    args = [a for a in c if a is not None]
    b.expect_pending([a for a in args if a[0] is not None])
    return args


def func_arg(b: IRBuilder, c: list) -> tuple:
    v, t, attrs, loc = c
    return b.arg_spec(v, t, attrs, loc)


def func_decl_arg(b: IRBuilder, c: list) -> tuple:
    t, attrs = c
    return (None, b.type(t), b.dict(attrs), None)


def single_result(b: IRBuilder, c: list) -> list:
    return [(b.type(c[0]), {})]


def result_list(b: IRBuilder, c: list) -> list:
    return [r for r in c if r is not None]


def func_result(b: IRBuilder, c: list) -> tuple:
    return (b.type(c[0]), b.dict(c[1]))


def _family_rule(b: IRBuilder, c: list) -> OpSpec:
    return b._format(c[0]).build(b, c)


RULE_BUILDERS: dict[str, Callable[[Any, list], Any]] = {
    **{
        rule: _family_rule
        for rule in (
            "module_op", "func_op", "pretty_op", "constant_op", "compare_op", "kwargs_op", "slice_op",
            "dot_op", "reduce_op", "conv_op", "callee_op", "sym_eq_op", "sdy_sharding_op",
            "sdy_collective_op", "sdy_kw_op", "sdy_manual_op", "d2m_op", "while_op", "indexed_op", "composite_op",
            "sdy_named_op", "nullary_op",
        )
    },
    "kwarg": kwarg,
    "slice_dim": slice_dim,
    "dot_dims": dot_dims,
    "dot_enum_list": dot_enum_list,
    "dot_angle": dot_angle,
    "reduce_input": reduce_input,
    "reducer_pair": reducer_pair,
    "reducer": reducer,
    "sdy_kw": sdy_kw,
    "typed_values": typed_values,
    "while_args": while_args,
    "while_arg": while_arg,
    "while_types": while_types,
    "func_args": func_args,
    "func_arg": func_arg,
    "func_decl_arg": func_decl_arg,
    "single_result": single_result,
    "result_list": result_list,
    "func_result": func_result,
}

register_format_rules(RULE_BUILDERS)

__all__ = ["RULE_BUILDERS", "quote", "UnitAttr"]
