"""Conv family: conv2d, conv_transpose2d (OP-MODEL.md §3 row 4, reference §2.4, §4.3)."""

from __future__ import annotations

from math import ceil

from ttopt.device.circular_buffers import conv_act_block_h, conv_cb, streaming_cb
from ttopt.device.conv2d_config import Conv2dConfig
from ttopt.device.layout_info import BLOCK, HEIGHT, INTERLEAVED, WIDTH, LayoutInfo
from ttopt.device.rules.common import Illegal, OpContext, RuleResult, shape_text
from ttopt.dialects.ttcore_attrs import DataType


def conv_config(ctx: OpContext) -> Conv2dConfig:
    """The config to validate: the OpConfig's, else the op's own `conv2d_config` attribute."""
    if ctx.config.conv2d is not None:
        return ctx.config.conv2d
    return Conv2dConfig.from_attr(ctx.typed_attr("conv2d_config"))


def conv(ctx: OpContext) -> RuleResult:
    """Input flattened 1x1x(N*H*W)xC; output interleaved, height or block sharded; sharded input
    and output share the memory layout. CBs: activation block (act_block_h_override, 0 = whole
    shard height) double-buffered, the weight block, and the halo'd activation; with
    deallocate_activation the input buffer is freed before the peak."""
    if len(ctx.inputs) < 2:
        raise Illegal(f"{ctx.short} needs an input and a weight tensor")
    x, w = ctx.inputs[0], ctx.inputs[1]
    xs, ws = ctx.in_shapes[0], ctx.in_shapes[1]
    if len(xs) != 4 or xs[0] != 1 or xs[1] != 1:
        raise Illegal(f"conv input must be flattened to 1x1x(N*H*W)xC, got {shape_text(xs)}")
    if x.system:
        raise Illegal("conv input activation is in system memory")
    cfg = conv_config(ctx)
    if cfg.act_block_h_override < 0 or cfg.act_block_h_override % 32:
        raise Illegal(f"act_block_h_override must be 0 or a multiple of 32, got {cfg.act_block_h_override}")

    def default() -> LayoutInfo:
        if x.sharded and x.memory_layout in (HEIGHT, BLOCK):
            grid = x.grid if x.memory_layout is BLOCK else (x.num_cores, 1)
            return ctx.build(x.buffer, x.memory_layout, grid, tiled=True)
        return ctx.build(x.buffer, INTERLEAVED, tiled=True)

    out = ctx.resolve_output(default)
    if out.memory_layout is WIDTH:
        raise Illegal("conv output must be interleaved, height or block sharded, not width sharded")
    if x.sharded and out.sharded and x.memory_layout is not out.memory_layout:
        raise Illegal(
            f"sharded input ({x.memory_layout_name}) and sharded output ({out.memory_layout_name}) must use the same memory layout"
        )
    kernel = ctx.ints_attr("kernel_size") or (tuple(ws[2:4]) if len(ws) == 4 else (1, 1))
    kh, kw = kernel[0], kernel[-1]
    cin = ctx.int_attr("in_channels") or xs[-1]
    # Rows of output pixels per core, in tiles: the shard height, or an even split over all cores.
    mt = ceil(out.layout.collapsed_2d(ctx.out_shape)[0] / 32)
    nt = ceil(ctx.out_shape[-1] / 32)
    if out.sharded:
        rows_per_core, per_core_n = out.shard_shape[0], (out.shard_shape[1] if out.memory_layout is BLOCK else nt)
        cores = out.num_cores
    else:
        cores = ctx.device.num_cores
        rows_per_core, per_core_n = ceil(mt / cores), nt
    act_dtype = x.dtype
    w_dtype = DataType.of(cfg.weights_dtype) if cfg.weights_dtype else (w.dtype if w is not None else act_dtype)
    act_bytes, w_bytes = act_dtype.tile_bytes(), w_dtype.tile_bytes()
    act_cb, weight_cb = conv_cb(conv_act_block_h(cfg.act_block_h_override, rows_per_core), kh, kw, cin, per_core_n, act_bytes, w_bytes)
    # The halo'd activation: this core's input rows, re-laid out in L1 before the convolution.
    in_rows, in_cols = x.layout.collapsed_2d(xs)
    if x.sharded and x.l1:
        halo = x.per_core_bytes
    else:
        halo = ceil(ceil(in_rows / cores) / 32) * ceil(in_cols / 32) * act_bytes
    cb = act_cb + weight_cb + halo + streaming_cb([(out, ctx.out_shape)])
    if not out.sharded and not x.sharded:
        tensors = out.per_core_bytes + (x.per_core_bytes if x.l1 else 0)
        if cb + tensors > ctx.device.usable_l1:
            # An interleaved conv shards internally as the op picks: when the whole-width (height
            # sharded) split does not fit, it splits the channels too (block sharded: each core a
            # slice of the output channels and of the input channels per step).
            gy, gx = ctx.device.worker_grid
            act_b, weight_b = conv_cb(conv_act_block_h(cfg.act_block_h_override, ceil(mt / gy)), kh, kw, ceil(cin / gx),
                                      ceil(nt / gx), act_bytes, w_bytes)  # fmt: skip
            halo_b = ceil(ceil(in_rows / gy) / 32) * ceil(ceil(in_cols / gx) / 32) * act_bytes
            cb = min(cb, act_b + weight_b + halo_b + streaming_cb([(out, ctx.out_shape)]))
    freed = (0,) if cfg.deallocate_activation else ()
    return RuleResult(out, cb, freed_inputs=freed)
