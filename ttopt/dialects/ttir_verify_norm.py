"""Normalization verifiers, as HEAD's RMSNormOp::verify and verifyBatchNormOp (batch_norm_inference,
batch_norm_training). The messages are HEAD's."""

from __future__ import annotations

from typing import Any

from ttopt.dialects.verify_common import int_attr, ints_attr, result_shape, shape


def rms_norm(op: Any, x: Any, weight: Any | None, bias: Any | None) -> None:
    """HEAD's RMSNormOp::verify: result shaped as x, normalized_shape its trailing dimensions, the
    weight and bias of that shape."""
    a, out = shape(x), result_shape(op)
    norm = ints_attr(op, "normalized_shape")
    if a is None or out is None or norm is None:
        return
    if a != out:
        raise ValueError("input and output must have the same shape")
    if not norm:
        raise ValueError("normalized_shape cannot be empty")
    if len(norm) > len(a):
        raise ValueError("normalized_shape has more dimensions than input tensor")
    if tuple(a[len(a) - len(norm):]) != tuple(norm):
        raise ValueError("normalized_shape dimensions must match trailing dimensions of input tensor")
    for what, v in (("weight", weight), ("bias", bias)):
        s = shape(v) if v is not None else None
        if s is not None and tuple(s) != tuple(norm):
            raise ValueError(f"{what} tensor shape must match normalized_shape")


def batch_norm(op: Any, x: Any) -> None:
    """HEAD's verifyBatchNormOp: a rank 2-5 input, `dimension` within it."""
    a = shape(x)
    if a is None:
        return
    if not 2 <= len(a) <= 5:
        raise ValueError(f"input tensor must have rank between 2 and 5, got rank {len(a)}")
    dim = int_attr(op, "dimension", 1)
    assert dim is not None
    if not 0 <= dim < len(a):
        raise ValueError(f"dimension attribute must be within input rank bounds, got dimension {dim} for rank {len(a)}")
