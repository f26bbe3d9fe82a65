"""ttir.index becomes ttir.slice_static over every dimension (tt-mlir's IndexOp decomposition), and
ttir.upsample2d lowers to ttnn.upsample with its scale factor and mode (YOLOv8's forms)."""

from __future__ import annotations

import numpy as np

from ttopt.lowering.ttir_decomposition import decompose
from ttopt.parse.parser import parse_module
from ttopt.testing.ttir_interpreter import run
from ttopt.testing.ttnn_outputs import BACKEND, run_pipeline

INDEX = """
func.func @main(%x: tensor<1x160x8x8xf32>) -> (tensor<1x80x8x8xf32>, tensor<1x40x8x8xf32>) {
  %0 = "ttir.index"(%x) <{begin = 80 : i32, dim = 1 : i32, end = 160 : i32, step = 1 : i32}> : (tensor<1x160x8x8xf32>) -> tensor<1x80x8x8xf32>
  %1 = "ttir.index"(%x) <{begin = -80 : i32, dim = -3 : i32, end = 160 : i32, step = 2 : i32}> : (tensor<1x160x8x8xf32>) -> tensor<1x40x8x8xf32>
  return %0, %1 : tensor<1x80x8x8xf32>, tensor<1x40x8x8xf32>
}
"""

UPSAMPLE = """
func.func @main(%x: tensor<1x20x20x64xbf16>) -> tensor<1x40x40x64xbf16> {
  %0 = "ttir.upsample2d"(%x) <{mode = "nearest", scale_factor = 2 : si32}> {channel_last = true} : (tensor<1x20x20x64xbf16>) -> tensor<1x40x40x64xbf16>
  return %0 : tensor<1x40x40x64xbf16>
}
"""


def test_index_is_a_static_slice_with_the_same_values() -> None:
    module = parse_module(INDEX, "index.mlir")
    assert decompose(module) == {"ttir.index": 2}
    slices = [op for op in module.walk() if op.name == "ttir.slice_static"]
    assert [s.properties["begins"].text for s in slices] == ["[0 : i32, 80 : i32, 0 : i32, 0 : i32]"] * 2
    assert slices[1].properties["step"].text == "[1 : i32, 2 : i32, 1 : i32, 1 : i32]"
    x = np.arange(160 * 64, dtype=np.float32).reshape(1, 160, 8, 8)
    a, b = run(module, "main", [x])
    np.testing.assert_array_equal(a, x[:, 80:160])
    np.testing.assert_array_equal(b, x[:, 80:160:2])


def test_upsample2d_lowers_to_ttnn_upsample() -> None:
    module = run_pipeline(UPSAMPLE, "upsample.mlir", BACKEND.format(""))
    (op,) = [o for o in module.walk() if o.name == "ttnn.upsample"]
    assert op.properties["scale_factor"].text == "2 : si32"
    assert op.properties["mode"].text == '"nearest"'
    assert op.results[0].type.resolve().shape == (1, 40, 40, 64)
