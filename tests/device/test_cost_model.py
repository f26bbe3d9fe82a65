"""The cost model (OP-MODEL.md §4): one parameter table, the per-op formula, module totals."""

from __future__ import annotations

from math import ceil
from pathlib import Path

import pytest

from ttopt.device import CostModel, preset
from ttopt.device.cost_model import kind_cycles, stream_gbps
from ttopt.device.cost_terms import matmul_terms, params_for
from ttopt.device.op_families import OP_FAMILIES
from ttopt.device.presets import COST_TABLE
from ttopt.parse.parser import parse_module

ROOT = Path(__file__).resolve().parents[2]


def test_every_parameter_has_values_and_a_source() -> None:
    for name, p in COST_TABLE.items():
        assert p.wormhole_b0 > 0 and p.blackhole > 0 and p.unit and len(p.source) > 20, name


def test_every_op_kind_has_cycles(op) -> None:
    cm = CostModel(preset("wormhole_b0"))
    for name in OP_FAMILIES:
        o = op(name, ["64x64xbf16"], "64x64xbf16")
        assert cm.cycles_per_unit(o) > 0, name


def test_each_arch_has_its_fitted_parameters() -> None:
    wh, bh = params_for("wormhole_b0"), params_for("blackhole")
    assert (wh.clock_ghz, bh.clock_ghz) == (1.0, 1.35)
    assert wh != bh and 0.0 <= wh.overlap <= 1.0 and wh.floor_ns > 0
    assert CostModel(preset("blackhole")).params == bh
    assert stream_gbps("wormhole_b0") == pytest.approx(288.0 * 0.7)


def test_formula_floor_plus_compute_plus_memory_minus_overlap(op, lay) -> None:
    dev = preset("wormhole_b0")
    p = params_for("wormhole_b0")
    cm = CostModel(dev)
    shape = (1024, 1024)  # 1024 tiles
    relu = op("ttnn.relu", ["1024x1024xbf16"], "1024x1024xbf16")
    c = cm.op_cost(relu, [lay(shape)], lay(shape))
    dram_bytes = 2 * 1024 * 2048
    assert c.dram_bytes == dram_bytes and c.noc_bytes == 0 and c.cores == 64
    assert c.dram_ns == pytest.approx(dram_bytes / stream_gbps("wormhole_b0"))
    assert c.compute_ns == pytest.approx(ceil(1024 / 64) * kind_cycles("wormhole_b0")["eltwise_unary"] / p.clock_ghz)
    assert c.overlap_ns == pytest.approx(p.overlap * min(c.compute_ns, c.dram_ns + c.noc_ns))
    assert c.ns == pytest.approx(p.floor_ns + c.compute_ns + c.dram_ns + c.noc_ns - c.overlap_ns)
    assert c.dispatch_ns == 0.0 and c.bound == "dram"


def test_l1_interleaved_eltwise_is_no_faster_than_dram_but_sharded_is(op, lay) -> None:
    # Published eltwise data: an L1-interleaved relu is no faster than a DRAM one (its pages sit on
    # other cores' banks); a sharded one reads only local L1.
    cm = CostModel(preset("wormhole_b0"))
    shape = (2048, 2048)
    relu = op("ttnn.relu", ["2048x2048xbf16"], "2048x2048xbf16")
    dram = cm.op_cost(relu, [lay(shape)], lay(shape))
    sharded = cm.op_cost(relu, [lay(shape, "l1", "b", (8, 8))], lay(shape, "l1", "b", (8, 8)))
    inter = cm.op_cost(relu, [lay(shape, "l1", "i")], lay(shape, "l1", "i"))
    assert sharded.ns < inter.ns and inter.ns == pytest.approx(dram.ns)
    assert sharded.dram_bytes == 0 and sharded.noc_bytes == 0 and inter.noc_bytes > 0


def test_matmul_fidelity_and_memory_config_order_like_the_hardware(op, lay) -> None:
    cm = CostModel(preset("wormhole_b0"))
    mm = op("ttnn.matmul", ["2048x2048xbf16", "2048x2048xbf16"], "2048x2048xbf16")
    big = (2048, 2048)
    all_dram = cm.op_cost(mm, [lay(big), lay(big)], lay(big))
    sharded = cm.op_cost(mm, [lay(big, "l1", "b", (8, 8)), lay(big)], lay(big, "l1", "b", (8, 8)))
    assert all_dram.fidelity == "HiFi2"  # tt-metal's default for bf16
    assert sharded.ns < all_dram.ns  # the published GEMM data: L1 block-sharded is faster
    hifi4 = op("ttnn.matmul", ["2048x2048xbf16", "2048x2048xbf16"], "2048x2048xbf16",
               props='compute_config = #ttnn.device_compute_kernel_config<math_fidelity = hifi4>')
    slow = cm.op_cost(hifi4, [lay(big), lay(big)], lay(big))
    assert slow.fidelity == "HiFi4" and slow.compute_ns == pytest.approx(2 * all_dram.compute_ns)


def test_single_op_api_matches_a_published_measurement() -> None:
    # gemm_oob_4: n150, 1024^3 bf16 HiFi2, all DRAM interleaved, 8x8 grid: 68984 ns measured.
    t = matmul_terms(params_for("wormhole_b0"), 1024, 1024, 1024, "bf16", "bf16", "bf16", "HiFi2", True, True, True, 64)
    assert 68984 / 1.5 < t.ns < 68984 * 1.5


def test_matmul_work_scales_with_cores(op, lay) -> None:
    cm = CostModel(preset("wormhole_b0"))
    mm = op("ttnn.matmul", ["1024x1024xbf16", "1024x1024xbf16"], "1024x1024xbf16")
    ins = [lay((1024, 1024), "l1", "i"), lay((1024, 1024), "l1", "i")]
    wide = cm.op_cost(mm, ins, lay((1024, 1024), "l1", "b", (8, 8)))
    narrow = cm.op_cost(mm, ins, lay((1024, 1024), "l1", "b", (2, 2)))
    assert wide.work_tiles == 32 * 32 * 32
    assert narrow.compute_ns == pytest.approx(16 * wide.compute_ns)


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
    assert c is not None and c.floor_ns == params_for("wormhole_b0").floor_ns and c.work_tiles > 0
