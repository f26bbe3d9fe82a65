"""The cost model (docs/device-model.md §5): one parameter table, the per-op terms, the decode
regime, memory-config orderings as measured, module totals, and the stored fit."""

from __future__ import annotations

import json
import math
from dataclasses import replace
from math import ceil
from pathlib import Path

import pytest

from bench.calibrate import CALIBRATION_DIR, FREE, board_params, load_suites, ratio, robust, tie_launches
from bench.calibrate import main as calibrate_main
from ttopt.device import CostModel, preset
from ttopt.device.cost_terms import (
    CALIBRATION_FILE,
    dram_block_read_ns,
    dram_sharded_weight_ns,
    dram_stream_ns,
    matmul_terms,
    multicast_hop_ns,
    one_d_in0_block_w,
    one_d_weight_ns,
    params_for,
    read_round_trip_ns,
    reshape_input_tiles,
    reshape_tiled_terms,
    rotary_terms,
    sdpa_decode_terms,
    stream_terms,
    tile_row_reader_terms,
    tilize_block_side,
    tilize_terms,
    transpose_hc_terms,
    untilize_terms,
)
from ttopt.device.layout_info import layout_info
from ttopt.device.op_families import OP_FAMILIES
from ttopt.device.presets import COST_TABLE
from ttopt.parse.parser import parse_module

ROOT = Path(__file__).resolve().parents[2]
WH = params_for("wormhole_b0")


def test_every_parameter_has_values_a_source_and_how_it_was_obtained() -> None:
    rows = json.loads(CALIBRATION_FILE.read_text())["params"]
    for name, p in COST_TABLE.items():
        assert p.wormhole_b0 >= 0 and p.blackhole >= 0 and p.unit and len(p.source) > 20, name
        assert p.how in ("spec", "measured", "fitted", "assumed"), name
        if p.how == "fitted":
            assert "prior" in rows[name] and rows[name]["prior"]["sd_log"] > 0, name


def test_every_op_kind_has_cycles(op) -> None:
    cm = CostModel(preset("wormhole_b0"))
    for name in OP_FAMILIES:
        o = op(name, ["64x64xbf16"], "64x64xbf16")
        assert cm.cycles_per_unit(o) > 0, name


def test_unaries_with_a_measured_kernel_cost_their_own_cycles_per_tile(op, lay) -> None:
    # exp and gelu have their own rows (cost_params.json: tt-llk cycles of the accurate kernels
    # tt-mlir's runtime calls); log has none and costs the transcendental kind's, relu the
    # eltwise_unary floor (the SFPU identity kernel).
    from ttopt.device.rules.generic import call_cycles

    for arch in ("wormhole_b0", "blackhole"):
        cm = CostModel(preset(arch))
        p = cm.params
        assert p.tile_cycles("eltwise_unary_transcendental", "exp") == p.cycles_per_tile["exp"]
        assert p.tile_cycles("eltwise_unary_transcendental", "log") == p.cycles_per_tile["eltwise_unary_transcendental"]
        assert p.tile_cycles("eltwise_unary", "") == p.cycles_per_tile["eltwise_unary"]
        for name, row in (("exp", "exp"), ("gelu", "gelu"), ("log", "eltwise_unary_transcendental"), ("relu", "eltwise_unary")):
            o = op(f"ttnn.{name}", ["2048x2048xbf16"], "2048x2048xbf16")
            assert cm.cycles_per_unit(o) == p.cycles_per_tile[row], (arch, name)
            c = cm.op_cost(o, [lay((2048, 2048))], lay((2048, 2048)))
            assert c.compute_ns == pytest.approx(ceil(64 * 64 / c.cores) * p.cycles_per_tile[row] / p.clock_ghz), (arch, name)
        # A D2M compute kernel's calls: exp_tile its own row, recip_tile (no row) the kind's.
        assert call_cycles("exp_tile", p) == p.cycles_per_tile["exp"]
        assert call_cycles("recip_tile", p) == p.cycles_per_tile["eltwise_unary_transcendental"]
        assert call_cycles("add_tiles", p) == p.cycles_per_tile["eltwise_binary"]
        assert call_cycles("tile_regs_acquire", p) == 0.0
    # Every per-op row names a TTNN op (a misspelt one would silently fall back to its kind).
    from ttopt.device.cost_terms import KINDS

    assert all(k in KINDS or f"ttnn.{k}" in OP_FAMILIES for k in WH.cycles_per_tile)
    # The measured accurate kernels cost several times the identity floor.
    assert WH.cycles_per_tile["exp"] > 4 * WH.cycles_per_tile["eltwise_unary"]
    assert WH.cycles_per_tile["gelu"] > 3 * WH.cycles_per_tile["exp"]


def test_a_fused_activation_runs_on_each_output_tile_of_the_matmul(op, lay) -> None:
    # The matmul's compute kernel applies its activation to every output tile in DEST before packing
    # it: out tiles per core x the unary's cycles, whether the op carries `activation` or its program
    # config carries `fused_activation` (where the optimizer moves it).
    from ttopt.device.cost_model import activation_cycles, fused_activation

    cm = CostModel(preset("wormhole_b0"))
    p = cm.params
    ins, out = [lay((1024, 1024)), lay((1024, 1024))], lay((1024, 1024))
    shapes = (["1024x1024xbf16", "1024x1024xbf16"], "1024x1024xbf16")
    plain = op("ttnn.matmul", *shapes)
    gelu = op("ttnn.matmul", *shapes, props='activation = "gelu"')
    relu = op("ttnn.matmul", *shapes, props='activation = "relu"')
    assert (fused_activation(plain), fused_activation(gelu), fused_activation(relu)) == (None, "gelu", "relu")
    base = cm.op_cost(plain, ins, out)
    per_core = ceil(32 * 32 / 64)  # output tiles per core on the 8x8 grid
    for o, row in ((gelu, "gelu"), (relu, "eltwise_unary")):
        c = cm.op_cost(o, ins, out)  # a different memo key from the plain matmul
        assert activation_cycles(p, fused_activation(o)) == p.cycles_per_tile[row]
        assert c.compute_ns - base.compute_ns == pytest.approx(per_core * p.cycles_per_tile[row] / p.clock_ghz)
    cfg = (
        "matmul_program_config = #ttnn.matmul_multi_core_reuse_multi_cast_program_config<compute_with_storage_grid_size = "
        "#ttnn.core_coord<8, 8>, in0_block_w = 2, out_subblock_h = 1, out_subblock_w = 4, out_block_h = 4, out_block_w = 4, "
        "per_core_m = 4, per_core_n = 4, transpose_mcast = false, fused_activation = #ttnn.unary_with_param<op_type = gelu>, "
        "fuse_batch = true>"
    )
    in_cfg = op("ttnn.matmul", *shapes, props=cfg)
    assert fused_activation(in_cfg) == "gelu"
    assert cm.op_cost(in_cfg, ins, out).compute_ns == pytest.approx(cm.op_cost(gelu, ins, out).compute_ns)
    typed = op("ttnn.matmul", *shapes, props="activation = #ttnn.unary_with_param<op_type = gelu>")
    assert fused_activation(typed) == "gelu"


def _conv3x3(cin: int, cout: int, height: int, width: int) -> str:
    """The attributes of a stride-1, padding-1 3x3 ttnn.conv2d of one image."""
    return (
        f"batch_size = 1 : i32, in_channels = {cin} : i32, out_channels = {cout} : i32, input_height = {height} : i32, "
        f"input_width = {width} : i32, kernel_size = array<i32: 3, 3>, stride = array<i32: 1, 1>, "
        "padding = array<i32: 1, 1, 1, 1>, dilation = array<i32: 1, 1>, groups = 1 : i32"
    )


def test_a_conv2d_config_activation_runs_on_each_output_tile(op, lay) -> None:
    # A conv2d carries its activation in its conv2d_config; like a matmul's, it costs the unary's
    # cycles on every output tile (1024 x 64: 32 tile rows of 2 tiles, a tile row per core).
    from ttopt.device.cost_model import fused_activation

    cm = CostModel(preset("wormhole_b0"))
    conv = _conv3x3(16, 64, 32, 32)
    types = (["1x1x1024x16xbf16", "64x16x3x3xbf16"], "1x1x1024x64xbf16")
    ins = [lay((1, 1, 1024, 16)), lay((64, 16, 3, 3), "system_memory", tiled=False)]
    out = lay((1, 1, 1024, 64))
    plain = op("ttnn.conv2d", *types, props=conv)
    relu = op("ttnn.conv2d", *types, props=conv + ", conv2d_config = #ttnn.conv2d_config<activation = <op_type = relu>>")
    assert (fused_activation(plain), fused_activation(relu)) == (None, "relu")
    added = cm.op_cost(relu, ins, out).compute_ns - cm.op_cost(plain, ins, out).compute_ns
    assert added == pytest.approx(2 * cm.params.cycles_per_tile["eltwise_unary"] / cm.params.clock_ghz)


def test_a_fused_norm_runs_its_activation_on_each_output_tile_on_its_row_cores(op, lay) -> None:
    # ttnn.dit_rms_norm_unary_fused runs tt-metal's layernorm program (one core per tile row of an
    # interleaved input) and applies its activation to each output tile: [128, 2048] is 4 tile rows
    # of 64 tiles, so 64 tiles x the unary's cycles on each of 4 cores.
    from ttopt.device.cost_model import fused_activation

    cm = CostModel(preset("wormhole_b0"))
    p = cm.params
    types = (["128x2048xbf16", "2048xbf16"], "128x2048xbf16")
    ins, out = [lay((128, 2048)), lay((2048,))], lay((128, 2048))
    seg = "operandSegmentSizes = array<i32: 1, 1, 0, 0>"
    plain = op("ttnn.dit_rms_norm_unary_fused", *types, props=seg)
    gelu = op("ttnn.dit_rms_norm_unary_fused", *types, props=seg + ', activation = "gelu"')
    assert (fused_activation(plain), fused_activation(gelu)) == (None, "gelu")
    base, fused = cm.op_cost(plain, ins, out), cm.op_cost(gelu, ins, out)
    assert fused.compute_ns - base.compute_ns == pytest.approx(64 * p.cycles_per_tile["gelu"] / p.clock_ghz)
    # A residual input is added before normalising: one add per output tile, not another norm pass.
    res_types = (["128x2048xbf16", "2048xbf16", "128x2048xbf16"], "128x2048xbf16")
    res = op("ttnn.dit_rms_norm_unary_fused", *res_types, props="operandSegmentSizes = array<i32: 1, 1, 0, 1>")
    with_res = cm.op_cost(res, [*ins, lay((128, 2048))], out)
    assert with_res.compute_ns - base.compute_ns == pytest.approx(64 * p.cycles_per_tile["eltwise_binary"] / p.clock_ghz)


def _conv_row_op(op, lay, cm, row):
    """A ttnn.conv2d op and its layouts from a conv calibration row (sharded as the row's `grid`)."""
    n, h, w, cin = (int(x) for x in row["shape"].split("x"))
    kh, kw = (int(x) for x in row["window"].split("x"))
    sh, sw = (int(x) for x in row["stride"].split("x"))
    dh, dw = (int(x) for x in row["dilation"].split("x"))
    top, bottom, left, right = (int(x) for x in row["padding"].split(","))
    pixels = n * ((h + top + bottom - dh * (kh - 1) - 1) // sh + 1) * ((w + left + right - dw * (kw - 1) - 1) // sw + 1)
    cout, rows, cols = row["n"], *(int(x) for x in row["grid"].split("x"))
    k = cin * kh * kw
    act = ", conv2d_config = #ttnn.conv2d_config<activation = <op_type = relu>>" if row["activation"] else ""
    # The capture's compute config: its spill format prices the partials' reloads (cost_terms.reload_ns).
    flags = "".join(
        f", {knob} = {str(row[col]).lower()}" for knob, col in (("fp32_dest_acc_en", "fp32_dest_acc"), ("packer_l1_acc", "packer_l1_acc"))
        if row[col] is not None
    )  # fmt: skip
    props = (
        f"batch_size = {n} : i32, in_channels = {cin} : i32, out_channels = {cout} : i32, input_height = {h} : i32, "
        f"input_width = {w} : i32, kernel_size = array<i32: {kh}, {kw}>, stride = array<i32: {sh}, {sw}>, "
        f"padding = array<i32: {top}, {bottom}, {left}, {right}>, dilation = array<i32: {dh}, {dw}>, groups = 1 : i32, "
        f"compute_config = #ttnn.device_compute_kernel_config<math_fidelity = {row['fidelity'].lower()}{flags}>" + act
    )
    types = ([f"1x1x{n * h * w}x{cin}xbf16", f"1x1x{k}x{cout}xbf16"], f"1x1x{pixels}x{cout}xbf16")
    grid = cm.device.worker_grid
    block = row["a_mem"] == "l1_b"
    in_grid = (rows, int(row["in0_grid"].split("x")[1])) if block else (rows, 1)
    x = lay((1, 1, n * h * w, cin), "l1", "b" if block else "h", grid=in_grid, worker_grid=grid)
    out = lay((1, 1, pixels, cout), "l1", "b" if block else "h", grid=(rows, cols), worker_grid=grid)
    weights = lay((1, 1, k, cout), dtype=row["dtype_b"], worker_grid=grid)
    return op("ttnn.conv2d", *types, props=props), [x, weights], out


@pytest.mark.parametrize(
    "row_id",
    [
        "dlv3_conv_87040",  # 3x3, height sharded on 86 cores
        "dlv3_conv_123904",  # 3x3 stride 2: the output's pixels, not the input's
        "dlv3_conv_180224",  # 3x3 dilation 2, block sharded 8x8, input channels over 11 columns
        "dlv3_conv_116736",  # 1x1 stride 2, block sharded 10x11
        "oft_conv_181248",  # 7x7 stem of 3 channels, HiFi2, on a 20-core grid
        "oft_conv_1606656",  # 5x5 of one channel, HiFi4, bf16 weights
    ],
)
def test_a_conv2d_is_priced_as_its_calibration_rows_are(op, lay, row_id) -> None:
    # The cost model and bench/calibrate.py's rows price a conv alike (cost_terms.conv_program_terms).
    from bench.calibrate import terms_for

    cm = CostModel(preset("blackhole"))
    suites = load_suites(CALIBRATION_DIR)
    (row,) = [r for name in ("conv_bh_deeplabv3", "conv_bh_oft") for r in suites[name] if r["id"] == row_id]
    conv, ins, out = _conv_row_op(op, lay, cm, row)
    c, t = cm.op_cost(conv, ins, out), terms_for(cm.params, row)
    assert (c.compute_ns, c.dram_ns, c.noc_ns) == pytest.approx((t.compute_ns, t.dram_ns, t.noc_ns), rel=1e-6)
    assert c.ns == pytest.approx(t.ns, rel=1e-6)


def test_a_conv2d_tilizes_its_activation_streams_its_weights_and_reads_a_stick_per_kernel_row(op, lay) -> None:
    # A DeepLabV3 3x3 conv of [1, 64, 128, 128] to 128 channels, height sharded on 86 cores: each
    # core tilizes its 3 output tile rows x 36 K tiles, multiplies them into 3 x 4 x 36 blocks and
    # relu's its 12 output tiles, spilling them as fp32 partials after each of its first two K
    # blocks (one per kernel row) and reloading them; one sender reads all 36 x 4 bfp8 weight
    # tiles; the reader copies a stick per output pixel and kernel row.
    cm = CostModel(preset("blackhole"))
    (row,) = [r for r in load_suites(CALIBRATION_DIR)["conv_bh_deeplabv3"] if r["id"] == "dlv3_conv_87040"]
    c = cm.op_cost(*_conv_row_op(op, lay, cm, row))
    p = cm.params
    cycles = 3 * 4 * 36 * p.matmul_cycles_lofi + 3 * 36 * p.conv_tilize_cycles + 3 * 4 * p.cycles_per_tile["eltwise_unary"]
    cycles += 3 * 4 * 2 * 4 * p.reload_cycles_per_kb
    assert c.compute_ns == pytest.approx(cycles / p.clock_ghz)
    assert c.dram_ns == pytest.approx(36 * 4 * 1088 / p.dram_core_gbps)
    assert c.noc_ns == pytest.approx(ceil(8192 / 86) * 3 * p.conv_stick_cycles / p.clock_ghz)


def test_a_conv2d_without_a_compute_config_runs_at_tt_metals_conv_default_hifi4(op) -> None:
    from ttopt.device.cost_model import _conv_fidelity

    types = (["1x1x1024x16xbf16", "64x16x3x3xbf16"], "1x1x1024x64xbf16")
    plain = op("ttnn.conv2d", *types, props=_conv3x3(16, 64, 32, 32))
    lofi = op("ttnn.conv2d", *types, props=_conv3x3(16, 64, 32, 32) + ", compute_config = #ttnn.device_compute_kernel_config<math_fidelity = lofi>")
    assert (_conv_fidelity(plain), _conv_fidelity(lofi)) == ("HiFi4", "LoFi")


def test_conv_k_tiles_align_channels_and_round_each_kernel_row() -> None:
    # tt-metal aligns input channels to 8 (per channel core) and rounds each kernel row to a tile:
    # the fixtures' prepared weights have 3 K tiles for a 3x3 of 3 channels, 14 for a 7x7 of 3,
    # 165 for a 3x3 of 512 split over 11 cores; a grouped conv is padded to its full channels.
    from ttopt.device.cost_terms import ConvShape, conv_k_tiles

    assert conv_k_tiles(ConvShape(1, 3, 64, 1, 3, 3)) == 3
    assert conv_k_tiles(ConvShape(1, 3, 64, 1, 7, 7)) == 14
    assert conv_k_tiles(ConvShape(1, 512, 512, 1, 3, 3), c_in_cores=11) == 165
    assert conv_k_tiles(ConvShape(1, 256, 256, 4, 3, 3)) == conv_k_tiles(ConvShape(1, 256, 256, 1, 3, 3)) == 72
    assert conv_k_tiles(ConvShape(1, 256, 256, 256, 3, 3)) == 3  # depthwise: one channel a group
    assert conv_k_tiles(ConvShape(1, 64, 64, 1, 1, 5)) == 10  # a 1x5 kernel: one row of 5 x 64 channels


def test_an_interleaved_conv_runs_on_the_cheaper_of_tt_metals_auto_shard_layouts(op, lay) -> None:
    # tt-metal never runs a conv interleaved: from an interleaved input it auto-shards. A 3x3 512 ->
    # 512 conv on 7x7 (two tile rows of output) streams its 2.6 MB of weights through one sender when
    # height sharded; block sharding splits them over the grid's columns, and the interleaved conv is
    # priced as that.
    cm = CostModel(preset("wormhole_b0"))
    props = _conv3x3(512, 512, 7, 7)
    types = (["1x1x49x512xbf16", "512x512x3x3xbf16"], "1x1x49x512xbf16")
    weights = lay((512, 512, 3, 3), "system_memory", tiled=False)
    interleaved = cm.op_cost(op("ttnn.conv2d", *types, props=props), [lay((1, 1, 49, 512)), weights], lay((1, 1, 49, 512)))
    block = lay((1, 1, 49, 512), "l1", "b", grid=(2, 8))
    blocked = cm.op_cost(op("ttnn.conv2d", *types, props=props), [block, weights], block)
    height = lay((1, 1, 49, 512), "l1", "h", grid=(2, 1))
    heighted = cm.op_cost(op("ttnn.conv2d", *types, props=props), [height, weights], height)
    assert blocked.dram_ns * 4 < heighted.dram_ns  # a column's share of the weights through each sender
    assert interleaved.dram_ns < heighted.dram_ns
    # conv2d shards its interleaved input first and converts its output back after: two programs of
    # their own, serial with the conv.
    assert interleaved.sync_ns > 0 == blocked.sync_ns


def test_a_norm_is_priced_as_its_calibration_rows_are(op, lay) -> None:
    # A norm's passes run over its input's tiles; its gamma is one row each core reads, not work.
    # The cost model and bench/calibrate.py's rows price the Blackhole one-core RMS norm alike.
    from bench.calibrate import terms_for

    cm = CostModel(preset("blackhole"))
    grid = cm.device.worker_grid
    norm = op("ttnn.rms_norm", ["32x2048xbf16", "2048xbf16"], "32x2048xbf16", props="epsilon = 1.0e-05 : f32")
    c = cm.op_cost(norm, [lay((32, 2048), worker_grid=grid), lay((2048,), worker_grid=grid)], lay((32, 2048), worker_grid=grid))
    (row,) = [r for r in load_suites(CALIBRATION_DIR)["decode_layer_bh_coherelabs"] if r["id"] == "bhdc_rms"]
    t = terms_for(cm.params, row)
    assert c.ns == pytest.approx(t.ns, rel=1e-6) and c.compute_ns == pytest.approx(t.compute_ns, rel=1e-6)
    assert c.compute_ns == pytest.approx(64 * cm.params.cycles_per_tile["norm"] / cm.params.clock_ghz)


def test_each_arch_has_its_parameters() -> None:
    bh = params_for("blackhole")
    assert (WH.clock_ghz, bh.clock_ghz) == (1.0, 1.35)
    assert (WH.grid_cores, bh.grid_cores) == (64, 130)
    assert WH != bh and 0.0 <= WH.overlap <= 1.0
    assert CostModel(preset("blackhole")).params.matmul_cycles_lofi == bh.matmul_cycles_lofi
    # The op-to-op gap is the published trace figure; the launch is the fitted device-side rest.
    assert (WH.op_to_op_ns, bh.op_to_op_ns) == (2050.0, 2069.0)
    assert WH.floor_ns == WH.launch("matmul") + WH.op_to_op_ns


def test_formula_floor_plus_compute_plus_memory_minus_overlap(op, lay) -> None:
    cm = CostModel(preset("wormhole_b0"))
    p = cm.params
    relu = op("ttnn.relu", ["1024x1024xbf16"], "1024x1024xbf16")
    c = cm.op_cost(relu, [lay((1024, 1024))], lay((1024, 1024)))
    dram_bytes = 2 * 1024 * 2048
    assert c.dram_bytes == dram_bytes and c.noc_bytes == 0 and c.cores == 64
    assert c.dram_ns == pytest.approx(dram_bytes / p.dram_stream_gbps + 2 * 1024 * p.dram_page_ns)
    assert c.compute_ns == pytest.approx(ceil(1024 / 64) * p.cycles_per_tile["eltwise_unary"] / p.clock_ghz)
    assert c.overlap_ns == pytest.approx(p.overlap * min(c.compute_ns, c.dram_ns))
    assert c.floor_ns == pytest.approx(p.launch("eltwise_unary") + p.op_to_op_ns) and c.op_to_op_ns == p.op_to_op_ns
    assert c.ns == pytest.approx(c.floor_ns + c.compute_ns + max(c.dram_ns, c.noc_ns) - c.overlap_ns)
    assert c.dispatch_ns == 0.0 and c.bound == "dram"


def test_eltwise_memory_configs_order_as_measured(op, lay) -> None:
    # tt-metal issue 14421 (relu, ~10k tiles): DRAM->L1 ~105 us < L1->L1 ~124 us (reader and writer
    # contend for the same L1 slave ports), and the test there asserts L1->L1 < DRAM->DRAM.
    cm = CostModel(preset("wormhole_b0"))
    shape = (2048, 5024)
    relu = op("ttnn.relu", ["2048x5024xbf16"], "2048x5024xbf16")
    dram, l1i = lay(shape), lay(shape, "l1", "i")
    sharded = lay(shape, "l1", "h", 64)
    dram_dram = cm.op_cost(relu, [dram], dram).ns
    dram_l1 = cm.op_cost(relu, [dram], l1i).ns
    l1_l1 = cm.op_cost(relu, [l1i], l1i).ns
    local = cm.op_cost(relu, [sharded], sharded)
    # DRAM->L1 < L1->L1 is its own test below; here both are checked against the measured values.
    assert local.ns < min(dram_l1, l1_l1) and max(dram_l1, l1_l1) < dram_dram
    assert local.dram_bytes == 0 and local.noc_bytes == 0
    assert dram_l1 == pytest.approx(105_000 + WH.op_to_op_ns, rel=0.25) and l1_l1 == pytest.approx(124_000 + WH.op_to_op_ns, rel=0.25)


def test_eltwise_dram_to_l1_is_cheaper_than_l1_to_l1(op, lay) -> None:
    # tt-metal 14421 measures DRAM->L1 105 us < L1->L1 124 us: L1-interleaved reads wait at their
    # banks behind the op's own L1-interleaved writes (the reader's barrier per page makes that wait
    # latency), and a conversion's block reader is no longer fitted a faster DRAM rate than relu's.
    cm = CostModel(preset("wormhole_b0"))
    shape = (2048, 5024)
    relu = op("ttnn.relu", ["2048x5024xbf16"], "2048x5024xbf16")
    dram, l1i = lay(shape), lay(shape, "l1", "i")
    assert cm.op_cost(relu, [dram], l1i).ns < cm.op_cost(relu, [l1i], l1i).ns


def test_decode_matmuls_are_dram_bound_at_the_streaming_bandwidth() -> None:
    # M = 32: a 1-D matmul; every core streams its slice of the bfp8 weights, each page paying the
    # per-page request cost streaming ops pay: on 64 workers with 14-tile blocks the chip's stream
    # binds, ~150 GB/s of bfp8 weights (the LLMs tech report's "around 190 GB/s"; PR 13340's LM
    # head ~160 GB/s).
    t = matmul_terms(WH, 32, 4096, 14336, "bf16", "bfp_bf8", "bf16", "HiFi2", "l1_s", "dram_i", "l1_s", 64)
    weights = 128 * 448 * 1088
    assert t.dram_ns > 5 * t.compute_ns and t.noc_ns < t.dram_ns
    per_page = 1088 / WH.dram_stream_gbps + WH.dram_page_ns
    assert weights / t.device_ns == pytest.approx(1088 / per_page, rel=0.05)
    assert 130 < weights / t.device_ns < 200
    # DRAM-sharded weights stream at the sharded rate (~240 GB/s on Wormhole; each bank's columns
    # padded to 38 tiles) and are faster; the matmul itself runs on the 12 bank workers.
    ds = matmul_terms(WH, 32, 4096, 14336, "bf16", "bfp_bf8", "bf16", "HiFi2", "l1_s", "dram_s", "l1_s", 64)
    assert ds.ns < t.ns and weights * 456 / 448 / ds.dram_ns == pytest.approx(WH.dram_sharded_gbps, rel=0.02)
    # 38 columns a bank worker over K, and one reload of their bf16 partials before the last K
    # block (ttnn's default accumulates them in L1).
    assert ds.compute_ns == pytest.approx((38 * 128 * WH.matmul_cycles_lofi * 2 + 38 * 2 * WH.reload_cycles_per_kb) / WH.clock_ghz)
    # The same matmul at M = 1024 runs 2-D: compute and the senders' DRAM rate, not the stream.
    big = matmul_terms(WH, 1024, 4096, 14336, "bf16", "bfp_bf8", "bf16", "HiFi2", "dram_i", "dram_i", "dram_i", 64)
    assert big.compute_ns > 10 * t.compute_ns


def test_a_dram_sharded_matmul_pays_its_activation_chain() -> None:
    # tt-metal issue 55443: the activation is multicast one semaphore-gated block per sender, K /
    # in0_block_w blocks, each overlapping its block's weight read from every bank. Issue 11063's
    # FF2 [32,3584] @ [3584,2048] on 8 activation cores has 14-tile shards (in0_block_w 7: 16
    # hand-offs); FF1 [32,2048] @ [2048,3584] 8 of 8 tiles. Each bank holds ceil(Nt / 12) columns.
    bank = WH.dram_sharded_gbps / 12
    ff1 = dram_sharded_weight_ns(WH, 1, 64, 112, "bf16", "bfp_bf4", 8)
    ff2 = dram_sharded_weight_ns(WH, 1, 112, 64, "bf16", "bfp_bf4", 8)
    assert ff1 == pytest.approx(8 * max(WH.sem_hop_ns + 8 * 2048 / WH.link_gbps, 8 * 10 * 576 / bank))
    assert ff2 == pytest.approx(16 * max(WH.sem_hop_ns + 7 * 2048 / WH.link_gbps, 7 * 6 * 576 / bank))
    # A one-tile shard (K = 2048 on 64 activation cores, Llama-3.2-1B's FF1 in tt-transformers)
    # makes the chain the floor: 64 hand-offs, each longer than its block's weight read.
    narrow = dram_sharded_weight_ns(WH, 1, 64, 256, "bf16", "bfp_bf4", 64)
    assert narrow == pytest.approx(64 * (WH.sem_hop_ns + 2048 / WH.link_gbps)) and narrow > 64 * 256 * 576 / WH.dram_sharded_gbps
    # A given config's in0_block_w sets the chain: 11-tile blocks over K = 88 tiles are 8 hand-offs
    # (Gemma-4's gate/up projection on 4 activation cores), where the default rule takes 2 (44).
    BH = params_for("blackhole")
    given = dram_sharded_weight_ns(BH, 1, 88, 132, "bf16", "bfp_bf8", 4, in0_block_w=11)
    default = dram_sharded_weight_ns(BH, 1, 88, 132, "bf16", "bfp_bf8", 4)
    bh_bank = BH.dram_sharded_gbps / BH.dram_banks
    assert given == pytest.approx(8 * max(BH.sem_hop_ns + 11 * 2048 / BH.link_gbps, 11 * 17 * 1088 / bh_bank))
    assert default == pytest.approx(44 * max(BH.sem_hop_ns + 2 * 2048 / BH.link_gbps, 2 * 17 * 1088 / bh_bank))
    # tt-metal PR 42593: [32,8192] @ [8192,1280] bfp8, DRAM-sharded 61.6 us, 1-D interleaved 90.4 us.
    ds = matmul_terms(WH, 32, 8192, 1280, "bf16", "bfp_bf8", "bf16", "HiFi2", "l1_w", "dram_s", "l1_w", 8)
    one_d = matmul_terms(WH, 32, 8192, 1280, "bf16", "bfp_bf8", "bf16", "HiFi2", "dram_i", "dram_i", "dram_i", 64)
    assert ds.device_ns == pytest.approx(61_600, rel=0.3) and ds.device_ns < one_d.device_ns


def test_a_blackhole_dram_bank_serves_one_tile_request_at_a_time() -> None:
    # tt-metal issue 55898: Blackhole's DRAM endpoints take one read request per ~16 cycles, so a
    # DRAM-sharded decode matmul's bfp4 weights stream slower than bf16 ones: a bank's block of
    # small tiles is bound by its requests (16 cycles each), one of large tiles by its bytes.
    BH = params_for("blackhole")
    bank = BH.dram_sharded_gbps / BH.dram_banks
    assert BH.dram_request_ns == pytest.approx(16 / BH.clock_ghz, rel=1e-3)
    assert 576 / bank < BH.dram_request_ns < 1088 / bank  # bfp4 request-bound, bfp8 / bf16 bandwidth-bound
    bfp4 = dram_sharded_weight_ns(BH, 1, 128, 448, "bf16", "bfp_bf4", 32, in0_block_w=4)
    bfp8 = dram_sharded_weight_ns(BH, 1, 128, 448, "bf16", "bfp_bf8", 32, in0_block_w=4)
    assert bfp4 == pytest.approx(32 * 4 * 56 * BH.dram_request_ns)
    assert bfp8 == pytest.approx(32 * 4 * 56 * 1088 / bank)
    assert 128 * 448 * 576 / bfp4 < 128 * 448 * 1088 / bfp8  # bfp4 streams fewer GB/s
    # Wormhole takes one request per ~6.8 cycles (same issue: bfp4 at 92% of peak), under a bfp4
    # tile's time at its bank's share of the stream: its blocks are bound by their bytes alone.
    wh_bank = WH.dram_sharded_gbps / WH.dram_banks
    assert WH.dram_request_ns == pytest.approx(6.8 / WH.clock_ghz, rel=1e-3)
    assert WH.dram_request_ns < 576 / wh_bank
    wh_bfp4 = dram_sharded_weight_ns(WH, 1, 128, 448, "bf16", "bfp_bf4", 32, in0_block_w=4)
    assert wh_bfp4 == pytest.approx(32 * max(WH.sem_hop_ns + 4 * 2048 / WH.link_gbps, 4 * 38 * 576 / wh_bank))


def test_a_column_reduction_queues_on_the_banks_its_cores_share(op, lay) -> None:
    # reduce-h report: ttnn.sum over H of 256x32768 on 64 cores, 16 columns each: 195 us (DRAM),
    # 179 us (L1). PR 56647: 4096x2048 over H, one column per core: 96 us for the same 16.8 MB.
    # Cores 16 columns apart hit 3 of the 12 DRAM banks (4 of the 64 L1 banks) at a time.
    cm = CostModel(preset("wormhole_b0"))
    h = "dim_arg = [0 : i32], keep_dim = true"
    wide = op("ttnn.sum", ["256x32768xbf16"], "1x32768xbf16", props=h)
    dram = cm.op_cost(wide, [lay((256, 32768))], lay((1, 32768)))
    l1 = cm.op_cost(wide, [lay((256, 32768), "l1", "i")], lay((1, 32768), "l1", "i"))
    tall = op("ttnn.sum", ["4096x2048xbf16"], "1x2048xbf16", props=h)
    spread = cm.op_cost(tall, [lay((4096, 2048))], lay((1, 2048)))
    assert spread.ns - WH.op_to_op_ns == pytest.approx(95_700, rel=0.3)
    assert l1.ns - WH.op_to_op_ns == pytest.approx(179_000, rel=0.3) and dram.ns - WH.op_to_op_ns == pytest.approx(195_000, rel=0.5)
    assert spread.ns < l1.ns < dram.ns
    # One column per core keeps every bank busy: no queue beyond the page round trip; 16 columns
    # per core on the same bytes queue on 3 banks.
    nbytes, pages = (4096 * 2048 + 2048 * 32) * 2, 128 * 64 + 64
    args = (WH, "reduction", 8192, 64, nbytes, pages)
    assert stream_terms(*args, parallel=64, stride=1).ns == stream_terms(*args, parallel=64).ns
    assert stream_terms(*args, parallel=64, stride=16).ns > 2 * stream_terms(*args, parallel=64).ns


def test_a_min_reduction_pays_three_passes_per_tile(op, lay) -> None:
    # tt-metal computes bf16 min as -max(-x) in one program (reduce_h_neg): each tile is copied,
    # negated and packed, the accumulator copied back, and the tile reduced and packed. PR 56647:
    # min over H of 4096x2048 (one column per core) takes 95.7 us where PR 54349's mean of the
    # same kind of program pays ~0.55 us per page.
    cm = CostModel(preset("wormhole_b0"))
    h = "dim_arg = [0 : i32], keep_dim = true"
    args = ([lay((4096, 2048))], lay((1, 2048)))
    mn = cm.op_cost(op("ttnn.min", ["4096x2048xbf16"], "1x2048xbf16", props=h), *args)
    mx = cm.op_cost(op("ttnn.max", ["4096x2048xbf16"], "1x2048xbf16", props=h), *args)
    assert mn.compute_ns == pytest.approx(3 * mx.compute_ns) and mn.ns > mx.ns
    assert mn.ns - WH.op_to_op_ns == pytest.approx(95_700, rel=0.2)
    one = stream_terms(WH, "reduction", 128, 1)
    assert stream_terms(WH, "reduction", 128, 1, passes=3).compute_ns == pytest.approx(3 * one.compute_ns)


def test_a_sharded_norm_exchanges_its_statistics(op, lay) -> None:
    # DeepSeek-V3 MLA perf targets: rms_norm of [32,512] width-sharded on 16 cores, 6.68 us of
    # kernel; [32,1536], 7.33 us: a fixed ~3.5 us beyond a streaming launch, the gather of each
    # core's partial E[x^2] and the multicast of the result (two hand-offs + a tile per core).
    t = stream_terms(WH, "norm", 16, 16, exchanges=1)
    assert t.sync_ns == pytest.approx(2 * WH.sem_hop_ns + 16 * 2048 / WH.link_gbps)
    assert t.device_ns == pytest.approx(6_680, rel=0.25) and stream_terms(WH, "norm", 16, 1, exchanges=1).sync_ns == 0.0
    cm = CostModel(preset("wormhole_b0"))
    shape, spec = (1, 1, 32, 512), "1x1x32x512xbf16"
    eps = "epsilon = 1.000000e-05 : f32"
    sharded, interleaved = lay(shape, "l1", "w", 16), lay(shape, "l1", "i")
    rms, ln = op("ttnn.rms_norm", [spec], spec, props=eps), op("ttnn.layer_norm", [spec], spec, props=eps)
    one = cm.op_cost(rms, [sharded], sharded).ns - cm.op_cost(rms, [interleaved], sharded).ns
    assert cm.op_cost(ln, [sharded], sharded).ns - cm.op_cost(rms, [sharded], sharded).ns == pytest.approx(t.sync_ns)
    assert cm.op_cost(rms, [sharded], sharded).sync_ns == pytest.approx(t.sync_ns)
    # An interleaved input runs tt-metal's interleaved program, whole tile rows per core: this
    # one-row norm on one core, all 16 tiles of compute there, slower than 16 exchanging cores.
    alone = cm.op_cost(rms, [interleaved], sharded)
    assert one < 0 and alone.compute_ns == pytest.approx(16 * WH.cycles_per_tile["norm"] / WH.clock_ghz)
    # Block sharded on 4x8: each row is split over a grid row of 8 cores; height sharded: none.
    block, height = lay(shape, "l1", "b", (1, 8)), lay(shape, "l1", "h", 1)
    per_row = stream_terms(WH, "norm", 16, 8, exchanges=1).sync_ns
    assert cm.op_cost(rms, [block], block).ns - cm.op_cost(rms, [height], block).ns == pytest.approx(per_row, rel=0.01)


def test_an_interleaved_norm_works_on_its_tile_rows_cores(op, lay) -> None:
    # tt-metal's interleaved layernorm and softmax programs split whole tile rows over the cores:
    # 128 rows of 2048 are 4 tile rows, so 4 cores take 64 tiles each, however large the grid.
    cm = CostModel(preset("wormhole_b0"))
    p = cm.params
    spec, shape = "1x1x128x2048xbf16", (1, 1, 128, 2048)
    eps = "epsilon = 1.000000e-05 : f32"
    for name, props in (("ttnn.rms_norm", eps), ("ttnn.layer_norm", eps), ("ttnn.softmax", "dimension = -1 : si32")):
        o = op(name, [spec], spec, props=props)
        c = cm.op_cost(o, [lay(shape)], lay(shape))
        assert c.compute_ns == pytest.approx(64 * p.cycles_per_tile["norm"] / p.clock_ghz), name
    # An eltwise op of the same shape spreads over the whole grid: 4 tiles per core.
    relu = op("ttnn.relu", [spec], spec)
    assert cm.op_cost(relu, [lay(shape)], lay(shape)).compute_ns == pytest.approx(4 * p.cycles_per_tile["eltwise_unary"] / p.clock_ghz)


def test_a_row_major_norm_weight_is_read_a_stick_at_a_time(op, lay) -> None:
    # tt-metal's interleaved layernorm reads a row-major gamma one 32-element stick per tile of the
    # row, a barrier after each, while the compute waits for it: Wt page round trips, serial. A
    # weight in tiles is read in blocks like the input. Blackhole captures (Phi-3.5 [128, 3072] on 4
    # cores: 44.3 us; Gemma [128, 5376]: 75.9 us) are held out in bench/calibration.
    cm = CostModel(preset("wormhole_b0"))
    x, w = "1x1x128x3072xbf16", "1x1x1x3072xbf16"
    norm = op("ttnn.rms_norm", [x, w], x, props="epsilon = 1.000000e-05 : f32")
    shape = (1, 1, 128, 3072)
    tiled = cm.op_cost(norm, [lay(shape), lay((1, 1, 1, 3072))], lay(shape))
    rm = cm.op_cost(norm, [lay(shape), lay((1, 1, 1, 3072), tiled=False)], lay(shape))
    assert rm.sync_ns - tiled.sync_ns == pytest.approx(96 * cm.params.page_latency_ns["reduction"])
    assert rm.ns - tiled.ns == pytest.approx(96 * cm.params.page_latency_ns["reduction"], rel=0.05)
    bh = params_for("blackhole")
    phi = stream_terms(bh, "norm", 4 * 96, 4, 2 * 128 * 3072 * 2, 2 * 384, parallel=4, stick_reads=96)
    assert phi.device_ns == pytest.approx(44_345, rel=0.15)


def test_a_few_cores_stream_dram_at_their_own_block_read_rate_at_least() -> None:
    # One core is 1/64 of the chip's stream by share (3.7 GB/s on Wormhole), below what one core
    # reads on its own (dram_core_gbps): the floor applies; the whole grid keeps the chip's stream.
    from ttopt.device.cost_terms import dram_stream_ns

    nbytes, pages = 64 * 2048 * 2, 128
    one = stream_terms(WH, "norm", 64, 1, nbytes, pages, parallel=1)
    assert WH.dram_stream_gbps / WH.grid_cores < WH.dram_core_gbps
    assert one.dram_ns == pytest.approx(dram_stream_ns(WH, nbytes, pages, WH.dram_core_gbps))
    grid = stream_terms(WH, "norm", 64 * 64, 64, nbytes * 64, pages * 64)
    assert grid.dram_ns == pytest.approx(dram_stream_ns(WH, nbytes * 64, pages * 64, WH.dram_stream_gbps))


def test_whole_model_host_step_comes_from_the_published_scaling() -> None:
    from bench.whole_model import ds_in0_cores, host_step_ns, published

    rows = published("whole_model_tt_transformers.csv")
    b1, why = host_step_ns(rows, 1)
    b32, _ = host_step_ns(rows, 32)
    assert 4e6 < b1 < 6.5e6 and 9e6 < b32 < 12e6 and "5 models" in why
    assert b1 < host_step_ns(rows, 16)[0] < b32
    # tt-transformers' activation grid: the most cores within 8x8 dividing K and N in tiles.
    assert (ds_in0_cores(64, 256), ds_in0_cores(112, 64), ds_in0_cores(256, 40), ds_in0_cores(7, 11)) == (64, 16, 8, 1)


def test_one_d_matmuls_hand_the_activation_on_block_by_block() -> None:
    # tt-metal's 1-D program: one sender reads each activation block (in0_block_w tiles of K) and
    # multicasts it behind a semaphore; the weight reads overlap it. ttnn's default config for an
    # all-DRAM [32,8192] @ [8192,1280] bfp8 (create_simple_matmul_program_config calls it narrow and
    # runs get_mcast_1d_config: in0_block_w 2, 128 hand-offs) runs 153 us where an 8-wide block (32
    # hand-offs) runs 90 us, and 142 / 69 us at N = 1024: tt-metal PR 42593's table, 'auto' and
    # '1d_mcast' columns.
    args = ("bf16", "bfp_bf8", "bf16", "HiFi2", "dram_i", "dram_i", "dram_i", 64)
    auto = matmul_terms(WH, 32, 8192, 1280, *args)
    wide = matmul_terms(WH, 32, 8192, 1280, *args, in0_block_w=8)
    wide1024 = matmul_terms(WH, 32, 8192, 1024, *args, in0_block_w=8)
    assert one_d_in0_block_w(256, 64, False) == 2 and one_d_in0_block_w(255, 64, False) == 1
    assert auto.device_ns == pytest.approx(153_100, rel=0.15) and wide.device_ns == pytest.approx(90_400, rel=0.2)
    assert 1 / 1.3 < wide1024.device_ns / 69_400 < 1.3
    # The receivers ask for the next block as soon as they have room for it (double-buffered), so
    # their semaphores come back while the sender reads: a hand-off is the longer of the read and
    # the semaphore round trip. Wormhole posts the multicast without a write barrier, its bytes
    # leaving while the next block is read; Blackhole flushes each one first, so it adds.
    nbytes, tile = 1e6, 2048
    chip = nbytes / WH.dram_stream_gbps + nbytes / tile * WH.dram_page_ns
    read, multicast = dram_block_read_ns(WH, 2048), 2048 / WH.link_gbps
    assert read == pytest.approx(WH.dram_block_ns + 2048 / WH.dram_core_gbps)
    assert dram_block_read_ns(WH, 2048, 5000.0) == pytest.approx(WH.dram_block_ns + 5000.0)  # behind other reads
    assert multicast_hop_ns(WH, 2048, read) == pytest.approx(max(WH.sem_hop_ns + multicast, read))
    assert multicast_hop_ns(WH, 2048) == pytest.approx(WH.sem_hop_ns + multicast)  # already in L1: a chain
    flushed = replace(WH, in0_mcast_flushed=1.0)
    assert multicast_hop_ns(flushed, 2048, read) == pytest.approx(max(WH.sem_hop_ns, read) + multicast)
    slow_read = dram_block_read_ns(WH, 8 * 2048)  # the read binds: it, then the flushed send
    assert slow_read > WH.sem_hop_ns and multicast_hop_ns(flushed, 8 * 2048, slow_read) == pytest.approx(
        slow_read + 8 * 2048 / WH.link_gbps
    )  # fmt: skip
    assert params_for("blackhole").in0_mcast_flushed == 1.0 and WH.in0_mcast_flushed == 0.0
    # A hop takes the longest of the hand-off, the chip's share and one worker's own block read.
    assert one_d_weight_ns(WH, nbytes, tile, 4, 2048, 2048, "l1_s") == pytest.approx(chip)
    slow = one_d_weight_ns(WH, nbytes, tile, 4000, 32768, 2048, "l1_s")
    assert slow == pytest.approx(4000 * (WH.dram_block_ns + 32768 / WH.dram_core_gbps))
    chained = one_d_weight_ns(WH, nbytes, tile, 4000, 2048, 2048, "l1_s")
    assert chained == pytest.approx(4000 * (WH.sem_hop_ns + 2048 / WH.link_gbps))
    # An L1-interleaved activation's block is a page round trip away; hidden here by the semaphore's.
    l1_read = read_round_trip_ns(WH, False, 2048)
    assert one_d_weight_ns(WH, nbytes, tile, 4000, 2048, 2048, "l1_i") == pytest.approx(4000 * max(l1_read, WH.sem_hop_ns + multicast))
    # A DRAM activation's block read waits behind the hop's weight reads on its banks: its last of
    # n tiles behind n / (n + 1) of them on average.
    big = 10 * nbytes
    hop = (big / WH.dram_stream_gbps + big / tile * WH.dram_page_ns) / 25  # ~2 us of weights a hop
    queued = one_d_weight_ns(WH, big, tile, 25, 2048, 8 * 2048, "dram_i", in0_tiles=8)
    expect = WH.dram_block_ns + max(8 * 2048 / WH.dram_core_gbps, hop * 8 / 9)
    assert expect > max(hop, WH.sem_hop_ns + 8 * 2048 / WH.link_gbps)
    assert queued == pytest.approx(25 * expect)
    assert queued > one_d_weight_ns(WH, big, tile, 25, 2048, 8 * 2048, "l1_i", in0_tiles=8)  # from L1: no queue
    # PR 42593's rows: the default's chain binds (the semaphore round trip exceeds a 2-tile read);
    # the 8-wide block waits behind 40 workers' weight reads.
    activation, output = (dram_stream_ns(WH, t * 2048, t, WH.dram_stream_gbps) for t in (256, 40))
    assert auto.dram_ns == pytest.approx(128 * (WH.sem_hop_ns + 4096 / WH.link_gbps) + activation + output)
    weights = 256 * 40 * 1088
    per_hop = dram_stream_ns(WH, weights, 256 * 40, WH.dram_stream_gbps) / 32
    assert wide.dram_ns == pytest.approx(32 * dram_block_read_ns(WH, 8 * 2048, per_hop * 8 / 9) + activation + output)
    # Weights in L1 banks: the activation's hand-offs pace K all the same.
    l1_weights = matmul_terms(WH, 32, 8192, 1280, "bf16", "bfp_bf8", "bf16", "HiFi2", "dram_i", "l1_i", "dram_i", 64)
    assert l1_weights.dram_ns >= 128 * (WH.sem_hop_ns + 4096 / WH.link_gbps)
    assert l1_weights.device_ns <= auto.device_ns
    # A Blackhole capture (tt-perf-report, DeepLabV3): an all-DRAM [32,2048] @ [2048,256] bfp8 on 8
    # cores, ttnn's default config (32 hand-offs of 2 tiles), 26.5 us: each hand-off ~0.7 us, a read
    # and a send, where a chain of semaphore round trips on top would take twice that.
    bh = params_for("blackhole")
    dlv3 = matmul_terms(bh, 32, 2048, 256, "bf16", "bfp_bf8", "bfp_bf8", "LoFi", "dram_i", "dram_i", "dram_i", 110)
    assert dlv3.device_ns == pytest.approx(26_501, rel=0.15)
    # tt-mlir issue 8038: 4 x [32,2880] @ [2880,N] bfp8, N = 5760 (60 working cores) in 409 us and
    # N = 2880 (45 working cores) in 271 us.
    wide8038 = matmul_terms(WH, 32, 2880, 5760, *args, batch=4)
    narrow8038 = matmul_terms(WH, 32, 2880, 2880, *args, batch=4)
    assert wide8038.device_ns == pytest.approx(409_000, rel=0.25) and narrow8038.device_ns == pytest.approx(271_000, rel=0.25)
    assert narrow8038.device_ns / wide8038.device_ns > 0.5  # half the bytes, not less than half the time


def test_a_one_d_grid_reaches_dram_through_its_columns() -> None:
    # A DRAM read's data travel along the DRAM core's row, then down the worker's column: a 1-D
    # program on a 7x4 grid (28 workers of [32,16384] @ [16384,896] bf16) walking K in wide blocks
    # streams through 4 NoC links, ~128 GB/s, where the device's 8 columns would not bind.
    args = ("bf16", "bf16", "bf16", "HiFi2", "l1_i", "dram_i", "l1_w", 28)
    narrow = matmul_terms(WH, 32, 16384, 896, *args, grid_cols=4, in0_block_w=16)
    full = matmul_terms(WH, 32, 16384, 896, *args, grid_cols=8, in0_block_w=16)
    weights = 512 * 28 * 2048
    assert narrow.dram_ns >= weights / (4 * WH.link_gbps) > full.dram_ns
    # DeepSeek-V3's wo without a program config (259.6 us measured): ttnn's get_mcast_1d_config walks
    # K two tiles at a time, 256 hand-offs of the activation, and that chain binds on either grid.
    wo = matmul_terms(WH, 32, 16384, 896, *args, grid_cols=4)
    assert wo.device_ns == pytest.approx(259_600, rel=0.15) and wo.dram_ns > narrow.dram_ns
    assert wo.dram_ns == matmul_terms(WH, 32, 16384, 896, *args, grid_cols=8).dram_ns
    # Without a program config a width-sharded activation's shard grid is the 1-D grid (ttnn's
    # get_matmul_program_config): DeepSeek-V3's wq_b, [32,1536] @ [1536,3072] on 16 activation
    # cores (2x8), 62.5 us, in0_block_w = gcd(shard width 3, Kt) = 3.
    assert one_d_in0_block_w(48, 16, True) == 3
    wq_b = matmul_terms(WH, 32, 1536, 3072, "bf16", "bf16", "bf16", "HiFi2", "l1_w", "dram_i", "l1_i", 64, in0_cores=16)
    assert wq_b.device_ns == pytest.approx(62_500, rel=0.2)
    # 16 workers, 6 columns each, their bf16 partials reloaded once before the last of 16 K blocks.
    assert wq_b.compute_ns == pytest.approx((6 * 48 * WH.matmul_cycles_lofi * 2 + 6 * 2 * WH.reload_cycles_per_kb) / WH.clock_ghz)


def test_l1_interleaved_matmul_output_falls_back_at_2d_sizes_only() -> None:
    # tt-mlir issue 7702 (M = 1024): L1-interleaved output ~2027 us vs DRAM ~264 us (default
    # no-reuse program config); tt-mlir issue 8038 (M = 32): L1 output slightly faster.
    args = ("bf16", "bf16", "bf16", "HiFi2", "dram_i", "dram_i")
    l1 = matmul_terms(WH, 1024, 640, 5120, *args, "l1_i", 64)
    dram = matmul_terms(WH, 1024, 640, 5120, *args, "dram_i", 64)
    assert l1.ns > 3 * dram.ns
    dec = ("bf16", "bfp_bf8", "bf16", "HiFi2", "dram_i", "dram_i")
    assert matmul_terms(WH, 32, 2880, 5760, *dec, "l1_i", 64, 4).ns < matmul_terms(WH, 32, 2880, 5760, *dec, "dram_i", 64, 4).ns


def test_matmul_fidelity_and_memory_config_order_like_the_hardware(op, lay) -> None:
    cm = CostModel(preset("wormhole_b0"))
    mm = op("ttnn.matmul", ["2048x2048xbf16", "2048x2048xbf16"], "2048x2048xbf16")
    big = (2048, 2048)
    all_dram = cm.op_cost(mm, [lay(big), lay(big)], lay(big))
    sharded = cm.op_cost(mm, [lay(big, "l1", "b", (8, 8)), lay(big)], lay(big, "l1", "b", (8, 8)))
    assert all_dram.fidelity == "HiFi2"  # tt-metal's default for bf16
    assert sharded.ns < all_dram.ns  # the published GEMM data: L1 block-sharded is faster
    hifi4 = op("ttnn.matmul", ["2048x2048xbf16", "2048x2048xbf16"], "2048x2048xbf16",
               props='compute_config = #ttnn.device_compute_kernel_config<math_fidelity = hifi4, packer_l1_acc = true>')
    slow = cm.op_cost(hifi4, [lay(big), lay(big)], lay(big))
    # Twice the matmul passes; both reload their 64 output tiles' bf16 partials once (8 K blocks).
    reload = 64 * 2 * WH.reload_cycles_per_kb / WH.clock_ghz
    assert slow.fidelity == "HiFi4" and slow.compute_ns - reload == pytest.approx(2 * (all_dram.compute_ns - reload))


def test_single_op_api_matches_a_published_measurement() -> None:
    # gemm_oob_4: n150, 1024^3 bf16 HiFi2, all DRAM interleaved, 8x8 grid: 68984 ns measured (traced).
    t = matmul_terms(params_for("wormhole_b0"), 1024, 1024, 1024, "bf16", "bf16", "bf16", "HiFi2", True, True, True, 64)
    assert 68984 / 1.5 < t.ns < 68984 * 1.5


def test_a_reduction_runs_on_one_core_per_output_tile(op, lay) -> None:
    # tt-metal PR 54349: ttnn.mean over H of 8192x256 (Wt = 8) runs on 8 cores, 152.8 us; of
    # 51264x32 (Wt = 1) on one core, 816.8 us, 0.51 us per page: a reader with one page in flight.
    cm = CostModel(preset("wormhole_b0"))
    mean = op("ttnn.mean", ["1x1x8192x256xbf16"], "1x1x1x256xbf16")
    c = cm.op_cost(mean, [lay((1, 1, 8192, 256))], lay((1, 1, 1, 256)))
    assert c.ns - WH.op_to_op_ns == pytest.approx(152_800, rel=0.3)
    tall = op("ttnn.mean", ["1x1x51264x32xbf16"], "1x1x1x32xbf16")
    t = cm.op_cost(tall, [lay((1, 1, 51264, 32))], lay((1, 1, 1, 32)))
    assert t.ns - WH.op_to_op_ns == pytest.approx(816_800, rel=0.3)
    # the same pages on 64 columns: 64 cores at once, far faster than one core reading them all
    wide = op("ttnn.mean", ["1x1x4096x2048xbf16"], "1x1x1x2048xbf16")
    w = cm.op_cost(wide, [lay((1, 1, 4096, 2048))], lay((1, 1, 1, 2048)))
    assert w.ns < t.ns / 4


def test_small_ops_cost_their_launch_and_the_op_to_op_gap() -> None:
    # A 16-tile width-sharded multiply: 3.1 us of kernel (tt-metal Llama TG op targets).
    t = stream_terms(WH, "eltwise_binary", 16, 16)
    assert t.device_ns == pytest.approx(3100, rel=0.1) and t.ns == pytest.approx(t.device_ns + 2050)


def test_programs_without_a_compute_kernel_launch_faster(op, lay) -> None:
    # DeepSeek-V3 MLA perf targets: slices of a [1,1,32,2112] L1-interleaved tensor run 0.95-1.47
    # us and sharded <-> interleaved conversions of 16-64 tiles 0.75-1.19 us of kernel, where a
    # 16-tile sharded multiply (with a compute kernel) runs 3.1 us.
    assert WH.launch("layout") < WH.launch("eltwise_binary") / 2 and WH.launch("data_movement") == WH.launch("layout")
    # A compute kernel's start-up and drain is the measured difference between tt-metal's two op-to-op
    # figures (last pack -> next unpack 4.72 us, last kernel end -> next kernel start 2.05 us): every
    # kind with a compute kernel launches in the reader/writer launch plus that.
    assert WH.compute_init_ns == pytest.approx(4_720 - 2_050)
    for kind in ("eltwise_binary", "eltwise_unary", "eltwise_unary_transcendental", "norm", "reduction", "dispatch"):
        assert WH.launch(kind) == pytest.approx(WH.launch("layout") + WH.compute_init_ns, abs=0.01), kind
    cm = CostModel(preset("wormhole_b0"))
    q = op("ttnn.slice_static", ["1x1x32x2112xbf16"], "1x1x32x1536xbf16",
           props="begins = [0 : i32, 0 : i32, 0 : i32, 0 : i32], ends = [1 : i32, 1 : i32, 32 : i32, 1536 : i32], "
                 "step = [1 : i32, 1 : i32, 1 : i32, 1 : i32]")  # fmt: skip
    c = cm.op_cost(q, [lay((1, 1, 32, 2112), "l1", "i")], lay((1, 1, 32, 1536), "l1", "i"))
    assert c.ns - c.op_to_op_ns == pytest.approx(1_470, rel=0.3)
    assert c.noc_bytes == 2 * 48 * 2048  # reads only the 48 tiles it keeps, writes them


def test_matmul_work_scales_with_cores(op, lay) -> None:
    cm = CostModel(preset("wormhole_b0"))
    mm = op("ttnn.matmul", ["1024x1024xbf16", "1024x1024xbf16"], "1024x1024xbf16")
    ins = [lay((1024, 1024), "l1", "i"), lay((1024, 1024), "l1", "i")]
    wide = cm.op_cost(mm, ins, lay((1024, 1024), "l1", "b", (8, 8)))
    narrow = cm.op_cost(mm, ins, lay((1024, 1024), "l1", "b", (2, 2)))
    assert wide.work_tiles == 32 * 32 * 32
    assert narrow.compute_ns == pytest.approx(16 * wide.compute_ns)


def test_a_sharded_to_interleaved_conversion_runs_on_the_shard_cores(lay) -> None:
    # tt-metal's sharded -> interleaved program runs on the cores holding shards (the writer of each
    # writes its shard's pages), not on the whole grid: 16 shards of 16 tiles take 3.9 us on a
    # Galaxy chip (DeepSeek-V3 flash-MLA output reshard); on 8 cores, 32 tiles each take longer.
    cm = CostModel(preset("wormhole_b0"))
    shape = (1, 4, 128, 512)
    eight, sixteen = lay(shape, "l1", "h", 8), lay(shape, "l1", "h", 16)
    out = lay(shape, "l1", "i")
    assert cm.conversion_cost(shape, eight, out).cores == 8 and cm.conversion_cost(shape, sixteen, out).cores == 16
    assert cm.conversion_cost(shape, eight, out).ns > cm.conversion_cost(shape, sixteen, out).ns
    # Its 16 tile rows fill 16 cores of a 64-core grid (shards are whole tiles): the rest hold nothing.
    assert cm.conversion_cost(shape, lay(shape, "l1", "h", 64), out).cores == 16


def test_a_conversion_into_shards_runs_on_the_cores_that_hold_them(lay) -> None:
    # Height shards of whole tiles: [1408, 1792] on a 20-core grid gets ceil(44 / 20) = 3 tile rows
    # a core, so 15 cores hold the tensor and the last 5 nothing (an OFT capture's conversion on
    # Blackhole, 18.9 us: its DRAM reads stream from 15 cores). Both directions run on those 15.
    cm = CostModel(preset("blackhole"))
    shape = (1, 1, 1408, 1792)
    grid20, grid15 = lay(shape, "l1", "h", 20), lay(shape, "l1", "h", 15)
    dram = lay(shape, "dram", "i")
    into20, into15 = cm.conversion_cost(shape, dram, grid20), cm.conversion_cost(shape, dram, grid15)
    assert into20.cores == 15 and into20.ns == pytest.approx(into15.ns)
    assert cm.conversion_cost(shape, grid20, dram).cores == 15
    # Every core of a grid that divides the tile rows holds a shard.
    assert cm.conversion_cost((1, 1, 1280, 1792), dram, lay((1, 1, 1280, 1792), "l1", "h", 20)).cores == 20
    # Block shards: 7 x 10 tiles in 1 x 2-tile shards on an 8 x 8 grid fill 7 rows of 5 cores.
    block = (1, 1, 200, 300)
    assert cm.conversion_cost(block, lay(block, "dram", "i"), lay(block, "l1", "b", (8, 8))).cores == 35
    # Row-major height shards are whole rows: 100 rows on 16 cores, 7 a core, fill 15.
    rm = (1, 1, 100, 64)
    rm_shards = lay(rm, "l1", "h", 16, tiled=False)
    assert cm.conversion_cost(rm, rm_shards, lay(rm, "dram", "i", tiled=False)).cores == 15


def test_reshard_moves_bytes_over_the_noc(op, lay) -> None:
    cm = CostModel(preset("wormhole_b0"))
    to = op("ttnn.to_layout", ["256x256xbf16"], "256x256xbf16")
    same = cm.op_cost(to, [lay((256, 256), "l1", "h", 8)], lay((256, 256), "l1", "h", 8))
    moved = cm.op_cost(to, [lay((256, 256), "l1", "h", 8)], lay((256, 256), "l1", "b", (4, 4)))
    assert same.noc_bytes == 0 and moved.noc_bytes == 64 * 2048


def test_module_cost_sums_the_ops() -> None:
    path = ROOT / "testdata" / "ttnn" / "l1_sharded_chain.mlir"
    m = parse_module(path.read_text(), str(path))
    fns = CostModel(preset("wormhole_b0")).module_cost(m)
    assert [f.name for f in fns] == ["mlp_chain", "height_and_width_sharded"]
    first = fns[0]
    assert [e.name for e in first.ops] == ["matmul_0", "add_1", "add_1_mem_reconfig", "matmul_2", "matmul_2_spill"]
    assert first.ns == pytest.approx(sum(e.cost.ns for e in first.ops))
    second = fns[1]
    assert any(e.cost is None and e.note == "no op-model rule" for e in second.ops)  # ttnn.empty


def test_dispatch_cost_counts_the_fused_ops_once(lay) -> None:
    path = ROOT / "testdata" / "ttnn" / "dispatch_d2m_generic_form.mlir"
    m = parse_module(path.read_text(), str(path))
    cm = CostModel(preset("wormhole_b0"))
    d = next(o for o in m.walk() if o.name == "ttnn.dispatch_d2m")
    c = cm.current_op_cost(d)
    assert c is not None and c.floor_ns == pytest.approx(cm.params.launch("dispatch") + cm.params.op_to_op_ns) and c.work_tiles > 0


def test_the_fit_weighs_an_unexplained_point_logarithmically() -> None:
    # Within one scatter a point pulls like least squares; a point 10 scatters out pulls like
    # sqrt(log(101)) ~ 2.1 scatters, so it cannot set a rate the other suites measure.
    assert robust(0.1) == pytest.approx(0.1, rel=0.01) and robust(-0.1) == pytest.approx(-0.1, rel=0.01)
    assert robust(10.0) ** 2 == pytest.approx(math.log(101.0)) and robust(-10.0) < 0


def test_the_fit_ties_every_compute_launch_to_the_reader_writer_launch() -> None:
    rows = {k: dict(v) for k, v in json.loads(CALIBRATION_FILE.read_text())["params"].items()}
    tie_launches(rows, "wormhole_b0", 500.0)
    assert rows["launch_ns.data_movement"]["wormhole_b0"] == 500.0
    assert rows["launch_ns.norm"]["wormhole_b0"] == 500.0 + rows["compute_init_ns"]["wormhole_b0"]
    # Blackhole fits its norm launch on its own (a one-core RMS norm of 8 tiles takes 6.1 us where a
    # 64-tile add takes 1.8 us): the tie leaves it alone and still sets the eltwise launches.
    stored = rows["launch_ns.norm"]["blackhole"]
    tie_launches(rows, "blackhole", 500.0, FREE["blackhole"])
    assert rows["launch_ns.norm"]["blackhole"] == stored
    assert rows["launch_ns.eltwise_binary"]["blackhole"] == 500.0 + rows["compute_init_ns"]["blackhole"]


def test_the_stored_parameters_reproduce_the_stored_fit() -> None:
    # bench/calibrate.py --write stored each suite's in-sample geomean; the parameters in
    # cost_params.json must give exactly those figures again.
    fit = json.loads(CALIBRATION_FILE.read_text())["fit"]["loso"]
    params = {arch: params_for(arch) for arch in ("wormhole_b0", "blackhole")}
    for name, rows in load_suites(CALIBRATION_DIR).items():
        for dev in {r["device"] for r in rows}:
            logs = [math.log(ratio(params[r["arch"]], r)) for r in rows if r["device"] == dev]
            geomean = math.exp(sum(logs) / len(logs))
            assert geomean == pytest.approx(fit[f"{name}/{dev}"]["in_sample_geomean"], abs=1e-3), (name, dev)


def test_a_published_decode_step_is_estimated_within_1_5x() -> None:
    # tt-transformers Llama-3.1-8B on n150, batch 1: 28.3 t/s/u published (models/tt_transformers/PERF.md).
    from bench.whole_model import MODELS, tt_transformers_decode

    ops = tt_transformers_decode(WH, "wormhole_b0", MODELS["Llama-3.1-8B"], 1, 256, ff2_bfp8=False)
    tokens_per_s = 1e9 / sum(t.ns for _, t in ops)
    assert 28.3 / 1.5 < tokens_per_s < 28.3 * 1.5
    matmuls = sum(t.ns for name, t in ops if name.endswith(("matmul", "lm_head")))
    assert matmuls > 0.8 * sum(t.ns for _, t in ops)  # decode is weight streaming


def test_a_view_reshape_costs_no_device_time(op, lay) -> None:
    # tt-metal reinterprets the buffer of a view reshape: no program, so neither the launch nor the
    # op-to-op gap; a reshape that changes the buffer (DRAM -> L1) runs the copy program.
    cm = CostModel(preset("wormhole_b0"))
    src, dst = (1, 1, 16384, 64), (16, 32, 32, 64)
    o = op("ttnn.reshape", ["1x1x16384x64xbf16"], "16x32x32x64xbf16")
    for mem, grid in (("i", None), ("h", 64), ("b", (8, 2))):
        where = "l1" if mem != "i" else "dram"
        view = cm.op_cost(o, [lay(src, where, mem, grid)], lay(dst, where, mem, grid))
        assert view.ns == cm.params.dispatch_ns == 0.0 and view.floor_ns == 0.0 and view.dram_bytes == 0
    copy = cm.op_cost(o, [lay(src)], lay(dst, "l1", "i"))
    assert copy.floor_ns == pytest.approx(cm.params.launch("data_movement") + cm.params.op_to_op_ns)
    assert copy.ns > copy.floor_ns


def test_a_one_block_matmul_picks_the_program_tt_metal_picks() -> None:
    # create_simple_matmul_program_config: an output within one 16x16-tile block gets 2-D multicast
    # when all of it is DRAM interleaved, else no branch applies and it falls back to no reuse.
    from ttopt.device.matmul_config import AUTO, NO_REUSE, TWO_D, interleaved_program

    assert interleaved_program((64, 128), (128, 96), True, 16) == TWO_D
    assert interleaved_program((64, 128), (128, 96), False, 16) == NO_REUSE
    assert interleaved_program((64, 128), (128, 1024), False, 16) == AUTO  # two blocks: 1-D multicast
    assert interleaved_program((32, 2880), (2880, 5760), False, 16) == AUTO  # narrow: 1-D
    assert interleaved_program((64, 128), (128, 4096), False, 16) == AUTO  # narrow (ratio 64)
    assert interleaved_program((64, 32), (32, 64), True, 16) == TWO_D
    assert interleaved_program((32, 128), (128, 96), True, 16) == AUTO  # all DRAM, one tile high: narrow
    assert interleaved_program((64, 128), (2, 128, 96), False, 16) == AUTO  # batched weights
    assert interleaved_program((512, 128), (128, 512), False, 8) == AUTO  # 16 tiles > an 8-tile block


def test_a_small_matmul_with_an_l1_interleaved_output_runs_the_no_reuse_program(op, lay) -> None:
    # tt-mlir#7682: without a program config an L1-interleaved output gets tt-metal's
    # MatmulMultiCoreProgramConfig. 6 output tiles: 6 cores re-read a row of A and a column of B each.
    cm = CostModel(preset("wormhole_b0"))
    p = cm.params
    mm = op("ttnn.matmul", ["64x128xbf16", "128x96xbf16"], "64x96xbf16")
    a, b, o = (64, 128), (128, 96), (64, 96)
    dram = cm.op_cost(mm, [lay(a), lay(b)], lay(o))
    l1 = cm.op_cost(mm, [lay(a), lay(b)], lay(o, "l1", "i"))
    assert dram.ns == pytest.approx(matmul_terms(p, 64, 128, 96, "bf16", "bf16", "bf16", "HiFi2", "dram_i", "dram_i", "dram_i", 64, 1, "2d").ns)
    reread = 6 * 4 * 2 * 2048
    assert l1.noc_ns == pytest.approx(reread / (p.fallback_gbps * 6 / 64))
    assert l1.ns > dram.ns
    # L1 first operand, DRAM output: not all DRAM, the same no-reuse program.
    assert cm.op_cost(mm, [lay(a, "l1", "i"), lay(b)], lay(o)).ns > dram.ns


def test_argmax_runs_multicore_only_on_a_row_major_input_reduced_over_its_last_dim(op, lay) -> None:
    # tt-metal's argmax select_program_factory: a tiled input, or a reduction over another dim,
    # takes the single-core program; a row-major input reduced over its last dim the multicore one.
    from ttopt.device.rules.argmax import argmax_multicore

    cm = CostModel(preset("wormhole_b0"))
    last = op("ttnn.argmax", ["64x128xbf16"], "64xui32", props="dim = 1 : si32, keep_dim = false")
    first = op("ttnn.argmax", ["64x128xbf16"], "128xui32", props="dim = 0 : si32, keep_dim = false")
    assert argmax_multicore(last, False, 2) and not argmax_multicore(last, True, 2)
    assert not argmax_multicore(first, False, 2)
    out = lay((64,), "dram", "i", dtype="u32")
    tiled = cm.op_cost(last, [lay((64, 128))], out)
    rm = cm.op_cost(last, [lay((64, 128), tiled=False)], out)
    assert tiled.compute_ns == pytest.approx(8 * cm.params.cycles_per_tile["reduction"] / cm.params.clock_ghz)  # 8 tiles, 1 core
    assert rm.ns < tiled.ns
    # Whether the retile in front (tile -> row-major, DRAM) pays depends on the untilize: [64, 1024]
    # untilizes a tile row on each of two cores and the single-core argmax loses more than that; at
    # [64, 128] the argmax loses 3.8 us and the retile, a compute program's launch and four reads a
    # core, costs more than it saves.
    def with_retile(shape: tuple[int, int]) -> tuple[float, float]:
        arg = op("ttnn.argmax", [f"{shape[0]}x{shape[1]}xbf16"], f"{shape[0]}xui32", props="dim = 1 : si32, keep_dim = false")
        res = lay((shape[0],), "dram", "i", dtype="u32")
        retile = cm.conversion_cost(shape, lay(shape), lay(shape, tiled=False))
        return cm.op_cost(arg, [lay(shape, tiled=False)], res).ns + retile.ns, cm.op_cost(arg, [lay(shape)], res).ns

    paid, single = with_retile((64, 1024))
    assert paid < single
    paid, single = with_retile((64, 128))
    assert paid > single


def test_l1_interleaved_reads_wait_behind_the_ops_own_l1_writes() -> None:
    # Bandwidth out of the way, an interleaved eltwise reader is bound by its pages x the round
    # trip: reading L1-interleaved pages while writing L1-interleaved pages adds, per read page, the
    # write page over one NoC link (the banks' ports take both NoCs); reading DRAM does not.
    p = replace(WH, dram_stream_gbps=1e9, l1_interleaved_gbps=1e9, dram_page_ns=0.0)
    tiles, nbytes = 6400, 6400 * 2048
    from_dram = stream_terms(p, "eltwise_unary", tiles, 64, nbytes, tiles, nbytes, write_l1i_bytes=nbytes)
    from_l1 = stream_terms(p, "eltwise_unary", tiles, 64, 0.0, 0, 2 * nbytes, write_l1i_bytes=nbytes)
    round_trip = p.page_latency_ns["eltwise_unary"] + 2048 / p.link_gbps
    assert p.page_latency_ns["eltwise_unary"] == p.page_latency_ns["reduction"] > 0
    assert from_dram.dram_ns == pytest.approx(100 * round_trip)
    assert from_l1.noc_ns == pytest.approx(100 * (round_trip + 2048 / p.link_gbps))


def test_a_wide_batched_activation_over_one_weight_runs_the_unfused_1d_program(op, lay) -> None:
    # DeepSeek-V3's wkv_b1: 16 heads of [32,128] over one [128,512] weight, L1 interleaved. ttnn
    # runs the 1-D activation-multicast program with the batch unfused: 16 workers, 2 K hops per
    # head, the weight read again per head (tt-metal's perf target: 39.3 us).
    cm = CostModel(preset("wormhole_b0"))
    mm = op("ttnn.matmul", ["1x16x32x128xbf16", "128x512xbf16"], "1x16x32x512xbf16")
    c = cm.op_cost(mm, [lay((1, 16, 32, 128), "l1"), lay((128, 512))], lay((1, 16, 32, 512), "l1"))
    unfused = matmul_terms(cm.params, 32, 128, 512, "bf16", "bf16", "bf16", "HiFi2", "l1_i", "dram_i", "l1_i", 64, 16, "1d",
                           in0_block_w=2, shared_b=True)  # fmt: skip
    assert c.ns == pytest.approx(unfused.ns)
    assert 30_000 < c.ns - c.op_to_op_ns < 65_000  # the folded no-reuse price was ~14 us
    # A per-head shape that is not narrow keeps the folded price (ttnn's no-reuse program).
    square = op("ttnn.matmul", ["1x2x256x256xbf16", "256x256xbf16"], "1x2x256x256xbf16")
    folded = cm.op_cost(square, [lay((1, 2, 256, 256), "l1"), lay((256, 256))], lay((1, 2, 256, 256), "l1"))
    assert folded.work_tiles == 16 * 8 * 8


def test_a_conversion_that_moves_and_retiles_is_two_programs(lay) -> None:
    # tt-mlir HEAD's layout decomposition (and ttopt's optimizer/memory_move.steps) writes an L1
    # tiled -> DRAM row-major conversion as a to_memory_config then a to_layout: two launches.
    cm = CostModel(preset("wormhole_b0"))
    shape = (64, 128)
    l1_tiled, dram_tiled, dram_rm = lay(shape, "l1"), lay(shape), lay(shape, tiled=False)
    both = cm.conversion_cost(shape, l1_tiled, dram_rm)
    move, retile = cm.conversion_cost(shape, l1_tiled, dram_tiled), cm.conversion_cost(shape, dram_tiled, dram_rm)
    assert both.ns == pytest.approx(move.ns + retile.ns)
    assert both.op_to_op_ns == pytest.approx(2 * cm.params.op_to_op_ns)


def test_calibrate_explains_a_row_term_by_term_without_fitting(capsys) -> None:
    # `bench/calibrate.py --row ID` prints the row's terms under the stored parameters.
    assert calibrate_main(["--row", "ds42593_1024_1d"]) == 0
    out = capsys.readouterr().out
    (row,) = (r for s in load_suites(CALIBRATION_DIR).values() for r in s if r["id"] == "ds42593_1024_1d")
    assert "69.4 us" in out and f"{ratio(WH, row):.2f}" in out and "dram" in out
    assert calibrate_main(["--row", "no_such_row"]) == 2
    assert "unknown row id(s): no_such_row" in capsys.readouterr().err


def test_decode_attention_streams_its_cache_at_the_chips_rate() -> None:
    # tt-metal issue 57161 (p100a, seven of Blackhole's eight DRAM channels): sdpa_decode over a
    # batch 8, 32 / 8 heads, d128 cache of 32768 tokens takes 2959 us in bf16 (K+V at 363 GB/s)
    # and 1308 us in bfp4: 64 (user, KV head) groups, one core each, read at the chip's rate.
    bh = params_for("blackhole")
    p100a = board_params(bh, "P100A")
    assert (p100a.dram_banks, p100a.grid_cores) == (7, 120) and p100a.dram_stream_gbps == pytest.approx(bh.dram_stream_gbps * 7 / 8)
    bf16 = sdpa_decode_terms(p100a, 8, 32, 8, 128, 32768, "bf16", cores=120)
    bfp4 = sdpa_decode_terms(p100a, 8, 32, 8, 128, 32768, "bfp_bf4", cores=120)
    assert bf16.device_ns == pytest.approx(2_959_000, rel=0.25)
    assert bfp4.device_ns == pytest.approx(1_308_000, rel=0.25)
    # A page per tile: bfp4's 576-byte pages move fewer bytes per second than bf16's 2 KB ones.
    assert 576 / bfp4.dram_ns < 2048 / bf16.dram_ns
    # 64 groups on 64 or on 120 cores read the same bytes at the same rate (no share of the grid).
    assert sdpa_decode_terms(p100a, 8, 32, 8, 128, 32768, "bf16", cores=64).dram_ns == bf16.dram_ns
    # The exact DRAM term where the query and output are a real share (a short cache): K and V a
    # page per tile, the query and output a tile row per user (batch 32, 32 heads, d64, 128 tokens).
    wh = params_for("wormhole_b0")
    short = sdpa_decode_terms(wh, 32, 32, 8, 64, 128, "bf16", cores=64)
    kv, qo = 2 * 32 * 8 * 4 * 2, 2 * 32 * 1 * 2
    assert short.dram_ns == pytest.approx((kv + qo) * 2048 / wh.dram_stream_gbps + (kv + qo) * wh.dram_page_ns)
    # Cores beyond one per group split each group's cache and hand their partials to one of them.
    split = sdpa_decode_terms(bh, 1, 32, 8, 128, 32768, "bf16", cores=64)
    assert split.compute_ns < sdpa_decode_terms(bh, 1, 32, 8, 128, 32768, "bf16", cores=8).compute_ns / 7
    assert split.sync_ns > 0 and bf16.sync_ns == 0


def test_tilize_runs_the_program_tt_metal_picks(op, lay) -> None:
    # A Blackhole capture (tt-metal models/autoports, 110 cores): tilizes of row-major DRAM tensors.
    # tt-metal's square blocks (compute_ncores_wh) and the cores the capture shows:
    assert [tilize_block_side(w, h, 110) for w, h in ((160, 64), (64, 128), (96, 64), (192, 64), (64, 4))] == [11, 10, 8, 11, 2]
    bh = params_for("blackhole")
    # 3072x2048 keeps one tile row per core on 96 cores (62.7 us); its transpose, 2048x3072, has 64
    # tile rows, so 8x8-tile blocks on 96 cores, whose reader waits a round trip per stick segment
    # (119.9 us): the same bytes, twice the time.
    rows = tilize_terms(bh, (3072, 2048), 2, "bf16", True, True, 110)
    blocks = tilize_terms(bh, (2048, 3072), 2, "bf16", True, True, 110)
    assert rows.device_ns == pytest.approx(62_701, rel=0.15) and blocks.device_ns == pytest.approx(119_907, rel=0.15)
    assert blocks.dram_ns == pytest.approx(8 * 32 * (bh.dram_block_ns + 8 * 64 / bh.dram_core_gbps))
    # Small: one tile row on each of 4 cores (2.0 us) and 2x2-tile blocks on 64 cores (25.9 us).
    assert tilize_terms(bh, (128, 128), 2, "bf16", True, True, 110).device_ns == pytest.approx(2_033, rel=0.15)
    assert tilize_terms(bh, (128, 2048), 2, "bf16", True, True, 110).device_ns == pytest.approx(25_909, rel=0.15)
    # The cost model prices a to_layout to tiles, and a conversion's tilize step, the same way.
    cm = CostModel(preset("wormhole_b0"))
    rm, tiles = lay((2048, 3072), tiled=False), lay((2048, 3072))
    expect = tilize_terms(cm.params, (2048, 3072), 2, "bf16", True, True, cm.device.num_cores)
    to_layout = op("ttnn.to_layout", ["2048x3072xbf16"], "2048x3072xbf16")
    assert cm.op_cost(to_layout, [rm], tiles).ns == pytest.approx(expect.ns)
    assert cm.conversion_cost((2048, 3072), rm, tiles).ns == pytest.approx(expect.ns)
    # Anything but an interleaved page-layout change on the device keeps the streaming price.
    for src, dst in (
        (lay((2048, 3072), "l1", "h", grid=(64, 1), tiled=False), lay((2048, 3072), "l1", "h", grid=(64, 1))),  # sharded
        (lay((2048, 3072), "system_memory", tiled=False), tiles),  # from the host
        (tiles, tiles),  # already tiles
    ):
        assert cm._page_program((2048, 3072), layout_info(src), layout_info(dst)) is None
    # One tile row of 128 tiles on 64 cores: blocks of 3 tiles on 43 cores, 32 stick segments each.
    wh = params_for("wormhole_b0")
    one_row = tilize_terms(wh, (32, 4096), 2, "bf16", True, True, 64)
    assert one_row.dram_ns == pytest.approx(32 * (wh.dram_block_ns + 3 * 64 / wh.dram_core_gbps))
    # Leading dimensions: the choice and the blocks are one [H, W] slice's, repeated per slice.
    # (8, 128, 4096): 32 tile rows, one a core, so the row program; (32, 32, 4096): 3-tile blocks of
    # each one-tile-row slice on 43 cores, each core paying 32 x 32 round trips.
    rows8 = tilize_terms(wh, (8, 128, 4096), 2, "bf16", True, True, 64)
    reader = wh.dram_block_ns + 32 * 4096 * 2 / wh.dram_core_gbps  # one tile row a core
    stream = dram_stream_ns(wh, 2 * 8 * 128 * 4096 * 2, 8 * 128 + 32 * 128, wh.dram_stream_gbps)
    assert rows8.dram_ns == pytest.approx(max(reader, stream)) and stream > reader
    slices = tilize_terms(wh, (32, 32, 4096), 2, "bf16", True, True, 64)
    assert slices.dram_ns == pytest.approx(32 * 32 * (wh.dram_block_ns + 3 * 64 / wh.dram_core_gbps))


def test_untilize_waits_per_tile_read_and_unpadding_per_stick(op, lay) -> None:
    # A Phi-3.5 Blackhole capture (110 cores): untilize of [1,32,128,96] tiles on 64 cores, two tile
    # rows each (6.6 us), and of one tile row on one core (3.4 us). The reader waits for every tile.
    bh = params_for("blackhole")
    wide = untilize_terms(bh, (1, 32, 128, 96), "bf16", 2, True, True, 110)
    one = untilize_terms(bh, (1, 1, 32, 96), "bf16", 2, True, True, 110)
    assert wide.device_ns == pytest.approx(6_567, rel=0.15) and one.device_ns == pytest.approx(3_403, rel=0.15)
    trip, queued = bh.dram_block_ns + 2048 / bh.link_gbps, 64 * 2048 / bh.dram_stream_gbps
    tail = bh.dram_block_ns + 32 * 96 * 2 / bh.link_gbps  # the last tile row's sticks, one barrier
    assert wide.dram_ns == pytest.approx(2 * 3 * (trip + queued) + tail)
    # A width that is not tile-aligned runs untilize_with_unpadding, whose writer waits after every
    # stick: 64 sticks a core take 20.7 us, 32 on one core 9.8 us (each stick's wait is taken as a
    # read's round trip, about 1.4x what the capture shows).
    padded = untilize_terms(bh, (1, 32, 128, 48), "bf16", 2, True, True, 110)
    assert padded.dram_ns == pytest.approx(64 * (bh.dram_block_ns + 96 / bh.link_gbps))
    assert 1.0 < padded.device_ns / 20_668 < 1.5
    # A tile row whose input and output tiles do not fit a core's L1 (a [32, 151936] logits row:
    # 4748 tiles) runs the block program, square blocks over the grid, not one core's row.
    wh = params_for("wormhole_b0")
    l1 = 1_499_136 - 101_152
    wide_row = untilize_terms(wh, (32, 151936), "bf16", 2, True, True, 64, l1)
    side = tilize_block_side(4748, 1, 64)
    assert wide_row.dram_ns == pytest.approx(side * (wh.dram_block_ns + 2048 / wh.link_gbps + 63 * 2048 / wh.dram_stream_gbps)
                                             + wh.dram_block_ns + 32 * side * 64 / wh.link_gbps)
    # A wide, short tensor whose row fits takes the block program too when blocks keep more cores
    # busy (tt-metal's select_program_factory, tilize's rule): [32, 4096] is one tile row, 128 tiles,
    # one core in the row program, 43 blocks of 3 tiles in the block program.
    wide = untilize_terms(wh, (32, 4096), "bf16", 2, True, True, 64, l1)
    assert wide.dram_ns == pytest.approx(3 * (wh.dram_block_ns + 2048 / wh.link_gbps + 43 * 2048 / wh.dram_stream_gbps)
                                         + wh.dram_block_ns + 32 * 3 * 64 / wh.link_gbps)
    row_program = 128 * (wh.dram_block_ns + 2048 / wh.link_gbps + 2048 / wh.dram_stream_gbps)  # one core's 128 reads
    assert row_program > 20 * wide.dram_ns
    # The cost model prices a to_layout from tiles, and a conversion's untilize step, the same way.
    cm = CostModel(preset("wormhole_b0"))
    tiles, rm = lay((1, 32, 128, 96)), lay((1, 32, 128, 96), tiled=False)
    expect = untilize_terms(cm.params, (1, 32, 128, 96), "bf16", 2, True, True, cm.device.num_cores,
                            cm.device.l1_size - cm.device.l1_unreserved_base)
    to_layout = op("ttnn.to_layout", ["1x32x128x96xbf16"], "1x32x128x96xbf16")
    assert cm.op_cost(to_layout, [tiles], rm).ns == pytest.approx(expect.ns)
    assert cm.conversion_cost((1, 32, 128, 96), tiles, rm).ns == pytest.approx(expect.ns)


def test_hc_transpose_is_priced_by_its_writes() -> None:
    # tt-metal's HC transpose writes each real row of a tile as two 16-element face lines, one NoC
    # write each, and waits per tile; the reader waits per tile. DeepSeek-V3's [1,32,32,576] permute
    # (0, 2, 1, 3), L1 interleaved on 64 Wormhole cores: 576 tiles, 9 a core, 64 writes a tile.
    wh = params_for("wormhole_b0")
    t = transpose_hc_terms(wh, (1, 32, 32, 576), "bf16", False, False, 64)
    read = wh.page_latency_ns["reduction"] + 2048 / wh.link_gbps
    writer = 9 * wh.page_latency_ns["reduction"] + 9 * 64 * wh.write_issue_cycles / wh.clock_ghz
    assert t.noc_ns == pytest.approx(read + max(8 * read, writer)) and writer > 8 * read
    assert t.device_ns == pytest.approx(30_950, rel=0.3)
    # C = 4 pads every output tile of the last C tile: two writes per face left, split over the grid.
    padded = transpose_hc_terms(wh, (1, 4, 128, 512), "bf16", False, False, 64)
    writes = 2 * 4 * 128 * 16 // 64 + 128 * 16 * 2 * 2 // 64  # 256 of rows, 128 of padding a core
    assert padded.noc_ns == pytest.approx(read + 4 * wh.page_latency_ns["reduction"] + writes * wh.write_issue_cycles / wh.clock_ghz)


def test_tiled_reshape_gathers_input_tiles_one_read_at_a_time(op, lay) -> None:
    # Merging heads into the last dimension: each output tile's 32 rows come from 32 input tiles
    # (one per token), each row two face-line segments; splitting the hidden dimension into 24 heads
    # of 64 reads 24. A reshape that only drops a leading 1 reads one tile per output tile.
    assert reshape_input_tiles((1, 128, 32, 512), (1, 128, 16384)) == (32.0, 64.0)
    assert reshape_input_tiles((1, 128, 1536), (1, 128, 24, 64)) == (24.0, 48.0)
    assert reshape_input_tiles((1, 1, 32, 3072), (32, 1, 16, 192)) == (16.0, 32.0)
    assert reshape_input_tiles((1, 128, 1536), (128, 1536))[0] == 1.0
    # DeepSeek-V3's [1,32,128,128] -> [1,1,32,16384], L1 interleaved on 64 Wormhole cores: 512 output
    # tiles, 8 a core, each a map read, 32 tile reads, 64 segment copies and the tile written out.
    wh = params_for("wormhole_b0")
    t = reshape_tiled_terms(wh, (1, 32, 128, 128), (1, 1, 32, 16384), "bf16", False, False, 64)
    rt = wh.page_latency_ns["reduction"]
    per_tile = wh.dram_block_ns + 32 * (rt + 2048 / wh.link_gbps) + 64 * wh.write_issue_cycles / wh.clock_ghz + rt  # the map is in DRAM
    assert t.noc_ns == pytest.approx(8 * per_tile)
    assert t.device_ns == pytest.approx(174_550, rel=0.3)
    # The cost model prices a non-view tiled reshape and an HC permute so; a view stays free, and a
    # permute of other dimensions keeps the streaming price.
    cm = CostModel(preset("wormhole_b0"))
    reshape = op("ttnn.reshape", ["1x128x1536xbf16"], "1x128x24x64xbf16")
    c = cm.op_cost(reshape, [lay((1, 128, 1536))], lay((1, 128, 24, 64)))
    expect = reshape_tiled_terms(cm.params, (1, 128, 1536), (1, 128, 24, 64), "bf16", True, True, cm.device.num_cores)
    assert c.ns == pytest.approx(expect.ns)
    view = op("ttnn.reshape", ["1x128x1536xbf16"], "128x1536xbf16")
    assert cm.op_cost(view, [lay((1, 128, 1536))], lay((128, 1536))).ns < 0.1 * c.ns
    hc = op("ttnn.permute", ["1x24x128x64xbf16"], "1x128x24x64xbf16", props="permutation = array<i64: 0, 2, 1, 3>")
    expect = transpose_hc_terms(cm.params, (1, 24, 128, 64), "bf16", True, True, cm.device.num_cores)
    assert cm.op_cost(hc, [lay((1, 24, 128, 64))], lay((1, 128, 24, 64))).ns == pytest.approx(expect.ns)
    # Any other permute, a rank-5 one (tt-metal's generic program) and block floats (typecast to
    # bf16 and back around the program) keep the streaming price.
    def streamed(name: str, ins: list[str], out: str, shapes: tuple, props: str, dtype: str = "bf16") -> None:
        o = op(name, ins, out, props=props)
        x, y = lay(shapes[0], dtype=dtype), lay(shapes[1], dtype=dtype)
        assert cm._tile_movement(o, shapes[0], shapes[1], layout_info(x), layout_info(y)) is None
    streamed("ttnn.permute", ["1x24x128x64xbf16"], "1x24x64x128xbf16", ((1, 24, 128, 64), (1, 24, 64, 128)), "permutation = array<i64: 0, 1, 3, 2>")
    streamed("ttnn.permute", ["2x8x64x32x64xbf16"], "2x8x32x64x64xbf16", ((2, 8, 64, 32, 64), (2, 8, 32, 64, 64)),
             "permutation = array<i64: 0, 1, 3, 2, 4>")
    streamed("ttnn.permute", ["1x24x128x64xbf16"], "1x128x24x64xbf16", ((1, 24, 128, 64), (1, 128, 24, 64)),
             "permutation = array<i64: 0, 2, 1, 3>", dtype="bfp_bf8")
    # Rank 3 (1, 0, 2) is the HC transpose (tt-metal unsqueezes it to 4-D); a proxy without attributes
    # (a fusion estimate's) is recognised by its shapes.
    r3 = op("ttnn.permute", ["24x128x64xbf16"], "128x24x64xbf16", props="permutation = array<i64: 1, 0, 2>")
    expect3 = transpose_hc_terms(cm.params, (24, 128, 64), "bf16", True, True, cm.device.num_cores)
    assert cm.op_cost(r3, [lay((24, 128, 64))], lay((128, 24, 64))).ns == pytest.approx(expect3.ns)
    class Bare:
        name, properties = "ttnn.permute", None
    x, y = layout_info(lay((1, 24, 128, 64))), layout_info(lay((1, 128, 24, 64)))
    assert cm._tile_movement(Bare(), (1, 24, 128, 64), (1, 128, 24, 64), x, y) is not None
    # Two permutes of one shape into one output shape are different programs: the cost memo keeps them apart.
    hc4 = op("ttnn.permute", ["4x4x4x64xbf16"], "4x4x4x64xbf16", props="permutation = array<i64: 0, 2, 1, 3>")
    nc4 = op("ttnn.permute", ["4x4x4x64xbf16"], "4x4x4x64xbf16", props="permutation = array<i64: 1, 0, 2, 3>")
    fresh = CostModel(preset("wormhole_b0"))
    a = fresh.op_cost(hc4, [lay((4, 4, 4, 64))], lay((4, 4, 4, 64))).ns
    b = fresh.op_cost(nc4, [lay((4, 4, 4, 64))], lay((4, 4, 4, 64))).ns
    other = CostModel(preset("wormhole_b0"))
    assert other.op_cost(nc4, [lay((4, 4, 4, 64))], lay((4, 4, 4, 64))).ns == b and a != b


def test_rotary_embedding_waits_a_round_trip_per_tile_read(op, lay) -> None:
    # tt-metal's rotary_embedding reads, for every output tile, the other half's tile, sin, the tile
    # and cos, each under its own barrier. Blackhole captures (110 cores): a [1,4,128,128] key on 16
    # cores, one tile row each, 7.8 us; the [1,32,128,128] query on 110 cores 28.5 us, every core as
    # long as the others: the reads queue at the DRAM behind the other cores' reads.
    bh = params_for("blackhole")
    key = rotary_terms(bh, (1, 4, 128, 128), "bf16", "bf16", False, True, True, True, cores=110)
    query = rotary_terms(bh, (1, 32, 128, 128), "bf16", "bf16", False, True, True, True, cores=110)
    assert key.device_ns == pytest.approx(7_835, rel=0.25) and query.device_ns == pytest.approx(28_475, rel=0.25)
    trip = bh.dram_block_ns + 2048 / bh.link_gbps
    assert key.dram_ns == pytest.approx(4 * (4 * trip + 16 * 4 * 2048 / bh.dram_stream_gbps))
    # Decode (a token index): cos and sin once, two reads a tile; a sharded input reads only cos and sin.
    # (Estimated ~1.26x: each of its round trips is priced as a block read's, `dram_block_ns`.)
    decode = rotary_terms(bh, (1, 1, 32, 512), "bf16", "bf16", True, True, True, True, cores=110)
    assert 1.15 < decode.device_ns / 15_528 < 1.3
    sharded = rotary_terms(bh, (1, 4, 128, 128), "bf16", "bf16", False, True, True, False, in_sharded=True, cores=16)
    assert sharded.dram_ns < key.dram_ns
    # The cost model prices ttnn.rotary_embedding with it, on the grid or the input's shard cores.
    cm = CostModel(preset("wormhole_b0"))
    rope = op("ttnn.rotary_embedding", ["1x8x1024x128xbf16", "1x1x1024x128xbf16", "1x1x1024x128xbf16"], "1x8x1024x128xbf16")
    x, cache = lay((1, 8, 1024, 128)), lay((1, 1, 1024, 128))
    expect = rotary_terms(cm.params, (1, 8, 1024, 128), "bf16", "bf16", False, True, True, True, False, cm.device.num_cores)
    assert cm.op_cost(rope, [x, cache, cache], x).ns == pytest.approx(expect.ns)


def test_head_split_and_concat_read_a_tile_at_a_time_on_the_sequences_tile_rows(op, lay) -> None:
    # tt-metal's nlp_create_qkv_heads / nlp_concat_heads: each core takes whole tile rows of the
    # sequence and reads every tile under its own barrier. Blackhole captures at 128 tokens (4
    # cores): a [1,1,128,5120] split 66.9 us (160 tiles a core), a [1,32,128,128] concat 54.2 us.
    bh = params_for("blackhole")
    split = tile_row_reader_terms(bh, 4, 160, "bf16", True, True, 110)
    concat = tile_row_reader_terms(bh, 4, 128, "bf16", True, True, 110)
    assert split.device_ns == pytest.approx(66_883, rel=0.15) and concat.device_ns == pytest.approx(54_206, rel=0.15)
    trip = bh.dram_block_ns + 2048 / bh.link_gbps + 4 * 2048 / bh.dram_stream_gbps
    assert concat.dram_ns == pytest.approx(128 * trip)
    # The cost model prices both TTNN ops with it (interleaved inputs).
    cm = CostModel(preset("wormhole_b0"))
    heads = op("ttnn.concatenate_heads", ["1x24x128x64xf32"], "1x128x1536xf32")
    expect = tile_row_reader_terms(cm.params, 4, 48, "f32", True, True, cm.device.num_cores)
    got = cm.op_cost(heads, [lay((1, 24, 128, 64), dtype="f32")], lay((1, 128, 1536), dtype="f32"))
    assert got.ns == pytest.approx(expect.ns) and got.cores == 4


# ---------------------------------------------------------------------------------------------
# Invariants of the tiled reshape's gather count over random shapes of one volume.

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from ttopt.testing.examples import examples  # noqa: E402


@settings(max_examples=examples(40), deadline=None)
@given(lead=st.integers(1, 6), h=st.integers(1, 96), w=st.integers(1, 160), split=st.integers(1, 8))
def test_reshape_gathers_at_least_a_tile_per_segment_run(lead: int, h: int, w: int, split: int) -> None:
    # Any reshape of [lead, h, w]: an output tile gathers at least one input tile and at most one per
    # segment; folding the leading dimensions into H (the view tt-metal takes for tile-aligned H)
    # gathers exactly one input tile per output tile.
    volume = lead * h * w
    rows = split if volume % split == 0 else 1
    gathered, segments = reshape_input_tiles((lead, h, w), (rows, volume // rows))
    assert 1.0 <= gathered <= segments
    if h % 32 == 0:
        assert reshape_input_tiles((lead, h, w), (lead * h, w))[0] == 1.0
