"""Factor propagation on per-factor lists (rules whose every dimension is one factor) decides
exactly what the general projection-based strategies decide: same changed tensors, same dims."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ttopt.dialects.sdy_rule import OpShardingRule
from ttopt.sharding import factor_propagation as fp
from ttopt.sharding import single_factor_propagation as sf
from ttopt.testing.examples import examples

# Mesh a=4, b=2, c=2; the axes a dimension (or the replicated list) may hold.
FULL = {"a": 4, "b": 2, "c": 2}
AXES = [("a", 1, 4), ("a", 1, 2), ("a", 2, 2), ("b", 1, 2), ("c", 1, 2)]
DIRECTIONS = (fp.BOTH, fp.FORWARD, fp.BACKWARD, fp.NONE)


@st.composite
def nodes(draw) -> tuple:
    """A rule of 1-2 operands and 1-2 results with one factor per dimension, per tensor its dims'
    axes (None: no sharding), closed flags and replicated axes, and a direction per factor."""
    n_factors = draw(st.integers(1, 4))
    sizes = tuple(draw(st.lists(st.sampled_from([1, 2, 3, 4, 8, 6, 16]), min_size=n_factors, max_size=n_factors)))
    n_ops, n_res = draw(st.integers(1, 2)), draw(st.integers(1, 2))
    mappings = []
    tensors = []
    for _ in range(n_ops + n_res):
        factors = draw(st.permutations(range(n_factors)))[: draw(st.integers(0, n_factors))]
        mappings.append(tuple((f,) for f in factors))
        if draw(st.booleans()):
            tensors.append((None, None, ()))
            continue
        used: list[tuple[str, int, int]] = []
        dims = []
        for _ in factors:
            pick = [a for a in draw(st.lists(st.sampled_from(AXES), max_size=2, unique=True)) if all(a[0] != u[0] for u in used)]
            used += pick
            dims.append(pick)
        replicated = tuple(a for a in draw(st.lists(st.sampled_from(AXES), max_size=1)) if all(a[0] != u[0] for u in used))
        tensors.append((dims, [draw(st.booleans()) for _ in factors], replicated))
    rule = OpShardingRule(sizes, tuple(mappings[:n_ops]), tuple(mappings[n_ops:]))
    directions = [draw(st.sampled_from(DIRECTIONS)) for _ in range(n_factors)]
    return rule, tensors, directions, draw(st.booleans()), draw(st.booleans())


def _general(rule: OpShardingRule, tensors: list, directions: list[str], conservative: bool, aggressive: bool,
             elementwise: bool) -> tuple:  # fmt: skip
    projected = [fp.build(m, rule.factor_sizes, d, c, r) for m, (d, c, r) in zip(rule.tensors, tensors)]
    n_ops = len(rule.operands)
    extendable = [False]
    if aggressive:
        updated = fp.propagate_aggressive(projected, n_ops, rule.factor_sizes, directions.__getitem__, FULL, conservative, elementwise)
    else:
        updated = fp.propagate_basic(projected, n_ops, rule.factor_sizes, directions.__getitem__, FULL, conservative, extendable)
    out = []
    for t, u in enumerate(updated):
        if u:
            dims, closed = fp.dim_shardings(projected[t], rule.tensors[t], rule.factor_sizes)
            out.append((t, tuple(map(tuple, dims)), tuple(closed)))
    return out, extendable[0]


def _single(rule: OpShardingRule, tensors: list, directions: list[str], conservative: bool, aggressive: bool,
            elementwise: bool) -> tuple:  # fmt: skip
    factors = sf.simple_mapping(rule.tensors)
    assert factors is not None
    n = len(rule.factor_sizes)
    projected = [sf.project(fs, n, d, c, r) for fs, (d, c, r) in zip(factors, tensors)]
    axes: list = [p[0] for p in projected]
    n_ops = len(rule.operands)
    extendable = [False]
    if aggressive:
        updated = sf.propagate_aggressive(axes, projected, factors, sf.tensor_sizes(factors, rule.factor_sizes), n_ops,
                                          rule.factor_sizes, directions.__getitem__, FULL, conservative, elementwise)  # fmt: skip
    else:
        updated = sf.propagate_basic(axes, projected, factors, n_ops, rule.factor_sizes, directions.__getitem__, FULL,
                                     conservative, extendable)  # fmt: skip
    assert all(u or a is p[0] for a, p, u in zip(axes, projected, updated))  # unchanged tensors keep the shared tuple
    out = [(t, *sf.dim_shardings(axes[t], projected[t][1], factors[t])) for t, u in enumerate(updated) if u]
    return out, extendable[0]


@settings(max_examples=examples(1000), deadline=None)
@given(nodes())
def test_single_factor_propagation_decides_as_the_general_one(node) -> None:
    rule, tensors, directions, conservative, elementwise = node
    for aggressive in (False, True):
        single = _single(rule, tensors, directions, conservative, aggressive, elementwise)
        general = _general(rule, tensors, directions, conservative, aggressive, elementwise)
        assert single == general


def test_an_elementwise_node_extends_the_open_result() -> None:
    rule = OpShardingRule((8, 4), (((0,), (1,)), ((0,), (1,))), (((0,), (1,)),))
    tensors = [([[("a", 1, 4)], []], [False, False], ()), (None, None, ()), (None, None, ())]
    out, extendable = _single(rule, tensors, [fp.BOTH, fp.BOTH], True, False, True)
    assert out == [(1, ((("a", 1, 4),), ()), (False, False)), (2, ((("a", 1, 4),), ()), (False, False))]
    assert extendable
    assert (out, extendable) == _general(rule, tensors, [fp.BOTH, fp.BOTH], True, False, True)


def test_rules_with_a_split_dimension_or_a_repeated_factor_are_not_single_factor() -> None:
    assert sf.simple_mapping((((0, 1),), ((0,), (1,)))) is None
    assert sf.simple_mapping((((0,), (0,)),)) is None
    assert sf.simple_mapping((((1,), (0,)), ())) == [(1, 0), ()]
