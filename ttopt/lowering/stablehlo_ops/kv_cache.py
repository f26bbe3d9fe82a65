"""The KV-cache and sampling custom calls (`stablehlo.custom_call @tt.fill_cache`, `@tt.update_cache`,
`@tt.paged_fill_cache`, `@tt.paged_update_cache`, `@tt.sampling`) to TTIR, as tt-mlir lowers them.

The cache ops write the cache in place and have no result in TTIR: the call's result is the cache
operand itself. `batch_offset` comes from the frontend attributes (a non-negative integer, as
`N : i32`); `share_cache` defaults to false; `sampling`'s `seed` appears only when given.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ttopt.ir.attributes import BoolAttr, IntegerAttr
from ttopt.lowering.stablehlo_handlers import Unsupported
from ttopt.lowering.stablehlo_ops.building import emit_results
from ttopt.lowering.stablehlo_ops.custom_call import lowers_target
from ttopt.lowering.stablehlo_ops.frontend_attributes import I32, flag, frontend_attributes, unsigned

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation
    from ttopt.ir.values import Value
    from ttopt.lowering.stablehlo_to_ttir import Lowering


def _operands(op: Operation, *counts: int) -> list[Value]:
    ins = list(op.operands)
    if len(ins) not in counts or len(op.results) != 1:
        raise Unsupported(f"it takes {' or '.join(map(str, counts))} operands and has one result")
    return ins


def _batch_offset(op: Operation) -> IntegerAttr:
    attrs = frontend_attributes(op)
    if "batch_offset" not in attrs:
        raise Unsupported("batch_offset frontend attribute must be present")
    offset = unsigned(attrs, "batch_offset", I32)
    assert offset is not None
    return offset


@lowers_target("tt.fill_cache")
def _fill_cache(low: Lowering, op: Operation) -> list[Value]:
    cache, x = _operands(op, 2)
    emit_results(low, "fill_cache", [cache, x], [], batch_offset=_batch_offset(op))
    return [cache]


@lowers_target("tt.update_cache")
def _update_cache(low: Lowering, op: Operation) -> list[Value]:
    cache, x, index = _operands(op, 3)
    emit_results(low, "update_cache", [cache, x, index], [], batch_offset=_batch_offset(op))
    return [cache]


@lowers_target("tt.paged_update_cache")
def _paged_update_cache(low: Lowering, op: Operation) -> list[Value]:
    ins = _operands(op, 4)
    share = flag(frontend_attributes(op), "share_cache", False)
    emit_results(low, "paged_update_cache", ins, [], share_cache=BoolAttr(share))
    return [ins[0]]


@lowers_target("tt.paged_fill_cache")
def _paged_fill_cache(low: Lowering, op: Operation) -> list[Value]:
    ins = _operands(op, 3, 4)
    emit_results(low, "paged_fill_cache", ins, [])
    return [ins[0]]


@lowers_target("tt.sampling")
def _sampling(low: Lowering, op: Operation) -> list[Value]:
    ins = _operands(op, 5)
    seed = unsigned(frontend_attributes(op), "seed")
    extra = {"seed": seed} if seed is not None else {}
    return [low.emit("sampling", ins, op.results[0].type, **extra)]
