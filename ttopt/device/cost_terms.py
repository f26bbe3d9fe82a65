"""The physical terms of one op's estimated time, from sizes, formats and memory placement.

This is the public, IR-free face of the cost model (docs/device-model.md): an outside script can
estimate one matmul with `matmul_terms(params_for("wormhole_b0"), m, k, n, ...)`. `CostModel`
(cost_model.py) feeds it from an op's layouts.

    ns = dispatch + floor + compute + memory - overlap,   memory = dram + noc,
    overlap = eta * min(compute, memory)

* compute: matmul tile blocks (32x32x32) per core x cycles per block at LoFi x math-fidelity passes
  (LoFi 1, HiFi2 2, HiFi3 3, HiFi4 4) / clock;
* dram: bytes of every DRAM-resident operand and result, by data format (a bf16 tile is 2048 B, a
  bfp8 tile 1088 B, a bfp4 tile 576 B), over the sustained DRAM bandwidth;
* noc: bytes moved between cores (multicast of sharded inputs, L1-interleaved pages, reshards) over
  the NoC bandwidth;
* floor: the fixed device cost of launching a program (traced, no host);
* dispatch: host dispatch per op (0 under trace, as in the calibration data);
* overlap: how much of the shorter of compute and data movement hides under the longer — a
  fraction `eta`, not `max`, so a slower memory configuration costs more even when compute-bound.

The free parameters (cycles per block, bandwidths, floor, eta) are fitted per device by
bench/calibrate.py on published measurements and stored, with every other cost parameter, in
cost_params.json.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from math import ceil
from pathlib import Path

FIDELITY_PASSES = {"LoFi": 1, "HiFi2": 2, "HiFi3": 3, "HiFi4": 4}
# Bytes of one 32x32 tile by data format (block floats: mantissas plus one shared exponent per 16).
TILE_BYTES = {
    "f32": 4096, "si32": 4096, "u32": 4096, "tf32": 4096,
    "bf16": 2048, "f16": 2048, "u16": 2048,
    "bfp_bf8": 1088, "bfp_f8": 1088, "u8": 1024,
    "bfp_bf4": 576, "bfp_f4": 576,
    "bfp_bf2": 320, "bfp_f2": 320,
}  # fmt: skip
# tt-metal's default math fidelity when an op's compute config does not give one.
DEFAULT_FIDELITY = {"f32": "HiFi4", "tf32": "HiFi4", "bf16": "HiFi2", "f16": "HiFi2"}
CALIBRATION_FILE = Path(__file__).with_name("cost_params.json")


@dataclass(frozen=True)
class CostParams:
    """One device's fitted cost parameters."""

    clock_ghz: float
    matmul_cycles_lofi: float  # cycles per 32x32x32 block per core at LoFi
    dram_gbps: float  # sustained DRAM bandwidth (bytes/ns)
    noc_gbps: float  # sustained NoC bandwidth of the grid (bytes/ns)
    floor_ns: float  # device launch of one program
    overlap: float  # eta: share of min(compute, memory) hidden under the other
    dispatch_ns: float = 0.0  # host dispatch per op (0 under trace)


@dataclass(frozen=True, slots=True)
class Terms:
    """An op's estimate and its parts (ns)."""

    compute_ns: float
    dram_ns: float
    noc_ns: float
    floor_ns: float
    dispatch_ns: float
    overlap_ns: float

    @property
    def ns(self) -> float:
        return self.dispatch_ns + self.floor_ns + self.compute_ns + self.dram_ns + self.noc_ns - self.overlap_ns


def combine(p: CostParams, compute_ns: float, dram_ns: float, noc_ns: float) -> Terms:
    """The terms of an op from its compute and data-movement times, with partial overlap."""
    overlap = p.overlap * min(compute_ns, dram_ns + noc_ns)
    return Terms(compute_ns, dram_ns, noc_ns, p.floor_ns, p.dispatch_ns, overlap)


def tile_bytes(fmt: str) -> int:
    """Bytes of one 32x32 tile of `fmt` (unknown formats count as bf16)."""
    return TILE_BYTES.get(fmt, 2048)


def fidelity_for(fmt: str, given: str | None = None) -> str:
    """The math fidelity an op runs at: the one given, else tt-metal's default for the format."""
    if given in FIDELITY_PASSES:
        return given  # type: ignore[return-value]
    return DEFAULT_FIDELITY.get(fmt, "LoFi")


def matmul_terms(
    p: CostParams, m: int, k: int, n: int, fmt_a: str, fmt_b: str, fmt_out: str, fidelity: str,
    a_dram: bool, b_dram: bool, out_dram: bool, cores: int,
) -> Terms:
    """A (m x k) @ (k x n) matmul on `cores` cores; `*_dram`: the tensor is DRAM interleaved (else
    L1 sharded, moved between cores by multicast)."""
    mt, kt, nt = ceil(m / 32), ceil(k / 32), ceil(n / 32)
    blocks = ceil(mt * nt / max(1, cores)) * kt
    compute = blocks * p.matmul_cycles_lofi * FIDELITY_PASSES.get(fidelity, 1) / p.clock_ghz
    sizes = ((mt * kt * tile_bytes(fmt_a), a_dram), (kt * nt * tile_bytes(fmt_b), b_dram), (mt * nt * tile_bytes(fmt_out), out_dram))
    dram = sum(b for b, d in sizes if d) / p.dram_gbps
    noc = sum(b for b, d in sizes[:2] if not d) / p.noc_gbps
    return combine(p, compute, dram, noc)


@cache
def params_for(arch: str) -> CostParams:
    """The fitted parameters of `arch` (wormhole_b0's for archs without a fit)."""
    data = json.loads(CALIBRATION_FILE.read_text())["fitted"]
    entry = data.get(arch) or data["wormhole_b0"]
    return CostParams(**entry["params"])
