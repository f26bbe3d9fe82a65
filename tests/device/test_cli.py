"""`ttopt layouts` and `ttopt analyze`: output shape, exit codes, and clear errors for bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ttopt.cli import cli

ROOT = Path(__file__).resolve().parents[2]
CHAIN = str(ROOT / "testdata" / "ttnn" / "l1_sharded_chain.mlir")


def run(*args: str, input: str | None = None):
    res = CliRunner().invoke(cli, list(args), input=input)
    assert "Traceback" not in res.output and not isinstance(res.exception, (AttributeError, TypeError, KeyError)), res.output
    return res


def test_layouts_json_lists_the_pool_in_order() -> None:
    res = run("layouts", "64x64xbf16", "--json")
    assert res.exit_code == 0
    doc = json.loads(res.output)
    assert doc["tensor"] == "tensor<64x64xbf16>" and doc["pool"] == {"interleaved": 2, "sharded": 8}
    got = [(x["memory_layout"], tuple(x["grid"])) for x in doc["layouts"]]
    assert got[:7] == [
        ("interleaved", (1, 1)), ("interleaved", (8, 8)), ("block_sharded", (2, 2)), ("block_sharded", (1, 2)),
        ("block_sharded", (2, 1)), ("height_sharded", (2, 1)), ("width_sharded", (1, 2)),
    ]  # fmt: skip
    assert doc["layouts"][2]["core_ranges"] == [[0, 0, 1, 1]] and doc["layouts"][2]["bytes_per_core"] == 2048
    assert doc["layouts"][0]["layout"].startswith("#ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x2x")


def test_layouts_table_and_options() -> None:
    res = run("layouts", "1x1x8x64xbf16", "--max-legal-layouts", "2", "--device", "blackhole")
    assert res.exit_code == 0
    assert "tensor<1x1x8x64xbf16> on blackhole (10x13 cores): 2 interleaved + 2 of 5 sharded" in res.output
    assert "10x13" in res.output
    res = run("layouts", "64x64xbf16", "--row-major-enabled", "--all", "--json")
    kinds = {x["page_layout"] for x in json.loads(res.output)["layouts"]}
    assert kinds == {"tile", "row_major"}


@pytest.mark.parametrize(
    "args, message",
    [
        (["64x64xi7"], "unknown dtype 'i7'"),
        (["bf16"], "rank-0 tensors have no TTNN layout"),
        (["1x2x3x4x5x6xbf16"], "rank 6 is not supported"),
        (["0x64xbf16"], "dimension 0 has size 0"),
        (["64x64xbf16", "--device", "grayskull"], "unknown device preset 'grayskull'"),
        (["64x64xbf16", "--tensor-l1-usage-cap", "0"], "must be in (0, 1], got 0.0"),
        (["64x64xbf16", "--tensor-l1-usage-cap", "1.5"], "must be in (0, 1], got 1.5"),
        (["64x64xbf16", "--max-legal-layouts", "-1"], "--max-legal-layouts must be >= 0, got -1"),
    ],
)
def test_layouts_usage_errors_exit_2(args: list[str], message: str) -> None:
    res = run("layouts", *args)
    assert res.exit_code == 2 and message in res.output, res.output


def test_analyze_json(tmp_path: Path) -> None:
    res = run("analyze", CHAIN, "--json", "--max-legal-layouts", "2")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.output)
    assert doc["device"]["usable_l1"] == 1423206 and "not measurements" in doc["model_note"]
    fn = doc["functions"][0]
    mm = fn["ops"][0]
    assert (mm["op"], mm["name"], mm["current"]["status"]) == ("ttnn.matmul", "matmul_0", "success")
    assert len(mm["candidates"]) == 4 and all(c["ns"] > 0 for c in mm["candidates"] if c["status"] == "success")
    add = fn["ops"][1]
    rejected = [c for c in add["candidates"] if c["status"] == "illegal"]
    assert rejected and all("spec" in c["reason"] for c in rejected)
    assert fn["estimated_ns"] == pytest.approx(sum(op["current"]["ns"] or 0 for op in fn["ops"]))


def test_analyze_assumes_dram_for_unlaid_tensors_and_reads_stdin() -> None:
    text = (
        "func.func @f(%a: tensor<64x64xbf16>) -> tensor<64x64xbf16> {\n"
        '  %0 = "ttnn.relu"(%a) : (tensor<64x64xbf16>) -> tensor<64x64xbf16>\n'
        "  return %0 : tensor<64x64xbf16>\n}\n"
    )
    res = run("analyze", "--device", "n150", input=text)
    assert res.exit_code == 0, res.output
    assert "assumed DRAM interleaved" in res.output and "usable L1 1397984" in res.output


@pytest.mark.parametrize(
    "text, code, message",
    [
        ("func.func @f() { return %x : f32 }", 1, "<stdin>:1:25: error: use of undefined value '%x'"),
        ("module attributes {ttnn.tensor_l1_usage_cap = 1.5 : f32} {\n}\n", 1,
         "ttnn.tensor_l1_usage_cap must be in (0, 1], got 1.5"),  # fmt: skip
        ('module attributes {ttcore.system_desc = #ttcore.system_desc<[{role = host, target_triple = "x"}], '
         "[{arch = <wormhole_b0>, grid = 8x8, num_dram_channels = 12, dram_channel_size = 1, l1_unreserved_base = 0}], "
         "[0], [1 : i32], [ 0x0x0x0]>} {\n}\n", 1, "missing required field 'l1_size'"),  # fmt: skip
    ],
)
def test_analyze_input_errors_exit_1(text: str, code: int, message: str) -> None:
    res = run("analyze", input=text)
    assert res.exit_code == code and message in res.output, res.output


def test_analyze_usage_errors_exit_2(tmp_path: Path) -> None:
    assert run("analyze", str(tmp_path / "missing.mlir")).exit_code == 2
    res = run("analyze", CHAIN, "--tensor-l1-usage-cap", "0")
    assert res.exit_code == 2 and "(0, 1]" in res.output
    res = run("analyze", "--device", "nope", input="module {\n}\n")
    assert res.exit_code == 2 and "unknown device preset 'nope'" in res.output
