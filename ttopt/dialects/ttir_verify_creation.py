"""Creation-op verifiers, as HEAD's FullOp::verify and RandOp::verify: the `shape` / `size`
attribute is the result's shape (and rand's range is not empty). The messages are HEAD's."""

from __future__ import annotations

from typing import Any

from ttopt.dialects.verify_common import int_attr, ints_attr, join, result_shape


def full(op: Any) -> None:
    """HEAD's FullOp::verify."""
    out, shape = result_shape(op), ints_attr(op, "shape")
    if out is not None and shape is not None and tuple(shape) != tuple(out):
        raise ValueError(f"expected shape ({join(out, ', ')}), got ({join(shape, ', ')})")


def rand(op: Any) -> None:
    """HEAD's RandOp::verify: low < high, size the result's shape."""
    low, high = (op.get_attr(n) for n in ("low", "high"))
    lo = getattr(low.resolve(), "value", 0.0) if low is not None else 0.0
    hi = getattr(high.resolve(), "value", 1.0) if high is not None else 1.0
    if isinstance(lo, (int, float)) and isinstance(hi, (int, float)) and lo >= hi:
        raise ValueError("'low' value must be < 'high' value.")
    out, size = result_shape(op), ints_attr(op, "size")
    if out is not None and size is not None and tuple(size) != tuple(out):
        text = op.get_attr("size").resolve().text
        raise ValueError(f"Size argument does not match with output tensor shape. [Size = {text}, output tensor shape = ({join(out, ', ')})].")


def arange(op: Any) -> None:
    """HEAD's ArangeOp::verify: a non-zero step, a non-empty range, and its length the result's
    size along arange_dimension (C++'s truncating division)."""
    start, end, step, dim = (int_attr(op, n) for n in ("start", "end", "step", "arange_dimension"))
    out = result_shape(op)
    if start is None or end is None or step is None:
        return
    if step == 0:
        raise ValueError("Step value cannot be zero")
    count = abs(end - start) // abs(step) * (1 if (end - start) * step >= 0 else -1)
    if count <= 0:
        raise ValueError(f"Invalid range: start={start}, end={end}, step={step}")
    if out is not None and dim is not None and 0 <= dim < len(out) and out[dim] != count:
        raise ValueError(f"Output tensor shape must be {count} at dim {dim} (since start={start}, end={end}, step={step}), but got {out[dim]}")
