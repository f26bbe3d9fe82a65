"""The TTNN dialect: op table (generic form except `ttnn.d2m_subgraph`)."""

from dataclasses import replace
from typing import Any

from ttopt.dialects.format_base import D2MFormat
from ttopt.dialects.ttnn_verifiers import VERIFIERS, merge, with_traits
from ttopt.ir.attributes import DialectAttr
from ttopt.ir.opdef import OP_DEFS, PURE, OpDef, register, register_verifiers

_P = frozenset({PURE})

UNARY: tuple[str, ...] = (
    "abs", "ceil", "cos", "exp", "floor", "gelu", "isfinite", "log", "log1p", "logical_not", "neg",
    "reciprocal", "relu", "relu6", "rsqrt", "sigmoid", "sign", "silu", "sin", "sqrt", "tan", "tanh",
    "erf", "erfc", "leaky_relu", "hardsigmoid", "mish", "expm1", "pow_scalar", "cbrt",
)
BINARY: tuple[str, ...] = (
    "add", "subtract", "multiply", "divide", "maximum", "minimum", "pow_tensor", "remainder", "eq", "ne",
    "gt", "ge", "lt", "le", "logical_and", "logical_or", "logical_xor", "atan2", "bitwise_and", "bitwise_or",
    "bitwise_xor",
)
OTHER: dict[str, tuple[Any, Any]] = {  # op -> (operand arity, result arity)
    "matmul": (2, 1),
    "linear": ((2, 3), 1),
    "conv2d": ((2, 4), 1),
    "conv_transpose2d": ((2, 4), 1),
    "max_pool2d": (1, 1),
    "avg_pool2d": (1, 1),
    "global_avg_pool2d": (1, 1),
    "reshape": (1, 1),
    "permute": (1, 1),
    "transpose": (1, 1),
    "concat": ((1, None), 1),
    "softmax": (1, 1),
    "sum": (1, 1),
    "mean": (1, 1),
    "max": (1, 1),
    "min": (1, 1),
    "prod": (1, 1),
    "argmax": (1, 1),
    "slice_static": (1, 1),
    "slice_dynamic": (3, 1),  # input, begins, ends (tt-mlir's SliceDynamicOp)
    "typecast": (1, 1),
    "to_layout": ((1, 2), 1),
    "to_memory_config": (1, 1),
    "to_device": (2, 1),
    "from_device": (1, 1),
    "to_dtype": (1, 1),
    "deallocate": (1, 0),
    "empty": (1, 1),
    "zeros": ((0, 1), 1),
    "ones": ((0, 1), 1),
    "full": ((0, 1), 1),
    "constant": ((0, 1), 1),
    "arange": ((0, 1), 1),
    "get_device": (0, 1),
    "rotary_embedding": (3, 1),
    "rms_norm": ((1, 3), 1),
    "layer_norm": ((1, 3), 1),
    "embedding": (2, 1),
    "where": (3, 1),
    "repeat": (1, 1),
    "repeat_interleave": (1, 1),
    "pad": (1, 1),
    "upsample": (1, 1),
    "sort": (1, 2),
    "clamp_scalar": (1, 1),
    "dispatch_d2m": ((1, None), 1),
    "all_gather": ((1, 2), 1),
    "reduce_scatter": ((1, 2), 1),
    "all_reduce": ((1, 2), 1),
    "point_to_point": ((1, 2), 1),
    "collective_permute": ((1, 2), 1),
    "mesh_shard": ((1, 2), 1),
    "all_to_all": ((1, 2), 1),
    "mesh_partition": (1, 1),
    # Indexing, scans and pooling with indices (the StableHLO gather / scatter / reduce_window lowerings).
    "gather": (2, 1),
    "scatter": (3, 1),
    "embedding_bw": (3, 1),
    "cumsum": (1, 1),
    "cumprod": (1, 1),
    "max_pool2d_with_indices": (1, 2),
}

# Ops the StableHLO/CHLO lowering's families reach (TTNNOps.td): inverse trigonometric and bit
# ops, top-k (values, indices) and the creation op `rand` (device operand).
UNARY += ("asinh", "acos", "asin", "atan", "bitwise_not", "bitcast_convert")
BINARY += ("logical_left_shift", "logical_right_shift")
OTHER.update({"topk": (1, 2), "rand": (1, 1)})
# Transformer and MoE ops with more than one result (tt-mlir's TTNNOps.td).
OTHER.update({"split_query_key_value_and_split_heads": ((1, 2), 3), "topk_router_gpt": (3, 2)})
# Trace capture and replay (TTNNOps.td): in-place copies into persistent slots, the capture window,
# and the op a forward function calls its trace through (device, inputs -> outputs).
OTHER.update({"copy": (2, 0), "write_tensor": (2, 0), "begin_trace_capture": (1, 1), "end_trace_capture": (2, 0),
              "execute_trace": (2, 0), "capture_or_execute_trace": ((1, None), (0, None))})  # fmt: skip
# Multi-device ops HEAD's TTIRToTTNN emits (TTNNOps.td): mesh distribution and aggregation, the
# copy a point_to_point writes into, the async all-reduce, the MoE collectives and distributed RMS
# norm (input, weight?, residual?, stats?, semaphore?, device) with its decomposition's per-device
# statistics op, distributed layer norm's decomposition (statistics: input, residual?, recip?;
# normalization: input, stats, weight?, bias?), and the MoE sparse matmul.
OTHER.update({"distribute_tensor": (2, 1), "aggregate_tensor": (2, 1), "assign": (1, 1), "all_reduce_async": (1, 1),
              "all_to_all_dispatch": (3, 2), "all_to_all_dispatch_metadata": ((4, 8), 3), "all_to_all_combine": (3, 1),
              "moe_expert_token_remap": (3, 2), "selective_reduce_combine": (4, 1), "distributed_rms_norm": ((2, 6), 1),
              "sparse_matmul": (3, 1), "rms_norm_pre_all_gather": ((1, 2), 1), "layer_norm_pre_all_gather": ((1, 3), 1),
              "layer_norm_post_all_gather": ((2, 4), 1)})  # fmt: skip
# Fused ops the fusing passes make (TTNNOps.td): RMS norm with its activation (input, weight, bias,
# residual), the prefill and decode concat-heads, and attention (query, key, value, then the optional mask,
# sink and, for decode, current positions).
OTHER.update({"dit_rms_norm_unary_fused": ((1, 4), 1), "nlp_concat_heads_decode": (1, 1), "concatenate_heads": (1, 1),
              "scaled_dot_product_attention": ((3, 5), 1), "scaled_dot_product_attention_decode": ((3, 6), 1)})
# The aggregate layout change the validation fallbacks and row-major propagation insert (its result
# type says everything; tt-mlir's TTNNDecomposeLayouts lowers it).
OTHER.update({"to_tensor_spec": (1, 1)})
# Quantization, convolution and normalization ops of HEAD's TTIR -> TTNN conversion (TTNNOps.td).
OTHER.update({"quantize": (3, 1), "dequantize": (3, 1), "requantize": (5, 1), "conv3d": ((3, 4), 1), "prepare_conv3d_weights": (2, 1),
              "batch_norm_training": ((1, 5), 1), "conv1d": ((3, 4), 1), "sdpa_fw": ((3, 4), (1, 2)), "sdpa_bw": ((6, 7), 3)})
# Ops of HEAD's TTNN dialect that ttopt only parses, verifies and prints (TTNNOps.td): conv2d weight
# preparation (weight, device), top-k/top-p sampling, DeepSeek's MLA prefill / paged decode and
# indexer score, the prefill concat-heads, Llama's rotary embedding, and the MoE compute kernel
# with its weight preparation.
OTHER.update({"prepare_conv2d_weights": (2, 1), "sampling": (5, 1), "flash_mla_prefill": ((2, 4), 1),
              "indexer_score_dsa": (3, 1), "nlp_concat_heads": (1, 1), "paged_flash_multi_latent_attention_decode": ((3, 7), 1),
              "rotary_embedding_llama": (4, 1), "moe_compute": ((7, 9), 1), "prepare_moe_compute_w0_w1_weights": ((3, 5), 1)})
# The ttml AdamW step (param, grad, exp_avg, exp_avg_sq, max_exp_avg_sq?): written in place, no results.
OTHER.update({"adamw": ((4, 5), 0)})

# Layout and data-type conversions and views.
CONVERSIONS = frozenset({"to_layout", "to_memory_config", "typecast", "to_tensor_spec", "reshape", "permute"})
# Every TTNN_Op is Pure in tt-mlir (TTNNBase.td), so canonicalize erases an unused one and cse
# merges equal ones; not these: the in-place writers (IN_PLACE_WRITERS, HEAD's TTNN_InplaceOp),
# deallocation, trace capture and dispatch, the mesh boundary, and the ops that create a fresh
# buffer (two equal ones merged would alias tensors an in-place writer later fills apart).
NOT_PURE = frozenset({
    "arange", "constant", "empty", "full", "ones", "rand", "zeros",
    "deallocate", "get_device", "begin_trace_capture", "capture_or_execute_trace", "end_trace_capture", "execute_trace",
    "dispatch_d2m", "mesh_shard", "distribute_tensor", "aggregate_tensor", "assign",
})  # fmt: skip

# Ops that write an operand in place (tt-mlir's MemWrite operands): a view of what they write is
# not interchangeable with its source.
IN_PLACE_WRITERS = frozenset(f"ttnn.{n}" for n in (
    "update_cache", "paged_update_cache", "fill_cache", "paged_fill_cache", "batch_norm_training", "adamw",
    "point_to_point", "write_tensor", "copy", "generic", "dump_tensor"))  # fmt: skip


def shape_values(a: Any) -> tuple[int, ...] | None:
    """The dims of a `#ttnn.shape<AxBxC>` attribute (a repeat's `repeat_dims`), or None."""
    a = a.resolve() if a is not None else None
    body = getattr(a, "body", None) if isinstance(a, DialectAttr) and a.name == "ttnn.shape" else None
    if not isinstance(body, str):
        return None
    parts = [d.strip() for d in body.split("x")]
    return tuple(int(d) for d in parts) if all(d.isdigit() for d in parts) else None

def _pure(name: str, results: object) -> bool:
    """Whether an op of OTHER is side-effect free (NOT_PURE, IN_PLACE_WRITERS and ops without results are not)."""
    return name not in NOT_PURE and f"ttnn.{name}" not in IN_PLACE_WRITERS and results != 0


register(
    *(OpDef(f"ttnn.{n}", operands=1, results=1, traits=_P) for n in UNARY),
    *(OpDef(f"ttnn.{n}", operands=2, results=1, traits=_P) for n in BINARY),
    *(OpDef(f"ttnn.{n}", operands=ops, results=res, traits=_P if _pure(n, res) else frozenset()) for n, (ops, res) in OTHER.items()),
    OpDef("ttnn.d2m_subgraph", results=(0, None), format=D2MFormat(), summary="call of a D2M-compiled subgraph"),
)
# An op's own verifier registered with its OpDef (ttnn.generic's, ttkernel_program.py) runs too.
_OWN = {n: d.verify for n, d in OP_DEFS.items() if n.startswith("ttnn.") and d.verify is not None}
register_verifiers(with_traits(merge(_OWN, VERIFIERS), [n for n in OP_DEFS if n.startswith("ttnn.")]))

# Multi-result ops print one SSA name per result, named as HEAD's ODS names them (`%values, %indices
# = "ttnn.sort"`), as tt-mlir prints them.
RESULT_NAMES = {"sort": ("values", "indices"), "topk": ("values", "indices"), "max_pool2d_with_indices": ("result", "indices"),
                "split_query_key_value_and_split_heads": ("query", "key", "value"),
                "topk_router_gpt": ("expert_indices", "expert_weights"), "all_to_all_dispatch": ("dispatched", "metadata"),
                "all_to_all_dispatch_metadata": ("dispatched", "indices", "scores"), "moe_expert_token_remap": ("mapping", "reduced"),
                "sdpa_fw": ("output", "intermediates"), "sdpa_bw": ("grad_query", "grad_key", "grad_value")}  # fmt: skip


def _result_names(names: tuple[str, ...]) -> Any:
    return lambda op: list(names)


register(*(replace(OP_DEFS[f"ttnn.{n}"], result_name=_result_names(names)) for n, names in RESULT_NAMES.items()))
