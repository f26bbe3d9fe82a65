"""GreedyL1InterleavedPolicy (reference §2.12): the subset-and-order search, its bound, the
precedence schedule, and the op-model check of the final plan."""

from __future__ import annotations

import time
from itertools import permutations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ttnn_graphs import module  # tests/optimizer/ttnn_graphs.py (on sys.path via conftest)

from ttopt.optimizer.chain import L1ChainState
from ttopt.optimizer.policies.greedy_l1_interleaved import (
    MAX_EXHAUSTIVE_CANDIDATES,
    MAX_ORDER_EVALUATIONS,
    GreedyL1InterleavedPolicy,
    L1Usage,
    greedy_by_size,
    greedy_config,
    optimal_order,
    order_peak,
)
from ttopt.testing.examples import examples

# -- the search (pure) -------------------------------------------------------------------------------


def test_upstream_gtest_example() -> None:
    """tt-mlir `TestGreedyL1InterleavedPolicy.VerifyGreedyPolicy`: usable L1 = 15, operands
    A(out 2, req 8), B(3, 7), C(1, 9), base D(4, 0): all four in L1, precedence C, A, B."""
    usages = {"A": L1Usage(2, 8), "B": L1Usage(3, 7), "C": L1Usage(1, 9), "D": L1Usage(4, 0)}
    choice = greedy_config("D", usages, 15)
    assert choice.base_op == "D"
    assert choice.in_l1 == {"A": True, "B": True, "C": True, "D": True}
    assert choice.precedence == ["C", "A", "B"]
    assert choice.l1_usage == 10 and choice.peak == 10  # C: 9; A: 1 + 8; B: 3 + 7; D: 6 + 4
    assert choice.exhaustive


def test_budget_keeps_the_largest_legal_subset() -> None:
    """Usable 10: all four still fit (C, A, B peaks at 10). Usable 9: no order of all three operands
    fits, so the choice is the largest total output that has a legal order (checked by brute force)."""
    usages = {"A": L1Usage(2, 8), "B": L1Usage(3, 7), "C": L1Usage(1, 9), "D": L1Usage(4, 0)}
    assert greedy_config("D", usages, 10).in_l1 == {"A": True, "B": True, "C": True, "D": True}
    c = greedy_config("D", usages, 9)
    assert c.l1_usage <= 9 and c.peak <= 9
    # brute force: the largest total output with some legal order
    best = 0
    for mask in range(16):
        chosen = [k for i, k in enumerate(usages) if mask >> i & 1]
        total = sum(usages[k].output for k in chosen)
        ops = [k for k in chosen if k != "D"]
        if total <= 9 and any(order_peak(list(p), usages, 9) is not None for p in permutations(ops)):
            best = max(best, total)
    assert c.l1_usage == best
    # DRAM operands come first in the precedence, then the L1 ones in their order.
    dram = [k for k in ("A", "B", "C") if not c.in_l1[k]]
    assert c.precedence[: len(dram)] == dram


def test_nothing_fits() -> None:
    c = greedy_config("D", {"A": L1Usage(20, 20), "D": L1Usage(30, 0)}, 15)
    assert c.in_l1 == {"A": False, "D": False} and c.precedence == ["A"] and c.l1_usage == 0


usage = st.builds(lambda o, extra: L1Usage(o, o + extra), st.integers(0, 20), st.integers(0, 30))


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(usage, min_size=1, max_size=5), st.integers(0, 60))
def test_sorted_order_is_optimal(us: list[L1Usage], usable: int) -> None:
    """The order past the bound (required - output descending) has the smallest peak of all orders."""
    usages = {i: u for i, u in enumerate(us)}
    ops = list(usages)
    best = min((p for p in (order_peak(list(o), usages, 10**9) for o in permutations(ops))), default=0)
    assert order_peak(optimal_order(ops, usages), usages, 10**9) == best


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(usage, min_size=1, max_size=MAX_EXHAUSTIVE_CANDIDATES), st.integers(0, 80))
def test_choices_are_legal(us: list[L1Usage], usable: int) -> None:
    """Both searches return sets within the budget with a legal order; the greedy one never beats
    the exhaustive one; the exhaustive one stays within its evaluation bound."""
    usages = {i: u for i, u in enumerate(us)}
    base = len(us) - 1
    for c in (greedy_config(base, usages, usable), greedy_by_size(base, usages, usable)):
        l1_ops = [k for k in c.precedence if c.in_l1[k]]
        assert c.l1_usage == sum(usages[k].output for k, v in c.in_l1.items() if v) <= usable
        assert order_peak(l1_ops, usages, usable) is not None
        assert sorted(c.precedence) == sorted(k for k in usages if k != base)
    ex, gr = greedy_config(base, usages, usable), greedy_by_size(base, usages, usable)
    assert gr.l1_usage <= ex.l1_usage
    assert ex.orders_evaluated <= MAX_ORDER_EVALUATIONS


def test_bound_many_operands() -> None:
    """An op with 40 candidates (e.g. a 39-way concat) is decided greedily by size, with at most one
    order evaluation per candidate, in milliseconds (the exhaustive search would be 2^40 x 39!)."""
    usages = {f"op{i}": L1Usage(1 + i % 7, 3 + (i * 5) % 11) for i in range(39)}
    usages["base"] = L1Usage(4, 0)
    t0 = time.perf_counter()
    c = greedy_config("base", usages, 100)
    assert time.perf_counter() - t0 < 0.5
    assert not c.exhaustive and c.orders_evaluated <= len(usages)
    assert c.l1_usage <= 100 and order_peak([k for k in c.precedence if c.in_l1[k]], usages, 100) is not None


def test_bound_at_the_limit() -> None:
    """Six operand candidates, everything fits: the worst case of the exhaustive search."""
    usages = {f"op{i}": L1Usage(1, 2) for i in range(MAX_EXHAUSTIVE_CANDIDATES)}
    c = greedy_config("base", usages, 100)
    assert c.exhaustive and c.orders_evaluated <= MAX_ORDER_EVALUATIONS == 1957


# -- the policy on IR ----------------------------------------------------------------------------------

MB = 131072  # 2048x2048 bf16 in L1 interleaved on 8x8 cores, per core


def run(make_fn, text: str, cap: float | None = None):
    fn = make_fn(text, cap=cap)
    policy = GreedyL1InterleavedPolicy()
    decisions = policy.run(fn)
    name = {op: fn.labels[op] for op in fn.ops}
    l1 = {name[o] for o, c in decisions.op_configs.items() if c.output.is_l1}
    return fn, policy, decisions, name, l1


def test_precedence_reorders_the_join(make_fn) -> None:
    """d = add(p, q2): p needs 128 KiB while it runs, q2's subtree 256 KiB (q1 and q2). Running q2's
    subtree first peaks at 256 KiB, p first at 384 KiB: the schedule moves p after q1, q2."""
    text = module(["p = relu(x0)", "q1 = exp(x1)", "q2 = neg(q1)", "d = add(p, q2)", "e = relu(d)"], 2, ["e"])
    fn, policy, decisions, name, l1 = run(make_fn, text)
    assert l1 == {"p", "q1", "q2", "d"}  # e is returned
    assert [name[o] for o in policy.precedence[decisions.schedule[3]]] == ["q2", "p"]
    assert [name[o] for o in decisions.schedule] == ["q1", "q2", "p", "d", "e"]
    spec = {name[o]: s for o, s in policy.specs.items()}
    assert (spec["q2"].required, spec["p"].required, spec["d"].required) == (2 * MB, MB, 3 * MB)
    (chain,) = decisions.chains
    assert chain.state is L1ChainState.COMPLETED and not decisions.spills and not decisions.reshards


def test_fork_stays_dram(make_fn) -> None:
    """A fork (two uses) is never its own candidate: only single-use outputs go to L1."""
    text = module(["a = relu(x0)", "b = exp(a)", "c = neg(a)", "d = add(b, c)", "e = relu(d)"], 1, ["e"])
    fn, policy, decisions, name, l1 = run(make_fn, text)
    assert l1 == {"b", "c", "d"}


def test_budget_and_op_model_check(make_fn) -> None:
    """Usable 262169 B: by tensor sizes b and c (2 x 131072) fit together at the join, but with
    circular buffers the op model rejects c's run next to b; `repair` moves c back to DRAM and
    the rest validates."""
    text = module(["a = relu(x0)", "b = exp(a)", "c = neg(a)", "d = add(b, c)", "e = relu(d)"], 1, ["e"])
    fn, policy, decisions, name, l1 = run(make_fn, text, cap=0.175)
    chosen = {name[o] for o, s in policy.choices[decisions.schedule[3]].in_l1.items() if s}
    assert chosen == {"b", "c"}  # the size model's choice at the join
    assert [(name[s.op], name[s.at]) for s in policy.repairs] == [("c", "c")]
    assert l1 == {"b"}


def test_many_operands_stay_fast(make_fn) -> None:
    """A 12-input concat (12 candidates) uses the bounded search: one order per candidate."""
    n = 12
    small, big = "tensor<64x64xbf16, #S>", "tensor<64x768xbf16, #B>"
    lines = [f'    %p{i} = "ttnn.relu"(%x{i}) : ({small}) -> {small} loc("p{i}")' for i in range(n)]
    lines.append(
        f'    %c = "ttnn.concat"({", ".join(f"%p{i}" for i in range(n))}) <{{dim = 1 : si32}}> : '
        f'({", ".join([small] * n)}) -> {big} loc("c")'
    )
    text = (
        "#dram = #ttnn.buffer_type<dram>\n"
        "#S = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x2x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>\n"
        "#B = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x24x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>\n"
        f"module {{\n  func.func @forward({', '.join(f'%x{i}: {small}' for i in range(n))}) -> {big} "
        'attributes {tt.function_type = "forward_device"} {\n' + "\n".join(lines) + f"\n    return %c : {big}\n  }}\n}}\n"
    )
    t0 = time.perf_counter()
    fn, policy, decisions, name, l1 = run(make_fn, text)
    assert time.perf_counter() - t0 < 5
    choice = policy.choices[next(o for o in fn.ops if name[o] == "c")]
    assert not choice.exhaustive and choice.orders_evaluated <= n
    assert l1 == {f"p{i}" for i in range(n)}


@pytest.mark.parametrize("cap", [1.0, 0.5, 0.2003, 0.175, 0.1])
def test_final_plan_validates(make_fn, cap: float) -> None:
    """After `repair`, every op validates with its planned inputs, config and the L1 alive across it."""
    text = module(["p = relu(x0)", "q1 = exp(x1)", "q2 = neg(q1)", "d = add(p, q2)", "e = relu(d)"], 2, ["e"])
    fn, policy, decisions, name, l1 = run(make_fn, text, cap=cap)
    from ttopt.optimizer.policies.interleaved import InterleavedGraph

    g = InterleavedGraph(fn)
    in_l1 = {o for o, c in decisions.op_configs.items() if c.output.is_l1}
    assert g.repair(list(decisions.schedule), set(in_l1)) == []


# -- random graphs (both interleaved policies, with and without the fallback) ------------------------

SHAPES = ((64, 64), (64, 128), (128, 64), (128, 128), (256, 128), (1024, 1024))


def _dram(shape) -> str:
    from ttopt.dialects.ttnn_layout import TTNNLayoutAttr

    body = TTNNLayoutAttr.build(shape, "bf16", buffer_type="dram", memory_layout="interleaved").print_body()
    return f"tensor<{shape[0]}x{shape[1]}xbf16, #ttnn.ttnn_layout<{body}>>"


@st.composite
def graphs(draw):
    """A random DAG (forks and joins from random operand picks) of eltwise / matmul / softmax /
    reshape ops; one or two results."""
    values = [("%a0", SHAPES[draw(st.integers(0, len(SHAPES) - 1))])]
    args = [values[0]]
    lines = []
    for i in range(draw(st.integers(1, 12))):
        kind = draw(st.sampled_from(["relu", "exp", "neg", "add", "multiply", "matmul", "softmax", "reshape"]))
        x = draw(st.sampled_from(values))
        name, shape = f"%{i}", x[1]
        if kind in ("add", "multiply"):
            y = draw(st.sampled_from([v for v in values if v[1] == shape]))
            line = f'{name} = "ttnn.{kind}"({x[0]}, {y[0]}) : ({_dram(shape)}, {_dram(shape)}) -> {_dram(shape)}'
        elif kind == "matmul":
            n = draw(st.sampled_from([64, 128, 256]))
            w = (f"%a{len(args)}", (shape[1], n))
            args.append(w)
            shape = (shape[0], n)
            line = (f'{name} = "ttnn.matmul"({x[0]}, {w[0]}) <{{transpose_a = false, transpose_b = false}}> : '
                    f"({_dram(x[1])}, {_dram(w[1])}) -> {_dram(shape)}")  # fmt: skip
        elif kind == "softmax":
            line = f'{name} = "ttnn.softmax"({x[0]}) <{{dimension = -1 : si32}}> : ({_dram(shape)}) -> {_dram(shape)}'
        elif kind == "reshape":
            shape = (shape[1], shape[0]) if shape[0] != shape[1] else shape
            line = (f'{name} = "ttnn.reshape"({x[0]}) <{{shape = [{shape[0]} : i32, {shape[1]} : i32]}}> : '
                    f"({_dram(x[1])}) -> {_dram(shape)}")  # fmt: skip
        else:
            line = f'{name} = "ttnn.{kind}"({x[0]}) : ({_dram(shape)}) -> {_dram(shape)}'
        lines.append(f'    {line} loc("{kind}_{i}")')
        values.append((name, shape))
    rets = [values[-1]] + ([values[len(values) // 2]] if draw(st.booleans()) and len(values) > 2 else [])
    params = ", ".join(f"{n}: {_dram(s)}" for n, s in args)
    types = ", ".join(_dram(s) for _, s in rets)
    return (
        f'func.func @g({params}) -> ({types}) attributes {{tt.function_type = "forward_device"}} {{\n'
        + "\n".join(lines) + f"\n    return {', '.join(n for n, _ in rets)} : {types}\n}}\n"
    )


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(graphs(), st.sampled_from(["GreedyL1Interleaved", "BFInterleaved"]), st.sampled_from([None, 0.05, 0.01]), st.booleans())
def test_random_graphs(make_fn, text: str, policy: str, cap: float | None, fallback: bool) -> None:
    from ttopt.ir.printer import print_module
    from ttopt.ir.verifier import verify
    from ttopt.optimizer.pass_ import TTNNOptimizer
    from ttopt.optimizer.policies import get_policy
    from ttopt.optimizer.policies.interleaved import InterleavedGraph
    from ttopt.parse.parser import parse_module
    from ttopt.passes.context import PassContext

    # 1. The whole pass: output verifies, prints and parses back to the same text; no op inserted.
    module = parse_module(text, "t.mlir")
    n_ops = sum(1 for _ in module.walk())
    TTNNOptimizer(memory_layout_analysis_enabled=True, memory_layout_analysis_policy=policy, tensor_l1_usage_cap=cap,
                  l1_interleaved_fallback_analysis_enabled=fallback).run(module, PassContext())  # fmt: skip
    verify(module)
    printed = print_module(module)
    again = parse_module(printed, "again.mlir")
    verify(again)
    assert print_module(again) == printed and sum(1 for _ in module.walk()) == n_ops
    # 2. The decisions: a topological schedule of every op; L1 only interleaved, never returned; the
    #    plan validates op by op with the L1 alive across each op.
    fn = make_fn(text, cap=cap)
    decisions = get_policy(policy).run(fn)
    pos = {op: i for i, op in enumerate(decisions.schedule)}
    assert sorted(pos.values()) == list(range(len(fn.ops))) and set(pos) == set(fn.ops)
    for op in fn.ops:
        for v in op.operands:
            p = getattr(v, "op", None)
            assert p is None or pos[p] < pos[op]
    g = InterleavedGraph(fn)
    in_l1 = {o for o, c in decisions.op_configs.items() if c.output.is_l1}
    assert all(not decisions.op_configs[o].output.is_sharded for o in in_l1)
    assert not in_l1 & g.returned
    assert g.repair(list(decisions.schedule), set(in_l1)) == []
