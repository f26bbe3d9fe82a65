"""Transformer family: `ttnn.split_query_key_value_and_split_heads`, three results in one memory config.

tt-metal's `ttnn::transformer::split_query_key_value_and_split_heads` takes a tiled [B, S, hidden]
input (and for grouped attention a [B, S, 2 * hidden] KV input), requires a head size that is a
multiple of the tile width, and runs `nlp_create_qkv_heads` on an interleaved input: every output
is interleaved, in the memory config given, else the input's. Its sharded path (`create_qkv_heads`,
block-sharded in, height-sharded out) corrupts a sequence that is not tile aligned (tt-metal issue
41526), so tt-mlir HEAD's rule book (SplitQKVRuleBook) gives the op only the null output hint and
no reshards: the three results take the input's memory config. The same holds here: sharded inputs
are illegal, and an output that is not the input's memory config is illegal.

The op model answers for the query result (result 0); key and value are laid out in the same
memory config with their own shapes (`result_layouts`), and their L1 counts as op tensors.
"""

from __future__ import annotations

from typing import Any

from ttopt.device.circular_buffers import streaming_cb
from ttopt.device.layout_info import LayoutInfo, layout_info, make_layout
from ttopt.device.rules.common import Illegal, OpContext, RuleResult, describe, shape_text
from ttopt.device.tensor import element_dtype
from ttopt.dialects.ttcore_attrs import DataType
from ttopt.dialects.ttnn_layout import TTNNLayoutAttr
from ttopt.ir.types import TensorType

TILE_WIDTH = 32
# nlp_create_qkv_heads reads these input formats only.
SPLIT_DTYPES = frozenset({DataType.F32, DataType.BF16, DataType.BFP_BF8})
# Ops whose results all share one memory config, the op model answering for result 0.
SHARED_CONFIG_OPS = frozenset({"ttnn.split_query_key_value_and_split_heads"})


def has_one_config(op: Any) -> bool:
    """Whether one config lays out all of the op's results: it has one, or shares one config
    across them (SHARED_CONFIG_OPS), its first result standing for the rest."""
    return len(op.results) == 1 or op.name in SHARED_CONFIG_OPS


def result_shapes(op: Any) -> list[tuple[int, ...]]:
    """The static shapes of the op's tensor results (a dynamic one raises ValueError)."""
    out: list[tuple[int, ...]] = []
    for r in op.results:
        t = r.type.resolve()
        if not isinstance(t, TensorType) or t.shape is None:
            raise ValueError(f"{op.name} result without a static shape")
        dims = [d for d in t.shape if isinstance(d, int) and d >= 0]
        if len(dims) != len(t.shape):
            raise ValueError(f"{op.name} result without a static shape")
        out.append(tuple(dims))
    return out


def heads_shape(op: Any) -> tuple[int, ...]:
    """All heads the op writes as one tensor, [B, Hq + 2 Hkv, S, D]: what its output traffic is."""
    shapes = result_shapes(op)
    b, _, s, d = shapes[0]
    return (b, sum(sh[1] for sh in shapes), s, d)


def result_layouts(op: Any, first: TTNNLayoutAttr, worker_grid: tuple[int, int]) -> list[TTNNLayoutAttr]:
    """Every result's layout when result 0 has `first`: the same buffer, memory layout and page
    layout, each built for its own shape and element type (raises ValueError when one cannot be)."""
    out = []
    for i, (r, shape) in enumerate(zip(op.results, result_shapes(op))):
        if i == 0:
            out.append(first)
            continue
        dt = element_dtype(r.type.resolve()) or first.dtype
        try:
            out.append(make_layout(shape, dt, first.is_tiled, first.buffer_type, first.memory_layout,
                                   tuple(first.grid) if first.is_sharded else None, worker_grid))  # fmt: skip
        except Exception as e:  # noqa: BLE001  (an AttrError: no such layout for this result)
            raise ValueError(f"no {describe(layout_info(first))} layout for a {shape_text(shape)} result") from e
    return out


def split_heads(ctx: OpContext) -> RuleResult:
    """Interleaved tiled inputs, head size a multiple of 32; every result in the input's memory config."""
    x = ctx.inputs[0]
    for i, (info, dt) in enumerate(zip(ctx.inputs, ctx.in_dtypes)):
        if info.sharded:
            raise Illegal(f"{ctx.short} operand {i} must be interleaved, not {describe(info)} (the sharded "
                          "create_qkv_heads path is not used: tt-metal issue 41526)")  # fmt: skip
        if not info.tiled:
            raise Illegal(f"{ctx.short} operand {i} must be tiled")
        if dt is not None and dt not in SPLIT_DTYPES:
            raise Illegal(f"{ctx.short} does not read {dt.value}")
    if len(ctx.out_shape) != 4 or ctx.out_shape[-1] % TILE_WIDTH:
        raise Illegal(f"{ctx.short} head size {ctx.out_shape[-1]} is not a multiple of the tile width {TILE_WIDTH}")
    out = ctx.resolve_output(lambda: ctx.copy_config(x))
    if out.sharded or out.buffer is not x.buffer or not out.tiled:
        raise Illegal(f"{ctx.short} results take the input's memory config {describe(x)}, not {describe(out)}")
    try:
        shapes = result_shapes(ctx.op)
        lays = [layout_info(lay) for lay in result_layouts(ctx.op, out.layout, ctx.device.worker_grid)]
    except ValueError as e:
        raise Illegal(str(e)) from None
    operands: list[tuple[LayoutInfo, Any]] = list(zip(ctx.inputs, ctx.in_shapes)) + list(zip(lays, shapes))
    others = sum(info.per_core_bytes for info in lays[1:])
    return RuleResult(out, streaming_cb(operands), extra_tensor_bytes=others)
