"""Accumulated core usage and the pick rule (seed 002 §3.3.8, reference §2.7)."""

from __future__ import annotations

import pytest

from ttopt.optimizer.chain import Edge
from ttopt.optimizer.core_usage import ForkRule, pick_config
from ttopt.optimizer.shard_solver import ShardSolver


def _fork_join(table_backend, volumes: dict, edges: list[tuple[str, str, int]], fork_rule: ForkRule):
    ops = list(volumes)
    backend = table_backend(volumes)
    solver = ShardSolver(ops, [Edge(p, c, i) for p, c, i in edges], backend, fork_rule=fork_rule)
    assert solver.resolve()
    return solver.produce_max_core_usage()


SEED002_VOLUMES = {"Op0": [8], "Op1": [64], "Op2": [16], "Op3": [16], "Op4": [4]}
SEED002_EDGES = [("Op0", "Op1", 0), ("Op1", "Op2", 0), ("Op1", "Op3", 0), ("Op2", "Op4", 0), ("Op3", "Op4", 1)]


def test_seed002_core_usage_example_with_the_seeds_fork_rule(table_backend) -> None:
    """Seed 002 §3.3.8: Op4: 4, Op2: 16 + 4/2 = 18, Op3: 18, Op1: 64 + max(18, 18) = 82, Op0: 90."""
    acc = _fork_join(table_backend, SEED002_VOLUMES, SEED002_EDGES, ForkRule.MAX)
    assert [acc[o][0] for o in ("Op4", "Op2", "Op3", "Op1", "Op0")] == [4, 18, 18, 82, 90]


def test_seed002_core_usage_example_under_the_default_rule(table_backend) -> None:
    """The same graph under reference §2.7 (sum over user edges): the join is divided by its fan-in
    but both fork branches count, so Op1 = 64 + 18 + 18."""
    acc = _fork_join(table_backend, SEED002_VOLUMES, SEED002_EDGES, ForkRule.SUM)
    assert [acc[o][0] for o in ("Op4", "Op2", "Op3", "Op1", "Op0")] == [4, 18, 18, 100, 108]


GTEST_VOLUMES = {
    "Op0": [4, 8, 4], "Op1": [8, 4, 4], "Op2": [4, 4, 1], "Op3": [4, 4, 1], "Op4": [2, 1, 1], "Op5": [2, 1, 1],
}  # fmt: skip
GTEST_EDGES = [
    ("Op0", "Op1", 0), ("Op1", "Op2", 0), ("Op1", "Op3", 0), ("Op2", "Op4", 0), ("Op3", "Op4", 1), ("Op4", "Op5", 0),
]  # fmt: skip


@pytest.fixture()
def gtest_acc(table_backend):
    return _fork_join(table_backend, GTEST_VOLUMES, GTEST_EDGES, ForkRule.SUM)


def test_six_op_fork_join_first_op(gtest_acc) -> None:
    """Reference §2.7 / tt-mlir gtest VerifyProduceMaxCoreUsage: Op0 accumulates (24, 22, 12)."""
    assert gtest_acc["Op0"] == [24, 22, 12]
    assert gtest_acc["Op4"] == [4, 2, 2]
    assert gtest_acc["Op2"] == gtest_acc["Op3"] == [6, 5, 2]  # join: Op4 divided by its 2 in-chain operands
    assert gtest_acc["Op1"] == [20, 14, 8]


def test_pick_rule_ties() -> None:
    """Max usage wins; an exact tie replaces a block-sharded pick by a non-block one, else lowest index."""
    assert pick_config([0, 1, 2], [3.0, 5.0, 5.0], [False, False, False]) == 1
    assert pick_config([0, 1, 2], [5.0, 5.0, 1.0], [True, False, False]) == 1
    assert pick_config([0, 1], [5.0, 5.0], [False, True]) == 0
    assert pick_config([2], [0, 0, 7.0], [False] * 3) == 2
    assert pick_config([], [], []) is None
