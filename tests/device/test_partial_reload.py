"""A matmul or conv compute kernel without L1 accumulation spills its partial results between K
blocks and reloads them: when it does, in what format, and what it costs."""

from __future__ import annotations

import re
from dataclasses import replace
from math import ceil

import pytest

from bench.calibrate import CALIBRATION_DIR, load_suites, ratio
from ttopt.device import CostModel, preset
from ttopt.device.cost_terms import (
    ConvShape,
    conv_k_blocks,
    conv_k_tiles,
    matmul_terms,
    params_for,
    partials_format,
    reload_ns,
    two_d_in0_block_w,
    weight_multicast_terms,
)

BH110 = replace(params_for("blackhole"), grid_cores=110, grid_rows=10)


@pytest.mark.parametrize(
    ("program", "out", "fp32", "l1_acc", "spilled"),
    [
        ("matmul", "bf16", None, None, ""),  # ttnn's matmul default: the packer accumulates in L1
        ("matmul", "bfp_bf8", None, None, ""),
        ("matmul", "f32", None, None, "f32"),  # an f32 output accumulates in fp32 DEST, not in L1
        ("matmul", "bf16", None, False, "bf16"),  # a config that turns L1 accumulation off
        ("matmul", "bfp_bf8", True, False, "f32"),
        ("conv", "bf16", None, None, "bf16"),  # conv2d's default config accumulates in neither
        ("conv", "bfp_bf8", True, None, "f32"),
        ("conv", "bf16", None, True, ""),
    ],
)
def test_the_partials_spill_in_fp32_or_the_output_format_unless_the_packer_accumulates(program, out, fp32, l1_acc, spilled) -> None:
    assert partials_format(program, out, fp32, l1_acc) == spilled


def test_a_reload_is_paid_per_output_tile_for_every_k_block_but_the_last() -> None:
    p = BH110
    assert reload_ns(p, 42, 1, "f32") == reload_ns(p, 42, 32, "") == 0.0
    assert reload_ns(p, 42, 32, "f32") == pytest.approx(42 * 31 * 4 * p.reload_cycles_per_kb / p.clock_ghz)
    assert reload_ns(p, 42, 32, "bf16") == pytest.approx(reload_ns(p, 42, 32, "f32") / 2)


def test_the_2d_programs_k_block_is_ttnns_all_dram_rule_unless_a_config_gives_one() -> None:
    # create_simple_matmul_program_config: Kt / grid columns where they divide it, else 1.
    assert (two_d_in0_block_w(32, 11), two_d_in0_block_w(33, 11), two_d_in0_block_w(64, 8)) == (1, 3, 8)
    assert two_d_in0_block_w(32, 11, given=4) == 4


def test_a_2d_matmul_walking_k_a_tile_at_a_time_reloads_its_partials_31_times() -> None:
    # DeepLabV3's [2048, 1024] @ [1024, 2048] on 11 x 10 cores: Kt 32 does not divide by 11, so
    # in0_block_w is 1; each core's output tiles spill and reload after 31 of the 32 blocks.
    args = (BH110, 2048, 1024, 2048, "bfp_bf8", "bfp_bf8", "bfp_bf8", "LoFi", "dram_i", "dram_i", "dram_i", 110)
    plain, spilled = matmul_terms(*args), matmul_terms(*args, partials="f32")
    assert spilled.compute_ns - plain.compute_ns == pytest.approx(reload_ns(BH110, ceil(64 * 64 / 110), 32, "f32"))
    assert (spilled.dram_ns, spilled.noc_ns) == (plain.dram_ns, plain.noc_ns)


def test_a_program_with_the_whole_k_in_one_block_reloads_nothing() -> None:
    # A height-sharded activation's weight multicast takes the whole K as one block (in0_block_w = Kt).
    args = (BH110, 64, 8, 8, "bfp_bf8", "bfp_bf8", "bfp_bf8", "LoFi", "l1_s", "dram_i", "l1_s", 64)
    assert weight_multicast_terms(*args, in0_block_w=8, partials="f32") == weight_multicast_terms(*args, in0_block_w=8)
    assert weight_multicast_terms(*args, in0_block_w=2, partials="f32").compute_ns > weight_multicast_terms(*args, in0_block_w=2).compute_ns


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
    # the reloads the model gave 0.36x and 0.46x of that, with them 0.6x-0.8x.
    rows = {r["id"]: r for r in load_suites(CALIBRATION_DIR)["matmul_bh_deeplabv3"]}
    p = params_for("blackhole")
    for row_id in ("dlv3_mm_174080", "dlv3_mm_187392"):
        assert 0.6 < ratio(p, rows[row_id]) < 1.25, row_id


def _matmul(op, config: str):
    props = f"compute_config = #ttnn.device_compute_kernel_config<{config}>" if config else ""
    return op("ttnn.matmul", ["1x1x1024x2048xbf16", "1x1x2048x1024xbf16"], "1x1x1024x1024xbf16", props=props)


def test_the_cost_model_reloads_a_matmuls_partials_only_when_its_config_turns_l1_accumulation_off(op, lay) -> None:
    cm = CostModel(preset("wormhole_b0"))
    ins = [lay((1, 1, 1024, 2048)), lay((1, 1, 2048, 1024))]
    out = lay((1, 1, 1024, 1024))
    default, on, off = (cm.op_cost(_matmul(op, c), ins, out) for c in ("", "packer_l1_acc = true", "packer_l1_acc = false"))
    assert default.compute_ns == on.compute_ns < off.compute_ns
    fp32 = cm.op_cost(_matmul(op, "fp32_dest_acc_en = true, packer_l1_acc = false"), ins, out)
    assert fp32.compute_ns - default.compute_ns == pytest.approx(2 * (off.compute_ns - default.compute_ns))
