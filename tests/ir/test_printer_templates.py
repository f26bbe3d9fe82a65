"""Region-free ops in custom form print from a per-print template (Printer._custom_line) filled
with their operand names: every op must print as its format prints it."""

from __future__ import annotations

from textwrap import indent

from ttopt.ir.printer import Printer, PrintOptions, print_module
from ttopt.parse.parser import parse_module


def _func(body: str) -> str:
    return (
        "func.func @f(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>) -> tensor<4xf32> {\n"
        f"{body}"
        "  return %arg0 : tensor<4xf32>\n"
        "}\n"
    )


def _by_format(text: str) -> list[str]:
    """Each op line as the op's format prints it, without templates."""
    m = parse_module(text)
    p = Printer(m, PrintOptions())
    p._assign_names(m.op)
    out = []
    for op in m.op.walk():
        if not op.regions and op.opdef is not None and op.opdef.format is not None:
            out.append(p.custom(op, op.opdef.format, "  "))
    return out


def test_repeated_and_distinct_operands_share_a_form() -> None:
    body = (
        "  %0 = stablehlo.add %arg0, %arg1 : tensor<4xf32>\n"
        "  %1 = stablehlo.add %0, %0 : tensor<4xf32>\n"
        "  %2 = stablehlo.add %1, %arg0 : tensor<4xf32>\n"
        "  %3 = stablehlo.add %2, %2 : tensor<4xf32>\n"
    )
    printed = print_module(parse_module(_func(body)))
    assert indent(body, "  ") in printed
    lines = [line.strip().partition(" = ")[2] for line in body.splitlines()]
    assert _by_format(_func(body))[:4] == lines


def test_attributes_and_types_key_the_form() -> None:
    body = (
        "  %0 = stablehlo.add %arg0, %arg1 {a = 1 : i32} : tensor<4xf32>\n"
        "  %1 = stablehlo.add %0, %arg1 {a = 2 : i32} : tensor<4xf32>\n"
        "  %2 = stablehlo.add %1, %arg1 {a = 1 : i32} : tensor<4xf32>\n"
        "  %3 = stablehlo.convert %2 : (tensor<4xf32>) -> tensor<4xbf16>\n"
        "  %4 = stablehlo.convert %2 : (tensor<4xf32>) -> tensor<4xf16>\n"
    )
    assert indent(body, "  ") in print_module(parse_module(_func(body)))


def test_an_op_that_prints_generic_stays_generic() -> None:
    line = '  %{0} = "func.call"(%arg0) <{{callee = @g::@h}}> : (tensor<4xf32>) -> tensor<4xf32>\n'
    body = line.format(0) + line.format(1)
    printed = print_module(parse_module(_func(body)))
    assert indent(body, "  ") in printed


def test_the_same_op_at_two_indents() -> None:
    """Templates are kept per indent and default dialect: the same op in a nested region and at
    function level prints with each place's indent."""
    text = (
        "func.func @f(%arg0: tensor<4xf32>) -> tensor<f32> {\n"
        "  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>\n"
        "  %0 = stablehlo.reduce(%arg0 init: %cst) across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>\n"
        "   reducer(%arg1: tensor<f32>, %arg2: tensor<f32>)  {\n"
        "    %2 = stablehlo.maximum %arg1, %arg2 : tensor<f32>\n"
        "    %3 = stablehlo.minimum %2, %arg2 : tensor<f32>\n"
        "    stablehlo.return %3 : tensor<f32>\n"
        "  }\n"
        "  %1 = stablehlo.maximum %0, %0 : tensor<f32>\n"
        "  return %1 : tensor<f32>\n"
        "}\n"
    )
    assert print_module(parse_module(text)) == "module {\n" + indent(text, "  ") + "}\n"


def test_nul_characters_in_strings_are_not_placeholders() -> None:
    """A line template finds operand names by printing placeholders; a string attribute holding
    NULs (kept as written), even spelled like one, prints as it is."""
    body = (
        '  %0 = stablehlo.add %arg0, %arg1 {a = "x\x00y"} : tensor<4xf32>\n'
        '  %1 = stablehlo.add %0, %arg1 {a = "x\x000\x00y"} : tensor<4xf32>\n'
        '  %2 = stablehlo.negate %1 {a = "\x001\x00", b = "\x00\x00"} : tensor<4xf32>\n'
    )
    assert indent(body, "  ") in print_module(parse_module(_func(body)))
