"""A body a custom form implies has the op's location, as MLIR's parser gives it (checked with jaxlib:
`--mlir-print-op-generic --mlir-print-debuginfo` output reads back as the same locations)."""

from __future__ import annotations

from ttopt.ir.printer import PrintOptions, print_module
from ttopt.parse.parser import parse_module

COMPACT = """func.func @main(%arg0: tensor<4x6xf32>) -> tensor<6xf32> {
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<4x6xf32>, tensor<f32>) -> tensor<6xf32> loc(#red)
  return %0 : tensor<6xf32>
}
#red = loc("red")
"""

WRITTEN = """func.func @main(%arg0: tensor<4x6xf32>) -> tensor<6xf32> {
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %0 = stablehlo.reduce(%arg0 init: %cst) across dimensions = [0] : (tensor<4x6xf32>, tensor<f32>) -> tensor<6xf32>
   reducer(%a: tensor<f32>, %b: tensor<f32>)  {
    %1 = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  } loc("red")
  return %0 : tensor<6xf32>
}
"""


def _reduce(text: str):  # type: ignore[no-untyped-def]
    m = parse_module(text, "m.mlir")
    return m, next(op for op in m.walk() if op.name == "stablehlo.reduce")


def test_applies_body_takes_the_reduce_location() -> None:
    m, red = _reduce(COMPACT)
    block = red.regions[0].blocks[0]
    assert [o.location.text for o in block.ops] == ["loc(#red)", "loc(#red)"]
    assert [a.location.text for a in block.args] == ["loc(#red)", "loc(#red)"]
    generic = print_module(m, PrintOptions(generic=True, debuginfo=True))
    assert "^bb0(%arg1: tensor<f32> loc(#red), %arg2: tensor<f32> loc(#red)):" in generic
    assert '"stablehlo.add"(%arg1, %arg2) : (tensor<f32>, tensor<f32>) -> tensor<f32> loc(#red)' in generic


def test_a_written_body_keeps_its_own_positions() -> None:
    _, red = _reduce(WRITTEN)
    block = red.regions[0].blocks[0]
    assert all(o.location is None and o.pos is not None for o in block.ops)
    assert all(a.location is None for a in block.args)
