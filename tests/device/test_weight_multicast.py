"""tt-metal's 1-D weight-multicast matmul (mcast_in0 = false): when it runs and what it costs."""

from __future__ import annotations

from dataclasses import replace
from math import ceil

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ttopt.device import CostModel, preset
from ttopt.device.cost_terms import (
    camped_banks,
    dram_block_read_ns,
    dram_stream_ns,
    matmul_terms,
    multicast_hop_ns,
    params_for,
    read_round_trip_ns,
    tile_bytes,
)
from ttopt.device.layout_info import layout_info
from ttopt.device.matmul_config import AUTO, MCAST_IN1, interleaved_program

# A Blackhole chip with 110 worker cores (11 x 10), as tt-perf-report's DeepLabV3 capture ran.
BH110 = replace(params_for("blackhole"), grid_cores=110, grid_rows=10)
BFP8 = ("bfp_bf8", "bfp_bf8", "bfp_bf8", "LoFi")


@pytest.mark.parametrize(
    ("a", "b", "program"),
    [
        # The capture's kernels name the program: an in1 sender and receivers without an in0
        # receiver is the weight multicast.
        ((32768, 128), (128, 256), MCAST_IN1),  # tall (ratio 128): 103 cores
        ((8192, 512), (512, 64), MCAST_IN1),  # tall: 86 cores
        ((2048, 1024), (1024, 512), MCAST_IN1),  # not narrow, but its 16-tile blocks form one column: 64 cores
        ((2048, 2048), (2048, 256), MCAST_IN1),
        ((2048, 1024), (1024, 2048), AUTO),  # a 4 x 4 block grid: 2-D multicast on all 110 cores
        ((32, 2048), (2048, 256), AUTO),  # one tile high, all DRAM: wide, the activation multicast
    ],
)
def test_the_auto_picker_runs_tall_shapes_and_block_columns_as_weight_multicast(a, b, program) -> None:
    assert interleaved_program(a, b, True, 16, (10, 11)) == program


def test_a_picker_that_may_not_use_the_grid_does_not_multicast_the_weights() -> None:
    # Not all DRAM: the blocks must fit the grid's cores (and Kt split into in0_block_w) first.
    assert interleaved_program((32768, 128), (128, 256), False, 16, (10, 11)) == MCAST_IN1  # 64 blocks
    assert interleaved_program((65536, 128), (128, 32), False, 4, (10, 11)) == AUTO  # 512 blocks > 110 cores
    assert interleaved_program((65536, 128), (128, 32), True, 4, (10, 11)) == MCAST_IN1


def test_the_weights_stream_through_one_sender_a_block_per_hand_off() -> None:
    # [2048,1024] @ [1024,512] bfp8 all in DRAM: in0_block_w 2 (get_mcast_1d_config), 16 hand-offs
    # of a 2 x 16-tile block that the first core reads and multicasts; measured 49.6 us.
    p = BH110
    t = matmul_terms(p, 2048, 1024, 512, *BFP8, "dram_i", "dram_i", "dram_i", 110, 1, MCAST_IN1)
    block = 2 * 16 * tile_bytes("bfp_bf8")
    chain = 16 * multicast_hop_ns(p, block, dram_block_read_ns(p, block))
    assert t.dram_ns == pytest.approx(chain)  # the chain binds, not the activation and output stream
    # One tile row a core, and one reload of its 16 output tiles' bf16 partials before the last K
    # block (ttnn's default accumulates them in L1).
    reload = 16 * 2 * p.reload_cycles_per_kb / p.clock_ghz
    assert t.compute_ns == pytest.approx((1 * 16 * 32 * p.matmul_cycles_lofi) / p.clock_ghz + reload)
    assert 1 / 1.3 < t.device_ns / 49_642 < 1.3
    # A given in0_block_w sets the hand-offs: the whole K in one block is one hand-off.
    one = matmul_terms(p, 2048, 1024, 512, *BFP8, "dram_i", "dram_i", "dram_i", 110, 1, MCAST_IN1, in0_block_w=32)
    assert one.dram_ns < t.dram_ns
    # The auto-picker leaves a batch unfused: every core loops over it and the weights stream again.
    fused = matmul_terms(p, 2048, 1024, 512, *BFP8, "dram_i", "dram_i", "dram_i", 110, 2, MCAST_IN1)
    unfused = matmul_terms(p, 2048, 1024, 512, *BFP8, "dram_i", "dram_i", "dram_i", 110, 2, MCAST_IN1, shared_b=True)
    assert unfused.dram_ns == pytest.approx(2 * chain) and fused.dram_ns == pytest.approx(chain)
    assert fused.compute_ns == pytest.approx(unfused.compute_ns)  # 2 tile rows a core either way


@pytest.mark.parametrize(
    ("row_tiles", "columns", "banks", "reached"),
    [
        (8, 4, 8, 4),  # every row starts at bank 0: two 2-tile K blocks reach 4 banks
        (16, 4, 8, 4),
        (4, 4, 8, 8),  # rows start 4 banks apart: 2 x 4
        (2, 4, 8, 8),
        (9, 4, 8, 8),  # rows start one bank apart
        (8, 1, 8, 1),
        (12, 4, 12, 4),  # Wormhole's 12 banks
        (8, 4, 12, 12),  # rows start 4 of 12 banks apart: 3 x 4
    ],
)
def test_a_column_span_of_every_row_reaches_few_banks_when_rows_align(row_tiles, columns, banks, reached) -> None:
    assert camped_banks(row_tiles, columns, banks) == reached


@given(st.integers(1, 24), st.integers(1, 70), st.data())
def test_camped_banks_counts_the_banks_a_column_span_reaches(banks: int, row_tiles: int, data: st.DataObject) -> None:
    # Tile t of a row-major interleaved matrix lives in bank t mod banks: count them directly.
    columns = data.draw(st.integers(1, row_tiles))
    reached = {(r * row_tiles + c) % banks for r in range(2 * banks) for c in range(columns)}
    assert camped_banks(row_tiles, columns, banks) == len(reached)


def test_a_tall_activation_read_in_step_streams_from_the_banks_its_columns_reach() -> None:
    # [32768,256] @ [256,64] bfp8 all in DRAM (the auto-picker's weight multicast on 103 cores,
    # in0_block_w 2): the cores read their rows' K block b, tiles 8r + 2b and 8r + 2b + 1, at most
    # two blocks ahead, so the 8.9 MB activation streams from 4 of the 8 banks. Measured 54.3 us.
    p = BH110
    t = matmul_terms(p, 32768, 256, 64, *BFP8, "dram_i", "dram_i", "dram_i", 103, 1, MCAST_IN1)
    act, out = 1024 * 8 * tile_bytes("bfp_bf8"), 1024 * 2 * tile_bytes("bfp_bf8")
    assert t.dram_ns == pytest.approx(dram_stream_ns(p, 2 * act + out, 1024 * 10, p.dram_stream_gbps))
    assert 1 / 1.3 < t.device_ns / 54_266 < 1.3
    # K = 288 (9 tiles a row): rows start a bank apart and the activation streams from every bank.
    odd = matmul_terms(p, 32768, 288, 64, *BFP8, "dram_i", "dram_i", "dram_i", 103, 1, MCAST_IN1)
    assert odd.dram_ns == pytest.approx(dram_stream_ns(p, 1024 * 9 * tile_bytes("bfp_bf8") + out, 1024 * 11, p.dram_stream_gbps))
    assert odd.dram_ns < t.dram_ns


def test_weights_in_the_l1_banks_hand_off_no_slower_than_from_dram() -> None:
    # The sender reads each weight block before multicasting it, from DRAM or from the L1 banks;
    # either read overlaps the receivers' semaphore round trip, and an L1 page round trip is the
    # shorter one, so L1-interleaved weights never cost more than DRAM ones.
    for p in (params_for("wormhole_b0"), BH110):
        args = (2048, 1024, 256, *BFP8, "l1_h")
        dram = matmul_terms(p, *args, "dram_i", "l1_h", 64, 1, MCAST_IN1)
        l1 = matmul_terms(p, *args, "l1_i", "l1_h", 64, 1, MCAST_IN1)
        block = 2 * 8 * tile_bytes("bfp_bf8")
        assert l1.noc_ns == pytest.approx(16 * multicast_hop_ns(p, block, read_round_trip_ns(p, False, block)))
        assert l1.device_ns <= dram.device_ns


def test_a_height_sharded_matmul_keeps_its_activation_local() -> None:
    # [8192,128] @ [128,512] bfp8, activation and output height sharded on 86 cores (3 tile rows
    # each), weights in DRAM, in0_block_w 4 (the whole K): one hand-off; measured 8.97 us.
    p = BH110
    t = matmul_terms(p, 8192, 128, 512, *BFP8, "l1_h", "dram_i", "l1_h", 86, 1, MCAST_IN1, in0_block_w=4)
    block = 4 * 16 * tile_bytes("bfp_bf8")
    assert t.dram_ns == pytest.approx(multicast_hop_ns(p, block, dram_block_read_ns(p, block)))
    assert t.noc_ns == 0.0
    assert t.compute_ns == pytest.approx(3 * 16 * 4 * p.matmul_cycles_lofi / p.clock_ghz)
    assert 1 / 1.3 < t.device_ns / 8_974 < 1.3


def test_the_cost_model_prices_a_height_sharded_output_as_weight_multicast(op, lay) -> None:
    # tt-mlir's config for a height-sharded output: mcast_in0 false, per_core_M = ceil(Mt / cores),
    # per_core_N = Nt, in0_block_w = Kt. Priced as the activation multicast it would split N over
    # the cores and pay each core's share of M x N x K many times over.
    cm = CostModel(preset("wormhole_b0"))
    p = cm.params
    mm = op("ttnn.matmul", ["8192x128xbf16", "128x512xbf16"], "8192x512xbf16")
    out = lay((8192, 512), "l1", "h", 64)
    cost = cm.op_cost(mm, [lay((8192, 128), "l1", "h", 64), lay((128, 512))], out)
    expected = matmul_terms(p, 8192, 128, 512, "bf16", "bf16", "bf16", "HiFi2", "l1_s", "dram_i", "l1_s", 64, 1, MCAST_IN1, in0_block_w=4)
    assert cost.ns == pytest.approx(expected.ns)
    assert cost.compute_ns == pytest.approx(ceil(256 / 64) * 16 * 4 * p.matmul_cycles_lofi * 2 / p.clock_ghz)
    assert layout_info(out).num_cores == 64


def test_an_interleaved_tall_matmul_is_priced_as_the_program_tt_metal_picks(op, lay) -> None:
    # [16384,128] @ [128,128] all DRAM on Wormhole's 8 x 8 grid: tall, so the weight multicast,
    # every core 8 tile rows (512 / 64).
    cm = CostModel(preset("wormhole_b0"))
    mm = op("ttnn.matmul", ["16384x128xbf16", "128x128xbf16"], "16384x128xbf16")
    cost = cm.op_cost(mm, [lay((16384, 128)), lay((128, 128))], lay((16384, 128)))
    expected = matmul_terms(cm.params, 16384, 128, 128, "bf16", "bf16", "bf16", "HiFi2", "dram_i", "dram_i", "dram_i", 64, 1, MCAST_IN1)
    assert cost.ns == pytest.approx(expected.ns)


def test_the_model_picks_the_program_the_deeplabv3_capture_ran() -> None:
    # Every matmul call of tt-perf-report's DeepLabV3 capture names its kernels: the weight
    # multicast exactly where they show it, on the cores the capture counts.
    from bench.calibrate import CALIBRATION_DIR, board_params, load_suites, matmul_row_program

    p = board_params(params_for("blackhole"), "BH110")
    rows = load_suites(CALIBRATION_DIR)["matmul_bh_deeplabv3"]
    picked = 0
    for r in rows:
        ran_in1 = "mcast_in1" in r["note"]
        assert (matmul_row_program(p, r) == MCAST_IN1) == ran_in1, r["id"]
        if ran_in1:
            mt = ceil(r["m"] / 32)
            assert f"CORE COUNT {ceil(mt / ceil(mt / 110))} " in r["note"], r["id"]
            picked += 1
    assert picked == 19 and len(rows) == 24


def test_an_auto_picked_weight_multicast_loops_over_an_activation_batch(op, lay) -> None:
    # 4 x [4096,128] @ [128,128] all DRAM: the picker judges the per-batch height (tall), and its
    # 1-D config leaves the batch unfused, every core looping over the 4 activations.
    cm = CostModel(preset("wormhole_b0"))
    mm = op("ttnn.matmul", ["4x4096x128xbf16", "128x128xbf16"], "4x4096x128xbf16")
    cost = cm.op_cost(mm, [lay((4, 4096, 128)), lay((128, 128))], lay((4, 4096, 128)))
    expected = matmul_terms(
        cm.params, 4096, 128, 128, "bf16", "bf16", "bf16", "HiFi2", "dram_i", "dram_i", "dram_i", 64, 4, MCAST_IN1, shared_b=True,
    )  # fmt: skip
    assert cost.ns == pytest.approx(expected.ns)


def test_a_batched_second_operand_is_not_one_weight_stream(op, lay) -> None:
    # A height-sharded activation over 8 weight matrices (a bmm) is not the weight multicast of one:
    # its price grows with the 8 weights' bytes.
    cm = CostModel(preset("wormhole_b0"))
    shape_a, shape_b, shape_o = (8, 1024, 512), (8, 512, 512), (8, 1024, 512)
    bmm = op("ttnn.matmul", ["8x1024x512xbf16", "8x512x512xbf16"], "8x1024x512xbf16")
    one = op("ttnn.matmul", ["8x1024x512xbf16", "512x512xbf16"], "8x1024x512xbf16")
    a = lay(shape_a, "l1", "h", 64)
    batched = cm.op_cost(bmm, [a, lay(shape_b)], lay(shape_o))
    shared = cm.op_cost(one, [a, lay((512, 512))], lay(shape_o))
    in1 = matmul_terms(cm.params, 8192, 512, 512, "bf16", "bf16", "bf16", "HiFi2", "l1_h", "dram_i", "dram_i", 64, 1, MCAST_IN1, in0_block_w=16)
    assert shared.ns == pytest.approx(in1.ns)
    assert batched.ns > 2 * shared.ns


def _conv1x1(cin: int, cout: int, height: int, width: int, extra: str = "", flags: str = "") -> str:
    """The attributes of a 1x1 stride-1 ttnn.conv2d of one image at LoFi (`flags`: more compute-config knobs)."""
    return (
        f"batch_size = 1 : i32, in_channels = {cin} : i32, out_channels = {cout} : i32, input_height = {height} : i32, "
        f"input_width = {width} : i32, kernel_size = array<i32: 1, 1>, stride = array<i32: 1, 1>, "
        "padding = array<i32: 0, 0, 0, 0>, dilation = array<i32: 1, 1>, groups = 1 : i32, "
        f"compute_config = #ttnn.device_compute_kernel_config<math_fidelity = lofi{flags}>" + extra
    )


@pytest.mark.parametrize("row_id", ["dlv3_mm_89088", "dlv3_mm_125952", "dlv3_mm_79872", "dlv3_mm_175104"])
def test_a_1x1_stride_1_conv_is_priced_as_the_matmul_tt_metal_runs(op, lay, row_id) -> None:
    # conv2d's use_matmul_for_1x1_conv: the DeepLabV3 capture's 1x1 convs ran as these matmuls, a
    # height-sharded activation with the whole K one block, an interleaved one through the auto-picker.
    from bench.calibrate import CALIBRATION_DIR, load_suites, terms_for

    cm = CostModel(replace(preset("blackhole"), worker_grid=(10, 11)))  # the capture's 110 cores
    (row,) = [r for r in load_suites(CALIBRATION_DIR)["matmul_bh_deeplabv3"] if r["id"] == row_id]
    m, k, n = row["m"], row["k"], row["n"]
    grid = (10, 11)
    # The capture's compute config (fp32 partials, no L1 accumulation): the reloads are priced alike.
    props = _conv1x1(k, n, 1, m, flags=f", fp32_dest_acc_en = {str(row['fp32_dest_acc']).lower()}, packer_l1_acc = false")
    conv = op("ttnn.conv2d", [f"1x1x{m}x{k}xbf16", f"{n}x{k}x1x1xbf16"], f"1x1x{m}x{n}xbf16", props=props)
    if row["a_mem"] == "l1_h":
        x = lay((1, 1, m, k), "l1", "h", grid=row["cores"], dtype="bfp_bf8", worker_grid=grid)
        out = lay((1, 1, m, n), "l1", "h", grid=row["cores"], dtype="bfp_bf8", worker_grid=grid)
    else:
        x, out = lay((1, 1, m, k), dtype="bfp_bf8", worker_grid=grid), lay((1, 1, m, n), dtype="bfp_bf8", worker_grid=grid)
    weights = lay((n, k, 1, 1), dtype="bfp_bf8", worker_grid=grid)
    c, t = cm.op_cost(conv, [x, weights], out), terms_for(params_for("blackhole"), row)
    assert (c.compute_ns, c.dram_ns, c.noc_ns) == pytest.approx((t.compute_ns, t.dram_ns, t.noc_ns), rel=1e-6)


def test_only_a_1x1_stride_1_unpadded_conv_runs_as_a_matmul(op) -> None:
    from ttopt.device.cost_model import _conv_shape, _runs_as_matmul

    types = (["1x1x1024x64xbf16", "64x64x1x1xbf16"], "1x1x1024x64xbf16")

    def conv(props: str) -> bool:
        o = op("ttnn.conv2d", *types, props=props)
        return _runs_as_matmul(o, _conv_shape(o, [(1, 1, 1024, 64), (64, 64, 1, 1)], (1, 1, 1024, 64)))

    assert conv(_conv1x1(64, 64, 32, 32))
    assert not conv(_conv1x1(64, 64, 32, 32).replace("stride = array<i32: 1, 1>", "stride = array<i32: 2, 2>"))
    assert not conv(_conv1x1(64, 64, 32, 32).replace("padding = array<i32: 0, 0, 0, 0>", "padding = array<i32: 1, 1, 1, 1>"))
    assert not conv(_conv1x1(64, 64, 32, 32).replace("kernel_size = array<i32: 1, 1>", "kernel_size = array<i32: 3, 3>"))
    assert not conv("batch_size = 1 : i32")  # no kernel stated: a prepared weight may hide a larger one


def test_a_1x1_conv_converts_its_matmul_result_to_the_output_memory_config(op, lay) -> None:
    # conv2d runs the matmul into the input's shard spec (a sharded input) or DRAM interleaved
    # (linear's default, an interleaved input) and converts that to the requested output after.
    from ttopt.device.layout_info import layout_info

    cm = CostModel(preset("wormhole_b0"))
    conv = op("ttnn.conv2d", ["1x1x8192x128xbf16", "512x128x1x1xbf16"], "1x1x8192x512xbf16", props=_conv1x1(128, 512, 64, 128))
    weights = lay((512, 128, 1, 1))
    height_in, height_out = lay((1, 1, 8192, 128), "l1", "h", 64), lay((1, 1, 8192, 512), "l1", "h", 64)
    dram_out, l1_out = lay((1, 1, 8192, 512)), lay((1, 1, 8192, 512), "l1", "i")
    in_place = cm.op_cost(conv, [height_in, weights], height_out)
    to_dram = cm.op_cost(conv, [height_in, weights], dram_out)
    conversion = cm.conversion_cost((1, 1, 8192, 512), height_out, dram_out).ns
    assert in_place.sync_ns == 0.0 and to_dram.sync_ns == pytest.approx(conversion)
    plain = cm.op_cost(conv, [lay((1, 1, 8192, 128)), weights], dram_out)
    into_l1 = cm.op_cost(conv, [lay((1, 1, 8192, 128)), weights], l1_out)
    assert plain.sync_ns == 0.0
    assert into_l1.sync_ns == pytest.approx(cm.conversion_cost((1, 1, 8192, 512), dram_out, l1_out).ns)
    assert layout_info(dram_out).dram
