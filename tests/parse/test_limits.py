"""Limits that hold the same both ways (what ttopt prints, it parses back), and printing never
produces text the parser rejects."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from ttopt.cli import cli
from ttopt.ir.diagnostics import Diagnostic
from ttopt.ir.printer import PrintOptions, print_module
from ttopt.ir.verifier import verify
from ttopt.parse.parser import parse_module
from ttopt.parse.scan import MAX_NESTING
from ttopt.passes.pipeline import MAX_ANCHOR_NESTING


def nested(levels: int, explicit_module: bool) -> str:
    """`levels` regions in all: the func body plus levels-1 nested unregistered ops."""
    inner = levels - 1 - (1 if explicit_module else 0)
    s = '"test.op"() ({\n' * inner + "}) : () -> ()\n" * inner
    body = f"func.func @f() {{\n{s}return\n}}\n"
    return f"module {{\n{body}}}\n" if explicit_module else body


def roundtrip(text: str) -> str:
    m = parse_module(text, "t.mlir")
    verify(m)
    return print_module(m, PrintOptions())


@pytest.mark.parametrize("explicit_module", [False, True])
def test_deepest_accepted_input_prints_text_that_parses(explicit_module: bool) -> None:
    # The implicit module the printer adds counts as a level, so the limit is the printed depth.
    text = nested(MAX_NESTING - (0 if explicit_module else 1), explicit_module)
    once = roundtrip(text)
    assert roundtrip(once) == once
    with pytest.raises(Diagnostic, match=f"regions nested more than {MAX_NESTING} deep"):
        roundtrip(nested(MAX_NESTING + 1, explicit_module))


def test_one_level_past_the_limit_without_module_is_rejected() -> None:
    with pytest.raises(Diagnostic, match="with the implicit module"):
        roundtrip(nested(MAX_NESTING, explicit_module=False))


def test_pipeline_anchor_nesting_is_bounded() -> None:
    def pipe(n: int) -> str:
        return "builtin.module(" * n + "canonicalize" + ")" * n

    ok = CliRunner().invoke(cli, ["opt", "--pass-pipeline", pipe(MAX_ANCHOR_NESTING)], input="func.func @f() {\n  return\n}\n")
    assert ok.exit_code == 0, ok.output
    r = CliRunner().invoke(cli, ["opt", "--pass-pipeline", pipe(5000)], input="")
    assert r.exit_code == 2 and f"op anchors nested more than {MAX_ANCHOR_NESTING} deep" in r.output


@pytest.mark.parametrize(
    "args, message",
    [
        (["--pass-pipeline", ""], "expected a pass name, found end of pipeline"),
        (["--pass-pipeline", "builtin.module(canonicalize{max-iterations=-1})"], "max-iterations must be >= 0"),
        (["--canonicalize", "--max-iterations", "-1"], "max-iterations must be >= 0"),
        (["--canonicalize=max-iterations=-5"], "max-iterations must be >= 0"),
    ],
)
def test_rejected_pass_options_are_usage_errors(args: list[str], message: str) -> None:
    r = CliRunner().invoke(cli, ["opt", *args], input="func.func @f() {\n  return\n}\n")
    assert r.exit_code == 2 and message in r.output, r.output


GENERIC_ODD = """func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.add"(%a, %a) <{foo = 1 : i64}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = "stablehlo.transpose"(%0) <{foo = 1 : i64}> : (tensor<4xf32>) -> tensor<4xf32>
  %2 = "stablehlo.iota"() <{iota_dimenson = 0 : i64}> : () -> tensor<4xi32>
  %3 = "stablehlo.iota"() <{iota_dimension = "x"}> : () -> tensor<4xi32>
  %4 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<4xi32>
  return %1 : tensor<4xf32>
}
"""


def test_custom_form_only_when_it_holds_every_property() -> None:
    # Parsing these is the parser's business and verifying them the verifier's (per-op checks);
    # the printer's rule is independent: never drop a property, never print unparsable text.
    m = parse_module(GENERIC_ODD, "t.mlir")
    out = print_module(m, PrintOptions())
    assert '"stablehlo.add"(%arg0, %arg0) <{foo = 1 : i64}>' in out
    assert '"stablehlo.transpose"(%0) <{foo = 1 : i64}>' in out
    assert '"stablehlo.iota"() <{iota_dimenson = 0 : i64}>' in out
    assert '"stablehlo.iota"() <{iota_dimension = "x"}>' in out
    assert "stablehlo.iota dim = 0 : tensor<4xi32>" in out
    again = print_module(parse_module(out, "t2.mlir"), PrintOptions())
    assert again == out
