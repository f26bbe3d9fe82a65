"""Verifiers of TTIR's indexing and ordering ops, as HEAD's verify() of embedding, gather, sort,
topk, cumsum and reverse: index operands and dimensions in range, results shaped as the op
defines them. The messages are HEAD's.
"""

from __future__ import annotations

from typing import Any

from ttopt.dialects.verify_common import int_attr, ints_attr, join, result_shape, shape


def _element(v: Any) -> str:
    t = v.type.resolve()
    e = getattr(t, "element_type", None)
    return e.resolve().text if e is not None else ""


def _is_integer(element: str) -> bool:
    return element.lstrip("su").startswith("i") and element[-1:].isdigit()


def embedding(op: Any, x: Any, weight: Any) -> None:
    """HEAD's EmbeddingOp::verify: indices of rank <= 2, an effectively 2-D weight, (*x, E) result."""
    xs, ws, out = shape(x), shape(weight), result_shape(op)
    if xs is None or ws is None or out is None:
        return
    if len(xs) > 2:
        raise ValueError(f"input must be at most a 2D tensor, got {len(xs)}D ranked tensor")
    if len(ws) < 2:
        raise ValueError(f"weight must be at least 2D tensor, got {len(ws)}D ranked tensor")
    if any(d != 1 for d in ws[:-2]):
        raise ValueError("weight must be effectively 2D tensor")
    want = [*xs, ws[-1]]
    if list(out) != want:
        raise ValueError(f"expected output shape of ({join(want, ', ')}) but got ({join(out, ', ')})")


def gather(op: Any, x: Any, index: Any) -> None:
    """HEAD's GatherOp::verify (torch.gather: index and result of one shape, x's rank)."""
    xs, ixs, out = shape(x), shape(index), result_shape(op)
    if xs is None or ixs is None or out is None:
        return
    if not _is_integer(_element(index)):
        raise ValueError(f"Index tensor must have an integer type, got '{_element(index)}'")
    if len(xs) != len(ixs):
        raise ValueError(f"Input tensor and index tensor must have the same rank. Got input rank = {len(xs)}, index rank = {len(ixs)}")
    if len(xs) < 1:
        raise ValueError(f"Input tensor and index tensor must have rank >= 1. Got rank = {len(xs)}")
    dim = int_attr(op, "dim", 0) or 0
    if not -len(xs) <= dim < len(xs):
        raise ValueError(f"Dimension must be in the range [-{len(xs)}, {len(xs)}), got dim = {dim}")
    if ixs != out:
        raise ValueError("Index tensor and result tensor must have the same shape.")


def sort(op: Any, x: Any) -> None:
    """HEAD's SortOp::verify: dim in range, values typed as the input, indices shaped as it."""
    xs = shape(x)
    if xs is None or len(op.results) < 2:
        return
    rank, dim = len(xs), int_attr(op, "dim", -1)
    assert dim is not None
    if not -rank <= dim < rank:
        raise ValueError(f"Dimension out of range (expected to be in range of [{-rank}, {rank - 1}], but got {dim})")
    if op.results[0].type.resolve() != x.type.resolve():
        raise ValueError("Sorted tensor type does not match with input tensor.")
    if shape(op.results[-1]) != xs:
        raise ValueError("Indices shape does not match with input tensor shape.")


def topk(op: Any, x: Any) -> None:
    """HEAD's TopKOp::verify: dim in range, 1 <= k <= the dimension's size."""
    xs = shape(x)
    if xs is None:
        return
    rank, dim, k = len(xs), int_attr(op, "dim", -1), int_attr(op, "k", 0)
    assert dim is not None and k is not None
    d = dim + rank if dim < 0 else dim
    if not 0 <= d < rank:
        raise ValueError(f"specified dimension should be between {-rank} and {rank - 1}, but got: {dim}")
    if not 0 < k <= xs[d]:
        raise ValueError(f"K should be between 1 and the size of the specified dimension ({d}), but got: {k}")


def cumsum(op: Any, x: Any) -> None:
    """HEAD's CumSumOp::verify: dim in [-rank, rank)."""
    xs = shape(x)
    dim = int_attr(op, "dim")
    if xs is not None and dim is not None and not -len(xs) <= dim < len(xs):
        raise ValueError(f"specified dimension should be between {-len(xs)} and {len(xs) - 1}, but got: {dim}")


def reverse(op: Any, x: Any) -> None:
    """HEAD's ReverseOp::verify: unique dimensions in [0, rank)."""
    dims = ints_attr(op, "dimensions")
    xs = shape(x)
    if dims is None:
        return
    if len(set(dims)) != len(dims):
        raise ValueError(f"dimensions should be unique. Got: {join(dims, ', ')}")
    for d in dims:
        if d < 0:
            raise ValueError(f"all dimensions should be non-negative. Got dimension: {d}")
        if xs is not None and d >= len(xs):
            raise ValueError(f"all dimensions should be in interval [0, {len(xs)}). Got dimension: {d}")
