"""`ttopt analyze --json`: every op's terms add up to its estimate, a sharded norm's statistics
exchange (`sync`) included."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ttopt.cli import cli

ROOT = Path(__file__).resolve().parents[2]

NORM = """\
#l1 = #ttnn.buffer_type<l1>
#w = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x8>, memref<1x2x!ttcore.tile<32x32, bf16>, #l1>, <width_sharded>, core_ranges = #ttnn.core_range_set<[#ttnn.core_range<(0,0), (7,0)>]>>
module {
  func.func @norm(%x: tensor<32x512xbf16, #w>) -> tensor<32x512xbf16, #w> {
    %0 = "ttnn.rms_norm"(%x) <{epsilon = 1.000000e-05 : f32}> : (tensor<32x512xbf16, #w>) -> tensor<32x512xbf16, #w>
    return %0 : tensor<32x512xbf16, #w>
  }
}
"""


def _ops(path: Path) -> list[dict]:
    result = CliRunner().invoke(cli, ["analyze", str(path), "--json"])
    assert result.exit_code == 0, result.output
    return [op for f in json.loads(result.output)["functions"] for op in f["ops"] if op.get("current", {}).get("terms")]


@pytest.mark.parametrize("name", ["testdata/device/mlp.mlir", "testdata/ttnn/l1_sharded_chain.mlir", "norm"])
def test_terms_add_up_to_the_estimate(name: str, tmp_path: Path) -> None:
    path = ROOT / name
    if name == "norm":
        path = tmp_path / "norm.mlir"
        path.write_text(NORM)
    ops = _ops(path)
    assert ops
    for op in ops:
        t, ns = op["current"]["terms"], op["current"]["ns"]
        parts = t["dispatch"] + t["floor"] + t["compute"] + max(t["dram"], t["noc"]) + t["sync"] - t["overlap"]
        assert parts == pytest.approx(ns), op
    if name == "norm":
        assert ops[0]["current"]["terms"]["sync"] > 0
