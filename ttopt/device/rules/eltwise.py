"""Eltwise unary and binary families (OP-MODEL.md §3 rows 1-2, reference §4.3)."""

from __future__ import annotations

from ttopt.device.circular_buffers import streaming_cb
from ttopt.device.rules.common import Illegal, OpContext, RuleResult, broadcast_ok, describe, shape_text


def eltwise_unary(ctx: OpContext) -> RuleResult:
    """Any input. No hint: the output copies the input's memory config, shard spec included.
    A sharded output needs an interleaved input or an input with the identical shard spec."""
    x = ctx.inputs[0]
    out = ctx.resolve_output(lambda: ctx.copy_config(x))
    if out.tiled != x.tiled:
        # tt-metal's unary programs (typecast's row-major chunked one included) write the page
        # layout they read; retiling is to_layout's job.
        raise Illegal(f"output {describe(out)} changes the page layout of input {describe(x)}")
    if out.sharded and x.sharded and out.spec_key != x.spec_key:
        raise Illegal(
            f"sharded output {describe(out)} needs an interleaved input or the input's identical shard spec "
            f"(input {describe(x)})"
        )
    return RuleResult(out, streaming_cb([(x, ctx.in_shapes[0]), (out, ctx.out_shape)]))


def eltwise_binary(ctx: OpContext) -> RuleResult:
    """Shapes equal or broadcastable with the broadcast operand interleaved; sharded inputs share one
    shard spec; a sharded output keeps at least the cores of every sharded input (tt-metal #34765)
    and their spec. No hint: the first sharded input's spec, else input 0's config."""
    if not broadcast_ok(ctx.in_shapes, ctx.out_shape):
        raise Illegal(
            f"operand shapes {', '.join(shape_text(s) for s in ctx.in_shapes)} do not broadcast to "
            f"{shape_text(ctx.out_shape)}"
        )
    for i, (info, shape) in enumerate(zip(ctx.inputs, ctx.in_shapes)):
        if shape != ctx.out_shape and info.sharded:
            raise Illegal(f"operand {i} is broadcast ({shape_text(shape)}) and must be interleaved, not {describe(info)}")
    sharded = [i for i, info in enumerate(ctx.inputs) if info.sharded]
    for i in sharded[1:]:
        if ctx.inputs[i].spec_key != ctx.inputs[sharded[0]].spec_key:
            raise Illegal(
                f"sharded operands {sharded[0]} and {i} need identical shard specs "
                f"({describe(ctx.inputs[sharded[0]])} vs {describe(ctx.inputs[i])})"
            )
    first = ctx.inputs[sharded[0]] if sharded else ctx.inputs[0]
    out = ctx.resolve_output(lambda: ctx.copy_config(first))
    if out.sharded:
        for i in sharded:
            if out.num_cores < ctx.inputs[i].num_cores:
                raise Illegal(
                    f"sharded output on {out.num_cores} cores shrinks sharded operand {i} on "
                    f"{ctx.inputs[i].num_cores} cores (tt-metal #34765 hang)"
                )
        for i in sharded:
            if out.spec_key != ctx.inputs[i].spec_key:
                raise Illegal(
                    f"sharded output {describe(out)} must use sharded operand {i}'s spec {describe(ctx.inputs[i])}"
                )
    operands = list(zip(ctx.inputs, ctx.in_shapes)) + [(out, ctx.out_shape)]
    return RuleResult(out, streaming_cb(operands))
