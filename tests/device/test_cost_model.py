"""The cost model (OP-MODEL.md §4): one parameter table, the per-op formula, module totals."""

from __future__ import annotations

from math import ceil
from pathlib import Path

import pytest

from ttopt.device import CostModel, CostParams, preset
from ttopt.device.op_families import OP_FAMILIES
from ttopt.device.presets import COST_TABLE
from ttopt.parse.parser import parse_module

ROOT = Path(__file__).resolve().parents[2]


def test_every_parameter_has_values_and_a_source() -> None:
    for name, p in COST_TABLE.items():
        assert p.wormhole_b0 > 0 and p.blackhole > 0 and p.unit and len(p.source) > 20, name


def test_every_op_kind_has_cycles(op) -> None:
    cm = CostModel(preset("wormhole_b0"))
    params = CostParams.for_arch("wormhole_b0")
    for name in OP_FAMILIES:
        o = op(name, ["64x64xbf16"], "64x64xbf16")
        assert cm.op_kind(o) in params.cycles_per_tile, name


def test_blackhole_uses_its_column() -> None:
    wh, bh = CostParams.for_arch("wormhole_b0"), CostParams.for_arch("blackhole")
    assert (wh.clock_ghz, wh.dram_bandwidth_gbps) == (1.0, 288.0)
    assert (bh.clock_ghz, bh.dram_bandwidth_gbps) == (1.35, 512.0)
    assert CostParams.for_arch("n150_unknown") == wh


def test_formula_dispatch_plus_max_of_compute_dram_noc(op, lay) -> None:
    dev = preset("wormhole_b0")
    p = CostParams.for_arch("wormhole_b0")
    cm = CostModel(dev)
    shape = (1024, 1024)  # 1024 tiles
    relu = op("ttnn.relu", ["1024x1024xbf16"], "1024x1024xbf16")
    c = cm.op_cost(relu, [lay(shape)], lay(shape))
    dram_bytes = 2 * 1024 * 2048
    assert c.dram_bytes == dram_bytes and c.noc_bytes == 0 and c.cores == 64
    assert c.dram_ns == pytest.approx(dram_bytes / (p.dram_bandwidth_gbps * p.dram_efficiency))
    assert c.compute_ns == pytest.approx(ceil(1024 / 64) * p.cycles_per_tile["eltwise_unary"] / p.clock_ghz)
    assert c.ns == pytest.approx(p.dispatch_overhead_ns + max(c.compute_ns, c.dram_ns, c.noc_ns))
    assert c.bound == "dram"


def test_l1_sharded_beats_dram_for_a_big_eltwise(op, lay) -> None:
    cm = CostModel(preset("wormhole_b0"))
    shape = (2048, 2048)
    relu = op("ttnn.relu", ["2048x2048xbf16"], "2048x2048xbf16")
    dram = cm.op_cost(relu, [lay(shape)], lay(shape))
    sharded = cm.op_cost(relu, [lay(shape, "l1", "b", (8, 8))], lay(shape, "l1", "b", (8, 8)))
    inter = cm.op_cost(relu, [lay(shape, "l1", "i")], lay(shape, "l1", "i"))
    assert sharded.ns < inter.ns < dram.ns
    assert sharded.dram_bytes == 0 and sharded.noc_bytes == 0 and inter.noc_bytes > 0


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
    assert c is not None and c.dispatch_ns == 2000.0 and c.work_tiles > 0
