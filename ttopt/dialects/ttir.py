"""The TTIR dialect (tt-mlir's TTIROps.td): one table of ops with their operand/result arity and
declared properties, plus shape checks for the ops the lowering reads.

Ops are written in generic form (`"ttir.add"(%a, %b) : (...) -> ...`), as tt-mlir's tests write them,
except `ttir.empty` (`%0 = ttir.empty() : tensor<...>`). Older TTIR is destination-passing: each op
takes one more operand, a `ttir.empty` its result is written to; every op accepts that trailing
operand (the lowering drops it).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from ttopt.dialects.format_base import NullaryFormat
from ttopt.dialects.ttir_verify_ccl import (
    all_gather,
    all_reduce,
    all_to_all,
    all_to_all_combine,
    all_to_all_dispatch,
    all_to_all_dispatch_metadata,
    collective_broadcast,
    collective_permute,
    reduce_scatter,
)
from ttopt.dialects.ttir_verify_conv import conv2d, conv_transpose2d, flat_info
from ttopt.dialects.ttir_verify_creation import arange, full, rand
from ttopt.dialects.ttir_verify_heads import concatenate_heads, split_qkv
from ttopt.dialects.ttir_verify_matmul import matmul
from ttopt.dialects.ttir_verify_norm import batch_norm, rms_norm
from ttopt.dialects.ttir_verify_order import cumsum, embedding, gather, reverse, sort, topk
from ttopt.dialects.ttir_verify_pool import global_avg_pool2d, max_pool2d_with_indices, pool2d
from ttopt.dialects.ttir_verify_shape import (
    bitcast_convert,
    broadcast_op,
    broadcastable,
    concat,
    permute,
    reduction,
    repeat,
    repeat_interleave,
    reshape,
    same_shape,
    unsqueeze,
    upsample2d,
)
from ttopt.dialects.ttir_verify_slice import index, index_select, slice_dynamic, slice_static
from ttopt.dialects.ttnn_verify_ccl import verify_moe_expert_token_remap
from ttopt.dialects.ttnn_verify_matmul import verify_sparse_matmul
from ttopt.ir.opdef import OP_DEFS, PURE, OpDef, count_message, register, register_properties, register_verifiers
from ttopt.ir.properties import Prop, int_values, props
from ttopt.ir.types import TensorType, static_shape

_P = frozenset({PURE})

UNARY = (
    "abs", "cbrt", "ceil", "cos", "acos", "floor", "frac", "trunc", "gelu", "isfinite", "logical_not",
    "bitwise_not", "mish", "neg", "tan", "atan", "tanh", "reciprocal", "relu", "relu6", "rsqrt", "sigmoid",
    "softsign", "hardsigmoid", "silu", "sign", "signbit", "sin", "asin", "asinh", "sqrt", "square",
    "typecast", "bitcast_convert", "log", "log1p", "expm1", "exp", "exp2", "erf", "erfc",
)  # fmt: skip
BINARY = (
    "eq", "ne", "ge", "gt", "le", "lt", "logical_and", "logical_or", "logical_xor", "bitwise_and",
    "bitwise_or", "bitwise_xor", "minimum", "maximum", "subtract", "remainder", "pow", "atan2", "add",
    "multiply", "div", "logical_right_shift", "right_shift", "logical_left_shift",
)  # fmt: skip
REDUCTIONS = ("argmax", "sum", "mean", "max", "min", "reduce_and", "reduce_or", "prod")
# HEAD's ElementwiseUnary / ElementwiseBinary / ElementwiseTernary interfaces (TTIROps.td): the ops
# a layout change (permute, reshape) commutes through operand by operand.
ELEMENTWISE_UNARY = frozenset(f"ttir.{n}" for n in (*UNARY, "leaky_relu", "selu", "clamp_scalar"))
ELEMENTWISE_BINARY = frozenset(f"ttir.{n}" for n in (*BINARY, "gelu_bw"))
ELEMENTWISE_TERNARY = frozenset({"ttir.where"})
# HEAD's TensorManipulation trait: ops that only move data (weight-dtype and const-eval tracing
# look through them, erase-inverse-ops counts them).
TENSOR_MANIPULATION = frozenset({"ttir.transpose", "ttir.reshape", "ttir.rearrange", "ttir.permute"})
# HEAD's CCL interface: the collectives (weight-dtype tracing looks through them as well).
CCL = frozenset(f"ttir.{n}" for n in (
    "all_gather", "all_reduce", "all_reduce_async", "reduce_scatter", "collective_permute", "all_to_all",
    "collective_broadcast", "all_to_all_dispatch", "all_to_all_dispatch_metadata", "all_to_all_combine",
    "selective_reduce_combine", "moe_compute",
))  # fmt: skip
# HEAD's Broadcastable trait (every TTIR_ElementwiseOp): operands broadcast implicitly to the result.
BROADCASTABLE = frozenset(f"ttir.{n}" for n in (*UNARY, *BINARY, "where", "leaky_relu", "selu", "gelu_bw"))


def _opt(name: str, kind: str = "attr", default: object = None) -> Prop:
    return Prop(name, kind, required=False, default=default)


_REDUCE = (Prop("keep_dim", "bool"), _opt("dim_arg", "ints"))
_CONV = (Prop("stride", "attr"), Prop("padding", "attr"), Prop("dilation", "attr"), Prop("groups", "int"))
# A sliding-window op's `#ttir<flattened_compat ...>` (dialects/ttir_attrs.py): present once
# ttir-flatten-sliding-window has flattened its NHWC tensors to 1x1x(N*H*W)xC.
_FLAT = _opt("flattened_compat_info", "enum:ttir.flattened_compat")
_LAYOUT_2D = (_opt("batch_dim", "int", 0), _opt("height_dim", "int", 1), _opt("width_dim", "int", 2), _opt("channel_dim", "int", 3))

# op -> (tensor operands as (min, max), declared properties); +1 operand for the DPS output.
OPS: dict[str, tuple[tuple[int, int], tuple[Prop, ...]]] = {
    **{u: ((1, 1), ()) for u in UNARY},
    "leaky_relu": ((1, 1), (Prop("parameter", "float"),)),
    "selu": ((1, 1), (_opt("scale", "float"), _opt("alpha", "float"))),
    **{b: ((2, 2), ()) for b in BINARY},
    "where": ((3, 3), ()),
    **{r: ((1, 1), _REDUCE) for r in REDUCTIONS},
    "matmul": ((2, 2), (_opt("transpose_a", "bool", False), _opt("transpose_b", "bool", False))),
    "linear": ((2, 3), (_opt("transpose_a", "bool", False), _opt("transpose_b", "bool", False))),
    "dot_general": ((2, 2), (Prop("batch_dims_lhs", "ints"), Prop("contract_dims_lhs", "ints"),
                             Prop("batch_dims_rhs", "ints"), Prop("contract_dims_rhs", "ints"))),  # fmt: skip
    "conv2d": ((2, 3), (*_CONV, *_LAYOUT_2D, _FLAT)),
    "conv_transpose2d": ((2, 3), (*_CONV, _opt("output_padding"), *_LAYOUT_2D, _FLAT)),
    # HEAD's conv3d has no dilation; its layout dims and padding mode default.
    "conv3d": ((2, 3), (Prop("stride", "attr"), Prop("padding", "attr"), _opt("dilation"), Prop("groups", "int"),
                        *(_opt(d, "int", i) for i, d in enumerate(("batch_dim", "depth_dim", "height_dim", "width_dim", "channel_dim"))),
                        _opt("padding_mode", "str", "zeros"))),  # fmt: skip
    "max_pool2d": ((1, 1), (Prop("kernel"), Prop("stride"), Prop("dilation"), Prop("padding"), _opt("ceil_mode", "bool", False))),
    "avg_pool2d": ((1, 1), (Prop("kernel"), Prop("stride"), Prop("dilation"), Prop("padding"), _opt("ceil_mode", "bool", False))),
    "global_avg_pool2d": ((1, 1), ()),
    "reshape": ((1, 1), (Prop("shape", "ints"),)),
    "permute": ((1, 1), (Prop("permutation", "ints"),)),
    "transpose": ((1, 1), (Prop("dim0", "int"), Prop("dim1", "int"))),
    "broadcast": ((1, 1), (Prop("broadcast_dimensions", "ints"),)),
    "repeat": ((1, 1), (Prop("repeat_dimensions", "ints"),)),
    "slice_static": ((1, 1), (Prop("begins", "ints"), Prop("ends", "ints"), Prop("step", "ints"))),
    "index": ((1, 1), (Prop("dim", "int"), Prop("begin", "int"), Prop("end", "int"), Prop("step", "int"))),
    "concat": ((1, 64), (Prop("dim", "int"),)),
    "squeeze": ((1, 1), (Prop("dim", "int"),)),
    "unsqueeze": ((1, 1), (Prop("dim", "int"),)),
    "softmax": ((1, 1), (Prop("dimension", "int"), _opt("numericStable", "bool", False))),
    "rms_norm": ((1, 3), (Prop("normalized_shape", "ints"), _opt("epsilon", "float", 1e-5))),
    # input, weight?, residual? (operandSegmentSizes); normalizes over the last dimension.
    "distributed_rms_norm": ((1, 3), (Prop("cluster_axis", "int"), _opt("epsilon", "float", 1e-5))),
    "layer_norm": ((1, 3), (Prop("normalized_shape", "ints"), _opt("epsilon", "float", 1e-5))),
    "batch_norm_inference": ((5, 5), (Prop("epsilon", "float"), Prop("dimension", "int"))),
    "cumsum": ((1, 1), (Prop("dim", "int"),)),
    "sort": ((1, 1), (_opt("dim", "int", -1), _opt("descending", "bool", False), _opt("stable", "bool", False))),
    "topk": ((1, 1), (Prop("k", "int"), _opt("dim", "int", -1), _opt("largest", "bool", True), _opt("sorted", "bool", False))),
    "embedding": ((2, 2), ()),
    "gather": ((2, 2), (Prop("dim", "int"),)),
    "pad": ((1, 1), (Prop("padding", "ints"), Prop("value", "float"))),
    "clamp_scalar": ((1, 1), (Prop("min"), Prop("max"))),
    "clamp_tensor": ((3, 3), ()),
    "reverse": ((1, 1), (Prop("dimensions", "ints"),)),
    "repeat_interleave": ((1, 1), (Prop("repeats", "int"), Prop("dim", "int"))),
    "upsample2d": ((1, 1), (Prop("scale_factor"), _opt("mode", "str", "nearest"))),
    "constant": ((0, 0), (Prop("value", "dense"),)),
    "full": ((0, 0), (Prop("shape", "ints"), Prop("fill_value"))),
    "zeros": ((0, 0), (Prop("shape", "ints"),)),
    "ones": ((0, 0), (Prop("shape", "ints"),)),
    "arange": ((0, 0), (Prop("start", "int"), Prop("end", "int"), Prop("step", "int"), Prop("arange_dimension", "int"))),
    "get_dimension_size": ((1, 1), (Prop("dimension", "int"),)),
    # Collectives (the sharding pipeline's output; generic form, attributes as it writes them).
    "mesh_shard": ((1, 1), ()),
    "all_gather": ((1, 1), (Prop("all_gather_dim", "int"), Prop("cluster_axis", "int"))),
    "all_reduce": ((1, 1), (Prop("reduce_type", "attr"), Prop("cluster_axis", "int"))),
    "reduce_scatter": ((1, 1), (Prop("reduce_type", "attr"), Prop("scatter_dim", "int"), Prop("cluster_axis", "int"))),
    "collective_permute": ((1, 1), (Prop("source_target_pairs", "dense"),)),
    "collective_broadcast": ((1, 1), (Prop("replica_groups", "dense"),)),
    "all_to_all": ((1, 1), ()),
    "mesh_partition": ((1, 1), ()),
}

# Indexing, scan, pooling and padding ops as the StableHLO gather / scatter / reduce_window / pad /
# dynamic_slice lowerings write them (TTIROps.td's operands and attribute spellings).
_POOL = (Prop("kernel"), Prop("stride"), Prop("dilation"), Prop("padding"), _opt("ceil_mode", "bool", False), _FLAT)
INDEXING_OPS: dict[str, tuple[tuple[int, int], tuple[Prop, ...]]] = {
    "embedding_backward": ((3, 3), ()),
    "gather": ((2, 2), (Prop("dim", "int"),)),
    "scatter": ((3, 3), (Prop("dim", "int"), Prop("scatter_reduce_type"))),
    "slice_dynamic": ((3, 3), (_opt("step", "ints"),)),
    "index_select": ((1, 1), (Prop("dim", "int"), Prop("begin", "int"), Prop("length", "int"), _opt("stride", "int", 0))),
    "cumsum": ((1, 1), (Prop("dim", "int"),)),
    "cumprod": ((1, 1), (Prop("dim", "int"),)),
    "max_pool2d": ((1, 1), _POOL),
    "avg_pool2d": ((1, 1), (*_POOL, _opt("count_include_pad", "bool", True))),
    "max_pool2d_with_indices": ((1, 1), _POOL),  # re-registered below with its two results
}
OPS.update(INDEXING_OPS)

register(
    *(
        OpDef(f"ttir.{name}", operands=(lo, hi + 1), results=(2 if name == "topk" else 1), traits=_P)
        for name, ((lo, hi), _) in OPS.items()
    ),
    OpDef("ttir.empty", operands=0, results=1, format=NullaryFormat()),
)
register_properties({f"ttir.{name}": declared for name, (_, declared) in OPS.items() if declared})
# Two results and their two destination-passing `ttir.empty` outputs; MLIR prints the results with
# their ODS names (`%result, %result_indices`).
register(OpDef("ttir.max_pool2d_with_indices", operands=(1, 3), results=2, traits=_P, props=_POOL,
               result_name=lambda op: ["result", "result_indices"]))  # fmt: skip


# -- shape checks --------------------------------------------------------------------------------
def static_shape_of(v: Any) -> tuple[int, ...] | None:
    """The static shape of a ranked tensor value, else None."""
    t = v.type.resolve()
    if not isinstance(t, TensorType):
        return None
    try:
        return static_shape(t)
    except ValueError:
        return None


def inputs(op: Any) -> list[Any]:
    """The op's tensor inputs without a destination-passing `ttir.empty` output operand. A trailing
    `ttir.empty` of another type than the result is an input (HEAD's ops are not destination
    passing: `ttir.concat(%a, %b, %empty)` concatenates three tensors). A multi-result op's
    destinations are one trailing `ttir.empty` per result, each of its result's type."""
    ins = list(op.operands)
    declared = OPS.get(op.name[5:])
    n = len(op.results)
    if n > 1 and len(ins) >= (declared[0][0] if declared else 1) + n and all(
        getattr(getattr(v, "op", None), "name", "") == "ttir.empty" and v.type.resolve() == r.type.resolve() for v, r in zip(ins[-n:], op.results)
    ):
        return ins[:-n]  # one destination per result (max_pool2d_with_indices)
    last = getattr(ins[-1], "op", None) if ins else None
    if last is not None and last.name == "ttir.empty" and len(ins) > (declared[0][0] if declared else 1):
        if not op.results or ins[-1].type.resolve() == op.results[0].type.resolve():
            ins = ins[:-1]
    return ins


def broadcast_shape(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...] | None:
    """NumPy broadcasting of two shapes (None when incompatible)."""
    out = []
    for x, y in zip(reversed((1,) * (len(b) - len(a)) + a), reversed((1,) * (len(a) - len(b)) + b)):
        if x != y and 1 not in (x, y):
            return None
        out.append(max(x, y))
    return tuple(reversed(out))


def _result(op: Any) -> tuple[int, ...] | None:
    return static_shape_of(op.results[0]) if op.results else None


def _dot_general(op: Any) -> None:
    """StableHLO's dot_general constraints (HEAD's op has no verifier and trusts them): paired batch
    and contracting dimensions in range, distinct, of equal sizes; the result batch + free dims."""
    a, b = (static_shape_of(v) for v in inputs(op)[:2])
    out = _result(op)
    if a is None or b is None or out is None:
        return
    p = props(op)
    bl, br, cl, cr = (tuple(getattr(p, k)) for k in ("batch_dims_lhs", "batch_dims_rhs", "contract_dims_lhs", "contract_dims_rhs"))
    if len(bl) != len(br) or len(cl) != len(cr):
        raise ValueError(f"batch dimensions {list(bl)} / {list(br)} or contracting dimensions {list(cl)} / {list(cr)} do not pair up")
    for side, shape, dims in (("lhs", a, bl + cl), ("rhs", b, br + cr)):
        if any(not 0 <= d < len(shape) for d in dims) or len(set(dims)) != len(dims):
            raise ValueError(f"{side} batch and contracting dimensions {list(dims)} are not distinct dimensions of rank {len(shape)}")
    for kind, ls, rs in (("batch", bl, br), ("contracting", cl, cr)):
        for x, y in zip(ls, rs):
            if a[x] != b[y]:
                raise ValueError(f"{kind} dimension sizes differ: {a[x]} (lhs dimension {x}) vs {b[y]} (rhs dimension {y})")
    want = [a[d] for d in bl] + [s for i, s in enumerate(a) if i not in bl + cl] + [s for i, s in enumerate(b) if i not in br + cr]
    if list(out) != want:
        raise ValueError(f"result shape {list(out)} is not the batch and free dimensions {want}")


def _broadcastable(op: Any) -> None:
    ins = inputs(op)
    declared = OPS.get(op.name[5:])
    # The arity check allows one more operand, a destination `ttir.empty`; anything else is one too many.
    if declared is not None and len(ins) != declared[0][0]:
        raise ValueError(count_message("operand", declared[0][0], len(op.operands)))
    broadcastable(op, ins)


def _reshape(op: Any) -> None:
    reshape(op, inputs(op)[0])


def _permute(op: Any) -> None:
    permute(op, inputs(op)[0])


def _concat(op: Any) -> None:
    concat(op, inputs(op))


def _reduction(op: Any) -> None:
    reduction(op, inputs(op)[0])


def _slice_static(op: Any) -> None:
    slice_static(op, inputs(op)[0])


def _slice_dynamic(op: Any) -> None:
    ins = inputs(op)
    if len(ins) >= 3:
        slice_dynamic(op, *ins[:3])


def _index(op: Any) -> None:
    index(op, inputs(op)[0])


def _one(check: Any) -> Any:
    """A verifier of `check(op, input)` on the op's first tensor input."""
    def verify(op: Any) -> None:
        ins = inputs(op)
        if ins:
            check(op, ins[0])

    return verify


def _two(check: Any) -> Any:
    """A verifier of `check(op, a, b)` on the op's first two tensor inputs."""
    def verify(op: Any) -> None:
        ins = inputs(op)
        if len(ins) >= 2:
            check(op, ins[0], ins[1])

    return verify


def _rms_norm(op: Any) -> None:
    # input, weight?, bias? as operandSegmentSizes says (all three positional without it).
    ins = inputs(op)
    sizes = int_values(op.get_attr("operandSegmentSizes")) or (1, int(len(ins) > 1), int(len(ins) > 2))
    it = iter(ins)
    parts = [[next(it, None) for _ in range(n)] for n in sizes[:3]]
    if parts and parts[0]:
        rms_norm(op, parts[0][0], parts[1][0] if len(parts) > 1 and parts[1] else None, parts[2][0] if len(parts) > 2 and parts[2] else None)


def _is_quant(e: str) -> bool:
    return e.startswith("!quant.uniform")


def _quantization(op: Any) -> None:
    """quantize / dequantize / requantize: element kinds, then rank and shape (HEAD's verifier texts)."""
    if not op.operands or not op.results:
        return
    x, out = op.operands[0].type.resolve(), op.results[0].type.resolve()
    if not isinstance(x, TensorType) or not isinstance(out, TensorType):
        return
    ie, oe = x.element_type.resolve().text, out.element_type.resolve().text
    quant = "UniformQuantizedType or UniformQuantizedPerAxisType"
    floats = ("f32", "bf16", "f16", "f64")
    kind = op.name[5:]
    if kind == "quantize" and ie not in floats:
        raise ValueError(f"Input element type must be float, but got '{ie}'")
    if kind in ("dequantize", "requantize") and not _is_quant(ie):
        raise ValueError(f"Input element type must be {quant}, but got '{ie}'")
    if kind in ("quantize", "requantize") and not _is_quant(oe):
        raise ValueError(f"Output element type must be {quant}, but got '{oe}'")
    if kind == "dequantize" and oe not in floats:
        raise ValueError(f"Output element type must be float, but got '{oe}'")
    a, b = x.shape, out.shape
    if a is None or b is None:
        return
    if len(a) != len(b):
        raise ValueError(f"Input tensor rank of {len(a)} does not match the output tensor rank of {len(b)}")
    if tuple(a) != tuple(b):
        raise ValueError(f"Output tensor shape ({','.join(map(str, b))}) must match the inferred shape: ({','.join(map(str, a))})")


def _constant(op: Any) -> None:
    """HEAD's ConstantOp::verify: a dense or dense_resource value of integer or float elements."""
    value = op.properties.get("value")
    text = value.text if value is not None else ""
    if not text.startswith(("dense<", "dense_resource<")):
        raise ValueError("value attribute must be one of DenseResourceElementsAttr or DenseElementsAttr.")
    t = op.results[0].type.resolve() if op.results else None
    element = t.element_type.resolve().text if isinstance(t, TensorType) else "f32"
    if not re.fullmatch(r"(s|u)?i\d+|f\d+|bf16|tf32|f8E\w+", element):
        raise ValueError("value attribute must be of int or float type.")


def _flattened(op: Any) -> None:
    """HEAD's check of a flattened sliding-window op: a 4-D input whose dimension 2 holds the
    N*H*W its `flattened_compat_info` names (the convs' message capitalized, the pools' not)."""
    info = flat_info(op)
    x = static_shape_of(op.operands[0]) if op.operands else None
    if info is None or x is None:
        return
    if len(x) != 4:
        raise ValueError("input must be a 4D tensor")
    if x[2] != info.rows:
        the = "The" if "conv" in op.name else "the"
        stop = "." if "conv" in op.name else ""
        raise ValueError(f"{the} input tensor's flattened dimension ({x[2]}) does not match the product of batch_size * input_height * "
                         f"input_width from FlattenedCompatInfo ({info.batch_size} * {info.input_height} * {info.input_width} = {info.rows}){stop}")


SLIDING_WINDOW = ("ttir.conv2d", "ttir.conv_transpose2d", "ttir.max_pool2d", "ttir.max_pool2d_with_indices", "ttir.avg_pool2d")

def _conv2d(op: Any) -> None:
    _flattened(op)
    conv2d(op)


register_verifiers({
    "ttir.conv2d": _conv2d,
    "ttir.conv_transpose2d": conv_transpose2d,
    "ttir.max_pool2d": pool2d,
    "ttir.avg_pool2d": pool2d,
    "ttir.max_pool2d_with_indices": max_pool2d_with_indices,
    "ttir.global_avg_pool2d": global_avg_pool2d,
    "ttir.constant": _constant,
    **{f"ttir.{u}": _broadcastable for u in UNARY if u not in ("typecast", "bitcast_convert")},
    **{f"ttir.{b}": _broadcastable for b in BINARY},
    "ttir.where": _broadcastable,
    "ttir.matmul": matmul,
    "ttir.linear": matmul,
    "ttir.dot_general": _dot_general,
    "ttir.reshape": _reshape,
    "ttir.permute": _permute,
    **{f"ttir.{r}": _reduction for r in REDUCTIONS},
    "ttir.concat": _concat,
    "ttir.broadcast": _one(broadcast_op),
    "ttir.repeat": _one(repeat),
    "ttir.unsqueeze": _one(unsqueeze),
    "ttir.arange": arange,
    "ttir.upsample2d": _one(upsample2d),
    "ttir.repeat_interleave": _one(repeat_interleave),
    "ttir.clamp_scalar": _one(same_shape),
    "ttir.bitcast_convert": _one(bitcast_convert),
    "ttir.embedding": _two(embedding),
    "ttir.gather": _two(gather),
    "ttir.sort": _one(sort),
    "ttir.topk": _one(topk),
    "ttir.cumsum": _one(cumsum),
    "ttir.reverse": _one(reverse),
    "ttir.rms_norm": _rms_norm,
    "ttir.batch_norm_inference": _one(batch_norm),
    "ttir.full": full,
    "ttir.all_gather": _one(all_gather),
    "ttir.all_reduce": _one(all_reduce),
    "ttir.reduce_scatter": _one(reduce_scatter),
    "ttir.collective_permute": _one(collective_permute),
    "ttir.all_to_all": _one(all_to_all),
    "ttir.collective_broadcast": _one(collective_broadcast),
    "ttir.slice_static": _slice_static,
    "ttir.slice_dynamic": _slice_dynamic,
    "ttir.index": _index,
    "ttir.index_select": _one(index_select),
})  # fmt: skip


# -- ops of the StableHLO/CHLO lowering's sort/top-k, RNG and quantization families -------------------
# TTIROps.td: `sort` and `topk` return (values, indices), printed with those names as MLIR prints
# ODS-named results of multi-result ops; `rand` is a creation op; the quantization ops take one
# tensor and carry their scales in the `!quant.uniform` element types.
LOWERING_OPS: dict[str, tuple[tuple[int, int], tuple[Prop, ...]]] = {
    "rand": ((0, 0), (Prop("size", "ints"), _opt("low", "float", 0.0), _opt("high", "float", 1.0), _opt("seed", "int", 0))),
    "quantize": ((1, 1), ()),
    "dequantize": ((1, 1), ()),
    "requantize": ((1, 1), ()),
}
OPS.update(LOWERING_OPS)
register(*(OpDef(f"ttir.{name}", operands=(lo, hi + 1), results=1, traits=_P) for name, ((lo, hi), _) in LOWERING_OPS.items()))
register_verifiers({f"ttir.{n}": _quantization for n in ("quantize", "dequantize", "requantize")})
register_verifiers({"ttir.rand": rand})
register_properties({f"ttir.{name}": declared for name, (_, declared) in LOWERING_OPS.items() if declared})
register(*(replace(OP_DEFS[f"ttir.{name}"], results=2, result_name=lambda op: ["values", "indices"]) for name in ("sort", "topk")))


# -- attention, KV-cache and sampling ops (the `tt.*` custom calls' lowerings; TTIROps.td) -------------
# Optional operands are recorded in `operandSegmentSizes`; the paged decode and chunked attention
# ops take a destination `ttir.empty`. The cache ops write their cache operand in place: no result,
# and not pure, so dead-code elimination keeps them.
ATTENTION_OPS: dict[str, tuple[tuple[int, int], tuple[Prop, ...]]] = {
    "scaled_dot_product_attention": ((3, 5), (_opt("is_causal", "bool", True), _opt("scale", "float"),
                                              _opt("sliding_window_size", "int"))),
    "scaled_dot_product_attention_decode": ((4, 6), (_opt("is_causal", "bool", True), _opt("scale", "float"))),
    "paged_scaled_dot_product_attention_decode": ((5, 8), (_opt("is_causal", "bool", True), _opt("scale", "float"),
                                                           _opt("sliding_window_size", "int"))),
    "chunked_scaled_dot_product_attention": ((6, 6), (_opt("scale", "float"),)),
    "paged_flash_multi_latent_attention_decode": ((3, 7), (Prop("head_dim_v", "int"), _opt("is_causal", "bool", True),
                                                           _opt("scale", "float"))),
    "sampling": ((5, 5), (_opt("seed", "int"),)),
}  # fmt: skip
CACHE_OPS: dict[str, tuple[tuple[int, int], tuple[Prop, ...]]] = {
    "fill_cache": ((2, 2), (Prop("batch_offset", "int"),)),
    "update_cache": ((3, 3), (Prop("batch_offset", "int"),)),
    "paged_update_cache": ((3, 4), (_opt("share_cache", "bool", False),)),
    "paged_fill_cache": ((3, 4), ()),
}
register(*(OpDef(f"ttir.{name}", operands=(lo, hi), results=1, traits=_P) for name, ((lo, hi), _) in ATTENTION_OPS.items()),
         *(OpDef(f"ttir.{name}", operands=(lo, hi), results=0) for name, ((lo, hi), _) in CACHE_OPS.items()))  # fmt: skip
register_properties({f"ttir.{name}": declared for name, (_, declared) in {**ATTENTION_OPS, **CACHE_OPS}.items() if declared})


# `batch_norm_training` returns the normalized operand and the batch statistics, printed with its
# ODS result names as MLIR prints them (`%result, %batch_mean, %batch_variance = ...`).
register(OpDef("ttir.batch_norm_training", operands=(5, 5), results=3, traits=_P,
               props=(Prop("epsilon", "float"), Prop("dimension", "int"), Prop("momentum", "float")),
               result_name=lambda op: ["result", "batch_mean", "batch_variance"]))  # fmt: skip


# The sparse mixture-of-experts ops (tt-xla's MoE custom calls; TTIROps.td).
MOE_OPS: dict[str, tuple[int, tuple[Prop, ...]]] = {
    "all_to_all_dispatch": (2, (Prop("num_devices", "int"), Prop("cluster_axis", "int"))),
    "moe_expert_token_remap": (2, (Prop("reduction_size", "int"),)),
    "sparse_matmul": (1, (_opt("is_input_a_sparse", "bool", False), _opt("is_input_b_sparse", "bool", True), _opt("nnz", "int"))),
    "all_to_all_combine": (1, (Prop("num_devices", "int"), Prop("cluster_axis", "int"), Prop("num_experts_per_tok", "int"),
                               _opt("output_shard_dim", "int", 2))),
}  # fmt: skip
register(*(OpDef(f"ttir.{name}", operands=3, results=n, traits=_P, props=declared) for name, (n, declared) in MOE_OPS.items()))
register(OpDef("ttir.all_to_all_dispatch_metadata", operands=4, results=3, traits=_P,
               props=(Prop("num_devices", "int"), Prop("cluster_axis", "int"))))  # fmt: skip
# The attention head-layout ops ttir-fusing builds (HEAD's TTIROps.td), registered for their verifiers.
register(OpDef("ttir.concatenate_heads", operands=(1, 2), results=1, traits=_P),
         OpDef("ttir.split_query_key_value_and_split_heads", operands=(1, 3), results=3, traits=_P))  # fmt: skip
register_verifiers({"ttir.concatenate_heads": _one(concatenate_heads),
                    "ttir.split_query_key_value_and_split_heads": lambda op: split_qkv(op, inputs(op))})  # fmt: skip
# HEAD's TTIR sparse_matmul and moe_expert_token_remap verify exactly as their TTNN counterparts do.
register_verifiers({"ttir.sparse_matmul": verify_sparse_matmul, "ttir.moe_expert_token_remap": verify_moe_expert_token_remap})
register_verifiers({"ttir.all_to_all_dispatch": lambda op: all_to_all_dispatch(op, inputs(op)),
                    "ttir.all_to_all_dispatch_metadata": lambda op: all_to_all_dispatch_metadata(op, inputs(op)),
                    "ttir.all_to_all_combine": lambda op: all_to_all_combine(op, inputs(op))})  # fmt: skip
