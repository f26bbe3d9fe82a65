"""A matmul or conv compute kernel carries its partial results from one K block to the next: without
L1 accumulation it spills and reloads them after every block, with it once, before the last. When
it does, in what format, and what it costs."""

from __future__ import annotations

import re
from dataclasses import replace
from math import ceil

import pytest

from bench.calibrate import CALIBRATION_DIR, load_suites, ratio
from ttopt.device import CostModel, preset
from ttopt.device.cost_terms import (
    Accumulation,
    ConvShape,
    accumulation_of,
    conv_k_blocks,
    conv_k_tiles,
    conv_program_terms,
    dram_sharded_in0_block_w,
    matmul_terms,
    params_for,
    reload_ns,
    two_d_in0_block_w,
    weight_multicast_terms,
)

BH110 = replace(params_for("blackhole"), grid_cores=110, grid_rows=10)
NO_L1_ACC_FP32 = Accumulation(fp32=True, l1_acc=False, out_fmt="bfp_bf8")


@pytest.mark.parametrize(
    ("program", "out", "fp32", "l1_acc", "configured", "expected"),
    [
        ("matmul", "bf16", None, None, False, (False, True)),  # ttnn's matmul default: L1 accumulation
        ("matmul", "f32", None, None, False, (True, False)),  # an f32 output accumulates in fp32 DEST
        ("matmul", "bf16", None, None, True, (False, False)),  # a config runs its left-out flags as false
        ("matmul", "bf16", True, None, True, (True, False)),
        ("matmul", "bfp_bf8", True, False, True, (True, False)),
        ("conv", "bf16", None, None, False, (False, False)),  # conv2d's default accumulates in neither
        ("conv", "bf16", None, True, True, (False, True)),
    ],
)
def test_the_flags_a_config_leaves_out_are_false_and_without_a_config_the_ops_ttnn_defaults(
    program, out, fp32, l1_acc, configured, expected
) -> None:
    acc = accumulation_of(program, out, fp32, l1_acc, configured)
    assert (acc.fp32, acc.l1_acc, acc.out_fmt) == (*expected, out)


def test_without_l1_accumulation_every_block_but_the_last_reloads_with_it_one() -> None:
    # The spill is fp32 under fp32_dest_acc_en, else the output's format; accumulated in L1 it is
    # Float16_b, except over two blocks, where the factories turn L1 accumulation off.
    assert Accumulation(False, False, "bfp_bf8").reloads(32) == (31, "bfp_bf8")
    assert Accumulation(True, False, "bfp_bf8").reloads(32) == (31, "f32")
    assert Accumulation(False, True, "bfp_bf8").reloads(32) == (1, "bf16")
    assert Accumulation(False, True, "bfp_bf8").reloads(2) == (1, "bfp_bf8")
    assert Accumulation(True, True, "bf16").reloads(8) == (1, "f32")
    assert Accumulation(False, False, "bf16").reloads(1) == Accumulation(False, True, "bf16").reloads(1) == (0, "bf16")


def test_a_reload_is_priced_per_output_tile_and_kb_of_its_spill() -> None:
    p = BH110
    assert reload_ns(p, 42, 1, NO_L1_ACC_FP32) == 0.0
    assert reload_ns(p, 42, 32, NO_L1_ACC_FP32) == pytest.approx(42 * 31 * 4 * p.reload_cycles_per_kb / p.clock_ghz)
    assert reload_ns(p, 42, 32, Accumulation(False, False, "bf16")) == pytest.approx(reload_ns(p, 42, 32, NO_L1_ACC_FP32) / 2)


def test_the_2d_programs_k_block_is_ttnns_all_dram_rule_unless_a_config_gives_one() -> None:
    # create_simple_matmul_program_config: Kt / grid columns where they divide it, else 1.
    assert (two_d_in0_block_w(32, 11), two_d_in0_block_w(33, 11), two_d_in0_block_w(64, 8)) == (1, 3, 8)
    assert two_d_in0_block_w(32, 11, given=4) == 4


def _extra_compute(*args, **kw) -> float:
    """The compute a matmul without L1 accumulation (fp32 spill) adds over the same with it."""
    return matmul_terms(*args, **kw, accumulation=NO_L1_ACC_FP32).compute_ns - matmul_terms(
        *args, **kw, accumulation=Accumulation(True, True, "bfp_bf8")
    ).compute_ns


@pytest.mark.parametrize(
    ("shape", "mems", "cores", "kw", "out_tiles", "k_blocks"),
    [
        # DeepLabV3's 2-D [2048, 1024] @ [1024, 2048] on 11 x 10 cores: Kt 32 does not divide by
        # 11, so in0_block_w is 1 and each core's 38 output tiles go through 32 blocks.
        ((2048, 1024, 2048), ("dram_i", "dram_i", "dram_i"), 110, {}, ceil(64 * 64 / 110), 32),
        # A 2-D config's own in0_block_w.
        ((2048, 1024, 2048), ("l1_s", "dram_i", "l1_s"), 110, {"in0_block_w": 4, "program": "2d"}, ceil(64 * 64 / 110), 8),
        # 1-D decode: ttnn's default in0_block_w 2 (Kt 32: 16 blocks); 8 columns a worker.
        ((32, 1024, 8192), ("dram_i", "dram_i", "dram_i"), 110, {}, 3, 16),
        # DRAM-sharded: one worker per bank, its shard of K (64 tiles over 8 cores) in blocks of 8.
        ((32, 2048, 4096), ("l1_s", "dram_s", "l1_s"), 8, {"in0_cores": 8}, 16, 8),
    ],
)
def test_each_program_reloads_over_its_own_k_blocks(shape, mems, cores, kw, out_tiles, k_blocks) -> None:
    args = (BH110, *shape, "bfp_bf8", "bfp_bf8", "bfp_bf8", "LoFi", *mems, cores)
    once = reload_ns(BH110, out_tiles, k_blocks, Accumulation(True, True, "bfp_bf8"))
    assert _extra_compute(*args, **kw) == pytest.approx(reload_ns(BH110, out_tiles, k_blocks, NO_L1_ACC_FP32) - once)


def test_the_dram_sharded_k_block_is_the_shard_widths_largest_divisor_up_to_8() -> None:
    assert (dram_sharded_in0_block_w(64, 8), dram_sharded_in0_block_w(112, 8), dram_sharded_in0_block_w(64, 8, 4)) == (8, 7, 4)


def test_the_no_reuse_program_keeps_each_output_tile_in_dest() -> None:
    # An L1-interleaved output at 2-D sizes falls back to the no-reuse program: nothing spills.
    args = (BH110, 2048, 1024, 2048, "bf16", "bf16", "bf16", "HiFi2", "dram_i", "dram_i", "l1_i", 110)
    assert _extra_compute(*args) == 0.0


def test_a_program_with_the_whole_k_in_one_block_reloads_nothing() -> None:
    # A height-sharded activation's weight multicast takes the whole K as one block (in0_block_w = Kt).
    args = (BH110, 64, 8, 8, "bfp_bf8", "bfp_bf8", "bfp_bf8", "LoFi", "l1_s", "dram_i", "l1_s", 64)
    assert weight_multicast_terms(*args, in0_block_w=8, accumulation=NO_L1_ACC_FP32) == weight_multicast_terms(
        *args, in0_block_w=8, accumulation=Accumulation(True, True, "bfp_bf8")
    )
    two = weight_multicast_terms(*args, in0_block_w=2, accumulation=NO_L1_ACC_FP32)
    assert two.compute_ns - weight_multicast_terms(*args, in0_block_w=2, accumulation=Accumulation(True, True, "bfp_bf8")).compute_ns == pytest.approx(
        reload_ns(BH110, 8, 4, NO_L1_ACC_FP32) - reload_ns(BH110, 8, 4, Accumulation(True, True, "bfp_bf8"))
    )


def test_a_width_sharded_conv_reloads_at_least_once_per_channel_core() -> None:
    # tt-metal's width-sharded conv walks num_blocks_act_w K blocks, a multiple of its input cores.
    conv = ConvShape(1024, 512, 256, 1, 3, 3)
    args = (BH110, conv, 1, 8, "LoFi", "bfp_bf8", True, 0.0, 0.0, 0.0, True)
    extra = conv_program_terms(*args, accumulation=NO_L1_ACC_FP32).compute_ns - conv_program_terms(
        *args, accumulation=Accumulation(True, True, "bf16")
    ).compute_ns
    out_tiles = 32 * 1  # 32 tile rows on one row of cores, 8 channel tiles over 8 columns
    assert extra == pytest.approx(reload_ns(BH110, out_tiles, 8, NO_L1_ACC_FP32) - reload_ns(BH110, out_tiles, 8, Accumulation(True, True, "bf16")))


def test_a_convs_k_blocks_are_its_kernel_rows_per_channel_core_as_the_captures_record() -> None:
    # Every capture row states act_block_w: K tiles / act_block_w is the blocks the core walks.
    suites = load_suites(CALIBRATION_DIR)
    rows = [r for name in ("conv_bh_deeplabv3", "conv_bh_oft") for r in suites[name]]
    # Not the 5x5 conv of one input channel: its prepared weights have 25 K tiles, five a kernel
    # row (5 blocks of 5, kernel_h), where conv_k_tiles' 8-channel alignment counts two a row.
    rows = [r for r in rows if r["id"] != "oft_conv_1606656"]
    assert len(rows) == 45
    for r in rows:
        m = re.search(r"act_block_w (\d+)", r["note"])
        assert m, r["id"]
        _, _, _, cin = (int(x) for x in r["shape"].split("x"))
        kh, kw = (int(x) for x in r["window"].split("x"))
        c_in = int(r["in0_grid"].split("x")[1]) if r.get("in0_grid") else int(r["grid"].split("x")[1])
        conv = ConvShape(1, cin, r["n"], int(r.get("groups") or 1), kh, kw)
        assert conv_k_tiles(conv, c_in) // int(m.group(1)) == conv_k_blocks(conv, c_in), r["id"]


def test_the_deeplabv3_2d_calls_are_priced_with_their_reloads() -> None:
    # Held out: the capture's two 2-D all-DRAM matmuls (in0_block_w 1) took 108 and 64 us; without
    # the reloads the model gave 0.36x and 0.46x of that, with them 0.72x and 0.65x.
    rows = {r["id"]: r for r in load_suites(CALIBRATION_DIR)["matmul_bh_deeplabv3"]}
    p = params_for("blackhole")
    for row_id in ("dlv3_mm_174080", "dlv3_mm_187392"):
        assert 0.6 < ratio(p, rows[row_id]) < 1.25, row_id


def _matmul(op, config: str):
    props = f"compute_config = #ttnn.device_compute_kernel_config<{config}>" if config is not None else ""
    return op("ttnn.matmul", ["1x1x1024x2048xbf16", "1x1x2048x1024xbf16"], "1x1x1024x1024xbf16", props=props)


def test_the_cost_model_reloads_a_matmuls_partials_as_its_config_says(op, lay) -> None:
    # 2-D on Wormhole's 8 x 8: Kt 64 in blocks of 8. ttnn's default accumulates in L1 (one reload);
    # a config that leaves packer_l1_acc out runs it off (tt-mlir's runtime), as one that says false.
    cm = CostModel(preset("wormhole_b0"))
    ins = [lay((1, 1, 1024, 2048)), lay((1, 1, 2048, 1024))]
    out = lay((1, 1, 1024, 1024))
    flags = ("", ", packer_l1_acc = true", ", packer_l1_acc = false", ", fp32_dest_acc_en = true")
    cost = {f: cm.op_cost(_matmul(op, "math_fidelity = hifi2" + f), ins, out).compute_ns for f in flags}
    default = cm.op_cost(_matmul(op, None), ins, out).compute_ns
    assert default == cost[", packer_l1_acc = true"] < cost[""] == cost[", packer_l1_acc = false"]
    p, tiles = cm.params, 1024 * 1024 // 1024 // 64
    assert cost[""] - default == pytest.approx((7 - 1) * tiles * 2 * p.reload_cycles_per_kb / p.clock_ghz)
    assert cost[", fp32_dest_acc_en = true"] - default == pytest.approx((7 * 4 - 2) * tiles * p.reload_cycles_per_kb / p.clock_ghz)


def test_a_config_without_a_fidelity_runs_at_lofi(op) -> None:
    # ttnn runs a given config as it is; tt-mlir's runtime builds it on WormholeComputeKernelConfig (LoFi).
    from ttopt.device.cost_model import op_fidelity

    assert (op_fidelity(_matmul(op, None), "bf16"), op_fidelity(_matmul(op, "packer_l1_acc = true"), "bf16")) == ("HiFi2", "LoFi")


def test_a_1x1_conv_runs_its_matmul_with_the_convs_default_config(op, lay) -> None:
    # conv2d's default config accumulates in L1 neither, and a 1x1 conv hands it to its linear.
    from ttopt.device.cost_model import op_accumulation

    props = (
        "batch_size = 1 : i32, in_channels = 512 : i32, out_channels = 256 : i32, input_height = 32 : i32, "
        "input_width = 32 : i32, kernel_size = array<i32: 1, 1>, stride = array<i32: 1, 1>, "
        "padding = array<i32: 0, 0, 0, 0>, dilation = array<i32: 1, 1>, groups = 1 : i32"
    )
    conv = op("ttnn.conv2d", ["1x1x1024x512xbf16", "256x512x1x1xbf16"], "1x1x1024x256xbf16", props=props)
    acc_conv = op("ttnn.conv2d", ["1x1x1024x512xbf16", "256x512x1x1xbf16"], "1x1x1024x256xbf16",
                  props=props + ", compute_config = #ttnn.device_compute_kernel_config<math_fidelity = hifi4, packer_l1_acc = true>")  # fmt: skip
    assert op_accumulation(conv, "conv", "bf16") == Accumulation(False, False, "bf16")
    cm = CostModel(preset("wormhole_b0"))
    ins, out = [lay((1, 1, 1024, 512)), lay((256, 512, 1, 1))], lay((1, 1, 1024, 256))
    assert cm.op_cost(conv, ins, out).compute_ns > cm.op_cost(acc_conv, ins, out).compute_ns


def test_a_block_sharded_matmul_reloads_over_its_program_configs_k_blocks(op, lay) -> None:
    # tt-mlir's 2-D config for a block-sharded output walks K two tiles at a time (32 blocks of
    # Kt 64), not the all-DRAM default's Kt / 8.
    cm = CostModel(preset("wormhole_b0"))
    ins = [lay((1, 1, 1024, 2048)), lay((1, 1, 2048, 1024))]
    out = lay((1, 1, 1024, 1024), "l1", "b", grid=(8, 8))
    off, on = (cm.op_cost(_matmul(op, f"math_fidelity = hifi2, packer_l1_acc = {f}"), ins, out).compute_ns for f in ("false", "true"))
    p = cm.params
    assert off - on == pytest.approx(reload_ns(p, 16, 32, Accumulation(False, False, "bf16")) - reload_ns(p, 16, 32, Accumulation(False, True, "bf16")))
