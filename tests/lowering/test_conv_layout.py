"""A conv2d in NCHW (channel_dim = 1) is permuted to NHWC and back before it lowers (tt-mlir's
channel-last decomposition): the decomposed TTIR computes the NCHW convolution, and the backend
pipeline lowers it."""

from __future__ import annotations

import numpy as np

from ttopt.lowering.ttir_decomposition import decompose
from ttopt.parse.parser import parse_module
from ttopt.testing.ttir_interpreter import conv_nchw, run
from ttopt.testing.ttnn_outputs import BACKEND, run_pipeline

NCHW = """
func.func @main(%x: tensor<2x3x9x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<1x4x1x1xf32>) -> tensor<2x4x5x4xf32> {
  %0 = "ttir.conv2d"(%x, %w, %b) <{batch_dim = 0 : i64, channel_dim = 1 : i64, dilation = array<i32: 1, 1>, groups = 1 : i32, height_dim = 2 : i64, padding = array<i32: 1, 1, 1, 1>, stride = array<i32: 2, 2>, width_dim = 3 : i64}> : (tensor<2x3x9x8xf32>, tensor<4x3x3x3xf32>, tensor<1x4x1x1xf32>) -> tensor<2x4x5x4xf32>
  return %0 : tensor<2x4x5x4xf32>
}
"""


def test_nchw_conv_becomes_permutes_around_an_nhwc_conv_with_the_same_values() -> None:
    module = parse_module(NCHW, "nchw.mlir")
    assert decompose(module) == {"ttir.conv2d": 1}
    ops = [op for op in module.walk() if op.name.startswith("ttir.")]
    assert [op.name for op in ops] == ["ttir.permute", "ttir.permute", "ttir.conv2d", "ttir.permute"]
    conv = ops[2]
    assert not any(k in conv.properties for k in ("batch_dim", "height_dim", "width_dim", "channel_dim"))
    assert conv.results[0].type.resolve().shape == (2, 5, 4, 4)
    rng = np.random.default_rng(0)
    x, w, b = (rng.standard_normal(s).astype(np.float32) for s in ((2, 3, 9, 8), (4, 3, 3, 3), (1, 4, 1, 1)))
    (got,) = run(module, "main", [x, w, b])
    want = conv_nchw(x, w, [2, 2], [(1, 1), (1, 1)], [1, 1], 1) + b
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_nchw_conv_lowers_through_the_backend_pipeline() -> None:
    module = run_pipeline(NCHW.replace("xf32", "xbf16"), "nchw.mlir", BACKEND.format("optimization-level=2"))
    names = [op.name for op in module.walk() if op.name.startswith("ttnn.") and op.name not in ("ttnn.deallocate", "ttnn.get_device")]
    assert names.count("ttnn.conv2d") == 1
    # input to NHWC and the result back; the bias's (1, 4, 1, 1) -> (1, 1, 1, 4) moves only size-1
    # dims, which tt-mlir's permute canonicalization writes as a reshape
    assert names.count("ttnn.permute") == 2
