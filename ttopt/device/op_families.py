"""Which rule set models which op (OP-MODEL.md §3): one table, op name -> family. A new op is one line.

Ops not in the table are `not_implemented`: the optimizer leaves them at their current layout.
"""

from __future__ import annotations

from enum import StrEnum
from types import MappingProxyType
from typing import Mapping


class Family(StrEnum):
    ELTWISE_UNARY = "eltwise_unary"
    ELTWISE_BINARY = "eltwise_binary"
    MATMUL = "matmul"
    CONV = "conv"
    NORM = "norm"
    CONCAT = "concat"
    DATA_MOVEMENT = "data_movement"
    LAYOUT = "layout"
    DISPATCH = "dispatch"
    TRANSFORMER = "transformer"


_U, _B, _M, _C = Family.ELTWISE_UNARY, Family.ELTWISE_BINARY, Family.MATMUL, Family.CONV
_N, _CAT, _D, _L, _X = Family.NORM, Family.CONCAT, Family.DATA_MOVEMENT, Family.LAYOUT, Family.DISPATCH

OP_FAMILIES: Mapping[str, Family] = MappingProxyType({
    # eltwise unary: any input; no hint -> copy the input's memory config.
    "ttnn.relu": _U, "ttnn.relu6": _U, "ttnn.gelu": _U, "ttnn.silu": _U, "ttnn.neg": _U, "ttnn.abs": _U,
    "ttnn.exp": _U, "ttnn.log": _U, "ttnn.log1p": _U, "ttnn.expm1": _U, "ttnn.sqrt": _U, "ttnn.rsqrt": _U,
    "ttnn.tanh": _U, "ttnn.sigmoid": _U, "ttnn.reciprocal": _U, "ttnn.typecast": _U, "ttnn.pow_scalar": _U,
    "ttnn.leaky_relu": _U, "ttnn.ceil": _U, "ttnn.floor": _U, "ttnn.cos": _U, "ttnn.sin": _U, "ttnn.tan": _U,
    "ttnn.sign": _U, "ttnn.isfinite": _U, "ttnn.logical_not": _U, "ttnn.erf": _U, "ttnn.erfc": _U,
    "ttnn.hardsigmoid": _U, "ttnn.mish": _U, "ttnn.clamp_scalar": _U,
    "ttnn.asinh": _U, "ttnn.acos": _U, "ttnn.asin": _U, "ttnn.atan": _U, "ttnn.bitwise_not": _U,
    "ttnn.bitcast_convert": _U, "ttnn.cbrt": _U,
    # eltwise binary (and the ternary `where`): broadcast operands interleaved, shard specs agree.
    "ttnn.add": _B, "ttnn.multiply": _B, "ttnn.subtract": _B, "ttnn.minimum": _B, "ttnn.maximum": _B,
    "ttnn.divide": _B, "ttnn.pow_tensor": _B, "ttnn.remainder": _B, "ttnn.atan2": _B, "ttnn.eq": _B, "ttnn.ne": _B,
    "ttnn.gt": _B, "ttnn.ge": _B, "ttnn.lt": _B, "ttnn.le": _B, "ttnn.logical_and": _B, "ttnn.logical_or": _B,
    "ttnn.logical_xor": _B, "ttnn.where": _B, "ttnn.logical_left_shift": _B, "ttnn.logical_right_shift": _B,
    "ttnn.bitwise_and": _B, "ttnn.bitwise_or": _B, "ttnn.bitwise_xor": _B,
    # matmul: weights interleaved, program config per sharded output.
    "ttnn.matmul": _M, "ttnn.linear": _M,
    # conv: flattened NHWC input, interleaved/height/block output.
    "ttnn.conv2d": _C, "ttnn.conv_transpose2d": _C,
    # norm / rope: interleaved, plus width/block (norms) or height (rotary embedding) sharding.
    "ttnn.rms_norm": _N, "ttnn.layer_norm": _N, "ttnn.rotary_embedding": _N, "ttnn.softmax": _N,
    "ttnn.dit_rms_norm_unary_fused": _N,
    # distributed layer norm's per-device statistics and normalization (interleaved only): priced
    # as norms, with the norm kind's cycles per tile.
    "ttnn.layer_norm_pre_all_gather": _N, "ttnn.layer_norm_post_all_gather": _N,
    "ttnn.concat": _CAT,
    # data movement / reductions / pooling: interleaved only.
    "ttnn.reshape": _D, "ttnn.permute": _D, "ttnn.transpose": _D, "ttnn.slice_static": _D, "ttnn.slice_dynamic": _D,
    "ttnn.pad": _D, "ttnn.repeat": _D, "ttnn.repeat_interleave": _D, "ttnn.embedding": _D, "ttnn.sum": _D,
    "ttnn.mean": _D, "ttnn.max": _D, "ttnn.min": _D, "ttnn.prod": _D, "ttnn.argmax": _D,
    "ttnn.max_pool2d": _D, "ttnn.avg_pool2d": _D, "ttnn.global_avg_pool2d": _D, "ttnn.upsample": _D,
    "ttnn.gather": _D, "ttnn.scatter": _D, "ttnn.embedding_bw": _D, "ttnn.cumsum": _D, "ttnn.cumprod": _D,
    "ttnn.max_pool2d_with_indices": _D, "ttnn.nlp_concat_heads_decode": _D,
    "ttnn.concatenate_heads": _D,
    # transformer: split into heads, three results in the input's interleaved memory config.
    "ttnn.split_query_key_value_and_split_heads": Family.TRANSFORMER,
    # layout conversions: any input to any output.
    "ttnn.to_layout": _L, "ttnn.to_memory_config": _L,
    # D2M dispatch: any layouts; L1 = inner maximum within the seed-001 budget.
    "ttnn.dispatch_d2m": _X, "ttnn.d2m_subgraph": _X,
})  # fmt: skip


# Registered TTNN ops no family models, on purpose: device and host transfer plumbing, the aggregate
# layout change (decomposed into modelled conversions before it runs), deallocation (no device
# compute to place), creation ops (their layout is written in the IR), CCL collectives and mesh
# distribution (placed by the sharding pipeline, not the layout optimizer), trace capture and
# replay (slots and copies the trace transform writes after the optimizer), and sort / top-k /
# rand (no published op model yet). tests/architecture/test_op_tables.py keeps this list exact.
NOT_MODELLED = frozenset({
    "ttnn.get_device", "ttnn.to_device", "ttnn.from_device", "ttnn.to_dtype", "ttnn.to_tensor_spec", "ttnn.deallocate",
    "ttnn.empty", "ttnn.full", "ttnn.ones", "ttnn.zeros", "ttnn.constant", "ttnn.arange",
    "ttnn.all_gather", "ttnn.all_reduce", "ttnn.all_to_all", "ttnn.collective_permute", "ttnn.reduce_scatter",
    "ttnn.mesh_partition", "ttnn.mesh_shard", "ttnn.point_to_point",
    "ttnn.distribute_tensor", "ttnn.aggregate_tensor", "ttnn.assign", "ttnn.all_reduce_async", "ttnn.all_to_all_dispatch",
    "ttnn.all_to_all_dispatch_metadata", "ttnn.all_to_all_combine", "ttnn.moe_expert_token_remap", "ttnn.selective_reduce_combine",
    "ttnn.distributed_rms_norm", "ttnn.rms_norm_pre_all_gather", "ttnn.sparse_matmul",
    "ttnn.sort", "ttnn.topk", "ttnn.rand", "ttnn.topk_router_gpt",
    "ttnn.copy", "ttnn.write_tensor", "ttnn.begin_trace_capture", "ttnn.end_trace_capture", "ttnn.execute_trace",
    "ttnn.capture_or_execute_trace",
    # attention: estimated by the fusing cost (lowering/fusing/cost.py), not placed by the optimizer
    "ttnn.scaled_dot_product_attention", "ttnn.scaled_dot_product_attention_decode",
    # quantization, conv1d / conv3d (and conv3d's weight preparation), batch norm training: the
    # optimizer leaves them at the layouts the conversion gave them (module estimates price conv3d:
    # cost_model.PRICED_UNPLACED).
    "ttnn.quantize", "ttnn.dequantize", "ttnn.requantize", "ttnn.conv1d", "ttnn.conv3d", "ttnn.prepare_conv3d_weights",
    "ttnn.batch_norm_training", "ttnn.sdpa_fw", "ttnn.sdpa_bw",
    # the in-place AdamW step: no result, its operands stay tiled DRAM-interleaved as HEAD requires
    "ttnn.adamw",
    # a program of custom kernels (compiled D2M subgraphs): made after the optimizer, no result;
    # module estimates cost it from its operands (rules/generic.py)
    "ttnn.generic",
    # registered for HEAD's verifiers, with no op model: they keep the layouts the IR gives them
    # (conv2d weight preparation runs in const-eval; the attention, MoE and sampling ops arrive
    # written in TTNN input or as composites kept whole)
    "ttnn.flash_mla_prefill", "ttnn.indexer_score_dsa", "ttnn.moe_compute", "ttnn.nlp_concat_heads",
    "ttnn.paged_flash_multi_latent_attention_decode", "ttnn.prepare_conv2d_weights", "ttnn.prepare_moe_compute_w0_w1_weights",
    "ttnn.rotary_embedding_llama", "ttnn.sampling",
})  # fmt: skip


# Seed 001's dispatch_d2m carries the layouts its DFSharding dispatch config sets; upstream's
# d2m_subgraph is placed like any other op (the ttnn.generic it compiles to reads and writes any layout).
PLACED_DISPATCH_OPS = frozenset({"ttnn.d2m_subgraph"})


def fixed_dispatch(op_name: str) -> bool:
    """A dispatch op whose layouts the optimizer does not choose."""
    return OP_FAMILIES.get(op_name) is Family.DISPATCH and op_name not in PLACED_DISPATCH_OPS


def family_of(op_name: str) -> Family | None:
    """The family modelling `op_name`, or None (not implemented)."""
    return OP_FAMILIES.get(op_name)
