"""Data movement and layout families (OP-MODEL.md §3 rows 7-8)."""

from __future__ import annotations

from typing import Sequence

from ttopt.device.circular_buffers import streaming_cb
from ttopt.device.layout_info import INTERLEAVED, L1, LayoutInfo, layout_info
from ttopt.device.op_config import PartialLayout
from ttopt.device.rules.common import Illegal, OpContext, RuleResult, describe
from ttopt.dialects.ttnn_attrs import TensorMemoryLayout

TILE = 32


def reshape_shapes_view(in_shape: Sequence[int], out_shape: Sequence[int], tiled: bool) -> bool:
    """tt-metal's shape condition for a reshape that is a view (no program, the input's buffer
    reinterpreted; reshape_view/reshape.cpp `this_is_view`): the last dimension is kept, and a tiled
    tensor keeps its second-to-last dimension or both are whole tiles, so no row moves between tiles."""
    if not in_shape or not out_shape or in_shape[-1] != out_shape[-1]:
        return False
    if not tiled:
        return True
    a = in_shape[-2] if len(in_shape) >= 2 else 1
    b = out_shape[-2] if len(out_shape) >= 2 else 1
    return a == b or (a % TILE == 0 and b % TILE == 0)


def is_reshape_view(in_shape: Sequence[int], out_shape: Sequence[int], x: LayoutInfo, out: LayoutInfo) -> bool:
    """Whether a reshape from `x` to `out` runs as a view: the shapes allow it and the output keeps
    the input's memory config (tt-metal's view carries the input's config, shard spec included)."""
    if not reshape_shapes_view(in_shape, out_shape, x.tiled) or x.tiled != out.tiled or x.dtype != out.dtype:
        return False
    if x.buffer is not out.buffer or x.memory_layout is not out.memory_layout:
        return False
    return not x.sharded or x.spec_key == out.spec_key


def _view_hint_applies(x: LayoutInfo, hint: LayoutInfo | PartialLayout | None) -> bool:
    """tt-metal takes the view path only when the requested config keeps the input's sharded-ness
    and L1-ness (no hint: the input's config is requested)."""
    if hint is None:
        return True
    sharded = hint.sharded if isinstance(hint, LayoutInfo) else hint.memory_layout is not INTERLEAVED
    return sharded == x.sharded and (hint.buffer is L1) == x.l1


def _reshape_view(ctx: OpContext) -> RuleResult | None:
    """A reshape tt-metal runs as a view: the output is the input's buffer in the input's memory
    config (a sharded input keeps its shard spec: same cores, same shard shape), no circular buffers,
    no second tensor. None when the reshape is not a view (it then runs the copy program)."""
    x = ctx.inputs[0]
    if x.memory_layout is TensorMemoryLayout.ND_SHARDED or x.system:
        return None
    if (ctx.out_tiled is not None and ctx.out_tiled != x.tiled) or ctx.out_dtype != x.dtype:
        return None
    if not reshape_shapes_view(ctx.in_shapes[0], ctx.out_shape, x.tiled) or not _view_hint_applies(x, ctx.hint):
        return None
    if x.sharded:
        view = ctx.build(x.buffer, x.memory_layout, x.grid, tiled=x.tiled, core_ranges=x.layout.core_ranges)
        if view.shard_shape != x.shard_shape or view.ranges != x.ranges:
            raise Illegal(f"reshape view of {describe(x)} would change its shard spec ({describe(view)})")
    else:
        view = ctx.build(x.buffer, INTERLEAVED, tiled=x.tiled)
    out = ctx.resolve_output(lambda: view)
    if not is_reshape_view(ctx.in_shapes[0], ctx.out_shape, x, out):
        raise Illegal(f"a reshape view keeps its input's memory config ({describe(view)}), not {describe(out)}")
    return RuleResult(out, 0, freed_inputs=(0,))


def data_movement(ctx: OpContext) -> RuleResult:
    """Reshape, permute, slices, reductions, pooling, ...: interleaved only (DRAM or L1). No hint:
    the output is interleaved in the input's buffer; a hint may name either buffer. A reshape that
    tt-metal runs as a view takes any input and keeps its memory config."""
    if ctx.short == "reshape" and ctx.inputs:
        view = _reshape_view(ctx)
        if view is not None:
            return view
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
