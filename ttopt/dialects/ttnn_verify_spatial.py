"""Verifiers of the TTNN spatial resampling ops (HEAD's UpsampleOp::verify), with HEAD's messages."""

from __future__ import annotations

from typing import Any

from ttopt.dialects.verify_common import attr, shape, str_attr
from ttopt.ir.attributes import IntegerAttr
from ttopt.ir.properties import int_values


def _pair(a: Any) -> tuple[int, int]:
    """ttmlir::utils::getPairOfInteger: an integer is (n, n), an array must hold two."""
    if isinstance(a, IntegerAttr):
        return a.value, a.value
    values = int_values(a)
    if values is None:
        raise ValueError("Unexpected attribute type")
    if len(values) != 2:
        raise ValueError(f"Expected integer or pair of integers, got tuple of size {len(values)}")
    return values[0], values[1]


def verify_upsample(op: Any) -> None:
    """HEAD's UpsampleOp::verify: NHWC in and out, H and W scaled by positive factors, mode
    nearest or bilinear."""
    x = shape(op.operands[0])
    out = shape(op.results[0]) if op.results else None
    if x is None or out is None:
        return
    if len(x) != 4:
        raise ValueError(f"Expected rank of input tensor is 4, got rank {len(x)}")
    if len(out) != 4:
        raise ValueError(f"Expected rank of output tensor is 4, got rank {len(out)}")
    a = attr(op, "scale_factor")
    if a is None:
        return
    sh, sw = _pair(a)
    if sh <= 0 or sw <= 0:
        raise ValueError(f"Scale factors H = {sh} and W = {sw} must be positive integers")
    if x[1] * sh != out[1]:
        raise ValueError(f"Expected output H dimension to be input H dimension * scaleH = {x[1] * sh}, got {out[1]}")
    if x[2] * sw != out[2]:
        raise ValueError(f"Expected output W dimension to be input W dimension * scaleW = {x[2] * sw}, got {out[2]}")
    if x[0] != out[0]:
        raise ValueError(f"Expected output N dimension to be {x[0]}, got {out[0]}")
    if x[3] != out[3]:
        raise ValueError(f"Expected output C dimension to be {x[3]}, got {out[3]}")
    mode = str_attr(op, "mode")
    if mode is None:
        mode = "nearest"  # ODS default
    if mode not in ("nearest", "bilinear"):
        raise ValueError(f'Expected modes are (nearest, bilinear), got "{mode}"')


VERIFIERS = {"ttnn.upsample": verify_upsample}
