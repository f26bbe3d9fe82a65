"""`arith.constant`, the one arith op front ends leave in StableHLO / TTIR inputs.

Pretty form `%c1_i32 = arith.constant 1 : i32` (also `true`, `dense<...> : T`); result names
follow MLIR's ConstantOp::getAsmResultNames: `%c<v>_<type>` for integers (`%c<v>` for index),
`%true` / `%false` for i1, `%cst` for everything else.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ttopt.dialects.format_base import ConstantFormat
from ttopt.ir.attributes import BoolAttr, IntegerAttr
from ttopt.ir.opdef import CONSTANT_LIKE, PURE, OpDef, register
from ttopt.ir.types import ScalarType

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation
    from ttopt.parse.opspec import OpSpec
    from ttopt.parse.parser import IRBuilder

_I1 = ScalarType("i1")


class ArithConstantFormat(ConstantFormat):
    """`arith.constant {attrs} <value>`; a bare `true` / `false` is an i1 constant."""

    def build(self, b: IRBuilder, c: list) -> OpSpec:
        _, attrs, value_tok = c
        value = b.attr(value_tok)
        if isinstance(value, BoolAttr):
            return self._spec(b, c, [], operand_types=[], result_types=[_I1], properties={"value": value}, attributes=b.dict(attrs))
        return super().build(b, c)


def constant_name(op: Operation) -> str:
    """MLIR's result name for an arith.constant."""
    v = op.properties.get("value")
    r = v.resolve() if v is not None else None
    if isinstance(r, BoolAttr):
        return "true" if r.value else "false"
    if isinstance(r, IntegerAttr) and r.type is not None:
        if r.type.text == "index":
            return f"c{r.value}"
        if r.type.text == "i1":
            return "true" if r.value else "false"
        return f"c{r.value}_{r.type.text}"
    return "cst"


register(
    OpDef(
        "arith.constant", operands=0, results=1, traits=frozenset({PURE, CONSTANT_LIKE}),
        format=ArithConstantFormat(), result_name=constant_name,
    ),
)  # fmt: skip
