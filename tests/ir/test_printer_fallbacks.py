"""A custom form prints only what it can say in full; otherwise the op prints generic, so the
printed module reads back as the one that was parsed."""

from __future__ import annotations

import pytest

from ttopt.ir.printer import PrintOptions, print_module
from ttopt.parse.parser import parse_module


def _reprint(text: str) -> str:
    return print_module(parse_module(text), PrintOptions())


@pytest.mark.parametrize(
    "callee",
    ["@g::@h", '"g"'],
)
def test_call_with_a_callee_that_is_no_flat_symbol_prints_generic(callee: str) -> None:
    text = (
        "func.func @f(%arg0: tensor<f32>) -> tensor<f32> {\n"
        f'  %0 = "func.call"(%arg0) <{{callee = {callee}}}> : (tensor<f32>) -> tensor<f32>\n'
        "  return %0 : tensor<f32>\n"
        "}\n"
    )
    printed = _reprint(text)
    assert f'%0 = "func.call"(%arg0) <{{callee = {callee}}}> : (tensor<f32>) -> tensor<f32>\n' in printed
    assert _reprint(printed) == printed


def test_custom_call_target_that_is_no_string_prints_generic() -> None:
    text = (
        "func.func @f(%arg0: tensor<f32>) -> tensor<f32> {\n"
        '  %0 = "stablehlo.custom_call"(%arg0) <{call_target_name = @t}> : (tensor<f32>) -> tensor<f32>\n'
        "  return %0 : tensor<f32>\n"
        "}\n"
    )
    assert '"stablehlo.custom_call"(%arg0) <{call_target_name = @t}>' in _reprint(text)


def test_flat_callee_keeps_the_custom_form() -> None:
    text = (
        "func.func @f(%arg0: tensor<f32>) -> tensor<f32> {\n"
        '  %0 = "func.call"(%arg0) <{callee = @"g-1"}> : (tensor<f32>) -> tensor<f32>\n'
        '  %1 = "stablehlo.custom_call"(%0) <{call_target_name = "t 2"}> : (tensor<f32>) -> tensor<f32>\n'
        "  return %1 : tensor<f32>\n"
        "}\n"
    )
    printed = _reprint(text)
    assert '%0 = call @"g-1"(%arg0) : (tensor<f32>) -> tensor<f32>\n' in printed
    assert '%1 = stablehlo.custom_call @"t 2"(%0) : (tensor<f32>) -> tensor<f32>\n' in printed


@pytest.mark.parametrize("sizes", ["array<i32: 1, 0>", "array<i32: 2>", "array<i32: 1, 1, 0>"])
def test_d2m_subgraph_with_a_split_not_covering_its_operands_prints_generic(sizes: str) -> None:
    text = (
        "func.func private @k(tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>\n"
        "func.func @f(%a: tensor<4xf32>, %o: tensor<4xf32>) -> tensor<4xf32> {\n"
        f'  %0 = "ttnn.d2m_subgraph"(%a, %o) <{{d2m_func = @k, operandSegmentSizes = {sizes}}}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>\n'
        "  return %0 : tensor<4xf32>\n"
        "}\n"
    )
    printed = _reprint(text)
    assert f'"ttnn.d2m_subgraph"(%arg0, %arg1) <{{d2m_func = @k, operandSegmentSizes = {sizes}}}>' in printed
