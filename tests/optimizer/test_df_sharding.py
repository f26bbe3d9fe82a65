"""DFShardingPolicy on seed 001's module (testdata/seeds/001_input.mlir), phase by phase."""

from __future__ import annotations

import pytest

from ttopt.device import layout_info
from ttopt.optimizer.chain import L1ChainState, SpillLocation
from ttopt.optimizer.dispatch import build_dispatch_chain_relationships, compute_chain_solving_order
from ttopt.optimizer.policies import FunctionContext
from ttopt.optimizer.policies.df_sharding import DFShardingPolicy


@pytest.fixture()
def seed001(root, make_fn) -> tuple[FunctionContext, dict[str, object]]:
    """Seed 001's IR after d2m-fusing: the dead exp/neg/abs the seed keeps for context are removed
    by canonicalize, so %0 has one use (%dispatch) as in the seed's walk-through."""
    fn = make_fn((root / "testdata/seeds/001_input.mlir").read_text(), canonicalize=True)
    by = {}
    for op in fn.ops:
        if op.name == "ttnn.dispatch_d2m":
            by["%dispatch"] = op
    matmuls = [op for op in fn.ops if op.name == "ttnn.matmul"]
    by["%0"], by["%4"], by["%5"] = matmuls
    return fn, by


def test_seed001_phase1_chains_and_schedule(seed001) -> None:
    fn, by = seed001
    chains, schedule = DFShardingPolicy().build_l1_chains(fn)
    assert [c.ops for c in chains] == [[by["%0"]], [by["%4"], by["%5"]]]  # [Chain0: {%0}, Chain1: {%4, %5}]
    assert all(c.state is L1ChainState.BUILT for c in chains)
    assert schedule == [by["%0"], by["%dispatch"], by["%4"], by["%5"]]


def test_seed001_phase2_3_relationships_and_solving_order(seed001) -> None:
    fn, by = seed001
    chains, schedule = DFShardingPolicy().build_l1_chains(fn)
    rels = build_dispatch_chain_relationships(schedule, chains)
    assert [(r.dispatch_op, r.producer_chain_idx, r.consumer_chain_idx) for r in rels] == [(by["%dispatch"], 0, 1)]
    assert compute_chain_solving_order(len(chains), rels) == [0, 1]


def test_seed001_phase4_5_solving_and_dispatch_config(seed001) -> None:
    """Chain0 keeps its output in L1 (feeds the dispatch), Chain1 solves for its optimal input and
    spills to DRAM; the dispatch config takes Chain0's output as input (2x8 block_sharded, the
    seed's #ttnn_layout3) and Chain1's optimal input as output (2x2 block_sharded, #ttnn_layout4).

    The budget is usable L1 - producer output - consumer input per core: 1498112 - 2048 - 8192.
    (The seed prints 1463296, which its own formula does not give for those two layouts.)
    """
    fn, by = seed001
    decisions = DFShardingPolicy().run(fn)
    c0, c1 = decisions.chains
    assert (c0.state, c1.state) == (L1ChainState.COMPLETED, L1ChainState.COMPLETED)
    assert c0.spill_location is SpillLocation.NONE and c1.spill_location is SpillLocation.DRAM
    assert not c0.solve_for_optimal_first_op_input and c1.solve_for_optimal_first_op_input
    out0 = layout_info(c0.op_l1_mem_specs[0].config.output)
    assert (out0.memory_layout.value, out0.grid) == ("block_sharded", (2, 8))
    first_in = layout_info(c1.resolved_first_op_input_layout)
    assert (first_in.memory_layout.value, first_in.grid) == ("block_sharded", (2, 2))
    d = decisions.dispatch_configs[by["%dispatch"]]
    assert d.input_layout == c0.op_l1_mem_specs[0].config.output
    assert d.output_layout == c1.resolved_first_op_input_layout
    usable = fn.analyses.device.usable_l1
    assert usable == 1498112
    assert (d.producer_output_bytes, d.consumer_input_bytes) == (2048, 8192)
    assert d.l1_budget == usable - 2048 - 8192 == 1487872
    assert decisions.spills == {by["%5"]: SpillLocation.DRAM}
    assert decisions.solving_order == [0, 1]
