"""Attention head-layout verifiers, as HEAD's ConcatenateHeadsOp and SplitQueryKeyValueAndSplitHeadsOp
verify(): [B, H, S, D] heads merged to [B, S, H*D], and a fused [B, S, (H + 2 KV) D] projection (or
a separate [B, S, 2 KV D] one for K and V) split into Q [B, H, S, D], K and V [B, KV, S, D] (K
transposed on request). The messages are HEAD's."""

from __future__ import annotations

from typing import Any

from ttopt.dialects.verify_common import bool_attr, int_attr, join, result_shape, shape


def concatenate_heads(op: Any, x: Any) -> None:
    """HEAD's ConcatenateHeadsOp::verify."""
    a, out = shape(x), result_shape(op)
    if a is None or out is None:
        return
    if len(a) != 4:
        raise ValueError(f"expected rank of input tensor is 4, got rank {len(a)}")
    if len(out) != 3:
        raise ValueError(f"expected rank of output tensor is 3, got rank {len(out)}")
    if a[0] != out[0]:
        raise ValueError(f"expected output batch dimension to be {a[0]}, got {out[0]}")
    if a[2] != out[1]:
        raise ValueError(f"expected output sequence dimension to be {a[2]}, got {out[1]}")
    if a[1] * a[3] != out[2]:
        raise ValueError(f"expected output hidden dimension to be num_heads * head_size = {a[1] * a[3]}, got {out[2]}")


def split_qkv(op: Any, operands: list[Any]) -> None:
    """HEAD's SplitQueryKeyValueAndSplitHeadsOp::verify."""
    if not operands or len(op.results) < 3:
        return
    a = shape(operands[0])
    kv = shape(operands[1]) if len(operands) > 1 else a
    outs = [result_shape(op, i) for i in range(3)]
    if a is None or kv is None or any(o is None for o in outs):
        return
    if len(a) != 3:
        raise ValueError(f"expected rank of input tensor is 3, got rank {len(a)}")
    q, k, v = outs
    assert q is not None and k is not None and v is not None
    if len(q) != 4 or len(k) != 4 or len(v) != 4:
        raise ValueError(f"expected rank of query/key/value output tensor is 4, got query rank: {len(q)}, key rank: {len(k)}, value rank: {len(v)}")
    heads = int_attr(op, "num_heads", 1) or 1
    kv_heads = int_attr(op, "num_kv_heads", heads) or heads
    if len(operands) > 1:
        dq, dkv = a[2] // heads, kv[2] // (2 * kv_heads)
    else:
        dq = dkv = a[2] // (heads + 2 * kv_heads)
    want_q = [a[0], heads, a[1], dq]
    want_k = [kv[0], kv_heads, kv[1], dkv]
    want_v = list(want_k)
    if bool_attr(op, "transpose_key"):
        want_k[2], want_k[3] = want_k[3], want_k[2]
    for name, want, got in (("query", want_q, q), ("key", want_k, k), ("value", want_v, v)):
        if list(got) != want:
            raise ValueError(f"expected {name} output shape ({join(want, ', ')}), got ({join(got, ', ')})")
