"""Producers read only by ttnn.adamw / ttnn.sdpa_fw go to L1 sharded and reach the reader through
the conversions tt-mlir HEAD's greedy optimizer and spill manager insert (sink_readers.py)."""

from __future__ import annotations

import re
from typing import Any

from ttopt.optimizer.analyses import current_layout
from ttopt.optimizer.sink_readers import NO_SHARDED_HINT, SINK_ROUTES
from ttopt.testing.ttnn_outputs import run_pipeline

LEVEL = "builtin.module(ttir-to-ttnn-backend-pipeline{{optimization-level={}}})"
HEAD_POLICY = "builtin.module(ttir-to-ttnn-backend-pipeline{optimization-level=2 memory-layout-analysis-policy=GreedyL1Interleaved})"
ADAMW = """
func.func @f(%p: tensor<1x1x128x128xbf16>, %a: tensor<1x1x128x128xbf16>, %b: tensor<1x1x128x128xbf16>,
             %m: tensor<1x1x128x128xbf16>, %v: tensor<1x1x128x128xbf16>) -> tensor<1x1x128x128xbf16> {
  %g = "ttir.OP"(%a, %b) : (tensor<1x1x128x128xbf16>, tensor<1x1x128x128xbf16>) -> tensor<1x1x128x128xbf16>
  %0:3 = "ttir.adamw"(%p, %g, %m, %v) <{lr = 1.000000e-03 : f32, beta1 = 0.899999976 : f32, beta2 = 0.999000012 : f32,
      beta1_pow = 0.899999976 : f32, beta2_pow = 0.999000012 : f32, epsilon = 1.000000e-08 : f32, weight_decay = 1.000000e-02 : f32}>
      : (tensor<1x1x128x128xbf16>, tensor<1x1x128x128xbf16>, tensor<1x1x128x128xbf16>, tensor<1x1x128x128xbf16>)
      -> (tensor<1x1x128x128xbf16>, tensor<1x1x128x128xbf16>, tensor<1x1x128x128xbf16>)
  return %0#0 : tensor<1x1x128x128xbf16>
}
"""
SDPA_FW = """
func.func @f(%a: tensor<1x4x64x64xbf16>, %b: tensor<1x4x64x64xbf16>, %k: tensor<1x4x64x64xbf16>,
             %v: tensor<1x4x64x64xbf16>) -> tensor<1x4x64x64xbf16> {
  %q = "ttir.multiply"(%a, %b) : (tensor<1x4x64x64xbf16>, tensor<1x4x64x64xbf16>) -> tensor<1x4x64x64xbf16>
  %o = "ttir.sdpa_fw"(%q, %k, %v) <{mask_type = #ttcore.attention_mask_type<causal>, dropout_probability = 0.000000e+00 : f32,
      return_intermediates = false}> : (tensor<1x4x64x64xbf16>, tensor<1x4x64x64xbf16>, tensor<1x4x64x64xbf16>) -> tensor<1x4x64x64xbf16>
  return %o : tensor<1x4x64x64xbf16>
}
"""


def _ops(text: str, level: int, pipeline: str | None = None) -> list[Any]:
    module = run_pipeline(text, "sink.mlir", pipeline or LEVEL.format(level))
    fn = next(f for f in module.functions() if f.regions and f.regions[0].blocks)
    return [op for op in fn.regions[0].entry.ops if op.name != "ttnn.deallocate"]


def _route(ops: list[Any], sink: str, operand: int) -> list[Any]:
    """The layouts from the sink's operand back to the first non-conversion producer."""
    op = next(o for o in ops if o.name == sink)
    v = op.operands[operand]
    lays = []
    while True:
        lays.append(current_layout(v.type.resolve()))
        p = v.op
        if p is None or p.name != "ttnn.to_memory_config":
            return [p.name if p is not None else None, *reversed(lays)]
        v = p.operands[0]


def _kind(lay: Any) -> str:
    return f"{lay.buffer_type.value} {lay.memory_layout.value}"


def test_adamw_reads_an_l1_sharded_producer_through_one_reshard_to_dram() -> None:
    route = _route(_ops(ADAMW.replace("OP", "add"), 2, HEAD_POLICY), "ttnn.adamw", 1)
    assert route[0] == "ttnn.add"
    assert [_kind(x) for x in route[1:]] == ["l1 block_sharded", "dram interleaved"]


def test_sdpa_fw_reads_it_through_l1_interleaved_then_dram() -> None:
    route = _route(_ops(SDPA_FW, 2, HEAD_POLICY), "ttnn.sdpa_fw", 0)
    assert route[0] == "ttnn.multiply"
    assert route[1].is_l1 and route[1].is_sharded
    assert [_kind(x) for x in route[2:]] == ["l1 interleaved", "dram interleaved"]


def test_cost_based_keeps_the_producer_where_the_reshards_are_estimated_slower() -> None:
    """Level 2's CostBased prices HEAD's route (L1 multiply + reshards) above the DRAM multiply."""
    for text, sink, operand, producer in ((ADAMW.replace("OP", "add"), "ttnn.adamw", 1, "ttnn.add"),
                                          (SDPA_FW, "ttnn.sdpa_fw", 0, "ttnn.multiply")):  # fmt: skip
        route = _route(_ops(text, 2), sink, operand)
        assert route[0] == producer and [_kind(x) for x in route[1:]] == ["dram interleaved"]


def test_without_l1_layouts_nothing_moves() -> None:
    route = _route(_ops(ADAMW.replace("OP", "add"), 1), "ttnn.adamw", 1)
    assert route[0] == "ttnn.add" and [_kind(x) for x in route[1:]] == ["dram interleaved"]


def test_tables_follow_head_rule_books() -> None:
    assert SINK_ROUTES == {"ttnn.adamw": ("dram",), "ttnn.sdpa_fw": ("l1", "dram")}
    assert {"ttnn.typecast", "ttnn.where", "ttnn.reshape", "ttnn.permute"} <= NO_SHARDED_HINT
    assert "ttnn.add" not in NO_SHARDED_HINT and "ttnn.multiply" not in NO_SHARDED_HINT


def test_trace_names_the_producer_route_and_both_estimates(tmp_path: Any) -> None:
    import subprocess
    import sys

    src = tmp_path / "sink.mlir"
    src.write_text(ADAMW.replace("OP", "add"))
    r = subprocess.run([sys.executable, "-m", "ttopt", "opt", str(src), "--ttir-to-ttnn-backend-pipeline=optimization-level=2 memory-layout-analysis-policy=GreedyL1Interleaved", "--trace"],
                       capture_output=True, text=True, check=True)  # fmt: skip
    line = next(x for x in r.stderr.splitlines() if "sink reader" in x)
    assert "read by ttnn.adamw: l1 block_sharded" in line and "-> dram interleaved" in line
    assert re.search(r"estimated \d+\.\d\d us vs \d+\.\d\d us in DRAM", line)
