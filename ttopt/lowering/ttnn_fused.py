"""TTIR -> TTNN for the fused ops `ttir-fusing` makes that need more than a rename (tt-mlir's
TTIRToTTNN patterns):

| TTIR | TTNN |
|---|---|
| `scaled_dot_product_attention` with Sq > 1 | `ttnn.scaled_dot_product_attention`, same operands and attributes (`is_causal`, `scale`, `sliding_window_size`, operand segments); a [.., 1, Sk] mask is first repeated to [.., Sq, Sk], as the kernel cannot broadcast the query dimension |
| `scaled_dot_product_attention` with Sq == 1 | `ttnn.scaled_dot_product_attention_decode`: Q permuted [B, H, 1, D] -> [1, B, H, D], K and V as they are, the mask permuted [B, H, 1, Sk] -> [B, 1, H, Sk] and repeated to Hq heads (the decode kernel does not broadcast heads), the result permuted back |

An attention sink is multiplied by a `ttnn.full` of 1/scale first (the scale attribute, else
1/sqrt(D); none for a scale of 0 or 1): the tt-metal kernels apply the scale to the sink logit as to
the scores, so the sink is pre-divided to keep the TTIR op's meaning (softmax over the scaled scores
and the sink as it is). The decode form takes the [1, Hq, 1, 1] sink; `ttnn-workaround` reshapes it
to the [Hq, 32] tile the decode kernel reads.
"""

from __future__ import annotations

import math
import struct
from typing import TYPE_CHECKING, Any

from ttopt.dialects.ttir import inputs
from ttopt.ir.attributes import DenseArrayAttr, DialectAttr, FloatAttr
from ttopt.ir.properties import int_values
from ttopt.ir.types import ScalarType, TensorType

if TYPE_CHECKING:
    from ttopt.lowering.ttir_to_ttnn import _Lowering


def _sdpa(lw: _Lowering, op: Any) -> Any:
    seg = list(int_values(op.properties.get("operandSegmentSizes")) or ())
    ins = inputs(op)
    if len(seg) != 5 or sum(seg) != len(ins) or seg[:3] != [1, 1, 1]:
        raise ValueError("needs operandSegmentSizes (query, key, value, attention_mask, attention_sink) matching its operands")
    q = tuple(ins[0].type.resolve().shape)
    if len(q) != 4:
        raise ValueError("needs a rank-4 query [B, H, Sq, D]")
    if q[2] == 1:
        return _sdpa_decode(lw, op, ins, seg, q)
    operands = list(ins)
    if seg[3]:
        mask = operands[3]
        ms = tuple(mask.type.resolve().shape)
        if len(ms) == 4 and ms[2] == 1:
            full = (ms[0], ms[1], q[2], ms[3])
            rt = lw.layout_type(TensorType(full, mask.type.resolve().element_type), op)
            dims = "x".join(str(q[2] if i == 2 else 1) for i in range(4))
            operands[3] = lw.emit("ttnn.repeat", [mask], rt, {"repeat_dims": DialectAttr("ttnn.shape", dims)}, op.location)
    if seg[4]:
        operands[-1] = _sink_for_kernel(lw, op, operands[-1], q[3])
    properties = {k: op.properties[k] for k in ("is_causal", "scale", "sliding_window_size") if k in op.properties}
    properties["operandSegmentSizes"] = DenseArrayAttr("i32", tuple(seg))
    return lw.emit("ttnn.scaled_dot_product_attention", operands, lw.layout_type(op.results[0].type, op), properties, op.location)


DECODE_PERM = (2, 0, 1, 3)
DECODE_MASK_PERM = (0, 2, 1, 3)
FROM_DECODE_PERM = (1, 2, 0, 3)


def _permute(lw: _Lowering, op: Any, v: Any, perm: tuple[int, ...]) -> Any:
    shape = tuple(v.type.resolve().shape)
    t = lw.layout_type(TensorType(tuple(shape[p] for p in perm), v.type.resolve().element_type), op)
    return lw.emit("ttnn.permute", [v], t, {"permutation": DenseArrayAttr("i64", perm)}, op.location)


def _f32(value: float) -> float:
    return float(struct.unpack("f", struct.pack("f", value))[0])


def _sink_for_kernel(lw: _Lowering, op: Any, sink: Any, head_dim: int) -> Any:
    """`sink` * (1 / scale): the kernels scale the sink logit too (HEAD's compensateAttentionSinkForScale)."""
    attr = op.properties.get("scale")
    value = getattr(attr.resolve(), "value", None) if attr is not None else None
    scale = _f32(float(value) if value is not None else 1.0 / math.sqrt(head_dim))
    if scale in (0.0, 1.0):
        return sink
    t = sink.type.resolve()
    props = {"shape": DialectAttr("ttnn.shape", "x".join(str(d) for d in t.shape)), "fill_value": FloatAttr(_f32(1.0 / scale), ScalarType("f32"))}
    inv = lw.emit("ttnn.full", [lw.get_device()], t, props, op.location)
    return lw.emit("ttnn.multiply", [sink, inv], t, {}, op.location)


def _sdpa_decode(lw: _Lowering, op: Any, ins: list, seg: list[int], q: tuple[int, ...]) -> Any:
    query = _permute(lw, op, ins[0], DECODE_PERM)
    operands = [query, ins[1], ins[2]]
    if seg[3]:
        mask = _permute(lw, op, ins[3], DECODE_MASK_PERM)
        ms = tuple(mask.type.resolve().shape)
        if q[1] > 1 and ms[2] != q[1]:
            full = (ms[0], ms[1], q[1], ms[3])
            rt = lw.layout_type(TensorType(full, mask.type.resolve().element_type), op)
            dims = "x".join(str(q[1] if i == 2 else 1) for i in range(4))
            mask = lw.emit("ttnn.repeat", [mask], rt, {"repeat_dims": DialectAttr("ttnn.shape", dims)}, op.location)
        operands.append(mask)
    if seg[4]:
        operands.append(_sink_for_kernel(lw, op, ins[-1], q[3]))
    properties = {k: op.properties[k] for k in ("is_causal", "scale", "sliding_window_size") if k in op.properties}
    properties["operandSegmentSizes"] = DenseArrayAttr("i32", (1, 1, 1, seg[3], 0, seg[4]))
    y = lw.emit("ttnn.scaled_dot_product_attention_decode", operands, query.type, properties, op.location)
    return _permute(lw, op, y, FROM_DECODE_PERM)


FUSED_RULES = {"scaled_dot_product_attention": _sdpa}
