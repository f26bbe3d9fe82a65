"""TTIR -> TTNN forms as tt-mlir HEAD emits them: quantized types and ops, conv3d's default config
and weight preparation, linear biases tt-metal cannot fuse, group_norm's channel padding, argmax
over all or several dimensions, batch_norm_training, and the canonicalizer's constant hoisting."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ttopt.ir.diagnostics import Diagnostic
from ttopt.ir.types import OpaqueType
from ttopt.lowering.quant_types import parse_uniform, respelled
from ttopt.lowering.ttir_decomposition import hoist_constants
from ttopt.lowering.ttnn_conv3d import c_in_block, prepared_weight_shape
from ttopt.lowering.ttnn_group_norm import _padded_channels
from ttopt.lowering.ttnn_linear import bias_stays_fused, matmul_shape
from ttopt.parse.parser import parse_module
from ttopt.testing.ttnn_outputs import BACKEND, run_pipeline


def _ops(module, name):  # type: ignore[no-untyped-def]
    return [o for o in module.walk() if o.name == name]


# -- quantized types -------------------------------------------------------------------------------
def test_uniform_types_print_as_mlir_prints_them() -> None:
    assert parse_uniform("!quant.uniform<i32:f32, 0.1>").mlir_text == "!quant.uniform<i32:f32, 1.000000e-01>"  # type: ignore[union-attr]
    per_axis = parse_uniform("!quant.uniform<i8:f32:1, {0.1:10, 0.2, 0.3:-3}>")
    assert per_axis is not None and per_axis.axis == 1 and per_axis.params == ((0.1, 10), (0.2, 0), (0.3, -3))
    assert per_axis.mlir_text == "!quant.uniform<i8:f32:1, {1.000000e-01:10,2.000000e-01,3.000000e-01:-3}>"
    assert parse_uniform("f32") is None
    assert parse_uniform("!quant.uniform<i8:f32:1, 0.1>") is None  # an axis needs per-axis parameters
    assert respelled(OpaqueType("!quant.uniform<i32:f32, 2.0e-2>")).text == "!quant.uniform<i32:f32, 2.000000e-02>"  # type: ignore[attr-defined]


@given(st.lists(st.tuples(st.floats(1e-6, 1e3), st.integers(-128, 127)), min_size=1, max_size=4), st.integers(0, 3))
def test_uniform_text_round_trips(params: list[tuple[float, int]], axis: int) -> None:
    body = ",".join(f"{s!r}:{z}" for s, z in params)
    q = parse_uniform(f"!quant.uniform<i8:f32:{axis}, {{{body}}}>")
    assert q is not None
    again = parse_uniform(q.mlir_text)
    assert again is not None and again.mlir_text == q.mlir_text and again.axis == axis
    assert [z for _, z in again.params] == [z for _, z in params]


QUANT = """
func.func @main(%x: tensor<1x3x32x32xf32>) -> tensor<1x3x32x32xf32> {
  %q = "ttir.quantize"(%x) : (tensor<1x3x32x32xf32>) -> tensor<1x3x32x32x!quant.uniform<i8:f32, 0.1>>
  %d = "ttir.dequantize"(%q) : (tensor<1x3x32x32x!quant.uniform<i8:f32, 0.1>>) -> tensor<1x3x32x32xf32>
  return %d : tensor<1x3x32x32xf32>
}
"""


def test_quantize_then_dequantize_share_their_scale_and_zero_point_constants() -> None:
    m = run_pipeline(QUANT, "q.mlir", BACKEND.format("enable-const-eval=false"))
    (q,) = _ops(m, "ttnn.quantize")
    (d,) = _ops(m, "ttnn.dequantize")
    # the dequantize's constants equal the quantize's: the canonicalizer's uniquing merges them
    assert q.operands[1] is d.operands[1] and q.operands[2] is d.operands[2]
    assert q.properties["output_dtype"].text == "#ttcore.supportedDataTypes<u8>"
    assert d.properties["output_dtype"].text == "#ttcore.supportedDataTypes<f32>"
    assert "!ttcore.tile<32x32, u8>" in q.results[0].type.resolve().encoding.resolve().text  # the storage type's
    fills = sorted(o.properties["fill_value"].text for o in _ops(m, "ttnn.full"))
    assert fills == ["0 : i32", "1.000000e-01 : f32"]


# -- constants hoisted as the canonicalizer does ----------------------------------------------------
def test_constants_behind_other_ops_move_to_the_front_in_reverse_order() -> None:
    m = parse_module("""func.func @f(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %a = "ttir.constant"() <{value = dense<[1.0, 2.0]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %s = "ttir.add"(%x, %a) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %b = "ttir.constant"() <{value = dense<[3.0, 4.0]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %c = "ttir.constant"() <{value = dense<[5.0, 6.0]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %dup = "ttir.constant"() <{value = dense<[1.0, 2.0]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %dead = "ttir.constant"() <{value = dense<[7.0, 8.0]> : tensor<2xf32>}> : () -> tensor<2xf32>
  return %s, %c, %dup, %b : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}""")
    block = next(iter(m.functions())).regions[0].entry
    assert hoist_constants(block) == 1
    values = [o.properties["value"].text.split(" :")[0] if o.name == "ttir.constant" else o.name for o in block.ops]
    assert values == ["dense<[5.000000e+00, 6.000000e+00]>", "dense<[3.000000e+00, 4.000000e+00]>", "dense<[1.000000e+00, 2.000000e+00]>", "ttir.add", "func.return"]
    ret = block.ops[-1]
    assert ret.operands[2] is block.ops[2].results[0]  # the duplicate reads the first constant


# -- conv3d ----------------------------------------------------------------------------------------
@pytest.mark.parametrize(("kernel", "channels", "block"), [((3, 3, 3), 32, 32), ((1, 1, 1), 128, 32), ((2, 2, 2), 64, 16), ((3, 3, 3), 8, 8)])
def test_conv3d_default_c_in_block(kernel: tuple[int, int, int], channels: int, block: int) -> None:
    assert c_in_block(kernel, channels) == block


def test_prepared_conv3d_weight_is_aligned_input_channels_by_kernel_volume() -> None:
    assert prepared_weight_shape(128, 1, (3, 3, 3), 32) == (3456, 32)
    assert prepared_weight_shape(4, 1, (3, 3, 3), 16) == (864, 16)


def test_conv3d_weight_is_prepared_on_the_host_and_tiled() -> None:
    text = """func.func @main(%x: tensor<1x8x28x28x128xbf16>, %w: tensor<32x128x3x3x3xbf16>) -> tensor<1x6x26x26x32xbf16> {
  %0 = "ttir.conv3d"(%x, %w) <{stride = array<i32: 1, 1, 1>, padding = array<i32: 0, 0, 0>, groups = 1 : i32}> : (tensor<1x8x28x28x128xbf16>, tensor<32x128x3x3x3xbf16>) -> tensor<1x6x26x26x32xbf16>
  return %0 : tensor<1x6x26x26x32xbf16>
}"""
    m = run_pipeline(text, "c3.mlir", BACKEND.format(""))
    (prep,) = _ops(m, "ttnn.prepare_conv3d_weights")
    (conv,) = _ops(m, "ttnn.conv3d")
    assert "system_memory" in prep.operands[0].type.resolve().encoding.resolve().text
    assert "memref<3456x32xbf16, #dram>" in prep.results[0].type.resolve().encoding.resolve().text
    assert conv.operands[1].op.name == "ttnn.to_layout" and conv.operands[1].op.operands[0] is prep.results[0]
    assert "c_in_block = 32" in conv.properties["conv3d_config"].text
    assert "!ttcore.tile" not in conv.operands[0].type.resolve().encoding.resolve().text  # row-major input (HEAD's workaround)


# -- linear ----------------------------------------------------------------------------------------
def test_matmul_output_shape_follows_tt_metal() -> None:
    assert matmul_shape((128,), False, (128,), False) == (1,)
    assert matmul_shape((64, 128), True, (64, 128), False) == (128, 128)
    assert matmul_shape((3, 64, 128), False, (4, 3, 128, 32), False) == (4, 3, 64, 32)


@pytest.mark.parametrize(("b", "bias", "out", "fused"), [
    ((128, 64), (64,), (64, 64), True), ((128, 64), (64, 64), (64, 64), False), ((14, 1, 32, 64), (64,), (14, 7, 32, 64), False),
    ((128,), (128,), (1,), False), ((128,), (1,), (1,), True), ((128, 64), (1, 64), (64, 64), True),
])  # fmt: skip
def test_bias_stays_fused_only_as_a_row_bias_of_an_unbatched_weight(b: tuple, bias: tuple, out: tuple, fused: bool) -> None:
    assert bias_stays_fused(b, bias, out) is fused


# -- group norm ------------------------------------------------------------------------------------
@pytest.mark.parametrize(("c", "groups", "padded"), [(16, 2, 32), (80, 5, 96), (480, 8, 480), (96, 2, 96), (40, 8, 160)])
def test_group_norm_channels_pad_to_whole_groups(c: int, groups: int, padded: int) -> None:
    assert _padded_channels(c, groups) == padded


def test_group_norm_in_nchw_is_permuted_and_materializes_its_affine_parameters() -> None:
    text = """func.func @main(%x: tensor<1x480x4x8xbf16>) -> tensor<1x480x4x8xbf16> {
  %0 = "ttir.group_norm"(%x) <{num_groups = 8 : i64, epsilon = 1.000000e-05 : f32, channel_dim = 1 : i64, operandSegmentSizes = array<i32: 1, 0, 0, 0>}> : (tensor<1x480x4x8xbf16>) -> tensor<1x480x4x8xbf16>
  return %0 : tensor<1x480x4x8xbf16>
}"""
    m = run_pipeline(text, "gn.mlir", BACKEND.format("enable-const-eval=false enable-ttnn-decomposition-pass=false"))
    (gn,) = _ops(m, "ttnn.group_norm")
    assert gn.operands[0].type.resolve().shape == (1, 1, 32, 480)
    assert [v.type.resolve().shape for v in gn.operands[1:]] == [(1, 1, 15, 32), (1, 1, 15, 32)]
    # HEAD's group-norm workaround: the reshaped affine parameters are read row-major.
    assert [v.op.name for v in gn.operands[1:]] == ["ttnn.to_layout", "ttnn.to_layout"]
    assert [v.type.resolve().encoding.resolve().typed.is_tiled for v in gn.operands[1:]] == [False, False]
    assert [v.op.operands[0].op.operands[0].op.name for v in gn.operands[1:]] == ["ttnn.ones", "ttnn.zeros"]
    assert [o.properties["permutation"].text for o in _ops(m, "ttnn.permute")] == ["array<i64: 0, 2, 3, 1>", "array<i64: 0, 3, 1, 2>"]


GROUP_NORM = """func.func @main(%x: tensor<{n}x1x{s}x64xbf16>, %w: tensor<64xbf16>) -> tensor<{n}x1x{s}x64xbf16> {{
  %0 = "ttir.group_norm"(%x, %w) <{{num_groups = 4 : i64, epsilon = 1.000000e-05 : f32, operandSegmentSizes = array<i32: 1, 0, 1, 0>}}> : (tensor<{n}x1x{s}x64xbf16>, tensor<64xbf16>) -> tensor<{n}x1x{s}x64xbf16>
  return %0 : tensor<{n}x1x{s}x64xbf16>
}}"""


@pytest.mark.parametrize(("options", "n", "s", "fused"), [
    ("", 1, 64, False),  # without the op model every group norm decomposes
    ("enable-ttnn-decomposition-pass=false", 1, 50, True),
    ("optimization-level=1", 1, 64, True),  # whole tiles per sample: tt-metal's kernel is right
    ("optimization-level=1", 1, 50, False),
    ("optimization-level=2", 2, 16, False),  # N*H*W = 32 is whole tiles, each sample's 16 rows are not
])  # fmt: skip
def test_group_norm_decomposes_as_heads_ttnn_decomposition(options: str, n: int, s: int, fused: bool) -> None:
    m = run_pipeline(GROUP_NORM.format(n=n, s=s), "gn.mlir", BACKEND.format(f"enable-const-eval=false {options}"))
    assert bool(_ops(m, "ttnn.group_norm")) == fused
    if fused:
        return
    means = _ops(m, "ttnn.mean")
    assert [o.results[0].type.resolve().shape for o in means] == [(n, 1, 4, 1)] * 2
    assert all(o.properties["dim_arg"].text == "[1 : i32, 3 : i32]" for o in means)
    (eps,) = [o for o in _ops(m, "ttnn.full") if o.results[0].type.resolve().shape == (n, 1, 4, 1)]
    assert eps.properties["fill_value"].text == "9.99999974E-6 : f32"
    assert len(_ops(m, "ttnn.rsqrt")) == 1
    # the weight read as [1, 1, 1, C], the materialized zero bias added last
    reshapes = [o.results[0].type.resolve().shape for o in _ops(m, "ttnn.reshape")]
    assert (n, s, 4, 16) in reshapes and (1, 1, 1, 64) in reshapes


# -- argmax / batch_norm_training ------------------------------------------------------------------
def test_batch_norm_training_returns_the_updated_running_statistics() -> None:
    text = """func.func @main(%x: tensor<2x4x8x8xf32>, %s: tensor<4xf32>, %o: tensor<4xf32>, %m: tensor<4xf32>, %v: tensor<4xf32>) -> (tensor<2x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0:3 = "ttir.batch_norm_training"(%x, %s, %o, %m, %v) <{dimension = 1 : i32, epsilon = 1.000000e-05 : f32, momentum = 1.000000e-01 : f32}> : (tensor<2x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<2x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>)
  return %0#0, %0#1, %0#2 : tensor<2x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>
}"""
    m = run_pipeline(text, "bnt.mlir", BACKEND.format(""))
    (bn,) = _ops(m, "ttnn.batch_norm_training")
    ret = next(iter(m.functions())).regions[0].entry.ops[-1]
    assert ret.operands[0] is bn.results[0]
    # the batch statistics are the running-statistic operands, updated in place, reshaped back
    assert [r.op.operands[0] for r in ret.operands[1:]] == list(bn.operands[1:3])


def test_argmax_over_two_dimensions_outside_keep_dim_needs_no_final_reshape() -> None:
    text = """func.func @main(%x: tensor<2x4x32x32xf32>) -> tensor<2x32xi32> {
  %0 = "ttir.argmax"(%x) <{dim_arg = [1 : i32, -1 : i32], keep_dim = false}> : (tensor<2x4x32x32xf32>) -> tensor<2x32xi32>
  return %0 : tensor<2x32xi32>
}"""
    m = run_pipeline(text, "am.mlir", BACKEND.format(""))
    (am,) = _ops(m, "ttnn.argmax")
    assert am.properties["dim"].text == "2 : si32" and am.operands[0].type.resolve().shape == (2, 32, 128)


def test_an_error_of_the_quantized_verifier_is_at_the_op() -> None:
    with pytest.raises(Diagnostic):
        run_pipeline(QUANT.replace("0.1>", "0.1, 0.2>"), "bad.mlir", BACKEND.format(""))
