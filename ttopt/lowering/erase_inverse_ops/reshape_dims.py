"""Where one dimension of a tensor lands when a reshape regroups the others (tt-mlir's
findMatchingDim), for the commutes that move a reshape through an op working along some
dimensions (reductions, softmax).

A dimension survives a reshape when the reshaped shape has a dimension of the same size and the
same stride (the product of the dimensions after it): row-major, that dimension then indexes the
same elements in both shapes, so an op along it computes the same on either side of the reshape.
A dimension the reshape splits or merges with a neighbour of size > 1 has no such match.
"""

from __future__ import annotations

from math import prod


def matching_dim(src: tuple[int, ...], dst: tuple[int, ...], dim: int) -> int | None:
    """The dimension of `dst` with the size and stride of `src`'s `dim` (the innermost such one: size-1
    dimensions share a stride), None when none has or `dim` is out of range."""
    if not 0 <= dim < len(src):
        return None
    size, stride = src[dim], prod(src[dim + 1 :])
    at = 1
    for i in range(len(dst) - 1, -1, -1):
        if at > stride:
            break
        if at == stride and dst[i] == size:
            return i
        at *= dst[i]
    return None
