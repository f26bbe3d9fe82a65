"""ttir.rms_norm / layer_norm -> ttnn.rms_norm / layer_norm as HEAD's ODS declares them: optional
weight and bias with `operandSegmentSizes`, the epsilon attribute as the input spells it."""

from __future__ import annotations

import pytest

from ttopt.testing.ttnn_outputs import BACKEND, run_pipeline

NORM = """
func.func @main(%x: tensor<32x2048xbf16>, %w: tensor<2048xbf16>, %b: tensor<2048xbf16>) -> tensor<32x2048xbf16> {{
  %0 = "ttir.{name}"(%x, %w{bias}) <{{epsilon = 9.99999974E-6 : f32, normalized_shape = array<i64: 2048>, operandSegmentSizes = array<i32: {segments}>}}> : ({types}) -> tensor<32x2048xbf16>
  return %0 : tensor<32x2048xbf16>
}}
"""


@pytest.mark.parametrize("name", ["rms_norm", "layer_norm"])
@pytest.mark.parametrize("with_bias", [False, True])
def test_norm_keeps_its_operand_segments_and_epsilon(name: str, with_bias: bool) -> None:
    segments = "1, 1, 1" if with_bias else "1, 1, 0"
    types = "tensor<32x2048xbf16>, tensor<2048xbf16>" + (", tensor<2048xbf16>" if with_bias else "")
    text = NORM.format(name=name, bias=", %b" if with_bias else "", segments=segments, types=types)
    module = run_pipeline(text, "norm.mlir", BACKEND.format(""))
    (op,) = [o for o in module.walk() if o.name == f"ttnn.{name}"]
    assert op.properties["operandSegmentSizes"].text == f"array<i32: {segments}>"
    assert op.properties["epsilon"].text == "9.99999974E-6 : f32"
    assert len(op.operands) == (3 if with_bias else 2)
