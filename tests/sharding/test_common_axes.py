"""common_axes.py: Shardy's findCommonAxes on hand-built rules and projections."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from ttopt.dialects.sdy_rule import parse_rule
from ttopt.sharding.common_axes import _best, _Candidate, _list_key, find_common_axes, truncate_without_overlap
from ttopt.sharding.factors import TensorProjection, project
from ttopt.sharding.sub_axes import prefix_without_any

FULL = {"x": 4, "y": 2, "z": 2}
X, Y, Z = ("x", 1, 4), ("y", 1, 2), ("z", 1, 2)


def _projs(rule_text: str, dims_per_tensor: list[list[list]]) -> tuple:
    rule = parse_rule(rule_text)
    projs: list[TensorProjection] = [
        project(m, rule.factor_sizes, dims, [True] * len(m), minor_most_takes_rest=True) for m, dims in zip(rule.tensors, dims_per_tensor)
    ]
    return rule, projs


def test_prefix_without_overlap_keeps_the_part_before_the_other_sub_axis() -> None:
    assert prefix_without_any(X, [("x", 2, 2)]) == ("x", 1, 2)
    assert prefix_without_any(("x", 2, 2), [X]) is None
    assert prefix_without_any(X, [Y]) == X
    assert truncate_without_overlap([Y, X, Z], [("x", 2, 2)]) == (Y, ("x", 1, 2))


def test_dot_picks_the_prefix_all_tensors_share_then_extends_it() -> None:
    # lhs [i, k] on {"x"}/{}, rhs [k, j] replicated, result [i, j] on {"x", "y"}/{}: the candidate
    # (i, {"x"}) counts both lhs and result, wins, and is then extended to {"x", "y"}.
    rule, projs = _projs("([i, k], [k, j])->([i, j]) {i=16, j=8, k=8} reduction={k}",
                         [[[X], []], [[], []], [[X, Y], []]])  # fmt: skip
    assert find_common_axes(rule, projs, [128, 64, 128], FULL) == {0: [X, Y], 1: [], 2: []}


def test_need_replication_axes_go_to_the_batching_factor() -> None:
    # A concat-like rule: i needs replication, j is a batching factor with room for "y".
    rule, projs = _projs("([i, j], [i, j])->([i, j]) {i=16, j=8} need_replication={i}",
                         [[[X], []], [[Y], []], [[], [Z]]])  # fmt: skip
    assert find_common_axes(rule, projs, [64, 64, 128], FULL) == {0: [], 1: [Z, X]}


_AXES = [("x", 1, 4), ("x", 1, 2), ("x", 2, 2), ("y", 1, 2), ("z", 1, 2)]
_CANDIDATES = st.lists(
    st.builds(_Candidate, factor=st.integers(0, 3), axes=st.lists(st.sampled_from(_AXES), min_size=1, max_size=3).map(tuple),
              size=st.sampled_from([1, 2, 4]), precedence=st.integers(0, 3), total=st.sampled_from([0, 64, 128])),
    min_size=1, max_size=12,
)  # fmt: skip


@given(_CANDIDATES)
def test_best_candidate_is_the_first_maximum_of_the_whole_key(cands: list) -> None:
    # Shardy's order: total size, precedence, sharding size, factor, then the axes (AxisListRef's
    # order); `_best` compares the axes only between candidates tied on the rest.
    def key(c: _Candidate) -> tuple:
        return (c.total, c.precedence, c.size, c.factor, _list_key(c.axes, FULL))

    assert _best(cands, FULL) is max(cands, key=key)


def test_heuristic_counts_a_prefix_shared_by_several_tensors_once_per_tensor() -> None:
    # A reshape-like rule: i, j of the operand's one dim; the result has them apart. Unsharded
    # factors add nothing; (i, {"x"}) is counted for both tensors and wins.
    rule, projs = _projs("([ij])->([i, j]) {i=4, j=8}", [[[X]], [[X], []]])
    assert find_common_axes(rule, projs, [32, 32], FULL) == {0: [X], 1: []}
