"""Custom assembly of the TTIR / TTCore ops tt-mlir prints in pretty form (beyond `ttir.empty`).

The forms follow the `assemblyFormat` of TTIROps.td / TTCoreOps.td:

* `%1 = ttir.to_layout %in, %out : A into B [hostInfo = #layout] {attrs} [-> R]`
* `%0 = ttcore.load_cached(@f, [%a, %b]) {attrs} : (A, B) -> R`
* `%0 = ttir.ttnn_metal_layout_cast %x {attrs} : A -> B`
* `%0 = tensor.empty() : T` (front ends hand TTIR these as destination operands)
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, cast

from ttopt.dialects.format_base import Format, KwargsFormat, NullaryFormat, PrettyFormat, symbol_name
from ttopt.ir.attributes import SymbolRefAttr
from ttopt.ir.opdef import OP_DEFS, PURE, OpDef, register, register_format_rules
from ttopt.ir.printer import sym_text
from ttopt.parse.opspec import OpSpec

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation
    from ttopt.ir.printer import Printer
    from ttopt.parse.parser import IRBuilder


class ToLayoutFormat(Format):
    """`ttir.to_layout %in, %out : A into B [hostInfo = #l] {attrs} [-> R]` (destination-passing)."""

    family = "OP_TO_LAYOUT"

    def build(self, b: IRBuilder, c: list) -> OpSpec:
        _, src, dst, src_ty, dst_ty, layout, attrs, results = c
        props = {"layout": b.attr(layout)} if layout is not None else {}
        return self._spec(
            b, c, [src, dst], operand_types=[b.type(src_ty), b.type(dst_ty)],
            result_types=[b.type(t) for t in results] if results else [], properties=props, attributes=b.dict(attrs),
        )  # fmt: skip

    def printable(self, op: Operation) -> bool:
        return len(op.operands) == 2 and set(op.properties) <= {"layout"}

    def print(self, op: Operation, p: Printer, indent: str) -> str:
        src, dst = op.operands
        s = f"{self.name(op, p)} {p.name(src)}, {p.name(dst)} : {p.type(src.type)} into {p.type(dst.type)}"
        if "layout" in op.properties:
            s += f" hostInfo = {p.attr(op.properties['layout'])}"
        s += p.attr_dict(op.attributes)
        if op.results:
            s += f" -> {p.types([r.type for r in op.results])}"
        return s


class LoadCachedFormat(Format):
    """`ttcore.load_cached(@f, [%a, %b]) {attrs} : (A, B) -> R`: a call of a const-eval function."""

    family = "OP_LOAD_CACHED"

    def __init__(self) -> None:
        super().__init__(style="functional")

    def build(self, b: IRBuilder, c: list) -> OpSpec:
        _, sym_tok, values, attrs, sig = c
        ins, outs = b.signature(sig)
        return self._spec(
            b, c, values or [], operand_types=list(ins), result_types=list(outs),
            properties={"callee": SymbolRefAttr(symbol_name(str(sym_tok)))}, attributes=b.dict(attrs),
        )  # fmt: skip

    def printable(self, op: Operation) -> bool:
        callee = op.properties.get("callee")
        return isinstance(callee, SymbolRefAttr) and not callee.nested and len(op.properties) == 1

    def print(self, op: Operation, p: Printer, indent: str) -> str:
        callee = sym_text(cast(SymbolRefAttr, op.properties["callee"]).root)
        sig = p.fn_type([v.type for v in op.operands], [r.type for r in op.results])
        return f"{self.name(op, p)}({callee}, [{p.names_of(op.operands)}]){p.attr_dict(op.attributes)} : {sig}"


def _with_format(name: str, fmt: Any, **new: Any) -> OpDef:
    """The registered definition of `name` with this custom format (a new one if none yet)."""
    d = OP_DEFS.get(name)
    return replace(d, format=fmt) if d is not None else OpDef(name, format=fmt, **new)


register(
    _with_format("ttir.to_layout", ToLayoutFormat(), operands=2, results=(0, 1)),
    _with_format("ttcore.load_cached", LoadCachedFormat()),
    _with_format("ttir.ttnn_metal_layout_cast", PrettyFormat(style="chlo"), operands=1, results=1, traits=frozenset({PURE})),
    _with_format("tensor.empty", NullaryFormat(), operands=0, results=1, traits=frozenset({PURE})),
)


def _family_rule(b: IRBuilder, c: list) -> OpSpec:
    return b._format(c[0]).build(b, c)


register_format_rules({"to_layout_op": _family_rule, "load_cached_op": _family_rule})


def _tt_lang_format() -> KwargsFormat:
    """`ttir.tt_lang_op(%in, %out) {arg_roles = "in,out", kernel_id = "...", version_tag = "..."} :
    (A, B) -> (R)`: TTIROps.td's assemblyFormat, its string options in the attr-dict."""
    fmt = KwargsFormat({}, style="functional", parens=True)
    fmt.inherent = ("arg_roles", "kernel_id", "shard_spec", "version_tag")
    return fmt


# A user kernel call (tt-lang): destination-passing, one `ttir.empty` per result after its inputs.
register(OpDef("ttir.tt_lang_op", operands=(1, None), results=(1, None), format=_tt_lang_format()))
