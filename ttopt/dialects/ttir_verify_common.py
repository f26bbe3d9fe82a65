"""What the TTIR op verifiers read: static shapes (None when not static: the check is then skipped,
as a dynamic dimension cannot contradict it), integer and flag attributes, MLIR's broadcast rule,
and HEAD's `join` of dimensions for messages."""

from __future__ import annotations

from typing import Any

from ttopt.ir.properties import int_values
from ttopt.ir.types import TensorType


def shape_of(v: Any) -> tuple[int, ...] | None:
    """The static shape of a ranked tensor value, else None."""
    t = v.type.resolve()
    if not isinstance(t, TensorType) or t.shape is None:
        return None
    dims = [d for d in t.shape if isinstance(d, int)]
    return tuple(dims) if len(dims) == len(t.shape) else None


def result_shape(op: Any, index: int = 0) -> tuple[int, ...] | None:
    """The static shape of result `index`, else None."""
    return shape_of(op.results[index]) if len(op.results) > index else None


def flag(op: Any, name: str) -> bool:
    """A boolean (or unit) attribute; False when absent."""
    a = op.get_attr(name)
    if a is None:
        return False
    v = getattr(a.resolve(), "value", True)
    return bool(v)


def int_attr(op: Any, name: str, default: int | None = None) -> int | None:
    """An integer attribute's value, else `default`."""
    a = op.get_attr(name)
    v = getattr(a.resolve(), "value", None) if a is not None else None
    return v if isinstance(v, int) and not isinstance(v, bool) else default


def ints(op: Any, name: str) -> tuple[int, ...] | None:
    """An integer-array attribute's values (any spelling), else None."""
    return int_values(op.get_attr(name))


def broadcast(a: list[int] | tuple[int, ...], b: list[int] | tuple[int, ...]) -> list[int] | None:
    """MLIR's getBroadcastedShape of two static shapes (None when they do not broadcast)."""
    out: list[int] = []
    for i in range(1, max(len(a), len(b)) + 1):
        x = a[-i] if i <= len(a) else 1
        y = b[-i] if i <= len(b) else 1
        if x != y and x != 1 and y != 1:
            return None
        out.append(y if x == 1 else x)
    return out[::-1]


def join(dims: Any, sep: str = ",") -> str:
    """HEAD's ttmlir::utils::join of integers."""
    return sep.join(str(d) for d in dims)
