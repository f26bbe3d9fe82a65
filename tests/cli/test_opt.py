"""`ttopt opt` / `ttopt passes` behaviour: outputs written whole, exit codes, side channels."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from ttopt.cli import cli

ROOT = Path(__file__).resolve().parents[2]
GOOD = "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n  %0 = stablehlo.abs %a : tensor<4xf32>\n  return %a : tensor<4xf32>\n}\n"
BAD = "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n  return %b : tensor<4xf32>\n}\n"


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(cli, list(args), input=input)


def test_stdin_to_stdout_and_pass_flags(tmp_path: Path) -> None:
    r = run("opt", "--canonicalize", input=GOOD)
    assert r.exit_code == 0, r.output
    assert "stablehlo.abs" not in r.output and "return %arg0" in r.output


def test_output_file_written_whole(tmp_path: Path) -> None:
    src = tmp_path / "in.mlir"
    src.write_text(GOOD)
    out = tmp_path / "out.mlir"
    r = run("opt", str(src), "-o", str(out))
    assert r.exit_code == 0
    assert out.read_text().startswith("module {")
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".ttopt-")] == []


def test_failure_leaves_no_output_and_keeps_the_input(tmp_path: Path) -> None:
    src = tmp_path / "in.mlir"
    src.write_text(BAD)
    out = tmp_path / "out.mlir"
    out.write_text("previous contents\n")
    r = run("opt", str(src), "-o", str(out))
    assert r.exit_code == 1
    assert "use of undefined value '%b'" in r.output
    assert out.read_text() == "previous contents\n"
    assert src.read_text() == BAD
    r = run("opt", str(src), "-o", str(src))  # even when output == input, a failure writes nothing
    assert src.read_text() == BAD


def test_usage_errors_exit_2() -> None:
    assert run("opt", "--no-such-flag", input=GOOD).exit_code == 2
    assert run("opt", "--pass-pipeline=builtin.module(nope)", input=GOOD).exit_code == 2
    assert run("opt", "/no/such/file.mlir").exit_code == 2


def test_stats_timing_and_print_ir_after_all(tmp_path: Path) -> None:
    stats = tmp_path / "stats.json"
    r = run("opt", "--canonicalize", "--strip-debuginfo", "--stats", str(stats), "--timing", "--mlir-print-ir-after-all", input=GOOD)
    assert r.exit_code == 0
    data = json.loads(stats.read_text())
    assert data["canonicalize"] == {"erase-dead-pure-op": 1}
    assert "IR Dump After canonicalize" in r.output and "IR Dump After strip-debuginfo" in r.output
    assert "ttopt timing" in r.output and "cpu (ms)" in r.output


def test_pass_order_follows_the_command_line() -> None:
    r = run("opt", "--strip-debuginfo", "--canonicalize", "--mlir-print-ir-after-all", input=GOOD)
    assert r.output.index("After strip-debuginfo") < r.output.index("After canonicalize")


def test_inline_pass_options_and_bool_spelling() -> None:
    r = run("opt", "--canonicalize=max-iterations=0", input=GOOD)
    assert r.exit_code == 0 and "stablehlo.abs" in r.output  # no rewrite allowed
    r = run("opt", "--canonicalize=bogus=1", input=GOOD)
    assert r.exit_code == 2


def test_passes_lists_options() -> None:
    r = run("passes")
    assert r.exit_code == 0
    assert "canonicalize" in r.output and "max-iterations" in r.output and "strip-debuginfo" in r.output


def test_split_input_file_reports_every_chunk() -> None:
    r = run("opt", "--split-input-file", input=BAD + "// -----\n" + BAD)
    assert r.exit_code == 1
    assert r.output.count("use of undefined value") == 2
    assert "<stdin>:6:" in r.output  # second chunk's line numbers are file-absolute


def test_console_script_has_no_traceback_on_garbage(tmp_path: Path) -> None:
    p = tmp_path / "garbage.mlir"
    p.write_bytes(os.urandom(2000))
    res = subprocess.run([sys.executable, "-m", "ttopt", "opt", str(p)], capture_output=True, text=True,
                         env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert res.returncode == 1
    assert "Traceback" not in res.stderr and ": error: " in res.stderr


def test_deterministic_output() -> None:
    text = (ROOT / "testdata" / "jax" / "transformer_2layer.mlir").read_text()
    outs = {run("opt", "--canonicalize", "--mlir-print-debuginfo", input=text).output for _ in range(3)}
    assert len(outs) == 1
