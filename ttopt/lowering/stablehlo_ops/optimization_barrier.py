"""`stablehlo.optimization_barrier` to `ttcore.optimization_barrier` (same operands and results), as
tt-mlir lowers it; convert-ttir-to-ttnn folds the barrier away."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ttopt.ir.operation import Operation
from ttopt.lowering.stablehlo_handlers import lowers

if TYPE_CHECKING:
    from ttopt.ir.values import Value
    from ttopt.lowering.stablehlo_to_ttir import Lowering


@lowers("stablehlo.optimization_barrier")
def _barrier(low: Lowering, op: Operation) -> list[Value]:
    new = Operation("ttcore.optimization_barrier", list(op.operands), [r.type for r in op.results], location=op.location)
    return list(low.place(new).results)
