"""The ttnn-optimizer pass end to end: stats, traces, random graphs (output verifies and re-parses;
every chosen pair of configs on an edge is an allowed path or has a reshard), the CLI listing."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ttopt.device import layout_info
from ttopt.ir.printer import print_module
from ttopt.ir.verifier import verify
from ttopt.optimizer.chain import L1ChainState, chain_edges, first_op_edge
from ttopt.optimizer.pass_ import TTNNOptimizer
from ttopt.optimizer.path_set import bits
from ttopt.optimizer.policies import policy_names
from ttopt.optimizer.policies.df_sharding import DFShardingPolicy
from ttopt.optimizer.validation import OpModelBackend
from ttopt.parse.parser import parse_module
from ttopt.passes.context import PassContext, Trace
from ttopt.testing.examples import examples


def _run(text: str, **opts):
    module = parse_module(text, "t.mlir")
    ctx = PassContext()
    TTNNOptimizer(**opts).run(module, ctx)
    verify(module)
    return module, ctx.stats["ttnn-optimizer"]


def test_stats_content(root) -> None:
    text = (root / "testdata/optimizer/linear_chain.mlir").read_text()
    _, stats = _run(text, memory_layout_analysis_enabled=True, memory_layout_analysis_policy="DFSharding")
    fn = stats["functions"]["forward"]
    assert fn["chains"] == [{
        "index": 0, "ops": ["fc1", "gelu", "fc2", "relu"], "state": "Completed", "spill_location": "DRAM",
        "concat": False, "solve_for_optimal_first_op_input": False,
    }]  # fmt: skip
    assert fn["spills"] == [{"op": "relu", "inserted": "relu_spill", "layout": "dram interleaved 1x1 [8x16 tiles]"}]
    assert fn["reshards"] == []
    assert fn["ops"]["fc1"]["layout"] == "l1 block_sharded 8x8 [1x4 tiles]"
    assert fn["ops"]["fc1"]["l1_peak_bytes"] > 0 and fn["ops"]["fc1"]["estimated_ns"] > 0
    assert fn["l1_peak_bytes"] == max(o["l1_peak_bytes"] for o in fn["ops"].values())
    tot = stats["totals"]
    for key in ("estimated_ns", "estimated_ns_before", "dram_bytes", "l1_residency", "validations", "chains", "spills"):
        assert key in tot
    assert tot["estimated_ns"] < tot["estimated_ns_before"]  # the L1 chain beats DRAM in the model
    assert tot["l1_residency"] == 1.0
    assert "not measurements" in stats["model_note"]
    json.dumps(stats)  # serialisable


def test_trace_renders_bitsets(root, capsys) -> None:
    from io import StringIO

    from rich.console import Console

    buf = StringIO()
    module = parse_module((root / "testdata/optimizer/linear_chain.mlir").read_text(), "t.mlir")
    ctx = PassContext(trace=Trace(True, Console(file=buf, width=200, highlight=False)))
    TTNNOptimizer(memory_layout_analysis_enabled=True, memory_layout_analysis_policy="DFSharding").run(module, ctx)
    out = buf.getvalue()
    assert "L1 chains (1)" in out and "chain 0: [fc1, gelu, fc2, relu]" in out
    assert "preprocess: first op fc1: 8 config(s) take an interleaved input" in out
    assert "edge: edge gelu -> fc2#0: 4 path(s)" in out and "paths: (0,0) (2,1) (4,2) (5,3)" in out
    assert "accumulated core usage" in out and "pick fc1: config 0 (accumulated core usage 256)" in out
    row = next(line for line in out.splitlines() if line.strip().startswith("gelu") and "✗" in line)
    assert row.count("●") == 4 and row.count("✗") == 4  # gelu narrowed by the gelu -> fc2 edge
    assert "spill relu -> dram interleaved" in out


def test_policy_choices_come_from_the_registry() -> None:
    spec = next(s for s in TTNNOptimizer.option_specs() if s.name == "memory-layout-analysis-policy")
    assert spec.choices == policy_names() == ("DFSharding", "GreedyL1Interleaved", "BFInterleaved", "CostBased")
    assert spec.default == "CostBased"
    names = {s.name: s.default for s in TTNNOptimizer.option_specs()}
    assert names["max-legal-layouts"] == 8 and names["memory-layout-analysis-enabled"] is False


# ---- random graphs ---------------------------------------------------------------------------

SHAPES = ((64, 64), (64, 128), (128, 64), (128, 128), (256, 128))


def _dram(shape) -> str:
    from ttopt.dialects.ttnn_layout import TTNNLayoutAttr

    body = TTNNLayoutAttr.build(shape, "bf16", buffer_type="dram", memory_layout="interleaved").print_body()
    return f"tensor<{shape[0]}x{shape[1]}xbf16, #ttnn.ttnn_layout<{body}>>"


@st.composite
def graphs(draw):
    """A random DAG of eltwise / matmul / softmax / reshape ops over a few 2-D shapes."""
    values = [("%a0", SHAPES[draw(st.integers(0, len(SHAPES) - 1))])]
    args = [values[0]]
    lines = []
    for i in range(draw(st.integers(1, 9))):
        kind = draw(st.sampled_from(["relu", "gelu", "neg", "add", "multiply", "matmul", "softmax", "reshape"]))
        x = draw(st.sampled_from(values))
        name, shape = f"%{i}", x[1]
        if kind in ("add", "multiply"):
            same = [v for v in values if v[1] == shape]
            y = draw(st.sampled_from(same))
            line = f'{name} = "ttnn.{kind}"({x[0]}, {y[0]}) : ({_dram(shape)}, {_dram(shape)}) -> {_dram(shape)}'
        elif kind == "matmul":
            n = draw(st.sampled_from([64, 128, 256]))
            w = (f"%a{len(args)}", (shape[1], n))
            args.append(w)
            shape = (shape[0], n)
            line = f'{name} = "ttnn.matmul"({x[0]}, {w[0]}) : ({_dram(x[1])}, {_dram(w[1])}) -> {_dram(shape)}'
        elif kind == "softmax":
            line = f'{name} = "ttnn.softmax"({x[0]}) <{{dimension = -1 : si32}}> : ({_dram(shape)}) -> {_dram(shape)}'
        elif kind == "reshape":
            shape = (shape[1], shape[0]) if shape[0] != shape[1] else shape
            line = (f'{name} = "ttnn.reshape"({x[0]}) <{{shape = [{shape[0]} : i32, {shape[1]} : i32]}}> : '
                    f"({_dram(x[1])}) -> {_dram(shape)}")  # fmt: skip
        else:
            line = f'{name} = "ttnn.{kind}"({x[0]}) : ({_dram(shape)}) -> {_dram(shape)}'
        lines.append(f"    {line} loc(\"{kind}_{i}\")")
        values.append((name, shape))
    ret = values[-1]
    params = ", ".join(f"{n}: {_dram(s)}" for n, s in args)
    return (
        f'func.func @g({params}) -> {_dram(ret[1])} attributes {{tt.function_type = "forward_device"}} {{\n'
        + "\n".join(lines) + f"\n    return {ret[0]} : {_dram(ret[1])}\n}}\n"
    )


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(graphs(), st.sampled_from([0, 2, 8]), st.sampled_from([None, 0.05]))
def test_random_graphs_verify_and_respect_paths(make_fn, text: str, max_legal: int, cap: float | None) -> None:
    # 1. The whole pass: output verifies, prints, and parses back to the same text.
    module, _ = _run(text, memory_layout_analysis_enabled=True, memory_layout_analysis_policy="DFSharding", max_legal_layouts=max_legal, tensor_l1_usage_cap=cap)
    printed = print_module(module)
    again = parse_module(printed, "again.mlir")
    verify(again)
    assert print_module(again) == printed
    # 2. The policy's choices: every in-chain edge is an allowed path or has a reshard.
    fn = make_fn(text, max_legal_layouts=max_legal, cap=cap)
    decisions = DFShardingPolicy().run(fn)
    backend = OpModelBackend(fn.analyses, fn.labels)
    for chain in decisions.chains:
        if chain.state is not L1ChainState.COMPLETED:
            continue
        idx = {s.op: backend.configs(s.op).index(s.config) for s in chain.op_l1_mem_specs}
        for e in chain_edges(chain.ops):
            p, c = idx[e.producer], idx[e.consumer]
            entry = chain.mem_reconfig_entry_map.get(e)
            assert c in backend.edge_configs(e, p) or (entry is not None and c in entry.reshard_output_config_map)
        first = chain.first_op
        entry = chain.mem_reconfig_entry_map.get(first_op_edge(first))
        assert idx[first] in bits(backend.interleaved_input_configs(first)) or (
            entry is not None and idx[first] in entry.reshard_output_config_map
        )
        for s in chain.op_l1_mem_specs:
            assert layout_info(s.config.output).sharded


def test_stats_are_gathered_only_when_requested(root) -> None:
    """Without `--stats` (PassContext.stats_requested False) the pass records no stats and writes
    the same IR as with them."""
    text = (root / "testdata/optimizer/linear_chain.mlir").read_text()
    outs = []
    for requested in (True, False):
        module = parse_module(text, "t.mlir")
        ctx = PassContext(stats_requested=requested)
        TTNNOptimizer(memory_layout_analysis_enabled=True).run(module, ctx)
        assert ("ttnn-optimizer" in ctx.stats) is requested
        outs.append(print_module(module))
    assert outs[0] == outs[1]
