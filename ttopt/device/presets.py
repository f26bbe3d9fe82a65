"""Device presets: the chip numbers of each `--device` preset and the cost-model parameter table.

Every number the device, op and cost models use is a named entry here, with where it comes from.
Chip numbers are tt-mlir's default / captured system descs (OP-MODEL.md §1, reference
ttnn-optimizer-upstream.md §1.4, §4.4). Cost parameters (OP-MODEL.md §4) are *estimates* built from
public spec sheets and tt-metal documentation: ttopt never measured anything on hardware.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Mapping


@dataclass(frozen=True)
class ChipPreset:
    """The system-desc fields ttopt needs for one chip (the others keep tt-mlir's defaults)."""

    name: str
    arch: str
    grid: tuple[int, int]
    l1_size: int
    l1_unreserved_base: int
    num_dram_channels: int
    dram_channel_size: int
    dram_grid: tuple[int, int]
    dst_physical_size_tiles: int
    num_cbs: int
    source: str


CHIP_PRESETS: Mapping[str, ChipPreset] = MappingProxyType({
    "wormhole_b0": ChipPreset(
        "wormhole_b0", "wormhole_b0", (8, 8), 1499136, 1024, 12, 1073741824, (1, 12), 16, 32,
        "tt-mlir SystemDescAttr::getDefault (mock wormhole_b0 desc used by the op-model lit tests)",
    ),
    "n150": ChipPreset(
        "n150", "wormhole_b0", (8, 8), 1499136, 101152, 12, 1073741824, (1, 12), 16, 32,
        "the same chip; l1_unreserved_base as captured from real n150 system descs",
    ),
    "blackhole": ChipPreset(
        "blackhole", "blackhole", (10, 13), 1572864, 98304, 8, 4278190080, (1, 8), 16, 32,
        "tt-mlir SystemDescAttr::getDefault for blackhole",
    ),
})  # fmt: skip

DEFAULT_PRESET = "wormhole_b0"
# OP-MODEL.md §1 / DECISIONS.md: the seed's default cap is 1.0 (upstream later moved to 0.95).
DEFAULT_L1_USAGE_CAP = 1.0


# ---------------------------------------------------------------------------------------------
# Cost-model parameters (OP-MODEL.md §4): ONE table, one row per parameter, a value per arch and
# the public source or the reasoning behind it. `cycles_per_tile.*` rows are per 32x32 tile of work
# (for matmul/conv: one 32x32x32 multiply-accumulate block).


@dataclass(frozen=True)
class CostParam:
    """One row of the cost table: value per arch, unit, and why that value."""

    wormhole_b0: float
    blackhole: float
    unit: str
    source: str


COST_TABLE: Mapping[str, CostParam] = MappingProxyType({
    "clock_ghz": CostParam(
        1.0, 1.35, "GHz",
        "AI clock from the public spec sheets: Wormhole n150 1.0 GHz, Blackhole p150 1.35 GHz",
    ),
    "dram_bandwidth_gbps": CostParam(
        288.0, 512.0, "GB/s",
        "peak DRAM bandwidth from the spec sheets (n150: 12 GDDR6 channels, 288 GB/s; p150: 8 channels, 512 GB/s)",
    ),
    "dram_efficiency": CostParam(
        0.7, 0.7, "fraction",
        "assumption: sustained/peak DRAM bandwidth for large streaming reads, typical of GDDR6 controllers",
    ),
    "noc_bytes_per_cycle_per_core": CostParam(
        32.0, 64.0, "B/cycle",
        "one NoC link moves 32 B/cycle on Wormhole, 64 B/cycle on Blackhole (tt-metal NoC docs); "
        "each participating core is counted as one link",
    ),
    "dispatch_overhead_ns": CostParam(
        2000.0, 2000.0, "ns",
        "assumption: device-side launch of a cached program, a few us per op in tt-metal's profiler docs; "
        "host overhead (eager mode) is not modelled",
    ),
    "cycles_per_tile.eltwise_unary": CostParam(
        64.0, 64.0, "cycles/tile",
        "assumption: SFPU processes 32 lanes x 8 rows per pass; 4 passes per 32x32 tile plus unpack/pack",
    ),
    "cycles_per_tile.eltwise_unary_transcendental": CostParam(
        256.0, 256.0, "cycles/tile",
        "assumption: exp/log/tanh/gelu/... are polynomial SFPU sequences, ~4x a simple unary",
    ),
    "cycles_per_tile.eltwise_binary": CostParam(
        32.0, 32.0, "cycles/tile",
        "assumption: FPU element-wise add/mul of two tiles with unpack of both operands",
    ),
    "cycles_per_tile.matmul": CostParam(
        64.0, 64.0, "cycles/tile-block",
        "n150 spec sheet: 74 TFLOPS at 16-bit over 72 Tensix cores at 1 GHz ~ 1 kFLOP/cycle/core, so one "
        "32x32x32 block (65536 FLOP) takes ~64 cycles (the 262 TFLOPS FP8 figure would be ~18); Blackhole "
        "is assumed to have the same Tensix FPU (its clock differs)",
    ),
    "cycles_per_tile.conv": CostParam(
        64.0, 64.0, "cycles/tile-block",
        "conv2d runs as an im2col matmul on the same FPU: matmul cost per 32x32x32 block",
    ),
    "cycles_per_tile.norm": CostParam(
        192.0, 192.0, "cycles/tile",
        "assumption: softmax/layer/rms norm read each tile ~3 times (stats, normalise, scale)",
    ),
    "cycles_per_tile.data_movement": CostParam(
        16.0, 16.0, "cycles/tile",
        "assumption: reshape/permute/reduce/concat are reader/writer-kernel bound; 16 cycles per tile copy",
    ),
    "cycles_per_tile.layout": CostParam(
        16.0, 16.0, "cycles/tile",
        "assumption: to_layout/to_memory_config copies tiles (tilize/untilize cost the same here)",
    ),
})  # fmt: skip

TRANSCENDENTAL_UNARY = frozenset(
    {"exp", "log", "log1p", "expm1", "tanh", "sigmoid", "gelu", "silu", "erf", "erfc", "sqrt", "rsqrt",
     "reciprocal", "pow_scalar", "sin", "cos", "tan", "mish", "hardsigmoid"}
)  # fmt: skip


def cost_arch(arch: str) -> str:
    """The cost-table column for a chip architecture (unknown archs use wormhole_b0's numbers)."""
    return "blackhole" if arch == "blackhole" else "wormhole_b0"
