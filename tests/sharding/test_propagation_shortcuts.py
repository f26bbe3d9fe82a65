"""Propagation's shortcuts answer exactly what factor propagation would: a settled node changes
nothing under either strategy, a basic outcome with nothing extendable means no aggressive change
either, propagating on a shared projection (`fp.fresh`) leaves the projection as it was, and rules
of one outcome class (factor sizes capped at the mesh's prime powers) propagate alike."""

from __future__ import annotations

import copy
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ttopt.dialects.sdy_rule import OpShardingRule
from ttopt.parse.parser import parse_module
from ttopt.sharding import factor_propagation as fp
from ttopt.sharding.factors import Sharding
from ttopt.sharding.propagation import SEVERAL_FACTORS, ShardingGraph, _capped, settled, settled_plan
from ttopt.testing.examples import examples

# Mesh a=4, b=2, c=2; the axes a tensor dimension may hold, as (name, pre-size, size).
FULL = {"a": 4, "b": 2, "c": 2}
AXES = [("a", 1, 4), ("a", 1, 2), ("a", 2, 2), ("b", 1, 2), ("c", 1, 2)]
DIRECTIONS = (fp.BOTH, fp.FORWARD, fp.BACKWARD, fp.NONE)


@st.composite
def nodes(draw, several: bool = True) -> tuple:
    """A rule over 1-2 operands and 1-2 results (dims of one factor, or of two when `several`), and
    a sharding or None per tensor (axes never repeated within a tensor)."""
    n_factors = draw(st.integers(1, 4))
    sizes = tuple(draw(st.lists(st.sampled_from([1, 2, 3, 4, 8, 6]), min_size=n_factors, max_size=n_factors)))
    n_ops, n_res = draw(st.integers(1, 2)), draw(st.integers(1, 2))
    mappings = []
    for _ in range(n_ops + n_res):
        factors = draw(st.permutations(range(n_factors)))[: draw(st.integers(0, n_factors))]
        dims: list[tuple[int, ...]] = []
        i = 0
        while i < len(factors):
            take = 2 if several and i + 1 < len(factors) and draw(st.booleans()) else 1
            dims.append(tuple(factors[i : i + take]))
            i += take
        mappings.append(tuple(dims))
    rule = OpShardingRule(sizes, tuple(mappings[:n_ops]), tuple(mappings[n_ops:]))
    shardings: list[Sharding | None] = []
    for m in mappings:
        if draw(st.booleans()):
            shardings.append(None)
            continue
        used: list[tuple[str, int, int]] = []
        dims_axes = []
        for _ in m:
            pick = draw(st.lists(st.sampled_from(AXES), max_size=2, unique=True))
            pick = [a for a in pick if all(a[0] != u[0] for u in used)]
            used += pick
            dims_axes.append(pick)
        closed = [draw(st.booleans()) for _ in m]
        shardings.append(Sharding("mesh", dims_axes, closed))
    return rule, shardings, draw(st.sampled_from(DIRECTIONS)), draw(st.booleans()), draw(st.booleans())


def project(rule: OpShardingRule, shardings: list[Sharding | None]) -> list[fp.TensorFactors]:
    return [fp.build(m, rule.factor_sizes, s.dims if s else None, s.closed if s else None)
            for m, s in zip(rule.tensors, shardings)]  # fmt: skip


def outcome(tensors: list[fp.TensorFactors], rule: OpShardingRule, updated: list[bool]) -> list:
    return [fp.dim_shardings(t, m, rule.factor_sizes) if u else None for t, m, u in zip(tensors, rule.tensors, updated)]


@given(nodes(several=False))
def test_a_settled_node_changes_nothing(node) -> None:
    rule, shardings, direction, conservative, elementwise = node
    plan = settled_plan(rule)
    assert plan is not SEVERAL_FACTORS
    if not settled(plan, shardings):
        return
    n_ops = len(rule.operands)
    assert not any(fp.propagate_basic(project(rule, shardings), n_ops, rule.factor_sizes, lambda f: direction, FULL, conservative))
    assert not any(fp.propagate_aggressive(project(rule, shardings), n_ops, rule.factor_sizes, lambda f: direction,
                                           FULL, conservative, elementwise))  # fmt: skip


def test_settled_plans() -> None:
    elementwise = OpShardingRule((4, 8), (((0,), (1,)), ((0,), (1,))), (((0,), (1,)),))
    assert settled_plan(elementwise) == (((0, 1), (0, 2)), ())
    transpose = OpShardingRule((4, 8), (((0,), (1,)),), (((1,), (0,)),))
    assert settled_plan(transpose) == ((), ((0, 1, 1, 0), (0, 0, 1, 1)))
    assert settled_plan(OpShardingRule((2, 2), (((0, 1),),), (((0, 1),),))) is SEVERAL_FACTORS
    a, b = [("a", 1, 4)], [("b", 1, 2)]
    assert settled(settled_plan(transpose), [Sharding("mesh", [a, b], [False, False]), Sharding("mesh", [b, a], [True, True])])
    assert not settled(settled_plan(transpose), [Sharding("mesh", [a, b], [False, False]), None])
    assert settled(settled_plan(elementwise), [None, None, Sharding("mesh", [[], []], [True, False])])
    assert not settled(settled_plan(elementwise), [None, Sharding("mesh", [a, []], [False, False]), None])


@given(nodes())
def test_nothing_extendable_for_basic_means_no_aggressive_change(node) -> None:
    rule, shardings, direction, conservative, elementwise = node
    n_ops = len(rule.operands)
    extendable = [False]
    if any(fp.propagate_basic(project(rule, shardings), n_ops, rule.factor_sizes, lambda f: direction, FULL,
                              conservative, extendable)) or extendable[0]:  # fmt: skip
        return
    assert not any(fp.propagate_aggressive(project(rule, shardings), n_ops, rule.factor_sizes, lambda f: direction,
                                           FULL, conservative, elementwise))  # fmt: skip


@given(nodes())
def test_propagating_on_a_shared_projection_leaves_it_as_it_was(node) -> None:
    rule, shardings, direction, conservative, elementwise = node
    n_ops = len(rule.operands)
    for aggressive in (False, True):
        templates = project(rule, shardings)
        kept = copy.deepcopy(templates)
        shared = [fp.fresh(t) for t in templates]
        own = project(rule, shardings)
        if aggressive:
            run = [fp.propagate_aggressive(ts, n_ops, rule.factor_sizes, lambda f: direction, FULL, conservative, elementwise)
                   for ts in (shared, own)]  # fmt: skip
        else:
            run = [fp.propagate_basic(ts, n_ops, rule.factor_sizes, lambda f: direction, FULL, conservative) for ts in (shared, own)]
        assert run[0] == run[1]
        assert outcome(shared, rule, run[0]) == outcome(own, rule, run[1])
        assert templates == kept


@given(st.integers(0, 10_000), st.sampled_from([1, 2, 4, 6, 8, 12, 16, 32, 36]), st.data())
def test_a_capped_size_answers_divisibility_alike(size: int, devices: int, data) -> None:
    # Truncation asks `size % a == 0` and `gcd(size // a, b)` for axes sizes a, b of one sharding:
    # a * b is at most the device count and made of its primes.
    primes = [p for p in (2, 3, 5) if devices % p == 0]
    a = data.draw(st.sampled_from([n for n in range(1, devices + 1) if _only(n, primes)]))
    b = data.draw(st.sampled_from([n for n in range(1, devices // a + 1) if _only(n, primes)]))
    capped = _capped(size, devices)
    assert (size % a == 0) == (capped % a == 0)
    if size % a == 0:
        assert math.gcd(size // a, b) == math.gcd(capped // a, b)


def _only(n: int, primes: list[int]) -> bool:
    """`n` is a product of `primes`."""
    for p in primes:
        while n % p == 0:
            n //= p
    return n == 1


def test_capped_sizes() -> None:
    assert [_capped(n, 16) for n in (1, 2, 3, 6, 8, 24, 32, 0)] == [1, 2, 1, 2, 8, 8, 16, 16]
    assert [_capped(n, 6) for n in (2, 3, 4, 9, 12, 36, 5)] == [2, 3, 4, 3, 12, 12, 1]


@settings(max_examples=examples(1000), deadline=None)
@given(nodes(several=False), st.data())
def test_rules_of_one_outcome_class_propagate_alike(node, data) -> None:
    # Rules whose dimensions are one factor each are of one outcome class when their mappings
    # agree, their factor sizes capped at the mesh's prime powers agree and their tensors' sizes
    # come in the same order: then factor propagation gives the same outcome.
    rule, shardings, direction, conservative, elementwise = node
    devices = math.prod(FULL.values())
    sizes = [data.draw(st.sampled_from([m for m in range(1, 65) if _capped(m, devices) == _capped(n, devices)]))
             for n in rule.factor_sizes]  # fmt: skip
    other = OpShardingRule(tuple(sizes), rule.operands, rule.results)

    def ranks(r: OpShardingRule) -> list[int]:
        sizes = [math.prod(r.factor_sizes[f] for f in {d[0] for d in m}) for m in r.tensors]
        return [sorted(set(sizes)).index(n) for n in sizes]

    if ranks(other) != ranks(rule):
        return
    n_ops = len(rule.operands)
    results = []
    for r in (rule, other):
        ts = project(r, shardings)
        extendable = [False]
        updated = fp.propagate_basic(ts, n_ops, r.factor_sizes, lambda f: direction, FULL, conservative, extendable)
        results.append((outcome(ts, r, updated), extendable))
        ts = project(r, shardings)
        updated = fp.propagate_aggressive(ts, n_ops, r.factor_sizes, lambda f: direction, FULL, conservative, elementwise)
        results.append(outcome(ts, r, updated))
    assert results[:2] == results[2:]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_passing_over_quiet_nodes_after_the_basic_round_changes_nothing(seed: int) -> None:
    """The aggressive round after the basic one skips nodes whose last basic visit showed nothing
    can change: every slot ends with the sharding a full aggressive round gives, in fewer visits."""
    from bench.gen.stablehlo import StableHLOGenerator

    text = StableHLOGenerator(300, seed).text()
    ends = []
    for after_basic in (False, True):
        graph = ShardingGraph(parse_module(text), conservative=True)
        graph.propagate(False)
        res = graph.propagate(True, after_basic=after_basic)
        ends.append(([None if s is None else (s.dims, s.closed) for s in graph.sh], res.updates))
    assert ends[0] == ends[1]
    assert any(s is not None and any(s.dims) for s in graph.sh)  # something did propagate


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_remembered_visit_outcomes_end_as_visits_worked_out_each_time(seed: int) -> None:
    """A visit's outcome remembered by node signature and sharding objects is the one working it
    out would give: every slot ends alike, with as many visits and updates, and most visits of a
    generated module replay a remembered state."""
    from bench.gen.stablehlo import StableHLOGenerator

    text = StableHLOGenerator(300, seed).text()
    ends = []
    for remember in (True, False):
        graph = ShardingGraph(parse_module(text), conservative=True)
        if not remember:
            for node in graph.nodes:
                node.sig = -2  # worked out at each visit
        basic = graph.propagate(False)
        aggressive = graph.propagate(True, after_basic=True)
        ends.append(([None if s is None else (s.dims, s.closed) for s in graph.sh], basic.visits, aggressive.updates))
        if remember:
            assert sum(len(m) for m in graph._visits) < basic.visits + aggressive.visits
        else:
            assert not any(graph._visits)
    assert ends[0] == ends[1]
    assert any(s is not None and any(s.dims) for s in graph.sh)
