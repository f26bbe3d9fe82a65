"""Factor propagation's axis algebra and projection, on the examples Shardy's sources document."""

from __future__ import annotations

import pytest

from ttopt.sharding import factor_propagation as fp
from ttopt.sharding.sub_axes import prefix_without_any

# Axes are (name, pre-size, size); the mesh of these tests is a=4, b=2, c=2.
A = ("a", 1, 4)
A12, A22 = ("a", 1, 2), ("a", 2, 2)
B, C = ("b", 1, 2), ("c", 1, 2)


@pytest.mark.parametrize(
    ("old", "new", "can_expand", "expected"),
    [
        # getCompatibleMajorAxesInternal's examples (basic_factor_propagation.cc).
        ([A], [A, B], True, ([A, B], True)),
        ([A, B], [A, C], True, ([A], False)),
        ([A12], [A], True, ([A], True)),
        ([A12, B], [A, B], True, ([A12], False)),
        ([A], [A], False, ([A], False)),
        ([A], [A, B], False, ([A], False)),
        ([A, B], [A], False, ([A, B], False)),
        ([A12], [A], False, ([A12], False)),
    ],
)
def test_compatible_major_axes_merge(old, new, can_expand, expected) -> None:
    assert fp._merge_compatible(old, new, can_expand) == expected


def test_prefix_without_overlap() -> None:
    assert prefix_without_any(A, [A22]) == A12  # "a" stops where "a":(2)2 starts
    assert prefix_without_any(A22, [A12]) == A22  # no overlap
    assert prefix_without_any(A12, [A]) is None
    assert prefix_without_any(B, [A, C]) == B


def test_is_prefix() -> None:
    assert fp.is_prefix([], []) == "equal"
    assert fp.is_prefix([], [A]) == "strict"
    assert fp.is_prefix([A12], [A, B]) == "strict"  # a sub-axis prefix of the last axis
    assert fp.is_prefix([A], [A]) == "equal"
    assert fp.is_prefix([A22], [A]) == "not"
    assert fp.is_prefix([A, B], [A]) == "not"


def test_directions() -> None:
    assert fp.union(fp.FORWARD, fp.BACKWARD) == fp.BOTH
    assert fp.union(fp.NONE, fp.FORWARD) == fp.FORWARD
    assert fp.intersect(fp.FORWARD, fp.BACKWARD) == fp.NONE
    assert fp.intersect(fp.BOTH, fp.BACKWARD) == fp.BACKWARD


def test_projection_splits_axes_between_factors() -> None:
    # A dim of 8 = [2 x 4] (two factors) on {"a"=4, "b"=2}: the major factor takes "a":(1)2,
    # the minor-most one the rest ("a":(2)2, "b").
    t = fp.build(((0, 1),), (2, 4), [[A, B]], [False])
    assert (t.factors[0].axes, t.factors[1].axes) == ([A12], [A22, B])
    dims, closed = fp.dim_shardings(t, ((0, 1),), (2, 4))
    assert dims == [[A, B]] and closed == [False]


def test_projection_overflow_closes_later_factors() -> None:
    # A factor of 3 cannot take any part of "a" (4): "a" overflows and the next factor is closed.
    t = fp.build(((0, 1),), (3, 4), [[A]], [False])
    assert t.factors[0].overflow == [A] and t.factors[0].axes == []
    assert t.factors[1].closed


def test_basic_stops_at_conflict_aggressive_resolves() -> None:
    # Elementwise [i, j] on two operands: lhs has "a" on i, rhs "a" on j (same size): basic gives
    # the result nothing, aggressive gives "a" to i (the first factor among equals).
    def tensors() -> list[fp.TensorFactors]:
        m = ((0,), (1,))
        return [fp.build(m, (8, 8), [[A], []], [False, False]), fp.build(m, (8, 8), [[], [A]], [False, False]),
                fp.build(m, (8, 8), None, None)]

    full = {"a": 4, "b": 2, "c": 2}
    basic = tensors()
    assert fp.propagate_basic(basic, 2, (8, 8), lambda f: fp.BOTH, full, False) == [False, False, False]
    aggressive = tensors()
    assert fp.propagate_aggressive(aggressive, 2, (8, 8), lambda f: fp.BOTH, full, False, True)[2]
    assert aggressive[2].factors[0].axes == [A] and aggressive[2].factors[1].axes == []
