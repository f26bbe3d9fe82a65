"""Matmul / linear family (OP-MODEL.md §3 row 3, reference §2.4, §4.3)."""

from __future__ import annotations

from ttopt.device.circular_buffers import matmul_cb
from ttopt.device.layout_info import BLOCK, HEIGHT, INTERLEAVED, LayoutInfo
from ttopt.device.matmul_config import (
    check_program_config,
    derive_program_config,
    fit_out_block,
    interleaved_blocking,
    is_batched,
    matmul_dims,
)
from ttopt.device.op_config import PartialLayout
from ttopt.device.rules.common import Illegal, OpContext, RuleResult, describe, shape_text


def activation_of(ctx: OpContext) -> str | None:
    """The fused activation named by the op's `activation` attribute (a string or unary_with_param)."""
    a = ctx.attr("activation")
    if a is None:
        return None
    v = getattr(a, "value", None)
    if isinstance(v, str):
        return v or None
    typed = ctx.typed_attr("activation")
    return getattr(typed, "op_type", None) or a.text


def matmul(ctx: OpContext) -> RuleResult:
    """Second operand (and bias) interleaved; tiled operands; a sharded output needs a program config
    derived as upstream (or given) that tt-metal accepts; a sharded first operand must be block on
    the output's grid or height on as many cores; block-sharded first operand with last dim < 32 is
    illegal. No hint: sharded first operand -> same memory layout and cores, else interleaved in
    the first operand's buffer."""
    if len(ctx.inputs) < 2:
        raise Illegal(f"{ctx.short} needs two tensor operands")
    a, b = ctx.inputs[0], ctx.inputs[1]
    a_shape, b_shape = ctx.in_shapes[0], ctx.in_shapes[1]
    if b.sharded:
        raise Illegal(f"second operand (weights) must be interleaved, not {describe(b)}")
    if len(ctx.inputs) > 2 and ctx.inputs[2].sharded:
        raise Illegal(f"bias must be interleaved, not {describe(ctx.inputs[2])}")
    for i, info in enumerate(ctx.inputs[:2]):
        if not info.tiled:
            raise Illegal(f"matmul operand {i} must be tiled, not row-major")
    if a.sharded and a.memory_layout not in (BLOCK, HEIGHT):
        raise Illegal(f"a sharded first operand must be block or height sharded, not {a.memory_layout_name}")
    if a.sharded and a.memory_layout is BLOCK and a_shape[-1] < 32:
        raise Illegal(
            f"block-sharded first operand with last dim {a_shape[-1]} < 32 (matmul kernel divide-by-zero, tt-mlir 0cf82c8a83)"
        )
    activation = activation_of(ctx)
    if activation and isinstance(ctx.hint, PartialLayout):
        raise Illegal("a fused activation needs a full output layout, not a partial one (tt-mlir #34500)")

    def default() -> LayoutInfo:
        if a.sharded:
            grid = a.grid if a.memory_layout is BLOCK else (a.num_cores, 1)
            return ctx.build(a.buffer, a.memory_layout, grid, tiled=True)
        return ctx.build(a.buffer, INTERLEAVED, tiled=True)

    out = ctx.resolve_output(default)
    dims = matmul_dims(a_shape, b_shape, ctx.out_shape, ctx.bool_attr("transpose_a"))
    max_sub = ctx.device.max_subblock
    if out.sharded:
        if not out.l1:
            raise Illegal(f"{describe(out)}: only L1-sharded matmul outputs are modelled")
        if is_batched(b_shape):
            raise Illegal(
                f"batched second operand {shape_text(b_shape)}: fuse_batch is false, so no program config "
                f"for a sharded output (tt-metal hang #42572)"
            )
        cfg = ctx.config.matmul or derive_program_config(dims, out, max_sub, activation)
        if cfg is None:
            raise Illegal(f"no matmul program config for {describe(out)}")
        why = check_program_config(cfg, dims, out, max_sub)
        if why:
            raise Illegal(f"program config: {why}")
        if a.sharded:
            if a.memory_layout is not out.memory_layout:
                raise Illegal(
                    f"sharded first operand ({a.memory_layout_name}) must match the output's memory layout "
                    f"({out.memory_layout_name})"
                )
            if a.memory_layout is BLOCK and a.bbox != out.bbox:
                raise Illegal(f"block-sharded first operand on {a.grid[0]}x{a.grid[1]} must be on the output grid {out.grid[0]}x{out.grid[1]}")
            if a.memory_layout is HEIGHT and a.num_cores != out.num_cores:
                raise Illegal(f"height-sharded first operand on {a.num_cores} cores must match the output's {out.num_cores} cores")
        pm, pn, inw = cfg.per_core_m, cfg.per_core_n, cfg.in0_block_w
    else:
        pm, pn, inw = interleaved_blocking(dims, ctx.device.worker_grid)
        # tt-metal's auto-picker shrinks the output block of an interleaved output until its CBs fit L1.
        pm, pn, inw = fit_out_block(pm, pn, inw, lambda m, n, k: matmul_cb(m, n, k, a.element_bytes, b.element_bytes,
                                    out.element_bytes, a.sharded, out.sharded), ctx.device.usable_l1)  # fmt: skip
    cb = matmul_cb(pm, pn, inw, a.element_bytes, b.element_bytes, out.element_bytes, a.sharded, out.sharded)
    if len(ctx.inputs) > 2 and not ctx.inputs[2].sharded:
        cb += 2 * ctx.inputs[2].element_bytes  # bias streams like any interleaved operand
    return RuleResult(out, cb)
