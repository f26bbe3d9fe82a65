"""Norm / rope family: rms_norm, layer_norm, rotary_embedding, softmax (OP-MODEL.md §3 row 5)."""

from __future__ import annotations

from types import MappingProxyType
from typing import Mapping

from ttopt.device.circular_buffers import streaming_cb
from ttopt.device.layout_info import BLOCK, HEIGHT, INTERLEAVED, WIDTH
from ttopt.device.rules.common import Illegal, OpContext, RuleResult, describe
from ttopt.dialects.ttnn_attrs import TensorMemoryLayout

# Memory layouts each op accepts for its input (and therefore its output).
NORM_MEMORY_LAYOUTS: Mapping[str, frozenset[TensorMemoryLayout]] = MappingProxyType({
    "ttnn.rms_norm": frozenset({INTERLEAVED, WIDTH, BLOCK}),
    "ttnn.layer_norm": frozenset({INTERLEAVED, WIDTH, BLOCK}),
    "ttnn.rotary_embedding": frozenset({INTERLEAVED, HEIGHT}),
    "ttnn.softmax": frozenset({INTERLEAVED}),
})  # fmt: skip


def norm(ctx: OpContext) -> RuleResult:
    """Input interleaved (or the op's extra sharding); other operands (weight, bias, cos/sin)
    interleaved. The output copies the input's config: the same shard spec for a sharded input;
    interleaved (either buffer) for an interleaved one."""
    x = ctx.inputs[0]
    allowed = NORM_MEMORY_LAYOUTS.get(ctx.name, frozenset({INTERLEAVED}))
    mem = x.memory_layout or INTERLEAVED
    if mem not in allowed:
        names = ", ".join(sorted(m.value for m in allowed))
        raise Illegal(f"{ctx.short} input must be {names}, not {mem.value}")
    for i, info in enumerate(ctx.inputs[1:], 1):
        if info.sharded:
            raise Illegal(f"{ctx.short} operand {i} must be interleaved, not {describe(info)}")
    out = ctx.resolve_output(lambda: ctx.copy_config(x))
    if x.sharded and out.spec_key != x.spec_key:
        raise Illegal(f"output must copy the sharded input's config {describe(x)}, got {describe(out)}")
    if not x.sharded and out.sharded:
        raise Illegal(f"output must copy the input's interleaved config, got {describe(out)}")
    operands = list(zip(ctx.inputs, ctx.in_shapes)) + [(out, ctx.out_shape)]
    return RuleResult(out, streaming_cb(operands))
