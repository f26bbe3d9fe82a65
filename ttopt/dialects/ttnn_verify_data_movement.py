"""Verifiers of the TTNN data-movement ops (HEAD's ConcatOp, RepeatOp, ReshapeOp, PermuteOp,
RepeatInterleaveOp, GatherOp, SortOp and AssignOp::verify), with HEAD's messages."""

from __future__ import annotations

from typing import Any

from ttopt.dialects.ttir_verify_shape import permute, repeat, repeat_interleave, reshape
from ttopt.dialects.verify_common import dtype, element, int_attr, join, shape, tensor_type


def _io(op: Any) -> tuple[tuple[int, ...] | None, tuple[int, ...] | None]:
    return shape(op.operands[0]), (shape(op.results[0]) if op.results else None)


def verify_concat(op: Any) -> None:
    """HEAD's ConcatOp::verify: a dim of the inputs' rank, equal ranks and off-axis dims, the
    result's axis the sum of the inputs'."""
    if not op.operands:
        raise ValueError("At least one input tensor is required.")
    shapes = [shape(v) for v in op.operands]
    out = shape(op.results[0]) if op.results else None
    first = shapes[0]
    if first is None:
        return
    given = int_attr(op, "dim", 0)
    assert given is not None
    dim = given + len(first) if given < 0 else given
    if dim < 0 or dim >= len(first):
        raise ValueError(f"Invalid dimension {given} for concatenation.")
    total = first[dim]
    for idx, s in enumerate(shapes[1:], 1):
        if s is None:
            return
        if len(s) != len(first):
            raise ValueError(
                f"All input tensors must have the same rank (operand 0 rank {len(first)}, operand {idx} rank {len(s)})."
            )
        for i in range(len(first)):
            if i == dim:
                total += s[i]
            elif s[i] != first[i]:
                raise ValueError(
                    f"All input tensors must have the same dimensions, except for dimension {dim} (operand 0 shape "
                    f"{join(first, ', ')}, operand {idx} shape {join(s, ', ')} differ at dim {i}: {first[i]} vs {s[i]})."
                )
    if out is not None and len(out) > dim and out[dim] != total:
        raise ValueError(
            f"Output tensor dimension {dim} must be equal to the sum of input tensor dimensions at the same axis "
            f"({total}), but got {out[dim]}."
        )


def verify_gather(op: Any) -> None:
    """HEAD's GatherOp::verify: a ui16 / 32-bit integer index of the input's rank, an in-range dim,
    the result shaped as the index."""
    x, idx = shape(op.operands[0]), shape(op.operands[1])
    out = shape(op.results[0]) if op.results else None
    e = element(op.operands[1])
    if e is not None and e not in ("ui16", "i32", "si32", "ui32"):
        raise ValueError(f"Index tensor element type must be one of ui16, ui32, si32 or i32, got '{e}'")
    if x is None or idx is None:
        return
    if len(x) != len(idx):
        raise ValueError(
            f"Input tensor and index tensor must have the same rank. Got input rank = {len(x)}, index rank = {len(idx)}"
        )
    if len(x) < 1:
        raise ValueError(f"Input tensor and index tensor must have rank >= 1. Got rank = {len(x)}")
    dim = int_attr(op, "dim", 0)
    assert dim is not None
    if dim >= len(x) or dim < -len(x):
        raise ValueError(f"Dimension must be in the range [-{len(x)}, {len(x)}), got dim = {dim}")
    if out is not None and idx != out:
        raise ValueError("Index tensor and result tensor must have the same shape.")


def verify_sort(op: Any) -> None:
    """HEAD's SortOp::verify: an in-range dim, integer indices shaped as the input, the values
    typed as it."""
    t = tensor_type(op.operands[0])
    if t is None or t.shape is None or len(op.results) < 2:
        return
    rank = len(t.shape)
    dim = int_attr(op, "dim", -1)
    assert dim is not None
    if dim >= rank or dim < -rank:
        raise ValueError(f"Dimension out of range (expected to be in range of [{-rank}, {rank - 1}], but got {dim})")
    e = element(op.results[-1])
    if e is not None and not e.startswith(("i", "si", "ui")) or e == "index":
        raise ValueError(f"Expected integer data type for indices but got '{e}'")
    if op.results[0].type.resolve() != t:
        raise ValueError("Sorted tensor type does not match with input tensor.")
    if shape(op.results[-1]) != shape(op.operands[0]):
        raise ValueError("Indices shape does not match with input tensor shape.")


def verify_assign(op: Any) -> None:
    """HEAD's AssignOp::verify: the output has the input's shape and data type."""
    x, out = _io(op)
    if x is not None and out is not None and x != out:
        raise ValueError("input and output tensor must have the same shape")
    if dtype(op.operands[0]) != dtype(op.results[0]):
        raise ValueError("output tensor data type does not match expected output data type")


VERIFIERS = {
    "ttnn.concat": verify_concat,
    # HEAD's TTNN repeat, reshape, permute and repeat_interleave verify as its TTIR ones.
    "ttnn.repeat": lambda op: repeat(op, op.operands[0], "repeat_dims"),
    "ttnn.reshape": lambda op: reshape(op, op.operands[0]),
    "ttnn.permute": lambda op: permute(op, op.operands[0]),
    "ttnn.repeat_interleave": lambda op: repeat_interleave(op, op.operands[0]),
    "ttnn.gather": verify_gather,
    "ttnn.sort": verify_sort,
    "ttnn.assign": verify_assign,
}
