"""bench/ttnn_ods_check.py as a command: against a small TTNNOps.td in a checkout directory, it
prints MLIR-style violation lines and exits 1, exits 0 on a conforming module, reports bad input
as a diagnostic and an unreadable mirror as a usage error."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from bench.ttnn_ods_check import main
from ttopt.testing.ods_specs import TTNN_OPS_TD

TD = '''
def TTNN_Dialect : Dialect { let name = "ttnn"; }
class TTNN_Op<string mnemonic, list<Trait> traits = []> : Op<TTNN_Dialect, mnemonic, traits>;
def TTNN_AbsOp : TTNN_Op<"abs"> {
  let arguments = (ins AnyRankedTensor:$input);
  let results = (outs AnyRankedTensor:$result);
}
def TTNN_CumSumOp : TTNN_Op<"cumsum"> {
  let arguments = (ins AnyRankedTensor:$input, SI32Attr:$dim);
  let results = (outs AnyRankedTensor:$result);
}
'''
T = "tensor<4xf32>"
GOOD = f'func.func @f(%a: {T}) -> {T} {{\n  %0 = "ttnn.abs"(%a) : ({T}) -> {T}\n  return %0 : {T}\n}}\n'
BAD = (f'func.func @f(%a: {T}) -> {T} {{\n  %0 = "ttnn.cumsum"(%a) <{{dim = 0 : i32}}> : ({T}) -> {T}\n'
       f'  %1 = "ttnn.pow"(%0, %0) : ({T}, {T}) -> {T}\n  return %1 : {T}\n}}\n')


@pytest.fixture()
def mirror(tmp_path: Path) -> str:
    td = tmp_path / "tt-mlir" / "include" / TTNN_OPS_TD
    td.parent.mkdir(parents=True)
    td.write_text(TD)
    return str(tmp_path / "tt-mlir")


def _run(args: list[str], stdin: str | None = None):
    return CliRunner().invoke(main, args, input=stdin)


def test_violations_print_as_diagnostics_and_exit_1(mirror: str, tmp_path: Path) -> None:
    f = tmp_path / "bad.mlir"
    f.write_text(BAD)
    r = _run([str(f), "--mirror", mirror])
    assert r.exit_code == 1
    lines = r.output.splitlines()
    assert lines[0] == f"ttnn-ods-check: tt-mlir working tree ({mirror}): 2 TTNN ops"
    assert f"{f}:2:8: 'ttnn.cumsum' attribute 'dim' is an i32 integer; HEAD wants SI32Attr" in lines
    assert f"{f}:3:8: 'ttnn.pow' is not an op at tt-mlir HEAD" in lines
    assert lines[-1] == "ttnn-ods-check: 2 violation(s), 2 distinct"


def test_a_conforming_module_exits_0(mirror: str) -> None:
    r = _run(["-", "--mirror", mirror], stdin=GOOD)
    assert r.exit_code == 0, r.output
    assert r.output.splitlines()[-1] == "ttnn-ods-check: 0 violation(s), 0 distinct"


def test_split_input_file_keeps_line_numbers(mirror: str) -> None:
    r = _run(["-", "--mirror", mirror, "--split-input-file"], stdin=GOOD + "// -----\n" + BAD)
    assert r.exit_code == 1
    assert "<stdin>:7:8: 'ttnn.cumsum' attribute 'dim' is an i32 integer; HEAD wants SI32Attr" in r.output


def test_bad_input_is_a_diagnostic(mirror: str) -> None:
    r = _run(["-", "--mirror", mirror], stdin="func.func @f( {\n")
    assert r.exit_code == 1
    assert "<stdin>:1:" in r.output and "error:" in r.output and "Traceback" not in r.output


@pytest.mark.parametrize(
    ("args", "message"),
    [(["x.mlir", "--mirror", "/nonexistent"], "/nonexistent: not a tt-mlir checkout or git mirror"),
     ([], "give FILE(s), --corpus, --ttmlir-tests or --ops"),
     (["/nonexistent.mlir"], "cannot read /nonexistent.mlir")],
)
def test_usage_errors_exit_2(mirror: str, args: list[str], message: str) -> None:
    if "--mirror" not in args:
        args = [*args, "--mirror", mirror]
    r = _run(args)
    assert r.exit_code == 2 and message in r.output


def test_ops_lists_the_ods(mirror: str) -> None:
    r = _run(["--ops", "--mirror", mirror])
    assert r.exit_code == 0
    assert "ttnn.cumsum" in r.output and "dim: SI32Attr" in r.output
