"""Sub-axis algebra on `Axis` tuples `(name, pre_size, size)` (Shardy's AxisRefAttr methods).

An axis covers the part `[pre_size, pre_size * size)` of its mesh axis (a whole axis of size n is
`(name, 1, n)`), so "next pre-size" is `pre_size * size`. Tuples order as Shardy's
`AxisRefAttr::operator<` (name, then pre-size, then size), so a sorted list is what Shardy calls
"ordered axes". `align` splits axes along the boundaries of another set of axes, after which
two overlapping axes are equal and can be used as set members and dict keys.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import Sequence

# The part Shardy's collective verifier shares, defined below the sharding layer; the passes import it from here.
from ttopt.dialects.sdy_collectives import add_or_merge, can_coexist, contains, is_sub  # noqa: F401
from ttopt.sharding.factors import Axis, axes_overlap


def _end(a: Axis) -> int:
    return a[1] * a[2]


def prefix_of(a: Axis, b: Axis) -> bool:
    """`a` is `b` or a sub-axis starting where `b` starts."""
    return contains(b, a) and a[1] == b[1]


def overlap(a: Axis, b: Axis) -> Axis | None:
    """The part `a` and `b` share, or None."""
    if a[0] != b[0]:
        return None
    lo_pre, hi_pre = sorted((a[1], b[1]))
    lo_end, hi_end = sorted((_end(a), _end(b)))
    if lo_end <= hi_pre or not can_coexist(a, b):
        return None
    return (a[0], hi_pre, lo_end // hi_pre)


def prefix_without_overlap(a: Axis, b: Axis) -> Axis | None:
    """The part of `a` before `b` (all of `a` when they do not overlap), or None."""
    if not can_coexist(a, b):
        return None
    if not axes_overlap(a, b):
        return a
    if a[1] >= b[1]:
        return None
    return (a[0], a[1], b[1] // a[1])


def prefix_without_any(a: Axis, others: Sequence[Axis]) -> Axis | None:
    """The largest prefix of `a` that overlaps none of `others`, or None."""
    for b in others:
        p = prefix_without_overlap(a, b)
        if p is None:
            return None
        a = p
    return a


def suffix_without_overlap(a: Axis, b: Axis) -> Axis | None:
    """The part of `a` after `b` (all of `a` when they do not overlap), or None."""
    if not can_coexist(a, b):
        return None
    if not axes_overlap(a, b):
        return a
    if _end(a) <= _end(b):
        return None
    return (a[0], _end(b), _end(a) // _end(b))


def first_overlapping(a: Axis, ordered: Sequence[Axis]) -> int:
    """Index of the first axis of `ordered` (sorted, pairwise disjoint) overlapping `a`, or len."""
    k = bisect_left(ordered, a)
    if k > 0 and axes_overlap(a, ordered[k - 1]):
        return k - 1
    if k < len(ordered) and axes_overlap(a, ordered[k]):
        return k
    return len(ordered)


def align(axes: list[Axis], ordered_other: Sequence[Axis]) -> None:
    """Split, in place, each axis of `axes` that partly overlaps axes of `ordered_other` (sorted)
    into its prefix, the overlaps and its suffix (Shardy's alignSubAxesByDecomposition)."""
    i = 0
    while i < len(axes):
        axis = axes[i]
        j = first_overlapping(axis, ordered_other)
        done = False
        while j < len(ordered_other):
            other = ordered_other[j]
            if not (can_coexist(other, axis) and not contains(other, axis) and axes_overlap(other, axis)):
                break
            del axes[i]
            prefix = prefix_without_overlap(axis, other)
            if prefix is not None:
                axes.insert(i, prefix)
                i += 1
            shared = overlap(axis, other)
            assert shared is not None, "overlapping axes that can coexist share a part"
            axes.insert(i, shared)
            i += 1
            suffix = suffix_without_overlap(axis, other)
            if suffix is None:
                done = True
                break
            axes.insert(i, suffix)
            axis = suffix
            j += 1
        if not done:
            i += 1


def align_per_dim(per_dim: list[list[Axis]], ordered_other: Sequence[Axis]) -> None:
    """`align` every dimension's axes against `ordered_other`."""
    if ordered_other:
        for axes in per_dim:
            align(axes, ordered_other)


def ordered(per_dim: Sequence[Sequence[Axis]]) -> list[Axis]:
    """All axes of all dimensions, sorted."""
    return sorted(a for axes in per_dim for a in axes)
