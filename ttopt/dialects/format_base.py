"""The base of every custom assembly format: `Format` (one family of grammars/mlir.lark, owning
its parse and print side), the shared type-spec handling, typed reads of the attributes a printer
holds, and the small generic families (pretty, constant, nullary, D2M calls).

The parse side turns a rule's children into canonical properties (the names MLIR uses in generic
form, e.g. `broadcast_dimensions = array<i64: 1>`), so `--mlir-print-op-generic` and passes see
the same op whichever way it was written; the print side reads those properties back.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any, Callable, cast, overload

from lark import Token

from ttopt.ir.attributes import (
    ArrayAttr,
    Attribute,
    BoolAttr,
    DenseArrayAttr,
    DialectAttr,
    IntegerAttr,
    StringAttr,
    SymbolRefAttr,
    quote,
    unquote,
)
from ttopt.ir.operation import Block, Operation, Region
from ttopt.ir.printer import sym_text
from ttopt.ir.types import ScalarType, Type
from ttopt.ir.values import BlockArgument
from ttopt.parse.literals import parse_int
from ttopt.parse.opspec import OpSpec

if TYPE_CHECKING:
    from ttopt.ir.printer import Printer
    from ttopt.parse.parser import IRBuilder

I64 = ScalarType("i64")




def i64_attr(v: int) -> IntegerAttr:
    return IntegerAttr(v, I64, f"{v} : i64")


def i64_array(values: list[int] | tuple[int, ...]) -> DenseArrayAttr:
    return DenseArrayAttr("i64", tuple(values))


def enum_attr(dialect: str, kind: str, value: str) -> DialectAttr:
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


def ints_text(values: Any) -> str:
    return "[" + ", ".join(map(str, values)) + "]"


# ---- typed reads of the attributes a printer (or a parsed literal) holds ----------------------------
# A printer runs on an op whose property kinds `printable()` (or the op's verifier) has checked, so
# these are casts for the type checker, with no runtime check: a wrong kind fails as it always did.
def int_of(a: Attribute) -> int:
    return cast(IntegerAttr, a).value


def bool_of(a: Attribute) -> bool:
    return cast(BoolAttr, a).value


def str_of(a: Attribute) -> str:
    return cast(StringAttr, a).value


def ints_of(a: Attribute) -> tuple[Any, ...]:
    """The elements of a dense array (`array<i64: ...>`, `array<i1: ...>`)."""
    return cast(DenseArrayAttr, a).values


def items_of(a: Attribute) -> tuple[Attribute, ...]:
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
        # `all(t == first ...)` without a generator each (list.count takes `is` first, as that did)
        if ots.count(first) == len(ots) and rts.count(first) == len(rts):
            return f" : {p.type(first)}"
        if style == "variadic" and ots == rts:
            return f" : {p.types(ots)}"
    return f" : {p.fn_type(ots, rts)}"


def format_result_list(p: Printer, rts: list) -> str:
    return p.type(rts[0]) if len(rts) == 1 else f"({p.types(rts)})"


class Format(ABC):
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

    @abstractmethod
    def build(self, b: IRBuilder, c: list) -> OpSpec:
        """The op spec from the children of this family's grammar rule."""

    @abstractmethod
    def print(self, op: Operation, p: Printer, indent: str) -> str:
        """The op in this family's custom form (no results prefix, no location)."""

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
    if not isinstance(elem, ScalarType):
        return "cst"
    # `elem.is_integer` (i1 included) on its spelling read once: each read is a property call,
    # and a model's constants are a tenth of its ops.
    t = elem.text
    return "c" if t.startswith(("i", "si", "ui")) and t != "index" else "cst"


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
                ok = all(isinstance(resolved(op.properties.get(k)), (IntegerAttr, type(None))) for k in ("exponent_bits", "mantissa_bits"))
                shown = shown or "exponent_bits" in op.properties
            else:
                a = resolved(op.properties.get(prop))
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
                parts.append(f"{key} = {ints_text(ints_of(a))}")
            elif kind == "i64":
                parts.append(f"{key} = {int_of(a)}")
            elif kind == "bool":
                parts.append(f"{key} = {'true' if bool_of(a) else 'false'}")
            elif kind == "string":
                parts.append(f"{key} = {quote(str_of(a))}")
            else:
                parts.append(f"{key} = {enum_value(a)}")
        if "format" in self.options and "exponent_bits" in op.properties:
            e, m = int_of(op.properties["exponent_bits"]), int_of(op.properties["mantissa_bits"])
            parts.append(f"format = e{e}m{m}")
        args = f"({', '.join(parts)})" if self.parens else f" {', '.join(parts)}"
        return f"{self.name(op, p)}{args}{self.attrs(op, p)}{print_types(p, op, self.style)}"


_KW_KINDS: dict[str, type] = {"i64": IntegerAttr, "i64_array": DenseArrayAttr, "bool": BoolAttr, "string": StringAttr, "enum": DialectAttr}


def is_enum(a: Attribute | None, kind: str) -> bool:
    """Is `a` a `#dialect<kind WORD>` enum attribute (the only spelling a pretty form can print)?"""
    a = resolved(a)
    body = getattr(a, "body", None)
    return isinstance(a, DialectAttr) and isinstance(body, str) and body.split(" ")[0] == kind and len(body.split()) == 2




def kwarg(b: IRBuilder, c: list) -> tuple:
    return (c[0], c[1])


_FLOAT_FORMAT = re.compile(r"e(\d+)m(\d+)$")
I32 = ScalarType("i32")


def int_token(b: IRBuilder, tok: Any, bits: int = 64) -> int:
    """A signless integer literal of `bits` bits as MLIR reads it: decimal or hex, values past the
    signed range wrapping (MLIR keeps the bit pattern); a positioned error when it does not fit."""
    try:
        v = parse_int(str(tok))
    except ValueError as e:
        b.fail(tok, str(e))
    if not -(1 << (bits - 1)) <= v < (1 << bits):
        b.fail(tok, "integer constant out of range for attribute")
    return v - (1 << bits) if v >= (1 << (bits - 1)) else v


def _kw_value(b: IRBuilder, key_tok: Token, value: Any, kind: str) -> Attribute | dict[str, Attribute]:
    if kind == "i64_array":
        if not isinstance(value, list):
            b.fail(key_tok, f"'{key_tok}' takes a list of integers")
        return i64_array(value)
    if kind == "i64":
        if not (isinstance(value, Token) and value.type == "INT"):
            b.fail(key_tok, f"'{key_tok}' takes an integer")
        return i64_attr(int_token(b, value))
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
        return enum_attr(dialect, enum, str(value))
    raise AssertionError(kind)


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
    """`%r = ttnn.d2m_subgraph @f ins(%a, %b : A, B) outs(%o : O) : R`, `ins` and `outs` on lines of their own."""

    family = "OP_D2M"

    def build(self, b: IRBuilder, c: list) -> OpSpec:
        _, sym_tok, attrs, ins, outs, ts = c
        ins = ins or ([], [])
        outs = outs or ([], [])
        operands = ins[0] + outs[0]
        props = {
            "d2m_func": SymbolRefAttr(symbol_name(str(sym_tok))),
            "operandSegmentSizes": DenseArrayAttr("i32", (len(ins[0]), len(outs[0]))),
        }
        spec = self._spec(b, c, operands, operand_types=ins[1] + outs[1], properties=props, attributes=b.dict(attrs))
        spec.result_types = (ts[1] if ts[0] == "list" else ts[2]) if ts is not None else []
        return spec

    def printable(self, op: Operation) -> bool:
        """A flat callee and an `ins`/`outs` split covering the operands."""
        callee = op.properties.get("d2m_func")
        sizes = op.properties.get("operandSegmentSizes")
        return (
            isinstance(callee, SymbolRefAttr) and not callee.nested
            and isinstance(sizes, DenseArrayAttr) and len(sizes.values) == 2 and all(v >= 0 for v in sizes.values)
            and sum(sizes.values) == len(op.operands)
        )

    def print(self, op: Operation, p: Printer, indent: str) -> str:
        n_in = ints_of(op.properties["operandSegmentSizes"])[0]
        ins, outs = op.operands[:n_in], op.operands[n_in:]

        def group(vs: list) -> str:
            return f"{p.names_of(vs)} : {p.types([v.type for v in vs])}" if vs else ""

        callee = sym_text(cast(SymbolRefAttr, op.properties["d2m_func"]).root)
        # TTNNOps.td's assembly format breaks the line before `ins` and `outs` (at the op's indentation).
        s = f"{self.name(op, p)} {callee}{self.attrs(op, p)}\n{indent}ins({group(ins)})\n{indent}outs({group(outs)})"
        if op.results:
            s += f" : {p.types([r.type for r in op.results])}"
        return s


def typed_values(b: IRBuilder, c: list) -> tuple:
    values, *types = c
    ts = [b.type(t) for t in types]
    if len(ts) != len(values):
        b.fail(types[0], f"{len(values)} value(s) but {len(ts)} type(s)")
    return (values, ts)


def symbol_name(tok: str) -> str:
    body = tok[1:]
    return unquote(body) if body.startswith('"') else body


class _BlockView:
    __slots__ = ("ops", "args", "parent", "label")

    def __init__(self, block: Block) -> None:
        self.ops = block.ops
        self.args: list[BlockArgument] = []
        self.parent = block.parent
        self.label = block.label


def without_entry_args(region: Region) -> Region:
    """A view of the region for printing its ops only (the entry args print in the op syntax)."""
    view = Region.__new__(Region)
    # The printer reads only ops, args, parent and label of a block, which _BlockView provides.
    view.blocks = cast("list[Block]", [_BlockView(region.blocks[0])] + region.blocks[1:])
    view.parent = region.parent
    return view


def resolved(a: Attribute | None) -> Attribute | None:
    return a.resolve() if a is not None else None
