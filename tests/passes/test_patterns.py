"""Rewrite patterns are looked up by op name and composed explicitly."""

from __future__ import annotations

import pytest

from ttopt.passes.canonicalize import CORE
from ttopt.passes.patterns import Pattern, canonicalizations, pattern_set


def _never(op):  # a rewrite that never applies
    return None


def test_patterns_are_indexed_by_op_name() -> None:
    ps = pattern_set(Pattern("a", _never, frozenset({"x.add"})), Pattern("any", _never), Pattern("b", _never, frozenset({"x.mul", "x.add"})))
    assert [p.name for p in ps.for_op("x.add")] == ["a", "any", "b"]
    assert [p.name for p in ps.for_op("x.mul")] == ["any", "b"]
    assert [p.name for p in ps.for_op("y.other")] == ["any"]


def test_sets_compose_in_order_and_names_are_unique() -> None:
    a = pattern_set(Pattern("a", _never))
    b = pattern_set(Pattern("b", _never, frozenset({"x.op"})))
    assert (a + b).names == ["a", "b"] and (b + a).names == ["b", "a"]
    with pytest.raises(ValueError, match="duplicate pattern names"):
        pattern_set(Pattern("a", _never), Pattern("a", _never))


def test_canonicalize_runs_its_own_patterns_then_sdy_only_on_sdy_ops() -> None:
    import ttopt.sharding.canonicalize_sdy  # noqa: F401  (registers the sdy set)

    every = canonicalizations(CORE)
    assert every.names[:9] == ["fold-identity-conversion", "fold-consecutive-conversion", "fold-consecutive-typecast", "fold-consecutive-reshape",
                              "fold-permute", "permute-as-reshape", "fold-slice-of-concat", "matmul-drop-batch-repeat", "erase-dead-pure-op"]
    assert "sdy-noop-reshard" in every.names
    assert [p.name for p in every.for_op("stablehlo.add")] == ["erase-dead-pure-op"]
    assert {p.name for p in every.for_op("sdy.reshard")} >= {"sdy-reshard-of-reshard", "sdy-noop-reshard"}
