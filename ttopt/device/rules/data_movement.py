"""Data movement and layout families (OP-MODEL.md §3 rows 7-8)."""

from __future__ import annotations

from ttopt.device.circular_buffers import streaming_cb
from ttopt.device.layout_info import INTERLEAVED, layout_info
from ttopt.device.rules.common import Illegal, OpContext, RuleResult, describe


def data_movement(ctx: OpContext) -> RuleResult:
    """Reshape, permute, slices, reductions, pooling, ...: interleaved only (DRAM or L1). No hint:
    the output is interleaved in the input's buffer; a hint may name either buffer."""
    for i, info in enumerate(ctx.inputs):
        if info.sharded:
            raise Illegal(f"{ctx.short} takes interleaved operands only; operand {i} is {describe(info)}")
    x = ctx.inputs[0]
    out = ctx.resolve_output(lambda: ctx.build(x.buffer, INTERLEAVED, tiled=ctx.default_tiled(x)))
    if out.sharded:
        raise Illegal(f"{ctx.short} produces interleaved outputs only, not {describe(out)}")
    operands = list(zip(ctx.inputs, ctx.in_shapes)) + [(out, ctx.out_shape)]
    return RuleResult(out, streaming_cb(operands))


def layout_conversion(ctx: OpContext) -> RuleResult:
    """to_layout / to_memory_config: any input to any output. No hint: the result's current layout
    (the conversion's target), else the input's config."""
    x = ctx.inputs[0]

    def default():
        if ctx.current_output is not None:
            return ctx.check_full_hint(layout_info(ctx.current_output))
        return ctx.copy_config(x)

    out = ctx.resolve_output(default)
    return RuleResult(out, streaming_cb([(x, ctx.in_shapes[0]), (out, ctx.out_shape)]))
