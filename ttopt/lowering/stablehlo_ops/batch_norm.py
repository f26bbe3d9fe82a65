"""`stablehlo.batch_norm_inference` to `ttir.batch_norm_inference` (operand, scale, offset, mean,
variance; `dimension` the feature index as i32, `epsilon` kept), as tt-mlir lowers it.
`batch_norm_training` and `batch_norm_grad` are not lowered here yet (diagnostics)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ttopt.ir.attributes import FloatAttr, IntegerAttr
from ttopt.ir.types import ScalarType
from ttopt.lowering.stablehlo_handlers import Unsupported, lowers

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation
    from ttopt.ir.values import Value
    from ttopt.lowering.stablehlo_to_ttir import Lowering


@lowers("stablehlo.batch_norm_inference")
def _batch_norm_inference(low: Lowering, op: Operation) -> list[Value]:
    get = lambda key: op.properties.get(key) or op.attributes.get(key)  # noqa: E731
    feature, eps = get("feature_index"), get("epsilon")
    if feature is None or eps is None:
        raise Unsupported("missing feature_index or epsilon")
    dim = IntegerAttr(feature.resolve().value, ScalarType("i32"))
    epsilon = FloatAttr(float(eps.resolve().value), ScalarType("f32"))  # reprinted in MLIR's spelling
    return [low.emit("batch_norm_inference", list(op.operands), op.results[0].type, dimension=dim, epsilon=epsilon)]
