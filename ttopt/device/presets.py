"""Device presets: the chip numbers of each `--device` preset and the cost-model parameter table.

Every number the device, op and cost models use is a named entry here, with where it comes from.
Chip numbers are tt-mlir's default / captured system descs (OP-MODEL.md §1, reference
ttnn-optimizer-upstream.md §1.4, §4.4). Cost parameters are read from cost_params.json: fitted to
published tt-metal measurements where there are some, documented assumptions elsewhere.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
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
# Cost-model parameters (docs/device-model.md §5) live in ONE data file, cost_params.json: every
# row has a value per arch, a unit, how it was obtained (spec, measured, fitted, assumed) and its
# source. COST_TABLE is that table; cost_terms.params_for builds the per-arch CostParams from it.


@dataclass(frozen=True)
class CostParam:
    """One row of the cost parameters: value per arch, unit, how it was obtained and from what."""

    wormhole_b0: float
    blackhole: float
    unit: str
    source: str
    how: str = "assumed"


COST_PARAMS_FILE = Path(__file__).with_name("cost_params.json")
COST_TABLE: Mapping[str, CostParam] = MappingProxyType({
    name: CostParam(row["wormhole_b0"], row["blackhole"], row["unit"], row["source"], row["how"])
    for name, row in json.loads(COST_PARAMS_FILE.read_text())["params"].items()
})  # fmt: skip

TRANSCENDENTAL_UNARY = frozenset(
    {"exp", "log", "log1p", "expm1", "tanh", "sigmoid", "gelu", "silu", "erf", "erfc", "sqrt", "rsqrt",
     "reciprocal", "pow_scalar", "sin", "cos", "tan", "mish", "hardsigmoid"}
)  # fmt: skip


def unary_kind(name: str) -> str:
    """The cost kind of a unary op by its short name: transcendental or plain eltwise."""
    return "eltwise_unary_transcendental" if name in TRANSCENDENTAL_UNARY else "eltwise_unary"


def cost_arch(arch: str) -> str:
    """The cost-table column for a chip architecture (unknown archs use wormhole_b0's numbers)."""
    return "blackhole" if arch == "blackhole" else "wormhole_b0"
