"""CostBased: optimal against an exhaustive reference, exact and beam agree, the estimate
it plans is the estimate of the IR it writes, never worse than its input, always within L1."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import pytest

from ttopt.device import CostModel
from ttopt.ir.printer import print_module
from ttopt.optimizer.pass_ import TTNNOptimizer
from ttopt.optimizer.policies.cost_beam import beam_search
from ttopt.optimizer.policies.cost_exact import solve_exact
from ttopt.optimizer.policies.cost_graph import CostGraph
from ttopt.parse.parser import parse_module
from ttopt.passes.context import PassContext
from ttopt.testing.plan_oracle import analysed_function, optimum
from ttopt.testing.ttnn_models import MODELS, small_graph


def _optimize(text: str, policy: str = "CostBased", **options: object) -> tuple[str, dict]:
    module = parse_module(text, "t.mlir")
    ctx = PassContext()
    TTNNOptimizer(memory_layout_analysis_enabled=True, memory_layout_analysis_policy=policy, **options).run(module, ctx)
    stats = ctx.stats["ttnn-optimizer"]
    return print_module(module), stats


# Seeds cover every small-graph family: chain, fork, diamond, attention, conv (seed % 5).
@pytest.mark.parametrize("seed", range(10))
def test_cost_based_reaches_the_exhaustive_optimum(seed: int) -> None:
    _, text = small_graph(seed)
    best = optimum(analysed_function(text, max_legal_layouts=4)).ns
    _, stats = _optimize(text, max_legal_layouts=4)
    got = stats["totals"]["estimated_ns"]
    assert got >= best - 0.5  # the reference searches a superset of CostBased's plans
    assert got <= best * 1.01 + 0.5


@pytest.mark.parametrize("seed", [0, 2, 4])
def test_other_policies_never_beat_the_exhaustive_optimum(seed: int) -> None:
    _, text = small_graph(seed)
    best = optimum(analysed_function(text, max_legal_layouts=4)).ns
    for policy in ("DFSharding", "GreedyL1Interleaved", "BFInterleaved"):
        _, stats = _optimize(text, policy, max_legal_layouts=4)
        assert stats["totals"]["estimated_ns"] >= best - 0.5, policy


def test_exact_and_beam_find_the_same_plan_cost() -> None:
    fn = analysed_function(MODELS["mlp"](40))
    graph = CostGraph(fn, CostModel(fn.analyses.device))
    exact = solve_exact(graph, time_limit=30.0)
    assert exact is not None and exact.optimal and exact.gap == pytest.approx(0.0, abs=1e-9)
    beam = beam_search(graph, width=64)
    assert beam.ns == pytest.approx(exact.ns, rel=1e-9)
    assert exact.bound <= exact.ns + 1e-6


FORK_RESHARD = Path(__file__).resolve().parents[2] / "testdata" / "optimizer" / "policy_cost_based_fork_reshard.mlir"


def test_fork_resolved_by_a_reshard_is_the_exhaustive_optimum() -> None:
    # p is read by rms_norm (width/block shards) and rotary_embedding (height shards): see the test file.
    text = FORK_RESHARD.read_text()
    best = optimum(analysed_function(text)).ns
    _, stats = _optimize(text)
    (fn,) = stats["functions"].values()
    assert fn["estimated_ns"] == pytest.approx(best, abs=0.5)
    (reshard,) = fn["reshards"]
    assert (reshard["producer"], reshard["consumer"]) == ("p", "norm")
    assert reshard["layout"].startswith("l1 block_sharded") and fn["ops"]["p"]["layout"].startswith("l1 height_sharded")
    # The spill: the best plan that writes p to DRAM (p keeps only its default config).
    spill_fn = analysed_function(text)
    p = next(op for op, label in spill_fn.labels.items() if label == "p")
    info = spill_fn.analyses.legal[p]
    spill_fn.analyses.legal[p] = dataclasses.replace(info, configs=[info.default_config()], sharded=[])
    spill = optimum(spill_fn).ns
    assert best < spill < fn["estimated_ns_before"]
    assert best < spill - 5000.0  # the reshard (one ~4 us to_layout) saves more than it costs


def test_planned_estimate_is_the_estimate_of_the_rewritten_ir() -> None:
    for model in ("mlp", "transformer", "conv"):
        _, stats = _optimize(MODELS[model](120), cost_exact_max_ops=0)  # beam
        (fn,) = stats["functions"].values()
        report = fn["cost_based"]
        assert report["method"] == "beam" and not report["kept_input"]
        assert report["plan_ns"] == pytest.approx(fn["estimated_ns"], abs=0.2), model
        assert fn["estimated_ns"] < fn["estimated_ns_before"]


def test_an_optimized_module_is_kept_as_given() -> None:
    once, stats = _optimize(MODELS["mlp"](30))
    assert stats["totals"]["estimated_ns"] < stats["totals"]["estimated_ns_before"]
    twice, stats2 = _optimize(once)
    (fn,) = stats2["functions"].values()
    assert fn["cost_based"]["kept_input"] is True
    assert twice == once
    assert stats2["totals"]["estimated_ns"] == stats2["totals"]["estimated_ns_before"]


def _input_fits(text: str, cap: float | None) -> bool:
    from ttopt.device import OpModel, load_device
    from ttopt.optimizer.analyses import forward_functions
    from ttopt.optimizer.l1_budget_check import check_l1_budget

    module = parse_module(text, "t.mlir")
    model = OpModel(load_device(None, module, cap=cap))
    return check_l1_budget(forward_functions(module)[0].regions[0].entry, model) is None


@pytest.mark.parametrize("model", sorted(MODELS))
def test_never_slower_than_the_input_and_within_l1(model: str) -> None:
    text = MODELS[model](60)
    checked = 0
    for cap in (None, 0.9, 0.5, 0.2, 0.1):
        if not _input_fits(text, cap):
            continue  # every op of the input alone already overflows: no plan can fit
        _, stats = _optimize(text, verify_l1_budget=True, tensor_l1_usage_cap=cap)
        t = stats["totals"]
        assert t["estimated_ns"] <= t["estimated_ns_before"] + 1e-6
        checked += 1
    assert checked >= 2


def test_cost_based_is_deterministic() -> None:
    text = MODELS["transformer"](80)
    assert _optimize(text)[0] == _optimize(text)[0]
    assert _optimize(text, cost_exact_max_ops=0)[0] == _optimize(text, cost_exact_max_ops=0)[0]


def test_cost_options_are_checked_up_front() -> None:
    for bad in ({"cost_beam_width": 0}, {"cost_time_limit": 0.0}, {"cost_exact_max_ops": -1}):
        p = TTNNOptimizer(memory_layout_analysis_enabled=True, memory_layout_analysis_policy="CostBased", **bad)
        with pytest.raises(ValueError):
            p.validate()


_ARGMAX = """
#dram = #ttnn.buffer_type<dram>
#t = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<4x8x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#o = #ttnn.ttnn_layout<(d0) -> (0, d0), <1x1>, memref<1x4x!ttcore.tile<32x32, u32>, #dram>, <interleaved>>
module {
  func.func @f(%a: tensor<128x256xbf16, #t>, %b: tensor<128x256xbf16, #t>) -> tensor<128xui32, #o> attributes {tt.function_type = "forward_device"} {
    %0 = "ttnn.multiply"(%a, %b) : (tensor<128x256xbf16, #t>, tensor<128x256xbf16, #t>) -> tensor<128x256xbf16, #t>
    %1 = "ttnn.argmax"(%0) <{dim = 1 : si32, keep_dim = false}> : (tensor<128x256xbf16, #t>) -> tensor<128xui32, #o>
    return %1 : tensor<128xui32, #o>
  }
}
"""


def test_argmax_weighs_a_row_major_input_sibling() -> None:
    # tt-metal's argmax is multicore only on a row-major input: CostBased adds, next to each DRAM-output
    # candidate, one that always retiles operand 0 to DRAM row-major, and costs that retile; the
    # sibling's output follows its input's page layout (row-major, in the candidate's DRAM memory).
    fn = analysed_function(_ARGMAX)
    graph = CostGraph(fn, CostModel(fn.analyses.device))
    node = graph.nodes[1]
    assert node.op.name == "ttnn.argmax" and node.free
    sib = [k for k, f in enumerate(node.forced) if f == (0,)]
    assert len(sib) == 1
    tiled_out, rm_out = node.cands[0].output, node.cands[sib[0]].output
    assert tiled_out.is_tiled and not rm_out.is_tiled and rm_out.is_dram and rm_out.dtype == tiled_out.dtype
    rm = node.refs[sib[0]][0]
    assert not rm.is_tiled and rm.is_dram
    ins = graph.producer_layouts(node, lambda p: 0)
    plain, retiled = graph.choice(node, 0, ins), graph.choice(node, sib[0], ins)
    assert plain is not None and retiled is not None
    assert plain.conversions == () and retiled.conversions == ((0, rm),)
    assert retiled.ns < plain.ns  # the retile pays off: single-core vs multicore program


def _wide_concat(width: int) -> str:
    """`width` relus of one input, concatenated: the concat's estimate depends on all of them."""
    lay = "#ttnn_layout = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<4x4x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>\n"
    out = f"#ttnn_layout1 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<4x{4 * width}x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>\n"
    t, big = "tensor<128x128xbf16, #ttnn_layout>", f"tensor<128x{128 * width}xbf16, #ttnn_layout1>"
    body = "".join(f'    %r{i} = "ttnn.relu"(%a) : ({t}) -> {t}\n' for i in range(width))
    names = ", ".join(f"%r{i}" for i in range(width))
    return (
        "#dram = #ttnn.buffer_type<dram>\n" + lay + out + "module {\n"
        f'  func.func @forward(%a: {t}) -> {big} attributes {{tt.function_type = "forward_device"}} {{\n' + body
        + f'    %c = "ttnn.concat"({names}) <{{dim = 1 : si32}}> : ({", ".join([t] * width)}) -> {big}\n'
        f"    return %c : {big}\n  }}\n}}\n"
    )


def test_exact_gives_up_on_a_wide_join_before_estimating_it(monkeypatch: pytest.MonkeyPatch) -> None:
    # A join's tuples are the product of its producers' candidates; the MIP must refuse such a
    # program from its size, not after estimating every tuple (which took minutes on a YOLO neck).
    fn = analysed_function(_wide_concat(8))
    graph = CostGraph(fn, CostModel(fn.analyses.device))
    assert math.prod(len(n.cands) for n in graph.nodes if n.free) > 1000
    calls: list[object] = []
    monkeypatch.setattr(graph, "choice", lambda *a: calls.append(a))
    assert solve_exact(graph, max_tuples=1000) is None
    assert calls == []
    _, stats = _optimize(_wide_concat(8))
    assert stats["totals"]["estimated_ns"] > 0
