"""StableHLO custom-syntax forms that MLIR's StableHLO parser accepts beyond the usual spelling:
a constant written with a generic body after its bare name, and a comma after the last window
option of a convolution. Both lexing paths (whole-op and piecewise) read them alike."""

from __future__ import annotations

import pytest

from ttopt.ir.diagnostics import Diagnostic
from ttopt.ir.printer import print_module
from ttopt.ir.verifier import verify
from ttopt.parse import lexer
from ttopt.parse.parser import parse_module

GENERIC_CONSTANT = """func.func @f() -> tensor<2xi64> {
  %0 = stablehlo.constant() <{value = dense<[3, 4]> : tensor<2xi64>}> : () -> tensor<2xi64>
  return %0 : tensor<2xi64>
}
"""

CONV_TRAILING_COMMA = """func.func @f(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x6xf32>) -> tensor<1x8x8x6xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
    window = {
      stride = [1, 1],
      pad = [[1, 1], [1, 1]],
    } {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x4x6xf32>) -> tensor<1x8x8x6xf32>
  return %0 : tensor<1x8x8x6xf32>
}
"""


def _parse(text: str, fast: bool) -> str:
    saved = lexer.FAST_LINES
    lexer.FAST_LINES = fast
    try:
        module = parse_module(text, "in.mlir")
        verify(module)
        return print_module(module)
    except Diagnostic as e:
        return e.render()
    finally:
        lexer.FAST_LINES = saved


@pytest.mark.parametrize("fast", [False, True])
def test_constant_with_a_generic_body_is_the_usual_constant(fast: bool) -> None:
    printed = _parse(GENERIC_CONSTANT, fast)
    assert "stablehlo.constant dense<[3, 4]> : tensor<2xi64>" in printed
    assert printed == _parse(GENERIC_CONSTANT.replace("stablehlo.constant() <{value = dense<[3, 4]> : tensor<2xi64>}> : () -> tensor<2xi64>",
                                                      "stablehlo.constant dense<[3, 4]> : tensor<2xi64>"), fast)  # fmt: skip


@pytest.mark.parametrize("fast", [False, True])
def test_generic_body_constant_without_its_value_is_an_error(fast: bool) -> None:
    bad = GENERIC_CONSTANT.replace("<{value = dense<[3, 4]> : tensor<2xi64>}> ", "")
    assert "error: 'stablehlo.constant' op requires attribute 'value'" in _parse(bad, fast)


def test_only_ops_whose_parser_takes_it_accept_a_generic_body() -> None:
    bad = GENERIC_CONSTANT.replace("stablehlo.constant()", "stablehlo.add()")
    assert "error:" in _parse(bad, False)


@pytest.mark.parametrize("fast", [False, True])
def test_window_takes_a_comma_after_its_last_option(fast: bool) -> None:
    printed = _parse(CONV_TRAILING_COMMA, fast)
    assert "window = {stride = [1, 1], pad = [[1, 1], [1, 1]]}" in printed
    assert "error" not in printed
