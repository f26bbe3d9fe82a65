"""`stablehlo.get_dimension_size` of a static shape: the size as an i32 scalar `ttir.constant`
(tt-mlir's `ttir.get_dimension_size` folds to exactly that)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ttopt.ir.attributes import DenseElementsAttr
from ttopt.ir.types import ScalarType, TensorType
from ttopt.lowering.stablehlo_to_ttir import Unsupported, _static, lowers

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation
    from ttopt.ir.values import Value
    from ttopt.lowering.stablehlo_to_ttir import Lowering


@lowers("stablehlo.get_dimension_size")
def _get_dimension_size(low: Lowering, op: Operation) -> list[Value]:
    a = op.properties.get("dimension") or op.attributes.get("dimension")
    dim = getattr(a.resolve(), "value", None) if a is not None else None
    shape = tuple(_static(op.operands[0].type).shape)
    if not isinstance(dim, int) or not 0 <= dim < len(shape):
        raise Unsupported(f"dimension {dim} of a rank-{len(shape)} operand")
    t = TensorType((), ScalarType("i32"))
    return [low.emit("constant", [], t, value=DenseElementsAttr(str(shape[dim]), t))]
