"""Verifiers of TTNN elementwise and creation ops (HEAD's ClampScalarOp, PowScalarOp, RandOp and
ConstantOp::verify), with HEAD's messages."""

from __future__ import annotations

from typing import Any

from ttopt.dialects.verify_common import attr, float_attr, ints_attr, is_device, join, layout, shape
from ttopt.ir.attributes import FloatAttr, IntegerAttr


def verify_clamp_scalar(op: Any) -> None:
    """HEAD's ClampScalarOp::verify."""
    x = shape(op.operands[0])
    out = shape(op.results[0]) if op.results else None
    if x is not None and out is not None and x != out:
        raise ValueError("input and output must have same shape.")


def verify_pow_scalar(op: Any) -> None:
    """HEAD's PowScalarOp::verify: a non-negative integer or float exponent."""
    rhs = attr(op, "rhs")
    if isinstance(rhs, IntegerAttr):
        if rhs.value < 0:
            raise ValueError(f"exponent must be non-negative; but got {rhs.value}")
    elif isinstance(rhs, FloatAttr):
        if rhs.value < 0:
            raise ValueError(f"exponent must be non-negative; but got {rhs.value:e}")  # raw_ostream's double
    elif rhs is not None:
        raise ValueError("exponent must be an integer or float attribute.")


def verify_rand(op: Any) -> None:
    """HEAD's RandOp::verify: low < high, and `size` is the result's shape."""
    low, high = float_attr(op, "low"), float_attr(op, "high")
    if low is not None and high is not None and low >= high:
        raise ValueError("'low' value must be < 'high' value")
    size = ints_attr(op, "size")
    out = shape(op.results[0]) if op.results else None
    if size is not None and out is not None and size != out:
        raise ValueError(
            f"size argument does not match with output tensor shape. [Size = ({join(size, ', ')}), "
            f"output tensor shape = ({join(out, ', ')})]"
        )


def verify_constant(op: Any) -> None:
    """HEAD's ConstantOp::verify: a device operand exactly when the result is not in system memory."""
    lay = layout(op.results[0]) if op.results else None
    if lay is None:
        return
    device = any(is_device(v) for v in op.operands)
    if not lay.is_system_memory and not device:
        raise ValueError("device operand must be specified for non-system memory buffer type")
    if lay.is_system_memory and device:
        raise ValueError("device operand must not be specified for system memory buffer type")


VERIFIERS = {
    "ttnn.clamp_scalar": verify_clamp_scalar,
    "ttnn.pow_scalar": verify_pow_scalar,
    "ttnn.rand": verify_rand,
    "ttnn.constant": verify_constant,
}
