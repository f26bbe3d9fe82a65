"""The optimizer places `ttnn.split_query_key_value_and_split_heads`, an op with three results: its
results follow its input's interleaved memory config, each laid out for its own shape, and the
consumers of key and value read those results' layouts (not the query's)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ttopt.device import CostModel, OpModel, load_device
from ttopt.ir.printer import print_module
from ttopt.ir.verifier import verify
from ttopt.optimizer.analyses import current_layout
from ttopt.optimizer.l1_budget_check import check_l1_budget
from ttopt.optimizer.policies.cost_based import input_cost
from ttopt.optimizer.policies.cost_graph import CostGraph
from ttopt.optimizer.stats import op_estimate
from ttopt.parse.parser import parse_module
from ttopt.passes.context import PassContext
from ttopt.passes.manager import PassManager
from ttopt.passes.pipeline import instantiate, parse_pipeline
from ttopt.testing.plan_oracle import analysed_function
from ttopt.testing.ttnn_outputs import BACKEND

ROOT = Path(__file__).resolve().parents[2]
TTIR = (ROOT / "testdata" / "ttir" / "optimizer_split_heads.mlir").read_text()
SPLIT = "ttnn.split_query_key_value_and_split_heads"


def lowered(options: str) -> Any:
    module = parse_module(TTIR, "split.mlir")
    pipeline = BACKEND.format(options)
    PassManager(instantiate(parse_pipeline(pipeline), pipeline), PassContext()).run(module)
    again = parse_module(print_module(module), "split (ttopt output)")
    verify(again)
    return again


def split_of(module: Any) -> Any:
    fn = module.functions()[0]
    return next(op for op in fn.regions[0].entry.ops if op.name == SPLIT)


def test_split_results_follow_the_l1_interleaved_input() -> None:
    module = lowered("optimization-level=2")
    split = split_of(module)
    src = current_layout(split.operands[0].type)
    lays = [current_layout(r.type) for r in split.results]
    assert src.is_l1 and not src.is_sharded
    assert all(lay.is_l1 and not lay.is_sharded for lay in lays)
    # Each result in its own shape: query 32 heads (4 tiles per core of 8x8), key and value 8 (1).
    assert [tuple(lay.shard_shape) for lay in lays] == [(1, 4), (1, 1), (1, 1)]
    for r, lay in zip(split.results, lays):
        assert all(current_layout(u.operands[0].type) == lay for u in r.users)
    block = module.functions()[0].regions[0].entry
    assert check_l1_budget(block, OpModel(load_device(None, module))) is None


def test_level_0_keeps_the_split_in_dram() -> None:
    split = split_of(lowered("optimization-level=0"))
    assert all(current_layout(r.type).is_dram for r in [*split.operands, *split.results])


def test_cost_graph_gives_each_result_its_layout() -> None:
    module = lowered("optimization-level=0")
    fn = analysed_function(print_module(module), max_legal_layouts=8)
    graph = CostGraph(fn, CostModel(fn.analyses.device))
    node = next(n for n in graph.nodes if n.op.name == SPLIT)
    assert node.free  # DRAM and L1 interleaved
    for outs, res in zip(node.outs, node.result_outs):
        assert res[0] is outs and len(res) == 3
        assert res[1] == res[2] and res[1] != res[0]
    users = [n for n in graph.nodes if n.op.name == "ttnn.relu"]
    assert [n.result_of for n in users] == [[0], [1], [2]]
    l1 = next(k for k, o in enumerate(node.outs) if o is not None and o.is_l1)
    lays, _ = graph.producer_layouts(users[2], lambda p: l1)
    assert lays[0] == node.result_outs[l1][2]


def test_the_input_is_priced_over_the_ops_the_plans_are() -> None:
    # CostBased keeps the input unless a plan beats it: the split, whose three results share one
    # config, is in every plan's price, so it must be in the input's too (and in --stats' totals).
    fn = analysed_function(print_module(lowered("optimization-level=0")), max_legal_layouts=8)
    cost = CostModel(fn.analyses.device)
    graph = CostGraph(fn, cost)
    split = next(n.op for n in graph.nodes if n.op.name == SPLIT)
    each = [op_estimate(cost, n.op) for n in graph.nodes if n.costed]
    assert op_estimate(cost, split) is not None and None not in each
    assert input_cost(graph) == sum(c.ns for c in each)
