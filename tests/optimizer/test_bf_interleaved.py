"""BFInterleavedPolicy (reference §2.12): breadth-first list scheduling, L1-interleaved outputs
where they fit, frees at the last user (fork-aware), and the signed score (no unsigned wraparound)."""

from __future__ import annotations

import pytest
from ttnn_graphs import module  # tests/optimizer/ttnn_graphs.py (on sys.path via conftest)

from ttopt.device import layout_info
from ttopt.optimizer.chain import L1ChainState
from ttopt.optimizer.policies import get_policy
from ttopt.optimizer.policies.bf_interleaved import BFInterleavedPolicy

# 2048x2048 bf16: 4096 tiles; L1 interleaved on 8x8 cores = 64 tiles = 131072 B per core.
MB = 131072


FORK_JOIN = module(["a = relu(x0)", "b = exp(a)", "c = neg(a)", "d = add(b, c)", "e = relu(d)"], 1, ["e"])


def run(make_fn, text: str, cap: float | None = None):
    fn = make_fn(text, cap=cap)
    policy = BFInterleavedPolicy()
    decisions = policy.run(fn)
    by = {fn.labels[op]: op for op in fn.ops}
    name = {op: n for n, op in by.items()}
    steps = [(name[s.op], s.change, s.in_l1, [name[p] for p in s.freed], s.l1_in_use) for s in policy.steps]
    return fn, policy, decisions, by, name, steps


def test_fork_join_everything_fits(make_fn) -> None:
    """The fork `a` stays allocated until its second user `c` runs; the join frees both inputs;
    the returned `e` is DRAM."""
    fn, policy, decisions, by, name, steps = run(make_fn, FORK_JOIN)
    assert steps == [
        ("a", +MB, True, [], MB),
        ("b", +MB, True, [], 2 * MB),
        ("c", 0, True, ["a"], 2 * MB),  # allocates c, frees a (its last user): net 0
        ("d", -MB, True, ["b", "c"], MB),
        ("e", -MB, False, ["d"], 0),
    ]
    assert [name[o] for o in decisions.schedule] == ["a", "b", "c", "d", "e"]
    l1 = {name[o] for o, c in decisions.op_configs.items() if c.output.is_l1}
    assert l1 == {"a", "b", "c", "d"}
    (chain,) = decisions.chains  # one pseudo-chain of the L1 ops, completed, no spill
    assert chain.state is L1ChainState.COMPLETED and [name[o] for o in chain.ops] == ["a", "b", "c", "d"]
    assert not decisions.reshards and not decisions.spills and policy.repairs == []


def test_fork_join_two_tensors_fit(make_fn) -> None:
    """Usable L1 ~ 2.3 tensors: c cannot be placed while a and b are alive (it goes to DRAM and
    frees a), then d fits again once b is about to be freed."""
    fn, policy, decisions, by, name, steps = run(make_fn, FORK_JOIN, cap=0.2003)
    assert fn.analyses.device.usable_l1 == 300071
    assert steps == [
        ("a", +MB, True, [], MB),
        ("b", +MB, True, [], 2 * MB),
        ("c", -MB, False, ["a"], MB),
        ("d", 0, True, ["b"], MB),
        ("e", -MB, False, ["d"], 0),
    ]
    assert max(s[4] for s in steps) <= fn.analyses.device.usable_l1


def test_freeing_is_preferred_signed_score(make_fn) -> None:
    """After `a`, both `u` (allocates 128 KiB) and `r` (frees a, allocates nothing: returned) are
    ready. ttopt scores r at -131072 and runs it first, so a and u are never in L1 together.
    Upstream's unsigned alloc - free wraps r's score to 2^64 - 131072 and runs u first."""
    text = module(["a = relu(x0)", "u = relu(x1)", "r = neg(a)", "v = exp(u)"], 2, ["r", "v"])
    fn, policy, decisions, by, name, steps = run(make_fn, text)
    assert [s[0] for s in steps] == ["a", "r", "u", "v"]
    assert steps[1] == ("r", -MB, False, ["a"], 0)
    assert max(s[4] for s in steps) == MB


def test_op_model_rejects_placement(make_fn) -> None:
    """The size model says two 128 KiB tensors fit in 262169 B; the op model adds circular buffers
    and says no, so the op that would be the second resident stays DRAM."""
    fn, policy, decisions, by, name, steps = run(make_fn, FORK_JOIN, cap=0.175)
    assert steps[1][:3] == ("b", +MB, False)
    assert "exceeds usable" in policy.steps[1].note
    # Every op of the final plan validates with the L1 alive across it.
    assert policy.repairs == []


def test_registry_and_layouts(make_fn) -> None:
    fn = make_fn(FORK_JOIN)
    decisions = get_policy("BFInterleaved").run(fn)
    for op, cfg in decisions.op_configs.items():
        info = layout_info(cfg.output)
        assert not info.sharded and (info.l1 or info.dram)
        if info.l1:
            assert info.grid == (8, 8) and info.per_core_bytes == MB


@pytest.mark.parametrize("cap", [1.0, 0.5, 0.2003, 0.1])
def test_plan_always_validates(make_fn, cap: float) -> None:
    """Whatever the budget, the final plan's L1 in use never exceeds it."""
    fn, policy, decisions, by, name, steps = run(make_fn, FORK_JOIN, cap=cap)
    assert all(s[4] <= fn.analyses.device.usable_l1 for s in steps)
