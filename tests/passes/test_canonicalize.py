"""canonicalize: dead pure ops unravel transitively; side effects and uses are kept."""

from __future__ import annotations

from ttopt.ir.printer import print_module
from ttopt.parse.parser import parse_module
from ttopt.passes.canonicalize import Canonicalize
from ttopt.passes.context import PassContext


def _run(text: str) -> tuple[str, dict]:
    m = parse_module(text)
    ctx = PassContext()
    Canonicalize().run(m, ctx)
    return print_module(m), ctx.stats["canonicalize"]


def test_dead_chain_is_removed_in_one_run() -> None:
    out, fired = _run(
        "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
        "  %0 = stablehlo.abs %a : tensor<4xf32>\n"
        "  %1 = stablehlo.negate %0 : tensor<4xf32>\n"
        "  %2 = stablehlo.exponential %1 : tensor<4xf32>\n"
        "  return %a : tensor<4xf32>\n}\n"
    )
    assert "stablehlo" not in out
    assert fired == {"erase-dead-pure-op": 3}


def test_unknown_and_effectful_ops_stay() -> None:
    out, fired = _run(
        "func.func @f(%a: tensor<4xf32>) {\n"
        '  %0 = "my.op"(%a) : (tensor<4xf32>) -> tensor<4xf32>\n'
        '  %1 = "ttnn.to_layout"(%a) : (tensor<4xf32>) -> tensor<4xf32>\n'
        "  return\n}\n"
    )
    assert '"my.op"' in out and "to_layout" not in out
    assert fired == {"fold-identity-conversion": 1}


def test_identity_conversion_rewires_users() -> None:
    out, _ = _run(
        "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
        '  %0 = "ttnn.to_layout"(%a) : (tensor<4xf32>) -> tensor<4xf32>\n'
        '  %1 = "ttnn.relu"(%0) : (tensor<4xf32>) -> tensor<4xf32>\n'
        "  return %1 : tensor<4xf32>\n}\n"
    )
    assert '"ttnn.relu"(%arg0)' in out


def test_dead_ops_around_and_inside_region_ops_go_and_the_rest_keep_their_order() -> None:
    out, fired = _run(
        "func.func @f(%a: tensor<4xf32>) -> tensor<f32> {\n"
        "  %d0 = stablehlo.abs %a : tensor<4xf32>\n"
        "  %z = stablehlo.constant dense<0.0> : tensor<f32>\n"
        "  %d1 = stablehlo.negate %a : tensor<4xf32>\n"
        "  %r = stablehlo.reduce(%a init: %z) across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>\n"
        "    reducer(%x: tensor<f32>, %y: tensor<f32>) {\n"
        "      %dead = stablehlo.multiply %x, %y : tensor<f32>\n"
        "      %s = stablehlo.add %x, %y : tensor<f32>\n"
        "      stablehlo.return %s : tensor<f32>\n"
        "    }\n"
        "  %d2 = stablehlo.exponential %a : tensor<4xf32>\n"
        "  %n = stablehlo.negate %r : tensor<f32>\n"
        "  return %n : tensor<f32>\n}\n"
    )
    assert fired == {"erase-dead-pure-op": 4}
    # The reducer lost its dead multiply, so it prints in the short `applies` form.
    assert out.splitlines()[2:-2] == [
        "    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>",
        "    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>",
        "    %1 = stablehlo.negate %0 : tensor<f32>",
        "    return %1 : tensor<f32>",
    ]
