"""StableHLO convolutions that are not plain 2-D ones lower as tt-mlir HEAD's patterns do, and the
TTIR computes what StableHLO specifies: a 1-D convolution (and a 2-D one with a size-1 spatial
dim) becomes `ttir.conv1d`, a batch_group_count > 1 becomes sliced convolutions concatenated, and a
negative padding a convolution with the padding clamped to 0, then a crop."""

from __future__ import annotations

import numpy as np
import pytest

from ttopt.ir.module import Module
from ttopt.parse.parser import parse_module
from ttopt.passes.context import PassContext
from ttopt.passes.registry import get_pass
from ttopt.testing.ttir_interpreter import conv_nchw, run


def _lower(text: str) -> Module:
    module = parse_module(text, "conv.mlir")
    get_pass("convert-stablehlo-to-ttir")().run(module, PassContext())  # type: ignore[misc]
    return module


def _names(module: Module) -> list[str]:
    return [op.name for op in module.walk() if op.name.startswith(("ttir.", "stablehlo."))]


def _reference(x, w, lhs, rhs, out, strides, pad, dil, fgc, bgc):  # type: ignore[no-untyped-def]
    """StableHLO's convolution by its definition: operands to (N, C, spatial...) and (O, I, spatial...),
    2-D via conv_nchw (a 1-D one with a unit width), negative padding as a crop of the input."""
    x, w = x.transpose(lhs), w.transpose(rhs)
    if x.ndim == 3:
        x, w, strides, dil, pad = x[..., None], w[..., None], [*strides, 1], [*dil, 1], [*pad, (0, 0)]
    crop = tuple(slice(-min(lo, 0), x.shape[2 + i] + min(hi, 0)) for i, (lo, hi) in enumerate(pad))
    x = x[(slice(None), slice(None), *crop)]
    pads = [(max(lo, 0), max(hi, 0)) for lo, hi in pad]
    xs, ws = np.split(x, bgc, axis=0), np.split(w, bgc, axis=0)
    y = np.concatenate([conv_nchw(a, b, strides, pads, dil, fgc) for a, b in zip(xs, ws)], axis=1)
    if len(out) == 3:
        y = y[..., 0]
    return y.transpose([out.index(i) for i in range(len(out))])


CONV1D = """
func.func @main(%x: tensor<1x256x20xf32>, %w: tensor<64x256x3xf32>) -> tensor<1x64x10xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0],
    window = {stride = [2], pad = [[1, 0]], rhs_dilate = [1],} {batch_group_count = 1 : i64, feature_group_count = 1 : i64}
    : (tensor<1x256x20xf32>, tensor<64x256x3xf32>) -> tensor<1x64x10xf32>
  return %0 : tensor<1x64x10xf32>
}
"""

DEGENERATE = """
func.func @main(%x: tensor<1x8x1x20xf32>, %w: tensor<8x1x1x4xf32>) -> tensor<1x8x1x23xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1],
    window = {stride = [1, 1], pad = [[0, 0], [3, 3]]} {batch_group_count = 1 : i64, feature_group_count = 8 : i64}
    : (tensor<1x8x1x20xf32>, tensor<8x1x1x4xf32>) -> tensor<1x8x1x23xf32>
  return %0 : tensor<1x8x1x23xf32>
}
"""

# The size-1 dim is padded: its output has extent 3, so it is a genuine 2-D convolution.
PADDED_UNIT_DIM = """
func.func @main(%x: tensor<1x8x1x20xf32>, %w: tensor<8x1x1x4xf32>) -> tensor<1x8x3x17xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1],
    window = {pad = [[1, 1], [0, 0]]} {batch_group_count = 1 : i64, feature_group_count = 8 : i64}
    : (tensor<1x8x1x20xf32>, tensor<8x1x1x4xf32>) -> tensor<1x8x3x17xf32>
  return %0 : tensor<1x8x3x17xf32>
}
"""

POINTWISE = """
func.func @main(%x: tensor<1x8x1x1xf32>, %w: tensor<16x8x1x1xf32>) -> tensor<1x16x1x1xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {}
    {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x1x1xf32>, tensor<16x8x1x1xf32>) -> tensor<1x16x1x1xf32>
  return %0 : tensor<1x16x1x1xf32>
}
"""

BATCH_GROUPS_1D = """
func.func @main(%x: tensor<2x9x12xf32>, %w: tensor<2x3x8xf32>) -> tensor<3x2x8xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [f, 0, b]x[i, 0, o]->[0, b, f],
    window = {stride = [1], pad = [[0, 0]]} {batch_group_count = 4 : i64, feature_group_count = 1 : i64}
    : (tensor<2x9x12xf32>, tensor<2x3x8xf32>) -> tensor<7x3x8xf32>
  return %0 : tensor<7x3x8xf32>
}
""".replace("-> tensor<3x2x8xf32>", "-> tensor<7x3x8xf32>")

BATCH_GROUPS_2D = """
func.func @main(%x: tensor<2x4x6x6xf32>, %w: tensor<16x4x3x3xf32>) -> tensor<1x16x6x6xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1],
    window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 2 : i64, feature_group_count = 1 : i64}
    : (tensor<2x4x6x6xf32>, tensor<16x4x3x3xf32>) -> tensor<1x16x6x6xf32>
  return %0 : tensor<1x16x6x6xf32>
}
"""

NEGATIVE_PADDING = """
func.func @main(%x: tensor<3x10x9x2xf32>, %w: tensor<3x3x3x5xf32>) -> tensor<7x4x2x5xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f],
    window = {pad = [[0, -1], [-2, 1]], rhs_dilate = [1, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64}
    : (tensor<3x10x9x2xf32>, tensor<3x3x3x5xf32>) -> tensor<7x4x2x5xf32>
  return %0 : tensor<7x4x2x5xf32>
}
"""

# A negative padding along a strided dim: the input is cropped (an output crop is exact only at stride 1).
NEGATIVE_PADDING_STRIDED = """
func.func @main(%x: tensor<1x2x10xf32>, %w: tensor<3x2x3xf32>) -> tensor<1x3x4xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0],
    window = {stride = [2], pad = [[-2, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64}
    : (tensor<1x2x10xf32>, tensor<3x2x3xf32>) -> tensor<1x3x4xf32>
  return %0 : tensor<1x3x4xf32>
}
"""

# The size-1 dim is padded but its output still has extent 1 (stride 2): the window reads the
# padding zero, so it stays a 2-D convolution.
PADDED_UNIT_DIM_STRIDED = """
func.func @main(%x: tensor<1x8x1x20xf32>, %w: tensor<8x1x1x4xf32>) -> tensor<1x8x1x17xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1],
    window = {stride = [2, 1], pad = [[1, 0], [0, 0]]} {batch_group_count = 1 : i64, feature_group_count = 8 : i64}
    : (tensor<1x8x1x20xf32>, tensor<8x1x1x4xf32>) -> tensor<1x8x1x17xf32>
  return %0 : tensor<1x8x1x17xf32>
}
"""

CASES = {
    # name: (text, window: strides, pad, rhs dilation, feature groups, batch groups, layouts)
    "conv1d": (CONV1D, [2], [(1, 0)], [1], 1, 1, ([0, 1, 2], [0, 1, 2], [0, 1, 2])),
    "degenerate": (DEGENERATE, [1, 1], [(0, 0), (3, 3)], [1, 1], 8, 1, ([0, 1, 2, 3], [0, 1, 2, 3], [0, 1, 2, 3])),
    "padded_unit_dim": (PADDED_UNIT_DIM, [1, 1], [(1, 1), (0, 0)], [1, 1], 8, 1, ([0, 1, 2, 3], [0, 1, 2, 3], [0, 1, 2, 3])),
    "pointwise": (POINTWISE, [1, 1], [(0, 0), (0, 0)], [1, 1], 1, 1, ([0, 1, 2, 3], [0, 1, 2, 3], [0, 1, 2, 3])),
    "batch_groups_1d": (BATCH_GROUPS_1D, [1], [(0, 0)], [1], 1, 4, ([2, 0, 1], [2, 0, 1], [1, 2, 0])),
    "batch_groups_2d": (BATCH_GROUPS_2D, [1, 1], [(1, 1), (1, 1)], [1, 1], 1, 2, ([0, 1, 2, 3], [0, 1, 2, 3], [0, 1, 2, 3])),
    "negative_padding_strided": (NEGATIVE_PADDING_STRIDED, [2], [(-2, 1)], [1], 1, 1, ([0, 1, 2], [0, 1, 2], [0, 1, 2])),
    "padded_unit_dim_strided": (PADDED_UNIT_DIM_STRIDED, [2, 1], [(1, 0), (0, 0)], [1, 1], 8, 1, ([0, 1, 2, 3], [0, 1, 2, 3], [0, 1, 2, 3])),
    "negative_padding": (NEGATIVE_PADDING, [1, 1], [(0, -1), (-2, 1)], [1, 2], 1, 1, ([3, 0, 1, 2], [3, 0, 1, 2], [2, 3, 0, 1])),
}

EXPECTED = {
    "conv1d": {"ttir.conv1d": 1, "ttir.conv2d": 0},
    "degenerate": {"ttir.conv1d": 1, "ttir.conv2d": 0},
    "padded_unit_dim": {"ttir.conv1d": 0, "ttir.conv2d": 1},
    "pointwise": {"ttir.conv1d": 0, "ttir.conv2d": 1},
    "batch_groups_1d": {"ttir.conv1d": 4, "ttir.slice_static": 8, "ttir.concat": 1},
    "batch_groups_2d": {"ttir.conv2d": 2, "ttir.conv1d": 0, "ttir.slice_static": 4, "ttir.concat": 1},
    "negative_padding": {"ttir.conv2d": 1, "ttir.slice_static": 1},
    "negative_padding_strided": {"ttir.conv1d": 1, "ttir.slice_static": 1},
    "padded_unit_dim_strided": {"ttir.conv1d": 0, "ttir.conv2d": 1},
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_lowered_convolution_has_heads_ops_and_stablehlos_values(name: str) -> None:
    text, strides, pad, dil, fgc, bgc, (lhs, rhs, out) = CASES[name]
    module = _lower(text)
    names = _names(module)
    assert not [n for n in names if n.startswith("stablehlo.")]
    for op_name, count in EXPECTED[name].items():
        assert names.count(op_name) == count, (op_name, names)
    func = next(iter(module.functions()))
    shapes = [a.type.resolve().shape for a in func.regions[0].blocks[0].args]
    rng = np.random.default_rng(1)
    x, w = (rng.standard_normal(s).astype(np.float32) for s in shapes)
    (got,) = run(module, "main", [x, w])
    want = _reference(x, w, lhs, rhs, out, strides, pad, dil, fgc, bgc)
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-4)


def test_batch_group_slices_come_before_the_convolutions() -> None:
    """HEAD slices every group first, then convolves (its lit tests count the slices, then the convs)."""
    names = [n for n in _names(_lower(BATCH_GROUPS_1D)) if n in ("ttir.slice_static", "ttir.conv1d")]
    assert names == ["ttir.slice_static"] * 8 + ["ttir.conv1d"] * 4


def test_negative_padding_crops_after_a_zero_padded_convolution() -> None:
    module = _lower(NEGATIVE_PADDING)
    conv = next(op for op in module.walk() if op.name == "ttir.conv2d")
    assert list(conv.get_attr("padding").resolve().values) == [0, 0, 0, 1]
    crop = next(op for op in module.walk() if op.name == "ttir.slice_static")
    assert crop.results[0].type.resolve().shape == (7, 4, 2, 5)
