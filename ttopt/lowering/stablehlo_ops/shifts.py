"""`stablehlo.shift_left` / `shift_right_logical` to `ttir.logical_left_shift` /
`ttir.logical_right_shift`, as tt-mlir maps them (it has no lowering of `shift_right_arithmetic`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ttopt.lowering.stablehlo_handlers import lowers

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation
    from ttopt.ir.values import Value
    from ttopt.lowering.stablehlo_to_ttir import Lowering

SHIFTS = {"stablehlo.shift_left": "logical_left_shift", "stablehlo.shift_right_logical": "logical_right_shift"}


@lowers(*SHIFTS)
def _shift(low: Lowering, op: Operation) -> list[Value]:
    return [low.emit(SHIFTS[op.name], list(op.operands), op.results[0].type)]
