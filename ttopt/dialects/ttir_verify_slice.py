"""Slicing verifiers, as HEAD's SliceStaticOp, SliceDynamicOp and IndexOp verify(): one begin, end
and step per dimension (or, for index, one dimension), begin and end in range (negative ones
counted from the end), a non-zero step pointing from begin to end, and the result's size along
each dimension ceil(|end - begin| / |step|). The messages are HEAD's.
"""

from __future__ import annotations

from typing import Any

from ttopt.dialects.verify_common import int_attr, ints_attr, result_shape
from ttopt.dialects.verify_common import shape as shape_of


def _same_element_and_rank(op: Any, x: Any) -> None:
    t, out = x.type.resolve(), op.results[0].type.resolve()
    if getattr(t, "element_type", None) != getattr(out, "element_type", None):
        raise ValueError("Output tensor must have the same element type as the input tensor")
    if len(getattr(t, "shape", ()) or ()) != len(getattr(out, "shape", ()) or ()):
        raise ValueError("Output tensor must have the same rank as the input tensor")


def _dimension(i: int, size: int, begin: int, end: int, step: int, got: int, shape: tuple[int, ...], empty_ok: bool) -> None:
    """One sliced dimension's checks, in HEAD's order and words."""
    b = begin + size if begin < 0 else begin
    e = end + size if end < 0 else end
    text = "(" + ", ".join(str(d) for d in shape) + ")"
    empty = empty_ok and b == e
    if not empty and not 0 <= b < size:
        raise ValueError(f"Invalid begin index for dimension {i}. Expected value in range [{-size}, {size}), got {begin}. Input shape: {text}")
    if not empty and not 0 <= e <= size:
        raise ValueError(f"Invalid end index for dimension {i}. Expected value in range [{-size}, {size}], got {end}. Input shape: {text}")
    bm = f"{b} ({begin})" if begin < 0 else str(begin)
    em = f"{e} ({end})" if end < 0 else str(end)
    if step == 0:
        raise ValueError(f"Step value for dimension {i} cannot be zero")
    if step > 0 and b > e:
        raise ValueError(f"For positive step, begin index must be less than or equal to end index for dimension {i}. "
                         f"Got begin: {bm}, end: {em}, step: {step}, input shape: {text}")  # fmt: skip
    if step < 0 and b < e:
        raise ValueError(f"For negative step, begin index must be greater than or equal to end index for dimension {i}. "
                         f"Got begin: {bm}, end: {em}, step: {step}, input shape: {text}")  # fmt: skip
    want = (abs(e - b) + abs(step) - 1) // abs(step)
    if got != want:
        raise ValueError(f"Mismatch in dimension {i} of the output tensor: expected size {want}, but got {got}")


def slice_static(op: Any, x: Any) -> None:
    """HEAD's SliceStaticOp::verify."""
    shape, out = shape_of(x), result_shape(op)
    begins, ends, steps = ints_attr(op, "begins"), ints_attr(op, "ends"), ints_attr(op, "step")
    if shape is None or out is None or begins is None or ends is None or steps is None:
        return
    if len(shape) < 1:
        raise ValueError("Input must be at least a 1D tensor")
    if not len(shape) == len(begins) == len(ends) == len(steps):
        raise ValueError("Begins, ends, and step attributes must have the same number of elements as the input tensor rank")
    _same_element_and_rank(op, x)
    for i, (size, b, e, s) in enumerate(zip(shape, begins, ends, steps)):
        _dimension(i, size, b, e, s, out[i], shape, empty_ok=True)


def slice_dynamic(op: Any, x: Any, begins: Any, ends: Any) -> None:
    """HEAD's SliceDynamicOp::verify: begins and ends 1-D tensors of the input's rank, steps non-zero."""
    shape, bs, es = shape_of(x), shape_of(begins), shape_of(ends)
    if shape is None or bs is None or es is None or not op.results:
        return
    if len(shape) < 1:
        raise ValueError("Input must be at least a 1D tensor")
    if len(bs) != 1 or len(es) != 1:
        raise ValueError("Begins and ends must be 1D tensors")
    steps = ints_attr(op, "step")
    if bs[0] != len(shape) or es[0] != len(shape) or (steps is not None and len(steps) != len(shape)):
        raise ValueError("Begins, ends, and step must have the same number of elements as the input tensor rank")
    _same_element_and_rank(op, x)
    for i, s in enumerate(steps or ()):
        if s == 0:
            raise ValueError(f"Step value for dimension {i} cannot be zero")


def index(op: Any, x: Any) -> None:
    """HEAD's IndexOp::verify: one dimension sliced by begin / end / step."""
    shape, out = shape_of(x), result_shape(op)
    if shape is None or out is None:
        return
    if len(shape) < 1:
        raise ValueError("Input must be at least a 1D tensor")
    _same_element_and_rank(op, x)
    dim = int_attr(op, "dim", 0) or 0
    if not 0 <= dim < len(shape):
        raise ValueError(f"Invalid dimension index {dim}. Input tensor rank is {len(shape)}")
    b, e, s = (int_attr(op, n, 0) or 0 for n in ("begin", "end", "step"))
    _dimension(dim, shape[dim], b, e, s, out[dim], shape, empty_ok=False)


def index_select(op: Any, x: Any) -> None:
    """HEAD's IndexSelectOp::verify: `length` elements every `stride` from `begin` along `dim`."""
    shape, out = shape_of(x), result_shape(op)
    if shape is None or out is None:
        return
    if len(shape) != len(out):
        raise ValueError("Input and output tensors must have the same rank.")
    if getattr(x.type.resolve(), "element_type", None) != getattr(op.results[0].type.resolve(), "element_type", None):
        raise ValueError("Input and output tensors must have the same element type.")
    orig = int_attr(op, "dim", 0) or 0
    dim = orig + len(shape) if orig < 0 else orig
    if not 0 <= dim < len(shape):
        raise ValueError(f"Invalid dimension {orig} for select op with input tensor rank {len(shape)}")
    size = shape[dim]
    stride = int_attr(op, "stride", 0) or size
    if stride < 0:
        raise ValueError(f"Invalid stride {stride} for dimension {dim}, stride must be non-negative")
    if stride > size:
        raise ValueError(f"Invalid stride {stride} for dimension {dim} with size {size}. stride must be less than or equal to the dimension size")
    begin, length = int_attr(op, "begin", 0) or 0, int_attr(op, "length", 0) or 0
    if not 0 <= begin < size:
        raise ValueError(f"Invalid begin index {begin} for dimension {dim} with size {size}. begin must be in the range [0, dimSize)")
    if not 1 <= length <= stride:
        raise ValueError(f"Invalid length {length} for begin index {begin} and stride {stride} for dimension {dim} with size {size}. "
                         "stride must be greater than or equal to length")  # fmt: skip
    if begin + length > size:
        raise ValueError(f"Invalid length {length} for begin index {begin} and dimension {dim} with size {size}. "
                         "begin + length must be less than or equal to the dimension size")  # fmt: skip
    slices = (size - begin + stride - 1) // stride
    total = sum(min(begin + i * stride + length, size) - (begin + i * stride) for i in range(slices))
    if total != out[dim]:
        raise ValueError("Sum of all slices must be equal to the output dimension size for the given dimension. "
                         f"Expected output dimension size: {out[dim]}, but got {total}")  # fmt: skip
