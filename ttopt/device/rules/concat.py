"""Concat family (OP-MODEL.md §3 row 6, reference §4.3)."""

from __future__ import annotations

from ttopt.device.circular_buffers import streaming_cb
from ttopt.device.layout_info import BLOCK, HEIGHT, INTERLEAVED, WIDTH, LayoutInfo
from ttopt.device.rules.common import Illegal, OpContext, RuleResult, describe


def concat(ctx: OpContext) -> RuleResult:
    """All inputs interleaved with an interleaved output; or all sharded with the same memory layout
    and grid and a sharded output with that layout and grid: height sharded for a last-dim concat,
    width sharded for a second-to-last-dim concat, never block. Height sharding needs tile-aligned
    last dims (tt-metal #41504). Interleaved inputs with a sharded output break (tt-metal #41469)."""
    rank = len(ctx.out_shape)
    written = ctx.int_attr("dim")
    dim = rank - 1 if written is None else written
    if dim < 0:
        dim += rank
    if not 0 <= dim < rank:
        raise Illegal(f"concat dim {ctx.int_attr('dim')} is out of range for rank {rank}")
    sharded = [info.sharded for info in ctx.inputs]
    if not any(sharded):
        out = ctx.resolve_output(lambda: ctx.build(ctx.inputs[0].buffer, INTERLEAVED, tiled=ctx.default_tiled(ctx.inputs[0])))
        if out.sharded:
            raise Illegal("interleaved inputs with a sharded output (tt-metal #41469)")
    elif not all(sharded):
        raise Illegal("inputs mix sharded and interleaved layouts; all must be one or the other")
    else:
        first = ctx.inputs[0]
        for i, info in enumerate(ctx.inputs[1:], 1):
            if info.memory_layout is not first.memory_layout or info.grid != first.grid:
                raise Illegal(f"sharded inputs need the same memory layout and grid: input 0 {describe(first)}, input {i} {describe(info)}")
        mem = first.memory_layout
        if mem is BLOCK:
            raise Illegal("block-sharded concat is not supported")
        if mem is HEIGHT and dim != rank - 1:
            raise Illegal(f"height-sharded inputs need a last-dim concat, got dim {dim}")
        if mem is WIDTH and dim != rank - 2:
            raise Illegal(f"width-sharded inputs need a second-to-last-dim concat, got dim {dim}")
        if mem is HEIGHT and any(s[-1] % 32 for s in ctx.in_shapes):
            raise Illegal("height-sharded concat needs tile-aligned last dims (tt-metal #41504 hang)")

        def default() -> LayoutInfo:
            return ctx.build(first.buffer, mem, first.grid, tiled=first.tiled)

        out = ctx.resolve_output(default)
        if out.memory_layout is not mem or out.grid != first.grid:
            raise Illegal(f"sharded inputs need a sharded output with their layout and grid ({describe(first)}), got {describe(out)}")
    operands = list(zip(ctx.inputs, ctx.in_shapes)) + [(out, ctx.out_shape)]
    return RuleResult(out, streaming_cb(operands))
