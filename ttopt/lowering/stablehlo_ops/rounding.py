"""`stablehlo.round_nearest_afz` (round half away from zero) as tt-mlir decomposes it:
`sign(x) * floor(abs(x) + 0.5)`. `round_nearest_even` has no lowering in tt-mlir."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ttopt.lowering.stablehlo_ops.building import splat
from ttopt.lowering.stablehlo_to_ttir import Unsupported, _element, lowers

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation
    from ttopt.ir.values import Value
    from ttopt.lowering.stablehlo_to_ttir import Lowering


@lowers("stablehlo.round_nearest_afz")
def _round_afz(low: Lowering, op: Operation) -> list[Value]:
    x, t = op.operands[0], op.results[0].type
    if _element(x) not in ("f16", "bf16", "f32", "f64"):
        raise Unsupported(f"element type {_element(x)} (a float type is expected)")
    half = splat(low, t, 0.5)
    floored = low.emit("floor", [low.emit("add", [low.emit("abs", [x], t), half], t)], t)
    return [low.emit("multiply", [low.emit("sign", [x], t), floored], t)]
