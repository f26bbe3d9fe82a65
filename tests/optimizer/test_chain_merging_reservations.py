"""Reshape and fork L1 reservations of DFSharding 2.0, checked on the merge report and the
rewritten IR rather than the trace text."""

from __future__ import annotations

import re
from pathlib import Path

from ttopt.device import OpModel, load_device
from ttopt.optimizer.l1_budget_check import check_l1_budget
from ttopt.optimizer.pass_ import TTNNOptimizer
from ttopt.parse.parser import parse_module
from ttopt.passes.context import PassContext

DATA = Path(__file__).resolve().parents[2] / "testdata/optimizer"


def _run(text: str, merging: bool = True) -> dict:
    module = parse_module(text, "t.mlir")
    ctx = PassContext()
    TTNNOptimizer(memory_layout_analysis_enabled=True, memory_layout_analysis_policy="DFSharding", chain_merging=merging).run(module, ctx)
    fn = next(iter(ctx.stats["ttnn-optimizer"]["functions"].values()))
    func = next(op for op in module.walk() if op.name == "func.func")
    assert check_l1_budget(func.regions[0].entry, OpModel(load_device(None, module))) is None
    return fn


def _spills(fn: dict) -> dict[str, str]:
    return {s["op"]: s["layout"] for s in fn["spills"]}


def test_reshape_reserves_its_input_and_output_in_l1_interleaved() -> None:
    fn = _run((DATA / "merge_reshape.mlir").read_text())
    cm = fn["chain_merging"]
    assert [m["what"] for m in cm["merges"]] == ["relu -> reshape"]
    assert [(r["kind"], r["what"], r["bytes"]) for r in cm["reservations"]] == [("reserve-reshape", "reshape", 2048)]
    assert cm["spills_avoided"] == 1
    assert _spills(fn)["relu"].startswith("l1 interleaved")
    assert fn["ops"]["reshape"]["layout"].startswith("l1 interleaved")


def test_reshape_feeding_return_is_not_reserved() -> None:
    text = (DATA / "merge_reshape.mlir").read_text()
    text = re.sub(r'\n\s*%3 = "ttnn.softmax".*', "", text).replace("return %3", "return %2")
    fn = _run(text)
    cm = fn["chain_merging"]
    assert [m["what"] for m in cm["merges"]] == ["relu -> reshape"]  # the input still moves to L1
    assert cm["reservations"] == []
    assert [(r["kind"], r["reason"]) for r in cm["rejected"]] == [("reserve-reshape", "a user is the function's return")]


def test_reshape_reservation_off_without_merging() -> None:
    fn = _run((DATA / "merge_reshape.mlir").read_text(), merging=False)
    assert "chain_merging" not in fn
    assert _spills(fn)["relu"].startswith("dram")


def test_fork_kept_sharded() -> None:
    fn = _run((DATA / "merge_fork_sharded.mlir").read_text())
    res = fn["chain_merging"]["reservations"]
    assert [(r["kind"], r["what"], r["layout"]) for r in res] == [("reserve-fork", "mm", "sharded")]
    assert "mm" not in _spills(fn)
    assert "sharded" in fn["ops"]["mm"]["layout"]


def test_fork_falls_back_to_l1_interleaved() -> None:
    fn = _run((DATA / "merge_fork_l1_interleaved.mlir").read_text())
    res = fn["chain_merging"]["reservations"]
    assert [(r["kind"], r["what"], r["layout"]) for r in res] == [("reserve-fork", "mm", "L1 interleaved")]
    assert _spills(fn)["mm"].startswith("l1 interleaved")
    assert res[0]["bytes"] > 0
