"""`stablehlo.rng` and `stablehlo.rng_bit_generator` to `ttir.rand`, as tt-mlir lowers them.

* `rng` with the UNIFORM distribution and constant bounds (splat constants, possibly reshaped or
  converted) becomes `ttir.rand` of the result shape over `[low, high)`, seed 0 (a fresh seed on
  every run). Other distributions and runtime bounds are diagnostics.
* `rng_bit_generator` becomes `ttir.rand` in f32 over `[0, 2^32 - 1]` converted to the output
  type; the output state is the initial state, unchanged (tt-mlir does the same: TTNN's generator
  keeps its own state). The generated bits therefore differ from XLA's Philox/ThreeFry streams.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ttopt.dialects.format_base import enum_value
from ttopt.ir.attributes import FloatAttr, IntegerAttr
from ttopt.ir.types import ScalarType, TensorType
from ttopt.lowering.dense_values import float_text
from ttopt.lowering.stablehlo_ops.building import constant_splat
from ttopt.lowering.stablehlo_to_ttir import Unsupported, _i32s, _static, lowers

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation
    from ttopt.ir.values import Value
    from ttopt.lowering.stablehlo_to_ttir import Lowering

F32, UI32 = ScalarType("f32"), ScalarType("ui32")


def _f32(value: float) -> FloatAttr:
    return FloatAttr(value, F32, text=f"{float_text(value)} : f32")


def _rand(low: Lowering, t: Any, lo: float, hi: float) -> Value:
    shape = tuple(_static(t).shape)
    return low.emit("rand", [], t, size=_i32s(shape), low=_f32(lo), high=_f32(hi), seed=IntegerAttr(0, UI32))


@lowers("stablehlo.rng")
def _rng(low: Lowering, op: Operation) -> list[Value]:
    dist = enum_value(op.properties.get("rng_distribution") or op.attributes.get("rng_distribution"))
    if dist != "UNIFORM":
        raise Unsupported(f"the {dist} distribution (ttir.rand draws uniformly)")
    lo, hi = (constant_splat(v) for v in op.operands[:2])
    if not isinstance(lo, (int, float)) or not isinstance(hi, (int, float)):
        raise Unsupported("its bounds are not constants")
    if float(lo) >= float(hi):
        raise Unsupported(f"low ({lo}) is not below high ({hi})")
    return [_rand(low, op.results[0].type, float(lo), float(hi))]


@lowers("stablehlo.rng_bit_generator")
def _rng_bit_generator(low: Lowering, op: Operation) -> list[Value]:
    out_t = _static(op.results[1].type)
    floats = TensorType(tuple(out_t.shape), F32, out_t.encoding)
    r = _rand(low, floats, 0.0, float((1 << 32) - 1))
    return [op.operands[0], low.emit("typecast", [r], op.results[1].type)]
