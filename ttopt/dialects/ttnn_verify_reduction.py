"""Verifiers of the TTNN reductions (HEAD's verifyReduceOp for sum / mean / max / min, ProdOp
and ArgMaxOp::verify), with HEAD's messages."""

from __future__ import annotations

from typing import Any

from ttopt.dialects.verify_common import attr, bool_attr, int_attr, join, shape
from ttopt.ir.attributes import ArrayAttr, IntegerAttr


def _reduce_dims(op: Any, rank: int) -> set[int] | None:
    """The normalized `dim_arg` dims; every dim when it is absent; None when unreadable."""
    a = attr(op, "dim_arg")
    if a is None:
        return set(range(rank))
    if not isinstance(a, ArrayAttr):
        return None
    items = [x.resolve() for x in a.items]
    if not all(isinstance(x, IntegerAttr) for x in items):
        return None
    return {d + rank if d < 0 else d for d in (x.value for x in items)}


def verify_reduce(op: Any) -> None:
    """HEAD's verifyReduceOp: the result keeps the dims not reduced (reduced ones as 1 with keep_dim)."""
    x = shape(op.operands[0])
    out = shape(op.results[0]) if op.results else None
    if x is None or out is None:
        return
    dims = _reduce_dims(op, len(x))
    if dims is None:
        return
    keep = bool_attr(op, "keep_dim")
    want = [1 if i in dims else d for i, d in enumerate(x) if i not in dims or keep]
    if tuple(want) != out:
        raise ValueError(f"Expected output shape ({join(want, ', ')}), got ({join(out, ', ')})")


def verify_prod(op: Any) -> None:
    """HEAD's verifyReduceProdOp: tt-metal reduces tensors of rank 4 at most."""
    x = shape(op.operands[0]) if op.operands else None
    if x is not None and len(x) > 4:
        raise ValueError("Input tensor rank is greater than 4 for reduce(product).")


def verify_argmax(op: Any) -> None:
    """HEAD's ArgMaxOp::verify: an in-range dim, the result the input without it (1 with keep_dim),
    or with no dim, a scalar (all ones with keep_dim)."""
    x = shape(op.operands[0])
    out = shape(op.results[0]) if op.results else None
    if x is None:
        return
    rank = len(x)
    dim = int_attr(op, "dim")
    keep = bool_attr(op, "keep_dim")
    if dim is not None and (dim < -rank or dim >= rank):
        raise ValueError(
            f"dim attribute value {dim} is out of range for input tensor of rank {rank}, expected value in range "
            f"[{-rank}, {rank - 1}]"
        )
    if dim is not None:
        d = dim + rank if dim < 0 else dim
        want = [1 if i == d else n for i, n in enumerate(x) if i != d or keep]
    else:
        want = [1] * rank if keep else []
    if out is not None and tuple(want) != out:
        raise ValueError(f"expected output shape ({join(want, ', ')}), got ({join(out, ', ')})")


VERIFIERS = {
    "ttnn.sum": verify_reduce,
    "ttnn.mean": verify_reduce,
    "ttnn.max": verify_reduce,
    "ttnn.min": verify_reduce,
    "ttnn.prod": verify_prod,
    "ttnn.argmax": verify_argmax,
}
