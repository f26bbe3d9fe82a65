"""Creation-op verifiers, as HEAD's FullOp::verify and RandOp::verify: the `shape` / `size`
attribute is the result's shape (and rand's range is not empty). The messages are HEAD's."""

from __future__ import annotations

from typing import Any

from ttopt.dialects.ttir_verify_common import ints, join, result_shape


def full(op: Any) -> None:
    """HEAD's FullOp::verify."""
    out, shape = result_shape(op), ints(op, "shape")
    if out is not None and shape is not None and tuple(shape) != tuple(out):
        raise ValueError(f"expected shape ({join(out, ', ')}), got ({join(shape, ', ')})")


def rand(op: Any) -> None:
    """HEAD's RandOp::verify: low < high, size the result's shape."""
    low, high = (op.get_attr(n) for n in ("low", "high"))
    lo = getattr(low.resolve(), "value", 0.0) if low is not None else 0.0
    hi = getattr(high.resolve(), "value", 1.0) if high is not None else 1.0
    if isinstance(lo, (int, float)) and isinstance(hi, (int, float)) and lo >= hi:
        raise ValueError("'low' value must be < 'high' value.")
    out, size = result_shape(op), ints(op, "size")
    if out is not None and size is not None and tuple(size) != tuple(out):
        text = op.get_attr("size").resolve().text
        raise ValueError(f"Size argument does not match with output tensor shape. [Size = {text}, output tensor shape = ({join(out, ', ')})].")
