"""The op model: one legality test per rule of the op-family table (OP-MODEL.md §3), each also shown
rejected when broken; output inference (no hint / partial / full); L1 accounting; memoisation;
bad input returning illegal / not_implemented instead of raising."""

from __future__ import annotations

from pathlib import Path

import pytest

from ttopt.device import NO_HINT, Conv2dConfig, OpConfig, OpModel, PartialLayout, Status, layout_info, preset
from ttopt.dialects.ttnn_attrs import BufferType, TensorMemoryLayout
from ttopt.parse.parser import parse_module
from ttopt.testing.examples import examples

ROOT = Path(__file__).resolve().parents[2]
OK, ILLEGAL, OOM, NI = Status.SUCCESS, Status.ILLEGAL, Status.OUT_OF_MEMORY, Status.NOT_IMPLEMENTED
X = "256x128xbf16"
S = (256, 128)


def check(res, status: Status, reason: str = "") -> None:
    assert res.status is status, f"{res.status}: {res.reason}"
    assert reason in res.reason, res.reason
    if status is not OK:
        assert res.reason


# ---------------------------------------------------------------------------------------------
# Eltwise unary.


@pytest.mark.parametrize("where, mem, grid", [("dram", "i", None), ("l1", "i", None), ("l1", "h", 8), ("l1", "b", (4, 4))])
def test_unary_accepts_any_input_and_copies_its_config(model, op, lay, where, mem, grid) -> None:
    x = lay(S, where, mem, grid)
    res = model.validate(op("ttnn.relu", [X], X), [x])
    check(res, OK)
    assert res.output_layout == x  # no hint: same memory config, shard spec included


def test_unary_sharded_output_needs_interleaved_input_or_identical_spec(model, op, lay) -> None:
    relu = op("ttnn.relu", [X], X)
    h8 = lay(S, "l1", "h", 8)
    check(model.validate(relu, [lay(S)], OpConfig(h8)), OK)  # interleaved in, sharded out
    check(model.validate(relu, [h8], OpConfig(h8)), OK)  # identical spec
    check(model.validate(relu, [h8], OpConfig(lay(S, "l1", "h", 4))), ILLEGAL, "identical shard spec")
    check(model.validate(relu, [h8], OpConfig(lay(S, "l1", "i"))), OK)  # sharded in, interleaved out


def test_unary_writes_the_page_layout_it_reads(model, op, lay) -> None:
    # typecast's row-major program writes row-major: a retile is to_layout's, not the unary op's
    cast = op("ttnn.typecast", ["64x128xui32"], "64x128xsi32")
    rm_in, rm_out = lay((64, 128), dtype="u32", tiled=False), lay((64, 128), dtype="si32", tiled=False)
    check(model.validate(cast, [rm_in], OpConfig(rm_out)), OK)
    res = model.validate(cast, [rm_in], OpConfig(lay((64, 128), dtype="si32")))
    check(res, ILLEGAL, "changes the page layout")


# ---------------------------------------------------------------------------------------------
# Eltwise binary.


def test_binary_broadcast_operand_must_be_interleaved(model, op, lay) -> None:
    add = op("ttnn.add", [X, "1x128xbf16"], X)
    h8 = lay(S, "l1", "h", 8)
    check(model.validate(add, [h8, lay((1, 128), "l1", "i")]), OK)
    check(model.validate(add, [h8, lay((1, 128), "l1", "w", 4)]), ILLEGAL, "operand 1 is broadcast (1x128)")
    bad = op("ttnn.add", [X, "3x128xbf16"], X)
    check(model.validate(bad, [lay(S), lay((3, 128))]), ILLEGAL, "do not broadcast")


def test_binary_two_sharded_inputs_need_identical_specs(model, op, lay) -> None:
    add = op("ttnn.add", [X, X], X)
    b44 = lay(S, "l1", "b", (4, 4))
    check(model.validate(add, [b44, b44]), OK)
    check(model.validate(add, [b44, lay(S, "l1", "b", (8, 2))]), ILLEGAL, "identical shard specs")


def test_binary_sharded_output_keeps_the_cores_of_sharded_inputs(model, op, lay) -> None:
    add = op("ttnn.add", [X, X], X)
    h8 = lay(S, "l1", "h", 8)
    check(model.validate(add, [h8, lay(S)], OpConfig(h8)), OK)
    check(model.validate(add, [h8, lay(S)], OpConfig(lay(S, "l1", "h", 4))), ILLEGAL, "shrinks sharded operand 0 on 8 cores")


def test_binary_sharded_output_uses_the_sharded_inputs_spec(model, op, lay) -> None:
    add = op("ttnn.add", [X, X], X)
    h8 = lay(S, "l1", "h", 8)
    check(model.validate(add, [lay(S), lay(S)], OpConfig(lay(S, "l1", "w", 4))), OK)  # no sharded input: free
    check(model.validate(add, [h8, lay(S)], OpConfig(lay(S, "l1", "b", (2, 4)))), ILLEGAL, "must use sharded operand 0's spec")


def test_binary_no_hint_takes_the_first_sharded_spec_else_input0(model, op, lay) -> None:
    add = op("ttnn.add", [X, X], X)
    w4 = lay(S, "l1", "w", 4)
    assert model.validate(add, [lay(S, "l1", "i"), w4]).output_layout == w4
    assert model.validate(add, [lay(S, "l1", "i"), lay(S)]).output_layout == lay(S, "l1", "i")
    bc = op("ttnn.multiply", ["1x128xbf16", X], X)
    assert model.validate(bc, [lay((1, 128)), lay(S)]).output_layout == lay(S)  # input 0's config, result's shape


def test_eltwise_l1_matches_tt_metal_gelu_backward_data_point(model, op, lay) -> None:
    # Reference §4.3: 64x1024 bf16, L1-interleaved x2 -> L1-interleaved: cb 12288, tensors 6144, output 2048.
    t = "64x1024xbf16"
    gb = op("ttnn.multiply", [t, t], t)
    l1 = lay((64, 1024), "l1", "i")
    res = model.validate(gb, [l1, l1], OpConfig(l1))
    assert (res.l1.cb_peak, res.l1.tensor_peak, res.l1.output_per_core, res.l1.peak) == (12288, 6144, 2048, 18432)


# ---------------------------------------------------------------------------------------------
# Matmul.

A, BW, O = "256x128xbf16", "128x512xbf16", "256x512xbf16"


def test_matmul_second_operand_and_bias_interleaved(model, op, lay) -> None:
    mm = op("ttnn.matmul", [A, BW], O)
    check(model.validate(mm, [lay(S), lay((128, 512))]), OK)
    check(model.validate(mm, [lay(S), lay((128, 512), "l1", "w", 8)]), ILLEGAL, "second operand (weights) must be interleaved")
    lin = op("ttnn.linear", [A, BW, "1x512xbf16"], O)
    check(model.validate(lin, [lay(S), lay((128, 512)), lay((1, 512))]), OK)
    check(model.validate(lin, [lay(S), lay((128, 512)), lay((1, 512), "l1", "w", 4)]), ILLEGAL, "bias must be interleaved")


def test_matmul_sharded_output_needs_a_valid_program_config(model, op, lay) -> None:
    from dataclasses import replace

    from ttopt.device import derive_program_config, matmul_dims

    mm = op("ttnn.matmul", [A, BW], O)
    b44 = lay((256, 512), "l1", "b", (4, 4))
    ins = [lay(S), lay((128, 512))]
    check(model.validate(mm, ins, OpConfig(b44)), OK)  # derived as upstream when not given
    cfg = derive_program_config(matmul_dims((256, 128), (128, 512), (256, 512)), layout_info(b44))
    check(model.validate(mm, ins, OpConfig(b44, matmul=cfg)), OK)
    check(model.validate(mm, ins, OpConfig(b44, matmul=replace(cfg, in0_block_w=3))), ILLEGAL, "program config: Kt=4")


def test_matmul_2d_needs_mt_at_least_grid_rows(model, op, lay) -> None:
    mm = op("ttnn.matmul", ["32x64xbf16", "64x2048xbf16"], "32x2048xbf16")
    ins = [lay((32, 64)), lay((64, 2048))]
    check(model.validate(mm, ins, OpConfig(lay((32, 2048), "l1", "b", (1, 8)))), OK)
    check(model.validate(mm, ins, OpConfig(lay((32, 2048), "l1", "b", (2, 8)))), ILLEGAL, "Mt >= grid rows")


def test_matmul_batched_rhs_has_no_program_config(model, op, lay) -> None:
    mm = op("ttnn.matmul", ["2x64x64xbf16", "2x64x64xbf16"], "2x64x64xbf16")
    ins = [lay((2, 64, 64)), lay((2, 64, 64))]
    check(model.validate(mm, ins, OpConfig(lay((2, 64, 64), "l1", "i"))), OK)
    check(model.validate(mm, ins, OpConfig(lay((2, 64, 64), "l1", "h", 4))), ILLEGAL, "batched second operand")
    bcast = op("ttnn.matmul", ["2x64x64xbf16", "64x64xbf16"], "2x64x64xbf16")  # rank-2 rhs: fuse_batch true
    check(model.validate(bcast, [lay((2, 64, 64)), lay((64, 64))], OpConfig(lay((2, 64, 64), "l1", "h", 4))), OK)


def test_matmul_sharded_first_operand_must_match(model, op, lay) -> None:
    mm = op("ttnn.matmul", [A, BW], O)
    w = lay((128, 512))
    b44_in, b44_out = lay(S, "l1", "b", (4, 4)), lay((256, 512), "l1", "b", (4, 4))
    check(model.validate(mm, [b44_in, w], OpConfig(b44_out)), OK)  # block on the same grid
    check(model.validate(mm, [lay(S, "l1", "b", (8, 4)), w], OpConfig(b44_out)), ILLEGAL, "must be on the output grid")
    h8_in, h8_out = lay(S, "l1", "h", 8), lay((256, 512), "l1", "h", 8)
    check(model.validate(mm, [h8_in, w], OpConfig(h8_out)), OK)  # height with the same core count
    check(model.validate(mm, [lay(S, "l1", "h", 4), w], OpConfig(h8_out)), ILLEGAL, "must match the output's 8 cores")
    check(model.validate(mm, [h8_in, w], OpConfig(b44_out)), ILLEGAL, "must match the output's memory layout")
    check(model.validate(mm, [lay(S, "l1", "w", 4), w]), ILLEGAL, "must be block or height sharded")


def test_matmul_block_sharded_input_needs_last_dim_32(model, op, lay) -> None:
    mm = op("ttnn.matmul", ["64x16xbf16", "16x64xbf16"], "64x64xbf16")
    w = lay((16, 64))
    check(model.validate(mm, [lay((64, 16), "l1", "h", 2), w], OpConfig(lay((64, 64), "l1", "h", 2))), OK)
    check(model.validate(mm, [lay((64, 16), "l1", "b", (2, 1)), w]), ILLEGAL, "last dim 16 < 32")


def test_matmul_no_hint_output(model, op, lay) -> None:
    mm = op("ttnn.matmul", [A, BW], O)
    w = lay((128, 512))
    assert model.validate(mm, [lay(S, "l1", "h", 8), w]).output_layout == lay((256, 512), "l1", "h", 8)
    assert model.validate(mm, [lay(S, "l1", "b", (4, 4)), w]).output_layout == lay((256, 512), "l1", "b", (4, 4))
    assert model.validate(mm, [lay(S, "l1", "i"), w]).output_layout == lay((256, 512), "l1", "i")
    assert model.validate(mm, [lay(S), w]).output_layout == lay((256, 512))


def test_matmul_fused_activation_needs_a_full_output_layout(model, op, lay) -> None:
    mm = op("ttnn.matmul", [A, BW], O, 'activation = "relu"')
    ins = [lay(S), lay((128, 512))]
    check(model.validate(mm, ins, OpConfig(lay((256, 512), "l1", "h", 8))), OK)
    check(model.validate(mm, ins, OpConfig(PartialLayout(BufferType.L1, TensorMemoryLayout.HEIGHT_SHARDED))), ILLEGAL, "#34500")


def test_matmul_operands_must_be_tiled(model, op, lay) -> None:
    mm = op("ttnn.matmul", [A, BW], O)
    check(model.validate(mm, [lay(S, tiled=False), lay((128, 512))]), ILLEGAL, "must be tiled")


def test_matmul_circular_buffers(model, op, lay) -> None:
    # height 8x1 output, per core 1x4 tiles, in0_block_w = Kt = 4: in0 2*4*1 + in1 2*4*4 tiles; out aliased.
    mm = op("ttnn.matmul", [A, "128x128xbf16"], X)
    res = model.validate(mm, [lay(S), lay((128, 128))], OpConfig(lay(S, "l1", "h", 8)))
    assert res.l1.cb_peak == (8 + 32) * 2048 and res.l1.tensor_peak == 4 * 2048 == res.l1.output_per_core


# ---------------------------------------------------------------------------------------------
# Conv.

CONV = (
    "batch_size = 1 : i32, in_channels = 16 : i32, out_channels = 64 : i32, input_height = 32 : i32, "
    "input_width = 32 : i32, kernel_size = array<i32: 3, 3>, stride = array<i32: 1, 1>, "
    "padding = array<i32: 1, 1, 1, 1>, dilation = array<i32: 1, 1>, groups = 1 : i32"
)
CX, CW, CO = "1x1x1024x16xbf16", "64x16x3x3xbf16", "1x1x1024x64xbf16"


def conv_ins(lay, x=None):
    return [x or lay((1, 1, 1024, 16)), lay((64, 16, 3, 3), "system_memory", tiled=False)]


def test_conv_input_must_be_flattened(model, op, lay) -> None:
    check(model.validate(op("ttnn.conv2d", [CX, CW], CO, CONV), conv_ins(lay)), OK)
    nhwc = op("ttnn.conv2d", ["1x32x32x16xbf16", CW], "1x32x32x64xbf16", CONV)
    check(model.validate(nhwc, [lay((1, 32, 32, 16)), conv_ins(lay)[1]]), ILLEGAL, "flattened to 1x1x(N*H*W)xC")


@pytest.mark.parametrize("mem, grid, status", [("i", None, OK), ("h", 8, OK), ("b", (8, 2), OK), ("w", 2, ILLEGAL)])
def test_conv_output_memory_layouts(model, op, lay, mem, grid, status) -> None:
    conv = op("ttnn.conv2d", [CX, CW], CO, CONV)
    res = model.validate(conv, conv_ins(lay), OpConfig(lay((1, 1, 1024, 64), "l1", mem, grid)))
    check(res, status, "" if status is OK else "not width sharded")


def test_conv_sharded_input_and_output_share_the_memory_layout(model, op, lay) -> None:
    conv = op("ttnn.conv2d", [CX, CW], CO, CONV)
    ins = conv_ins(lay, lay((1, 1, 1024, 16), "l1", "h", 8))
    check(model.validate(conv, ins, OpConfig(lay((1, 1, 1024, 64), "l1", "h", 8))), OK)
    check(model.validate(conv, ins, OpConfig(lay((1, 1, 1024, 64), "l1", "b", (8, 2)))), ILLEGAL, "same memory layout")


def test_conv_config_knobs_change_l1(model, op, lay) -> None:
    conv = op("ttnn.conv2d", [CX, CW], CO, CONV)
    ins = conv_ins(lay, lay((1, 1, 1024, 16), "l1", "h", 8))
    out = lay((1, 1, 1024, 64), "l1", "h", 8)  # 4 tile rows per core
    whole = model.validate(conv, ins, OpConfig(out, conv2d=Conv2dConfig(act_block_h_override=0)))
    small = model.validate(conv, ins, OpConfig(out, conv2d=Conv2dConfig(act_block_h_override=32)))
    # activation CB: 2 * act_block_h * ceil(3*16/32) tiles -> 4 rows vs 1 row of 2 tiles
    assert whole.l1.cb_peak - small.l1.cb_peak == 2 * (4 - 1) * 2 * 2048
    dealloc = model.validate(conv, ins, OpConfig(out, conv2d=Conv2dConfig(deallocate_activation=True)))
    assert whole.l1.tensor_peak - dealloc.l1.tensor_peak == layout_info(ins[0]).per_core_bytes
    check(model.validate(conv, ins, OpConfig(out, conv2d=Conv2dConfig(act_block_h_override=48))), ILLEGAL, "multiple of 32")


# ---------------------------------------------------------------------------------------------
# Norm / rope.


@pytest.mark.parametrize(
    "name, mem, grid, status",
    [
        ("ttnn.softmax", "i", None, OK), ("ttnn.softmax", "h", 8, ILLEGAL),
        ("ttnn.rms_norm", "w", 4, OK), ("ttnn.rms_norm", "b", (4, 4), OK), ("ttnn.rms_norm", "h", 8, ILLEGAL),
        ("ttnn.layer_norm", "b", (4, 4), OK), ("ttnn.layer_norm", "h", 8, ILLEGAL),
        ("ttnn.rotary_embedding", "h", 8, OK), ("ttnn.rotary_embedding", "w", 4, ILLEGAL),
    ],
)  # fmt: skip
def test_norm_memory_layouts(model, op, lay, name, mem, grid, status) -> None:
    if name == "ttnn.rotary_embedding":
        o = op(name, [X, X, X], X)
        ins = [lay(S, "l1", mem, grid), lay(S), lay(S)]
    else:
        o = op(name, [X], X)
        ins = [lay(S, "l1", mem, grid)]
    res = model.validate(o, ins)
    check(res, status, "" if status is OK else "input must be")
    if status is OK:
        assert res.output_layout == ins[0]  # output copies the input's config


def test_norm_output_copies_the_input_config(model, op, lay) -> None:
    norm = op("ttnn.rms_norm", [X, "128xbf16"], X)
    w4 = lay(S, "l1", "w", 4)
    check(model.validate(norm, [w4, lay((128,))], OpConfig(w4)), OK)
    check(model.validate(norm, [w4, lay((128,))], OpConfig(lay(S, "l1", "w", 2))), ILLEGAL, "must copy the sharded input")
    check(model.validate(norm, [lay(S), lay((128,))], OpConfig(lay(S, "l1", "i"))), OK)  # interleaved: either buffer
    check(model.validate(norm, [lay(S), lay((128,))], OpConfig(w4)), ILLEGAL, "must copy the input's interleaved config")
    check(model.validate(norm, [w4, lay((128,), "l1", "w", 2)]), ILLEGAL, "operand 1 must be interleaved")


# ---------------------------------------------------------------------------------------------
# Concat.


def concat(op, shapes, out, dim):
    return op("ttnn.concat", shapes, out, f"dim = {dim} : si32")


def test_concat_interleaved(model, op, lay) -> None:
    c = concat(op, [X, X], "256x256xbf16", 1)
    check(model.validate(c, [lay(S), lay(S, "l1", "i")]), OK)
    check(model.validate(c, [lay(S), lay(S)], OpConfig(lay((256, 256), "l1", "h", 8))), ILLEGAL, "#41469")
    check(model.validate(c, [lay(S, "l1", "h", 8), lay(S)]), ILLEGAL, "mix sharded and interleaved")


def test_concat_height_sharded_for_last_dim(model, op, lay) -> None:
    h8 = lay(S, "l1", "h", 8)
    res = model.validate(concat(op, [X, X], "256x256xbf16", -1), [h8, h8])
    check(res, OK)
    assert res.output_layout == lay((256, 256), "l1", "h", 8)
    check(model.validate(concat(op, [X, X], "512x128xbf16", 0), [h8, h8]), ILLEGAL, "need a last-dim concat")


def test_concat_width_sharded_for_second_to_last_dim(model, op, lay) -> None:
    w4 = lay(S, "l1", "w", 4)
    check(model.validate(concat(op, [X, X], "512x128xbf16", 0), [w4, w4]), OK)
    check(model.validate(concat(op, [X, X], "256x256xbf16", 1), [w4, w4]), ILLEGAL, "second-to-last-dim concat")


def test_concat_never_block_and_same_grid(model, op, lay) -> None:
    b = lay(S, "l1", "b", (4, 4))
    check(model.validate(concat(op, [X, X], "256x256xbf16", 1), [b, b]), ILLEGAL, "block-sharded concat")
    check(model.validate(concat(op, [X, X], "256x256xbf16", 1), [lay(S, "l1", "h", 8), lay(S, "l1", "h", 4)]), ILLEGAL, "same memory layout and grid")
    h8 = lay(S, "l1", "h", 8)
    check(model.validate(concat(op, [X, X], "256x256xbf16", 1), [h8, h8], OpConfig(lay((256, 256), "l1", "h", 4))), ILLEGAL, "sharded output with their layout and grid")


def test_concat_height_needs_tile_aligned_last_dims(model, op, lay) -> None:
    h8 = lay((256, 48), "l1", "h", 8)
    check(model.validate(concat(op, ["256x48xbf16", "256x48xbf16"], "256x96xbf16", 1), [h8, h8]), ILLEGAL, "#41504")


# ---------------------------------------------------------------------------------------------
# Data movement, layout conversions.


@pytest.mark.parametrize("name", ["ttnn.permute", "ttnn.mean", "ttnn.max_pool2d", "ttnn.slice_static"])
def test_data_movement_is_interleaved_only(model, op, lay, name) -> None:
    o = op(name, [X], X)
    res = model.validate(o, [lay(S, "l1", "i")])
    check(res, OK)
    assert res.output_layout == lay(S, "l1", "i")  # no hint: the input's buffer
    check(model.validate(o, [lay(S)], OpConfig(lay(S, "l1", "i"))), OK)  # a hint may name either buffer
    check(model.validate(o, [lay(S, "l1", "h", 8)]), ILLEGAL, "interleaved operands only")
    check(model.validate(o, [lay(S)], OpConfig(lay(S, "l1", "h", 8))), ILLEGAL, "interleaved outputs only")


def test_a_reshape_that_moves_rows_between_tiles_is_interleaved_only(model, op, lay) -> None:
    # The last dimension changes: tt-metal runs its copy program, on interleaved tensors only here.
    t = (128, 256)
    o = op("ttnn.reshape", [X], "128x256xbf16")
    res = model.validate(o, [lay(S, "l1", "i")])
    check(res, OK)
    assert res.output_layout == lay(t, "l1", "i") and res.l1.cb_peak > 0
    check(model.validate(o, [lay(S)], OpConfig(lay(t, "l1", "i"))), OK)
    check(model.validate(o, [lay(S, "l1", "h", 8)]), ILLEGAL, "interleaved operands only")
    check(model.validate(o, [lay(S)], OpConfig(lay(t, "l1", "h", 8))), ILLEGAL, "interleaved outputs only")
    # A second-to-last dimension that is not whole tiles on one side moves rows between tiles too.
    odd = op("ttnn.reshape", ["2x48x64xbf16"], "96x64xbf16")
    check(model.validate(odd, [lay((2, 48, 64), "l1", "h", 2)]), ILLEGAL, "interleaved operands only")


def test_a_view_reshape_keeps_the_sharded_input_config(model, op, lay) -> None:
    # 1x1x16384x64 -> 16x32x32x64 keeps the last dim and whole-tile second-to-last dims: tt-metal's
    # reshape is a view of the same buffer, shard spec included, with no program of its own.
    src, dst = (1, 1, 16384, 64), (16, 32, 32, 64)
    o = op("ttnn.reshape", ["1x1x16384x64xbf16"], "16x32x32x64xbf16")
    h64 = lay(src, "l1", "h", 64)
    res = model.validate(o, [h64])
    check(res, OK)
    assert res.output_layout == lay(dst, "l1", "h", 64)
    out = layout_info(res.output_layout)
    assert out.shard_shape == layout_info(h64).shard_shape == (8, 2)
    assert res.l1.cb_peak == 0 and res.l1.peak == out.per_core_bytes  # one buffer, no CBs
    check(model.validate(o, [h64], OpConfig(lay(dst, "l1", "h", 64))), OK)  # the legal config naming it
    check(model.validate(o, [h64], OpConfig(PartialLayout(BufferType.L1, TensorMemoryLayout.HEIGHT_SHARDED))), OK)
    # A view cannot move the shards: another grid is not what the view produces.
    check(model.validate(o, [h64], OpConfig(lay(dst, "l1", "h", 32))), ILLEGAL, "keeps its input's memory config")
    # Asking for interleaved output is not a view: the copy program needs interleaved operands.
    check(model.validate(o, [h64], OpConfig(lay(dst, "l1", "i"))), ILLEGAL, "interleaved operands only")
    b = lay(src, "l1", "b", (8, 2))
    assert model.validate(o, [b]).output_layout == lay(dst, "l1", "b", (8, 2))


def test_an_interleaved_view_reshape_has_no_circular_buffers(model, op, lay) -> None:
    o = op("ttnn.reshape", ["1x1x16384x64xbf16"], "16x32x32x64xbf16")
    src, dst = (1, 1, 16384, 64), (16, 32, 32, 64)
    res = model.validate(o, [lay(src, "l1", "i")])
    check(res, OK)
    assert res.output_layout == lay(dst, "l1", "i") and res.l1.cb_peak == 0
    # DRAM in, L1 out changes the buffer: tt-metal runs the copy program (CBs for both sides).
    moved = model.validate(o, [lay(src)], OpConfig(lay(dst, "l1", "i")))
    check(moved, OK)
    assert moved.l1.cb_peak > 0


def test_layout_ops_convert_anything(model, op, lay) -> None:
    to = op("ttnn.to_layout", [X], X)
    for src in (lay(S), lay(S, "l1", "h", 8), lay(S, "system_memory", tiled=False)):
        for dst in (lay(S, "l1", "b", (4, 4)), lay(S), lay(S, tiled=False)):
            check(model.validate(to, [src], OpConfig(dst)), OK)
    enc = lay(S, "l1", "w", 4).text
    cur = op("ttnn.to_memory_config", [X], f"tensor<256x128xbf16, {enc}>")
    assert model.validate(cur, [lay(S)]).output_layout == lay(S, "l1", "w", 4)  # no hint: the result's layout


# ---------------------------------------------------------------------------------------------
# Dispatch.


def test_dispatch_d2m_takes_the_inner_maximum(model) -> None:
    path = ROOT / "testdata" / "ttnn" / "dispatch_d2m_generic_form.mlir"
    m = parse_module(path.read_text(), str(path))
    d = next(o for o in m.walk() if o.name == "ttnn.dispatch_d2m")
    res = model.validate_current(d)
    check(res, OK)
    inner = [o for o in d.regions[0].entry.ops if o.name != "d2m.yield"]
    inner_max = max(model.validate_current(o).l1.peak for o in inner[:-1])
    assert res.l1.cb_peak >= inner_max
    # Budget (seed 001 phase 5): the dispatch's input and output stay resident around the inner peak.
    ins = model.current_inputs(d)
    assert res.l1.tensor_peak == layout_info(ins[0]).per_core_bytes + res.l1.output_per_core
    budget = model.usable_l1 - res.l1.tensor_peak
    check(model.validate_current(d, additional_l1=budget - res.l1.cb_peak), OK)
    check(model.validate_current(d, additional_l1=budget - res.l1.cb_peak + 1), OOM)


def test_d2m_subgraph_callee_form(model) -> None:
    path = ROOT / "testdata" / "ttnn" / "d2m_subgraph_custom_form.mlir"
    m = parse_module(path.read_text(), str(path))
    d = next(o for o in m.walk() if o.name == "ttnn.d2m_subgraph")
    res = model.validate_current(d)
    check(res, OK)
    assert res.l1.cb_peak > 0


# ---------------------------------------------------------------------------------------------
# General behaviour.


def test_unknown_ops_are_not_implemented(model, op, lay) -> None:
    check(model.validate(op("ttnn.frobnicate", [X], X), [lay(S)]), NI, "no op-model rule for ttnn.frobnicate")
    check(model.validate(op("ttnn.sort", [X], X), [lay(S)]), NI)


def test_out_of_memory_against_the_budget(op, lay) -> None:
    dev = preset("wormhole_b0").with_budget(cap=0.5)
    model = OpModel(dev)
    big = "1024x8192xbf16"  # 8192 tiles: 128 per core L1 interleaved = 256 KiB
    relu = op("ttnn.relu", [big], big)
    l1 = lay((1024, 8192), "l1", "i")
    res = model.validate(relu, [l1], OpConfig(l1))
    check(res, OK)
    assert res.l1.peak == 2 * 128 * 2048 + 2 * 2 * 2048
    check(model.validate(relu, [l1], OpConfig(l1), additional_l1=dev.usable_l1 - res.l1.peak), OK)
    check(model.validate(relu, [l1], OpConfig(l1), additional_l1=dev.usable_l1 - res.l1.peak + 1), OOM, "exceeds usable 749056 B")
    single = lay((1024, 8192), "l1", "b", (1, 1))  # the whole tensor (16 MiB) on one core
    check(model.validate(relu, [lay((1024, 8192))], OpConfig(single)), OOM)


def test_peak_is_cbs_plus_l1_tensors(model, op, lay) -> None:
    add = op("ttnn.add", [X, X], X)
    h8, dram = lay(S, "l1", "h", 8), lay(S)
    res = model.validate(add, [h8, dram], OpConfig(h8))
    # sharded operands alias their CBs; the DRAM operand streams 2 tiles; L1 tensors: input 0 + output.
    assert res.l1.cb_peak == 2 * 2048 and res.l1.tensor_peak == 2 * 4 * 2048
    assert res.l1.peak == res.l1.cb_peak + res.l1.tensor_peak
    same = op("ttnn.add", [X], X)  # add(%x, %x) shape: one operand used twice counts once
    assert same is not None


def test_results_are_memoised(model, op, lay) -> None:
    relu = op("ttnn.relu", [X], X)
    other = op("ttnn.relu", [X], X)  # another op with the same signature
    x = lay(S)
    cfg = OpConfig(lay(S, "l1", "i"))
    r1 = model.validate(relu, [x], cfg)
    computed = model.computed
    assert model.validate(relu, [x], cfg) is r1
    assert model.validate(other, [lay(S)], OpConfig(lay(S, "l1", "i"))) is r1  # equal values, equal signature
    assert model.computed == computed
    assert model.validate(relu, [x], cfg, additional_l1=10) is not r1 and model.computed == computed


def test_partial_hints_pick_a_grid(model, op, lay) -> None:
    relu = op("ttnn.relu", [X], X)
    part = OpConfig(PartialLayout(BufferType.L1, TensorMemoryLayout.HEIGHT_SHARDED))
    assert model.validate(relu, [lay(S, "l1", "h", 4)], part).output_layout == lay(S, "l1", "h", 4)  # the input's
    assert model.validate(relu, [lay(S)], part).output_layout == lay(S, "l1", "h", 8)  # the largest candidate
    ign = lay(S, "l1", "b", (2, 2))
    from ttopt.dialects.ttnn_layout import TTNNLayoutAttr

    partial_attr = TTNNLayoutAttr.build(S, "bf16", buffer_type="l1", memory_layout="block_sharded", grid=(1, 1),
                                        ignore_physical_layout=True)  # fmt: skip
    assert model.validate(relu, [ign], OpConfig(partial_attr)).output_layout == ign
    check(model.validate(relu, [lay(S)], OpConfig(PartialLayout(BufferType.DRAM, TensorMemoryLayout.INTERLEAVED))), OK)


def test_full_hint_for_another_shape_is_illegal(model, op, lay) -> None:
    relu = op("ttnn.relu", [X], X)
    check(model.validate(relu, [lay(S)], OpConfig(lay((64, 64)))), ILLEGAL, "built for another shape")
    check(model.validate(relu, [lay(S)], OpConfig(lay((1, 256, 128)))), ILLEGAL, "built for another shape")


@pytest.mark.parametrize(
    "operands, result, message",
    [
        (["1x2x3x4x5x6xbf16"], "1x2x3x4x5x6xbf16", "rank 6 is not supported"),
        (["0x64xbf16"], "0x64xbf16", "has size 0"),
        (["?x64xbf16"], "?x64xbf16", "dynamic"),
    ],
)
def test_bad_shapes_are_illegal_not_exceptions(model, op, lay, operands, result, message) -> None:
    check(model.validate(op("ttnn.relu", operands, result), [lay((1, 64))]), ILLEGAL, message)


def test_bad_arguments_are_reported_not_raised(model, op, lay) -> None:
    add = op("ttnn.add", [X, X], X)
    check(model.validate(add, [lay(S)]), ILLEGAL, "2 tensor operand(s) but 1 input layout(s)")
    check(model.validate(add, ["not a layout", None]), ILLEGAL, "must be ttnn layouts")
    check(model.validate(add, [lay(S, "system_memory", tiled=False), lay(S)]), ILLEGAL, "system memory")
    check(model.validate(add, [lay(S), lay(S)], OpConfig(lay(S, "system_memory", tiled=False))), ILLEGAL, "system memory")
    check(model.validate(op("ttnn.relu", [X], "256x128xi1"), [lay(S)]), ILLEGAL, "no ttcore data type")


def test_every_family_and_corpus_op_evaluates_without_internal_errors(model) -> None:
    # No rule may fall into the "could not evaluate" path on the bundled TTNN samples.
    for path in sorted((ROOT / "testdata" / "ttnn").glob("*.mlir")):
        m = parse_module(path.read_text(), str(path))
        for o in m.walk():
            if o.name.startswith("ttnn.") and o.results:
                res = model.validate_current(o)
                assert "could not evaluate" not in res.reason, (path.name, o.name, res.reason)
    assert NO_HINT == OpConfig()


# ---------------------------------------------------------------------------------------------
# Invariants over random shapes and every candidate layout.

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from ttopt.device import layout_pool  # noqa: E402


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    rows=st.integers(1, 300), cols=st.integers(1, 300),
    name=st.sampled_from(["ttnn.relu", "ttnn.add", "ttnn.softmax", "ttnn.reshape", "ttnn.to_layout", "ttnn.matmul"]),
)  # fmt: skip
def test_validation_invariants(model, op, rows: int, cols: int, name: str) -> None:
    t = f"{rows}x{cols}xbf16"
    if name == "ttnn.matmul":
        o = op(name, [t, f"{cols}x{cols}xbf16"], t)
        extra = [layout_pool((cols, cols), "bf16").interleaved[0]]
    elif name == "ttnn.add":
        o, extra = op(name, [t, t], t), [layout_pool((rows, cols), "bf16").interleaved[1]]
    else:
        o, extra = op(name, [t], t), []
    pool = layout_pool((rows, cols), "bf16")
    for x in pool.op_layouts(6):
        for out in (None,) + pool.op_layouts(6):
            res = model.validate(o, [x, *extra], OpConfig(out))
            assert res.status in (OK, ILLEGAL, OOM) and res.reason
            assert "could not evaluate" not in res.reason
            if res.status in (OK, OOM):
                assert res.output_layout is not None
                assert res.l1.peak == res.l1.cb_peak + res.l1.tensor_peak
                assert res.l1.output_per_core == layout_info(res.output_layout).per_core_bytes
                if out is not None:
                    assert res.output_layout == out  # a full hint is what the op produces
