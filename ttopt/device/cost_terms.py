"""The physical terms of one op's estimated time, from sizes, formats and memory placement.

This is the public, IR-free face of the cost model (docs/device-model.md §5): an outside script
estimates one op with `matmul_terms(params_for("wormhole_b0"), m, k, n, ...)`,
`stream_terms(...)` or `sdpa_decode_terms(...)` (decode attention over a KV cache); `CostModel`
(cost_model.py) feeds the same functions from an op's layouts.

    ns = dispatch + op_to_op + launch[kind] + compute + memory - overlap + sync
    memory = max(dram, noc),   overlap = eta * min(compute, memory)

* compute: work tiles per core x cycles per tile / clock (the op kind's, or the op's own where its
  compute kernel was measured: `CostParams.tile_cycles`); matmul work is 32x32x32 blocks at the
  fitted LoFi rate x math-fidelity passes (LoFi 1, HiFi2 2, HiFi3 3, HiFi4 4), plus, for a program
  that does not accumulate in L1, its partial results' round trip after every K block but the last
  (once, before the last, where it does: `reload_ns`, `Accumulation`);
* dram: DRAM bytes by data format over the bandwidth of the access pattern. A matmul reads its
  DRAM operands one of three ways, as tt-metal's program configs do: 2-D multicast (M of at least
  one tile row per grid row: only the edge sender cores read DRAM, `dram_2d_gbps`), 1-D (decode
  shapes: K in hops of in0_block_w tiles; per hop one sender hands the activation block on behind
  a semaphore while every working core reads its weight block, so a hop takes the longest of the
  hand-off, the chip's stream, `dram_stream_gbps`, capped by one NoC link per grid column, and one
  core's block read, `dram_block_ns` + `dram_core_gbps`: one_d_weight_ns; tall shapes and
  height-sharded outputs the weight-multicast 1-D program instead: every core its own rows, one
  sender reading the weights and multicasting them a block per hand-off, weight_multicast_terms;
  its cores read an interleaved activation's K blocks in step, from the banks `camped_banks`
  gives), or DRAM-sharded
  weights (one reader per bank, `dram_sharded_gbps`, at most one tile request per bank per
  `dram_request_ns`). Every DRAM-interleaved page also costs
  `dram_page_ns` (one NoC request per page), matmul operands and streaming ops alike. A
  DRAM-sharded matmul multicasts its activation one semaphore-gated block per sender, chained:
  K / in0_block_w hand-offs (`sem_hop_ns` + the block over one NoC link), each overlapping its
  block's weight read, so the weights take hops x max(hand-off, block read) (tt-metal issue 55443).
  Streaming ops read and write at `dram_stream_gbps` x the kind's efficiency x the share of the
  grid that works (at least `dram_core_gbps` per working core), an op's DRAM writes alone at
  `dram_write_share` of that (they bind an op that mostly writes: a sharded -> DRAM conversion); a kind whose reader
  keeps one page in flight (reductions and interleaved eltwise: `page_latency_ns`) is bound per
  core by its pages x the round trip (an L1-interleaved read also waits behind the op's own
  L1-interleaved writes at the bank port: tt-metal issue 14421), and a reduction parallelises over
  its output tiles. A min reduction runs tt-metal's fused
  -max(-x) program (reduce_h_neg / reduce_w_neg): each input tile is copied to DST, negated and
  packed, then the accumulator is copied back and the negated tile reduced and packed, three
  unpack-math-pack passes where sum / mean / max stream each tile through one reduce (`passes`). Its
  cores read interleaved pages in step: cores whose first pages lie `stride` pages apart hit only
  banks / gcd(stride, banks) banks at a time and queue there (`dram_bank_gbps`; an L1 bank serves
  at one core's NoC link rate; tt-metal PR 15501: the tensor width decides which banks the cores
  reading column tiles visit);
* noc: on-chip traffic — L1-interleaved pages (on other cores' banks) at `l1_interleaved_gbps`
  x the working share of the grid (the same for every kind: the banks' ports, shared by reads and
  writes), multicast of sharded matmul inputs and reshards at `noc_gbps`. DRAM
  and on-chip traffic use different resources (the reader on one NoC, the writer on the other),
  so memory time is their maximum, not their sum;
* sync: serial cross-core hand-offs that overlap nothing: a norm whose rows are split over cores
  (width sharded: all of them; block sharded: a grid row) gathers their partial statistics on one
  core and multicasts the result back (two `sem_hop_ns` hand-offs plus a tile per core over the
  receiving link), once per statistic pass; height-sharded and interleaved norms keep whole rows
  on one core (an interleaved norm works on at most its tile rows' worth of cores: CostModel);
* launch: the device-side start/finish of a program, per op kind (part of the kernel duration
  the profiler reports): a program of reader/writer kernels only (layout conversions, data
  movement) launches in `launch_ns.layout`; one with a compute kernel (eltwise, norm, reduction)
  adds the compute kernel's start-up and drain, `compute_init_ns` (measured: tt-metal's op-to-op
  goldens, last pack to next unpack minus last kernel end to next kernel start); op_to_op: the
  gap between one program ending and the next starting under trace; dispatch: host dispatch per
  op (0: programs run traced);
* overlap: compute and data movement overlap only partly (fitted `eta`), so a slower memory
  configuration costs more even when compute dominates.

A matmul whose output is interleaved (no program config is emitted for it) and that is not all
DRAM-interleaved falls back, at 2-D sizes, to tt-metal's default no-reuse program config: every
output tile re-reads its row of A and column of B (`fallback_gbps`) at HiFi4. A batched activation
over one B that is wide per batch runs the 1-D program with the batch unfused (`runs_unfused_1d`).

Every parameter lives in cost_params.json, per architecture, fitted (bench/calibrate.py) or
assumed, each with its source.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from math import ceil, gcd, isqrt, prod
from pathlib import Path
from typing import Mapping, Sequence

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
ARCHS = ("wormhole_b0", "blackhole")
# Op kinds with their own launch cost, cycles per tile and streaming efficiency.
KINDS = (
    "matmul", "conv", "eltwise_unary", "eltwise_unary_transcendental", "eltwise_binary", "norm",
    "reduction", "data_movement", "layout", "dispatch",
)  # fmt: skip
# Memory placements: DRAM interleaved / sharded, L1 interleaved / sharded (any sharding).
MEMS = ("dram_i", "dram_s", "l1_i", "l1_s")
_MEM_ALIASES = {"l1_block": "l1_s", "l1_w": "l1_s", "l1_h": "l1_s", "host": "dram_i"}


@dataclass(frozen=True, eq=True)
class CostParams:
    """One architecture's cost parameters (cost_params.json)."""

    clock_ghz: float
    matmul_cycles_lofi: float  # cycles per 32x32x32 block per core at LoFi
    dram_2d_gbps: float  # DRAM operands of a 2-D multicast matmul (edge sender cores read)
    dram_stream_gbps: float  # every core streaming DRAM-interleaved pages
    dram_sharded_gbps: float  # DRAM-sharded matmul weights, one reader per bank
    l1_interleaved_gbps: float  # L1-interleaved pages, read or written over the NoC
    noc_gbps: float  # multicast / reshard over the grid
    fallback_gbps: float  # re-read traffic of the default no-reuse matmul program config
    dram_page_ns: float  # per-page (tile) cost of streaming DRAM traffic, whole chip
    op_to_op_ns: float  # gap between programs under trace
    overlap: float  # eta: share of min(compute, memory) hidden under the other
    launch_ns: Mapping[str, float] = field(default_factory=dict)  # per kind
    cycles_per_tile: Mapping[str, float] = field(default_factory=dict)  # per non-matmul kind
    stream_eff: Mapping[str, float] = field(default_factory=dict)  # per non-matmul kind
    page_latency_ns: Mapping[str, float] = field(default_factory=dict)  # per kind reading one page at a time
    grid_rows: int = 8  # worker-grid rows: below one tile row per grid row a matmul runs 1-D
    grid_cores: int = 64  # worker cores: streaming bandwidth scales with the share of them reading
    dispatch_ns: float = 0.0  # host dispatch per op (0 under trace)
    sem_hop_ns: float = 0.0  # one semaphore-gated hand-off between cores (signal, wait, NoC round trip)
    dram_banks: int = 12  # DRAM banks (interleaved pages round-robin over them; one DRAM-sharded reader each)
    dram_bank_gbps: float = 24.0  # one DRAM bank's rate (peak / banks)
    compute_init_ns: float = 0.0  # a compute kernel's start-up and drain on top of a reader/writer launch
    dram_core_gbps: float = 17.4  # one core reading DRAM tiles a block at a time (a barrier per block)
    dram_block_ns: float = 0.0  # one DRAM round trip a core waits per block it reads (a barrier per block)
    in0_mcast_flushed: float = 0.0  # 1: the 1-D in0 sender flushes each multicast before its next read (Blackhole)
    dram_request_ns: float = 0.0  # a DRAM bank serves at most one tile read request per this (0: not limiting)
    write_issue_cycles: float = 0.0  # a writer's cost per NoC write it issues with a page address computed per write
    conv_tilize_cycles: float = 0.0  # a conv2d compute kernel's cycles per activation tile it tilizes
    conv_stick_cycles: float = 0.0  # a conv2d activation reader's cycles per stick (an output pixel's kernel row) it copies
    dram_write_share: float = 1.0  # DRAM-interleaved writes alone stream at this share of the read stream
    reload_cycles_per_kb: float = 0.0  # a matmul/conv compute kernel's cycles per KB of partial results it spills and reloads per K block

    @property
    def grid_columns(self) -> int:
        """Worker-grid columns: the cores over the rows."""
        return max(1, self.grid_cores // max(1, self.grid_rows))

    @property
    def link_gbps(self) -> float:
        """One core's NoC link (the NoC's aggregate over the worker cores)."""
        return self.noc_gbps / max(1, self.grid_cores)

    def tile_cycles(self, kind: str, op: str = "") -> float:
        """Compute-kernel cycles per tile of `op` (a TTNN op's short name) where the op has its
        own measured figure, else its `kind`'s."""
        own = self.cycles_per_tile.get(op) if op and op not in KINDS else None
        return self.cycles_per_tile.get(kind, 0.0) if own is None else own

    def launch(self, kind: str) -> float:
        """Device-side launch cost of a program of `kind` (eltwise's for kinds without one)."""
        return self.launch_ns.get(kind, self.launch_ns.get("eltwise_unary", 0.0))

    @property
    def floor_ns(self) -> float:
        """Launch of a matmul program plus the op-to-op gap: the fixed cost of one traced matmul."""
        return self.launch("matmul") + self.op_to_op_ns


@dataclass(frozen=True, slots=True)
class Terms:
    """An op's estimate and its parts (ns)."""

    compute_ns: float
    dram_ns: float
    noc_ns: float
    launch_ns: float
    op_to_op_ns: float
    dispatch_ns: float
    overlap_ns: float
    sync_ns: float = 0.0

    @property
    def floor_ns(self) -> float:
        """The fixed part: device launch plus the op-to-op gap."""
        return self.launch_ns + self.op_to_op_ns

    @property
    def memory_ns(self) -> float:
        """DRAM and on-chip traffic overlap (different resources): the longer of the two."""
        return max(self.dram_ns, self.noc_ns)

    @property
    def ns(self) -> float:
        return self.dispatch_ns + self.floor_ns + self.compute_ns + self.memory_ns - self.overlap_ns + self.sync_ns

    @property
    def device_ns(self) -> float:
        """What the device profiler reports as the kernel duration: no op-to-op gap, no host."""
        return self.ns - self.op_to_op_ns - self.dispatch_ns


def combine(
    p: CostParams, kind: str, compute_ns: float, dram_ns: float, noc_ns: float, sync_ns: float = 0.0,
    launch_ns: float | None = None,
) -> Terms:
    """The terms of an op of `kind` from its compute, data-movement and serial hand-off times
    (`launch_ns`: the program's launch where it is not its kind's)."""
    overlap = p.overlap * min(compute_ns, max(dram_ns, noc_ns))
    launch = p.launch(kind) if launch_ns is None else launch_ns
    return Terms(compute_ns, dram_ns, noc_ns, launch, p.op_to_op_ns, p.dispatch_ns, overlap, sync_ns)


def compute_program_launch_ns(p: CostParams) -> float:
    """The launch of a reader/writer program with a compute kernel (its start-up and drain added)."""
    return p.launch("layout") + p.compute_init_ns


def read_round_trip_ns(p: CostParams, from_dram: bool, nbytes: float = 0.0) -> float:
    """One read a core waits for under a barrier: a DRAM round trip (`dram_block_ns`) or a NoC page
    round trip to an L1 bank (`page_latency_ns`), plus `nbytes` over the core's link."""
    return (p.dram_block_ns if from_dram else p.page_latency_ns.get("reduction", 0.0)) + nbytes / p.link_gbps


def queued_read_ns(p: CostParams, from_dram: bool, nbytes: float, workers: int) -> float:
    """One read under a barrier (`read_round_trip_ns`) that, from DRAM, also waits behind the reads
    `workers` cores have queued there (their `nbytes` each at the chip's `dram_stream_gbps`)."""
    queued = workers * nbytes / p.dram_stream_gbps if from_dram else 0.0
    return read_round_trip_ns(p, from_dram, nbytes) + queued


def bound_side(chip: float, noc: float, bound: float, on_dram: bool) -> tuple[float, float]:
    """(dram, noc) with a kernel's serial `bound` charged where its waits are: on the DRAM side
    when it moves DRAM pages, else on the NoC side."""
    return (max(chip, bound), noc) if on_dram else (chip, max(noc, bound))


def dram_stream_ns(p: CostParams, nbytes: float, pages: float, gbps: float) -> float:
    """DRAM-interleaved bytes in `pages` pages streamed at `gbps`, plus `dram_page_ns` per page
    (chip-wide): each page is its own NoC read request and a DRAM endpoint takes them one at a
    time per NoC (tt-metal issue 55898), so small pages (block-float tiles) stream fewer bytes per
    second than bf16 and f32 tiles."""
    return nbytes / gbps + pages * p.dram_page_ns


def largest_divisor(n: int, cap: int) -> int:
    """The largest divisor of `n` that is at most `cap` (1 for n <= 1)."""
    return max((d for d in range(1, min(n, cap) + 1) if n % d == 0), default=1)


def dram_sharded_weight_ns(
    p: CostParams, mt: int, kt: int, nt: int, fmt_a: str, fmt_b: str, in0_cores: int, batch: int = 1,
    in0_block_w: int = 0,
) -> float:
    """The weight stream of a DRAM-sharded matmul: `kt / in0_block_w` chained activation hand-offs,
    each overlapping that block's weight read from every bank. in0_block_w is the given config's,
    else the largest divisor of the activation shard width (kt / in0_cores) up to 8 tiles, as
    tt-metal's DRAM-sharded program config picks it; each bank holds ceil(nt / banks) columns (the
    last padded). A bank streams its block at its share of `dram_sharded_gbps`, but serves at most
    one tile request per `dram_request_ns`: small tiles (bfp4) are request-bound."""
    block_w = dram_sharded_in0_block_w(kt, in0_cores, in0_block_w)
    hops = ceil(kt / block_w)
    per_bank_n = ceil(nt / max(1, p.dram_banks))
    bank_gbps = p.dram_sharded_gbps / max(1, p.dram_banks)
    tiles = batch * block_w * per_bank_n
    block_read = tiles * max(tile_bytes(fmt_b) / bank_gbps, p.dram_request_ns)
    hop = p.sem_hop_ns + block_w * mt * tile_bytes(fmt_a) / p.link_gbps
    return hops * max(hop, block_read)


def dram_sharded_in0_block_w(kt: int, in0_cores: int, given: int = 0) -> int:
    """in0_block_w of a DRAM-sharded matmul: the given config's, else the largest divisor of the
    activation shard width (kt / in0_cores) up to 8 tiles, as its program config picks it."""
    return given or largest_divisor(max(1, ceil(kt / max(1, in0_cores))), 8)


def two_d_in0_block_w(kt: int, grid_cols: int, given: int = 0) -> int:
    """in0_block_w of the 2-D multicast program: the given config's, else ttnn's all-DRAM default.

    tt-metal HEAD's create_simple_matmul_program_config sets Kt over the grid's columns where they
    divide it, else 1 (get_multi_dim_per_core_factor may narrow it further to fit L1: not modelled)."""
    return given or (kt // grid_cols if grid_cols and kt % grid_cols == 0 else 1)


@dataclass(frozen=True)
class Accumulation:
    """How a matmul or conv compute kernel carries its partial results from one K block to the next.

    `fp32`: fp32_dest_acc_en (partials spilled as fp32); `l1_acc`: packer_l1_acc (the packer adds
    each block's partials to the intermediate buffer in L1); `out_fmt`: the output's format, the
    spill's without either (the program factories' interm0 format)."""

    fp32: bool
    l1_acc: bool
    out_fmt: str

    def reloads(self, k_blocks: int) -> tuple[int, str]:
        """(partial-tile reloads per output tile, their format) over `k_blocks` K blocks.

        Without L1 accumulation the kernel spills and reloads after every block but the last; with it,
        it reloads once, before the last block (bmm_large_block_zm_fused_bias_activation.cpp:
        `block == num_blocks_inner_dim - 2`), the partials held in Float16_b or fp32 (a factory
        turns L1 accumulation off for two blocks, which reload once in the output's format)."""
        if k_blocks <= 1:
            return 0, self.out_fmt
        spill = "f32" if self.fp32 else self.out_fmt
        if not self.l1_acc:
            return k_blocks - 1, spill
        return 1, spill if self.fp32 or k_blocks == 2 else "bf16"


def accumulation_of(
    program: str, out_fmt: str, fp32_dest_acc: bool | None = None, packer_l1_acc: bool | None = None,
    configured: bool = False,
) -> Accumulation:
    """A matmul's or conv's `Accumulation` from the flags its compute config sets.

    `program` "matmul" or "conv". An op with a compute config (`configured`) runs it as given, a
    flag it leaves out at WormholeComputeKernelConfig's false (tt-mlir's runtime builds the config
    from that struct); without one, the op's ttnn defaults: a matmul accumulates in L1 unless its
    output is f32, in fp32 DEST then (default_l1_acc = !is_float_32), a conv in neither
    (get_conv_default_compute_kernel_config; newer tt-metal takes fp32 for f32 inputs and weights)."""
    f32_out = out_fmt == "f32"
    matmul = program == "matmul" and not configured
    default_fp32, default_l1 = matmul and f32_out, matmul and not f32_out
    return Accumulation(
        default_fp32 if fp32_dest_acc is None else fp32_dest_acc, default_l1 if packer_l1_acc is None else packer_l1_acc, out_fmt,
    )  # fmt: skip


def reload_ns(p: CostParams, out_tiles: float, k_blocks: int, acc: Accumulation) -> float:
    """A compute kernel's partial-result round trips over `k_blocks` K blocks (`Accumulation.reloads`).

    Each round trip packs an output tile's partials to the intermediate buffer and unpacks them
    back into DEST before the next block's matmul, the unpacker and matmul re-initialised around
    each subblock's copy; priced per KB of the spilled tile at `reload_cycles_per_kb`."""
    reloads, fmt = acc.reloads(k_blocks)
    return out_tiles * reloads * tile_bytes(fmt) / 1024 * p.reload_cycles_per_kb / p.clock_ghz


def dram_block_read_ns(p: CostParams, nbytes: float, queued_ns: float = 0.0) -> float:
    """A block one core reads from DRAM under one barrier: a round trip (`dram_block_ns`), then
    its bytes at one core's rate (`dram_core_gbps`) or `queued_ns` behind other reads on its
    banks, whichever is longer."""
    return p.dram_block_ns + max(nbytes / p.dram_core_gbps, queued_ns)


def multicast_hop_ns(p: CostParams, block_bytes: float, read_ns: float = 0.0) -> float:
    """One semaphore-gated hand-off of a 1-D matmul's multicast block: the sender waits for its
    receivers' semaphores (a round trip, `sem_hop_ns`) and multicasts the block over one NoC link.
    A sender that must first read the block (`read_ns`, `block_read_ns`: 0 for a block already in
    its L1) reads while the receivers' semaphores travel, since a receiver asks for the next block
    as soon as its double-buffered slot is free: the hand-off takes the longer of the two, then the
    multicast where the sender flushes each one before reading on (Blackhole: `in0_mcast_flushed`);
    where it is posted (Wormhole) its bytes leave while the next block is read."""
    send = block_bytes / p.link_gbps
    if read_ns <= 0:
        return p.sem_hop_ns + send
    if p.in0_mcast_flushed:
        return max(p.sem_hop_ns, read_ns) + send
    return max(p.sem_hop_ns + send, read_ns)


def one_d_weight_ns(
    p: CostParams, nbytes: float, tile: int, hops: int, block_bytes: float, in0_block_bytes: float, in0_mem: str,
    columns: int = 0, in0_tiles: int = 0,
) -> float:
    """The DRAM-interleaved weights (tiles of `tile` bytes) of a 1-D (activation-multicast) matmul,
    read in `hops` steps of K: each worker reads its block (in0_block_w x per_core_N tiles,
    `block_bytes`) while one sender hands the activation block (`in0_block_bytes`) on. The
    sender (tt-metal's reader_bmm_tile_layout_in0_sender_padding) runs per block: read the
    block (`in0_mem`: a DRAM-interleaved activation from DRAM, an L1-interleaved one from the L1
    banks, a sharded one is already there), wait for every receiver's semaphore, multicast it
    (`multicast_hop_ns`). A DRAM activation's block (`in0_tiles` tiles) lands in the bank queues
    the workers' weight reads for the hop fill at the same moment (each worker asks for a block
    as its compute frees one), its n tiles one per bank, and the last of them comes back after
    n / (n + 1) of that traffic on average. The weight reads overlap the hand-off
    (double-buffered blocks), so a hop takes the longest of the hand-off, the hop's share of the
    chip's interleaved stream (`dram_stream_gbps` + `dram_page_ns` per page, and at most one NoC
    link per worker column: a DRAM read's data travel along the DRAM core's row, then down the
    worker's column, so a grid `columns` wide takes them through that many links) and one
    worker's own block read (a round trip, then its tiles at one core's rate: a barrier per block)."""
    stream = dram_stream_ns(p, nbytes, nbytes / tile, p.dram_stream_gbps)
    if hops <= 0:
        return stream
    chip = max(stream, nbytes / (max(1, columns) * p.link_gbps) if columns else 0.0) / hops
    return hops * max(one_d_hop_ns(p, in0_mem, in0_block_bytes, in0_tiles, chip, "dram_i", block_bytes), chip)


def one_d_hop_ns(
    p: CostParams, in0_mem: str, in0_block_bytes: float, in0_tiles: int, queued_ns: float, b_mem: str, block_bytes: float,
) -> float:
    """One K step of the 1-D activation-multicast program apart from the chip's stream: the
    activation's hand-off (its sender's read behind `queued_ns` of the step's weight reads,
    `block_read_ns`, then `multicast_hop_ns`) or a worker's own weight block read, the longer."""
    read = block_read_ns(p, in0_mem, in0_block_bytes, in0_tiles, queued_ns)
    return max(multicast_hop_ns(p, in0_block_bytes, read), block_read_ns(p, b_mem, block_bytes))


def block_read_ns(p: CostParams, mem: str, nbytes: float, tiles: int = 0, queued_ns: float = 0.0) -> float:
    """One core's read of a block (`nbytes`, `tiles` tiles) under one barrier from where it lives
    (`mem`): from DRAM (`dram_i`, `dram_s`) a round trip, then its bytes or `tiles` / (tiles + 1)
    of `queued_ns`, the other reads on its banks (its tiles spread over them, the last one back
    late); from the L1 banks a page round trip; from the core's own shard nothing."""
    if mem in ("dram_i", "dram_s"):
        spread = min(tiles, p.dram_banks)
        return dram_block_read_ns(p, nbytes, queued_ns * spread / (spread + 1))
    return read_round_trip_ns(p, False, nbytes) if mem == "l1_i" else 0.0


def tile_bytes(fmt: str) -> int:
    """Bytes of one 32x32 tile of `fmt` (unknown formats count as bf16)."""
    return TILE_BYTES.get(fmt, 2048)


def fidelity_for(fmt: str, given: str | None = None) -> str:
    """The math fidelity an op runs at: the one given, else tt-metal's default for the format."""
    if given in FIDELITY_PASSES:
        return given  # type: ignore[return-value]
    return DEFAULT_FIDELITY.get(fmt, "LoFi")


def mem_code(mem: str | bool) -> str:
    """A memory placement in MEMS (`True`/`False`: DRAM interleaved / L1 sharded, the older spelling)."""
    if isinstance(mem, bool):
        return "dram_i" if mem else "l1_s"
    return _MEM_ALIASES.get(mem, mem)


def one_d_in0_block_w(kt: int, grid: int, in0_sharded: bool) -> int:
    """in0_block_w of the 1-D program tt-metal picks without a given config: a width-sharded
    activation's shard width (gcd with Kt: get_matmul_program_config), else 2 (1 for odd Kt:
    get_mcast_1d_config, where create_simple_matmul_program_config sends a narrow interleaved matmul)."""
    return gcd(ceil(kt / max(1, grid)), kt) if in0_sharded else mcast_1d_in0_block_w(kt)


def mcast_1d_in0_block_w(kt: int) -> int:
    """ttnn's get_mcast_1d_config in0_block_w: 2, 1 for odd Kt (auto-tuned, capped at 2)."""
    return 2 if kt % 2 == 0 else 1


def runs_unfused_1d(m: int, n: int) -> bool:
    """Whether ttnn's default program for an interleaved matmul of a batched activation (per-batch
    M rows) over one 2-D B is the 1-D activation-multicast program with the batch unfused:
    create_simple_matmul_program_config calls a shape wide and narrow when N over the per-batch
    height (both padded to tiles) exceeds 8 (is_narrow_shape), and then runs get_mcast_1d_config
    with mcast_in0 and fuse_batch false, whatever the buffers."""
    h, w = ceil(m / 32) * 32, ceil(n / 32) * 32
    return w > h and w // h > 8


def matmul_terms(
    p: CostParams, m: int, k: int, n: int, fmt_a: str, fmt_b: str, fmt_out: str, fidelity: str,
    a_mem: str | bool, b_mem: str | bool, out_mem: str | bool, cores: int, batch: int = 1, program: str = "auto",
    in0_cores: int = 0, in0_block_w: int = 0, grid_cols: int = 0, shared_b: bool = False, act_cycles: float = 0.0,
    accumulation: Accumulation | None = None,
) -> Terms:
    """`batch` matmuls (m x k) @ (k x n) on `cores` cores; memories in MEMS (see module doc).
    `program`: "auto" (2-D from one tile row per grid row, else 1-D), or "1d" / "2d" / "1d_in1"
    (the weight-multicast 1-D program: `weight_multicast_terms`, `shared_b` its unfused batch) as a
    program config the caller chose. `in0_cores`: the cores a sharded activation lives on (default
    `cores`): a 1-D program without a given config runs on them, and a DRAM-sharded one chains
    its hand-offs over them. `in0_block_w`: the given config's (0: tt-metal's default).
    `grid_cols`: the columns of the grid the 1-D program runs on (0: the device's). `shared_b`:
    the `batch` activations share one B, which a 1-D program without fused batch reads again for
    each of them on the same workers (ttnn's get_mcast_1d_config with fuse_batch false: the batch
    is a loop around the K hops, not spread over idle cores). `act_cycles`: cycles per output tile
    of a fused activation, an SFPU pass over each output tile in DEST before it is packed, on the
    math thread after the tile's last K block (bmm_large_block_zm_fused_bias_activation.cpp).
    `accumulation`: how the program carries partial results between K blocks (default: ttnn's
    matmul default for `fmt_out`, `accumulation_of`), priced by `reload_ns`; the no-reuse program
    keeps each output tile in DEST over the whole K."""
    a, b, out = mem_code(a_mem), mem_code(b_mem), mem_code(out_mem)
    acc = accumulation or accumulation_of("matmul", fmt_out)
    mt, kt, nt = ceil(m / 32), ceil(k / 32), ceil(n / 32)
    if program == "1d_in1":
        return weight_multicast_terms(
            p, mt, kt, nt, fmt_a, fmt_b, fmt_out, fidelity, a, b, out, cores, batch, in0_block_w, shared_b, act_cycles, acc,
        )  # fmt: skip
    out_tiles = batch * mt * nt
    blocks = ceil(out_tiles / max(1, cores)) * kt
    fmt_of = {"a": fmt_a, "b": fmt_b, "out": fmt_out}
    sizes = {
        "a": (batch * mt * kt * tile_bytes(fmt_a), a),
        "b": (batch * kt * nt * tile_bytes(fmt_b), b),
        "out": (out_tiles * tile_bytes(fmt_out), out),
    }
    two_d = mt >= p.grid_rows if program == "auto" else program == "2d"
    if two_d and out in ("dram_i", "l1_i") and (a, b, out) != ("dram_i",) * 3:
        # Default no-reuse program config: each output tile streams its K row of A and K column of B.
        compute = blocks * (p.matmul_cycles_lofi * FIDELITY_PASSES["HiFi4"] + act_cycles / max(1, kt)) / p.clock_ghz
        reread = out_tiles * kt * (tile_bytes(fmt_a) + tile_bytes(fmt_b))
        dram = dram_stream_ns(p, sizes["out"][0], out_tiles, p.dram_stream_gbps) if out == "dram_i" else 0.0
        return combine(p, "matmul", compute, dram, reread / p.fallback_gbps)
    in0_cores = in0_cores or cores
    workers = max(1, cores)
    hops, block_w, block_bytes, in0_block_bytes, in0_tiles, columns = 0, 0, 0.0, 0.0, 0, 0
    if not two_d:
        # 1-D: N is split in per_core_N = ceil(Nt / grid) columns, so only ceil(Nt / per_core_N)
        # cores work and stream weights (tt-mlir issue 8038: 45 of 64 cores for Nt = 90); a batch
        # spreads over the cores N leaves idle. Without a given config the grid of a sharded
        # activation is its shard grid. Each worker reads its columns a block (in0_block_w x
        # per_core_N tiles) per activation hand-off (one_d_weight_ns).
        grid = max(1, in0_cores if a == "l1_s" else cores)
        per_core_n = ceil(nt / grid)
        n_workers = ceil(nt / per_core_n)
        workers = n_workers if shared_b else n_workers * max(1, min(batch, grid // n_workers))
        blocks = ceil(batch * mt * nt / workers) * kt
        block_w = in0_block_w or one_d_in0_block_w(kt, grid, a == "l1_s")
        hops = ceil(batch * n_workers / workers) * ceil(kt / block_w)
        block_bytes = block_w * per_core_n * tile_bytes(fmt_b)
        in0_tiles = block_w * mt
        in0_block_bytes = in0_tiles * tile_bytes(fmt_a)
        # Workers fill the grid row by row: a grid narrower than the device reaches DRAM through fewer links.
        columns = min(grid_cols or p.grid_columns, n_workers)
    if b == "dram_s":
        # One worker per DRAM bank computes its bank's columns over the whole K.
        blocks = batch * mt * ceil(nt / max(1, p.dram_banks)) * kt
        k_block = dram_sharded_in0_block_w(kt, in0_cores, in0_block_w)
    elif two_d:
        k_block = two_d_in0_block_w(kt, p.grid_columns, in0_block_w)
    else:
        k_block = block_w
    # Every path's blocks are a worker's output tiles x kt: the activation runs once per output tile.
    compute = blocks * (p.matmul_cycles_lofi * FIDELITY_PASSES.get(fidelity, 1) + act_cycles / max(1, kt)) / p.clock_ghz
    compute += reload_ns(p, blocks / max(1, kt), ceil(kt / k_block), acc)
    dram = noc = 0.0
    for role, (nbytes, mem) in sizes.items():
        if mem == "dram_s" and role == "b":
            dram += dram_sharded_weight_ns(p, mt, kt, nt, fmt_a, fmt_b, in0_cores, batch, in0_block_w)
        elif mem == "dram_s":
            dram += nbytes / p.dram_sharded_gbps
        elif mem == "dram_i" and not two_d:
            weights = role == "b"
            dram += one_d_weight_ns(
                p, nbytes, tile_bytes(fmt_of[role]), hops if weights else 0, block_bytes, in0_block_bytes,
                a, columns, in0_tiles,
            )  # fmt: skip
        elif mem == "dram_i":
            dram += nbytes / p.dram_2d_gbps + nbytes / tile_bytes(fmt_of[role]) * p.dram_page_ns
        elif mem == "l1_i":
            noc += nbytes / p.l1_interleaved_gbps
        elif role != "out" and out == "l1_s":
            noc += nbytes / p.noc_gbps  # a sharded input is multicast to the cores that need it
    if hops and b not in ("dram_i", "dram_s"):
        # Weights in L1: the activation's hand-offs still pace K (with DRAM weights their chain
        # is part of one_d_weight_ns), each worker reading its block from the L1 banks beside them.
        hop = one_d_hop_ns(p, a, in0_block_bytes, in0_tiles, 0.0, b, block_bytes)
        dram, noc = bound_side(dram, noc, hops * hop, a == "dram_i")
    return combine(p, "matmul", compute, dram, noc)


def camped_banks(row_tiles: int, columns: int, banks: int) -> int:
    """DRAM banks that reads of `columns` consecutive tiles from every row of a row-major
    interleaved tiled matrix `row_tiles` wide reach (tile t lives in bank t mod `banks`): rows
    start gcd(row_tiles, banks) banks apart, so a narrow column span hits few banks."""
    step = gcd(row_tiles, banks) or banks
    return min(banks, (banks // step) * min(columns, step))


def weight_multicast_terms(
    p: CostParams, mt: int, kt: int, nt: int, fmt_a: str, fmt_b: str, fmt_out: str, fidelity: str, a: str, b: str,
    out: str, cores: int, batch: int = 1, in0_block_w: int = 0, unfused: bool = False, act_cycles: float = 0.0,
    accumulation: Accumulation | None = None,
) -> Terms:
    """tt-metal's 1-D weight-multicast matmul (MatmulMultiCoreReuseMultiCast1DProgramConfig with
    mcast_in0 = false; `create_program_mcast_in1`): the output's tile rows are split over `cores`,
    each core computing all Nt columns of its rows from its own activation rows (a height-sharded
    shard, or read from interleaved memory), while one sender, the first core, reads the weights a
    block of in0_block_w x Nt tiles at a time and multicasts each block to every core behind a
    semaphore: Kt / in0_block_w chained hand-offs (`multicast_hop_ns`), all the weights through one
    core's reads (from L1 banks, a page round trip per block first). `batch` activations fold into
    the rows, or, `unfused` (the auto-picker's fuse_batch false), loop on every core, the weights
    streamed again for each. in0_block_w is the config's, else 2 (1 for odd Kt), as tt-metal's
    get_mcast_1d_config sets it. `accumulation`: as matmul_terms'."""
    rows = mt if unfused else batch * mt
    per_core_m = ceil(rows / max(1, cores))
    loops = batch if unfused else 1
    block_w = in0_block_w or mcast_1d_in0_block_w(kt)
    compute = loops * per_core_m * nt * kt * (
        p.matmul_cycles_lofi * FIDELITY_PASSES.get(fidelity, 1) + act_cycles / max(1, kt)
    ) / p.clock_ghz  # fmt: skip
    hops = loops * ceil(kt / block_w)
    compute += reload_ns(p, loops * per_core_m * nt, ceil(kt / block_w), accumulation or accumulation_of("matmul", fmt_out))
    block_bytes = block_w * nt * tile_bytes(fmt_b)
    # The activation and the output move in every core's own reader and writer, beside the chain.
    streamed = [(batch * mt * kt, fmt_a, a), (batch * mt * nt, fmt_out, out)]
    dram_bytes: float = sum(t * tile_bytes(f) for t, f, mem in streamed if mem in ("dram_i", "dram_s"))
    if a == "dram_i":
        # Every core reads the same in0_block_w columns of its rows in a K block, in step with the
        # others (each block waits for the multicast weights), at most two blocks ahead (a double-
        # buffered activation buffer): the tiles of row r start at bank r x Kt mod banks, so those
        # reads fall on only `camped_banks` banks and stream at that share of the chip's rate.
        share = max(1, camped_banks(kt, min(kt, 2 * block_w), p.dram_banks)) / max(1, p.dram_banks)
        dram_bytes += batch * mt * kt * tile_bytes(fmt_a) * (1 / share - 1)
    dram_pages = sum(t for t, _, mem in streamed if mem in ("dram_i", "dram_s"))
    l1i_bytes = sum(t * tile_bytes(f) for t, f, mem in streamed if mem == "l1_i")
    stream = dram_stream_ns(p, dram_bytes, dram_pages, p.dram_stream_gbps) if dram_bytes else 0.0
    # The sender reads each weight block from DRAM or the L1 banks before multicasting it.
    chain = hops * multicast_hop_ns(p, block_bytes, block_read_ns(p, b, block_bytes))
    dram, noc = bound_side(stream, l1i_bytes / p.l1_interleaved_gbps, chain, b in ("dram_i", "dram_s"))
    return combine(p, "matmul", compute, dram, noc)


def sdpa_decode_terms(
    p: CostParams, batch: int, heads: int, kv_heads: int, head_dim: int, kv_len: int, kv_fmt: str,
    q_fmt: str = "bf16", fidelity: str = "HiFi2", cores: int = 0,
) -> Terms:
    """One new token per user attending over `kv_len` cached tokens (tt-metal's sdpa_decode):
    each (user, KV head) group's query heads form one padded tile row; the groups are spread over
    `cores` (default the grid), a group's cache split over the cores it gets, and every core
    computes Q K^T, the softmax and P V over its chunk (`cycles_per_tile.norm` per score tile, as
    the fused attention in lowering/fusing/cost.py). The K and V caches, DRAM-interleaved in
    `kv_fmt` tiles, are read a page per tile by every core at once: streamed at the chip's
    `dram_stream_gbps` with `dram_page_ns` per page, not a share of it (tt-metal issue 57161: a
    p100a's 64 (user, KV head) groups read bf16 K/V at 363 of 448 GB/s). The cores of a group
    then hand their partial results to one of them (`sem_hop_ns`)."""
    cores = max(1, cores or p.grid_cores)
    groups = batch * kv_heads
    gt, dt, st = ceil(ceil(heads / max(1, kv_heads)) / 32), ceil(head_dim / 32), ceil(kv_len / 32)
    per_core = ceil(groups / cores)
    split = max(1, cores // max(1, groups))
    chunk = ceil(st / split)
    blocks = per_core * 2 * gt * dt * chunk  # Q K^T and P V
    compute = (blocks * p.matmul_cycles_lofi * FIDELITY_PASSES.get(fidelity, 1) + per_core * gt * chunk * p.tile_cycles("norm")) / p.clock_ghz
    kv_tiles = 2 * groups * st * dt
    qo_tiles = 2 * batch * ceil(heads / 32) * dt  # Q in and the output back: a user's heads are one tile row ([1, B, Hq, D])
    dram = dram_stream_ns(p, kv_tiles * tile_bytes(kv_fmt) + qo_tiles * tile_bytes(q_fmt), kv_tiles + qo_tiles, p.dram_stream_gbps)
    sync = p.sem_hop_ns + gt * dt * tile_bytes(q_fmt) / p.link_gbps if split > 1 else 0.0
    return combine(p, "matmul", compute, dram, 0.0, sync)


def tilize_block_side(w: int, h: int, grid: int) -> int:
    """The side, in tiles, of the square block each core tilizes in tt-metal's block program
    (`compute_ncores_wh`): the smallest side over the square root of a core's even share of the
    `w` x `h` tiles whose blocks number fewer than the `grid`'s cores."""
    share = ceil(w * h / max(1, grid))
    side = isqrt(share)
    if side * side == share and ceil(w / side) * ceil(h / side) < grid:
        return side
    for c in range(side + 1, w * h + 1):
        if ceil(w / c) * ceil(h / c) < grid:
            return c
    return 1


def tilize_terms(
    p: CostParams, shape: Sequence[int], elem_bytes: float, out_fmt: str, src_dram: bool, dst_dram: bool, cores: int = 0,
) -> Terms:
    """An interleaved row-major tensor made tiles, as tt-metal's tilize runs it on `cores` cores
    (default the grid). The row program gives each core whole tile rows and reads a tile row's 32
    sticks, full width, under one barrier; when a [height, width] slice is wider than 32 tiles and
    either taller than 32 tiles or wider than tall, and square blocks of a slice's tiles
    (`tilize_block_side`) would keep more cores busy, the block program runs instead (each core's
    block once in every slice of the leading dimensions), and its reader waits on a barrier after every
    stick segment (`reader_unary_pad_multicore_both_dims.cpp`): a core pays a round trip per
    32-element-per-tile segment of its block, whatever the bytes. A round trip is `dram_block_ns`
    from DRAM (a NoC page round trip, `page_latency_ns`, from L1 banks) plus the bytes at one
    core's block-read rate; the chip's stream bounds the whole. The program has a compute kernel
    (its launch adds `compute_init_ns`)."""
    grid = max(1, cores or p.grid_cores)
    lead = prod(shape[:-2]) if len(shape) > 2 else 1
    height = shape[-2] if len(shape) > 1 else 1
    width = shape[-1]
    # The row program splits every tile row of the tensor; the block program's choice and blocks
    # are those of one [height, width] slice, which each core's block then repeats for every slice.
    w, ht = ceil(width / 32), ceil(height / 32)
    sticks = min(32, height)  # a tile row's sticks (fewer where the tensor is shorter than a tile)
    per = ceil(lead * ht / grid)
    row_cores = ceil(lead * ht / per)
    side = tilize_block_side(w, ht, grid) if w > 32 and (ht > 32 or w > ht) else 0
    rt = read_round_trip_ns(p, src_dram)
    if side and row_cores < ceil(w / side) * ceil(ht / side):
        # A core's block: at most `side` tile rows of `side` tiles (fewer where the slice is smaller).
        bh, bw = min(side, ht), min(side, w)
        reader = lead * bh * sticks * (rt + bw * 32 * elem_bytes / p.dram_core_gbps)
        tiles_per_core, segments = lead * bh * bw, ceil(w / side)
    else:
        reader = per * (rt + sticks * width * elem_bytes / p.dram_core_gbps)
        tiles_per_core, segments = per * w, 1
    h = lead * ht
    read_bytes, reads = lead * height * width * elem_bytes, lead * height * segments
    write_bytes, writes = w * h * tile_bytes(out_fmt), w * h
    dram_bytes = (read_bytes if src_dram else 0) + (write_bytes if dst_dram else 0)
    dram = dram_stream_ns(p, dram_bytes, (reads if src_dram else 0) + (writes if dst_dram else 0), p.dram_stream_gbps)
    noc = ((0 if src_dram else read_bytes) + (0 if dst_dram else write_bytes)) / p.l1_interleaved_gbps
    dram, noc = bound_side(dram, noc, reader, src_dram)
    compute = tiles_per_core * p.tile_cycles("layout") / p.clock_ghz
    return combine(p, "layout", compute, dram, noc, launch_ns=compute_program_launch_ns(p))


def untilize_terms(
    p: CostParams, shape: Sequence[int], fmt: str, elem_bytes: float, src_dram: bool, dst_dram: bool, cores: int = 0,
    l1_bytes: int = 0,
) -> Terms:
    """An interleaved tile tensor made row-major, as tt-metal's untilize runs it on `cores` cores
    (default the grid). Each core takes whole tile rows (`split_blocks_for_tilize`), or square
    blocks of the tiles, the leading dimensions folded into the height (`compute_ncores_wh`, as
    `tilize_block_side`), when a tile row's input and output tiles do not fit in `l1_bytes` of a
    core's L1 (tt-metal's `is_enough_space`; 0: not checked) or, as for tilize, when the tensor is
    wider than 32 tiles and taller than 32 tiles or wider than tall and blocks keep more cores busy
    (`UntilizeDeviceOperation::select_program_factory`). Its reader fetches every tile under its
    own barrier (`reader_unary_start_id.cpp`), a round trip behind the tiles the working cores
    have queued at the DRAM (as `tile_row_reader_terms`). A tile-aligned tensor runs `untilize`,
    whose writer waits once per tile row of sticks, so only the last row's writes outlast the
    reads; one that is not (a padded last dimension or height) runs `untilize_with_unpadding`,
    whose writer waits after every stick (`writer_unary_stick_layout_split_rows_multicore.cpp`): a
    round trip per output row, taken here as a read's (`dram_block_ns` to DRAM, a NoC page round
    trip to L1 banks). The program has a compute kernel (its launch adds `compute_init_ns`)."""
    lead = prod(shape[:-2]) if len(shape) > 2 else 1
    height = shape[-2] if len(shape) > 1 else 1
    width = shape[-1]
    ht, wt = ceil(height / 32), ceil(width / 32)
    rows = lead * ht  # tile rows, the leading dimensions folded into the height (tt-metal's choice)
    grid = max(1, cores or p.grid_cores)
    tb = tile_bytes(fmt)
    stick = width * elem_bytes
    per = ceil(rows / grid)
    row_cores = ceil(rows / per)
    side = tilize_block_side(wt, rows, grid)
    spills = bool(l1_bytes) and wt * (tb + 32 * 32 * elem_bytes) >= l1_bytes
    blocks = ceil(wt / side) * ceil(rows / side)
    wide = wt > 32 and (rows > 32 or wt > rows) and row_cores < blocks <= grid
    if spills or wide:
        # tt-metal's block program: square blocks of the folded [rows, wt] tiles, a block row of sticks per wait.
        workers = blocks
        block_rows, block_tiles = min(side, rows), min(side, wt)
        out_row, sticks = block_tiles * 32 * elem_bytes, min(side, rows) * min(32, height)
    else:
        workers = row_cores
        block_rows, block_tiles, out_row, sticks = per, wt, stick, ceil(lead * height / workers)
    reader = block_rows * block_tiles * queued_read_ns(p, src_dram, tb, workers)
    if height % 32 or width % 32:
        # Each core's output rows (its block's share of each), one round trip each, while its reader runs ahead.
        writer = sticks * read_round_trip_ns(p, dst_dram, out_row)
    else:
        writer = reader + read_round_trip_ns(p, dst_dram, 32 * out_row)
    tiles = lead * ht * wt
    read_bytes, write_bytes = tiles * tb, lead * height * stick
    dram_bytes = (read_bytes if src_dram else 0) + (write_bytes if dst_dram else 0)
    # `dram_page_ns` is a read request's (tt-metal issue 55898): the tiles read, not the sticks written.
    chip = dram_stream_ns(p, dram_bytes, tiles if src_dram else 0, p.dram_stream_gbps) if dram_bytes else 0.0
    noc = ((0 if src_dram else read_bytes) + (0 if dst_dram else write_bytes)) / p.l1_interleaved_gbps
    dram, noc = bound_side(chip, noc, max(reader, writer), src_dram or dst_dram)
    compute = block_rows * block_tiles * p.tile_cycles("layout") / p.clock_ghz
    return combine(p, "layout", compute, dram, noc, launch_ns=compute_program_launch_ns(p))


def write_issue_ns(p: CostParams, writes: float) -> float:
    """A data-movement kernel issuing `writes` NoC writes, each to an address it computes (a page
    lookup per write): `write_issue_cycles` a write at the chip's clock."""
    return writes * p.write_issue_cycles / p.clock_ghz


def transpose_hc_terms(p: CostParams, shape: Sequence[int], fmt: str, src_dram: bool, dst_dram: bool, cores: int = 0) -> Terms:
    """A tiled interleaved [..., C, H, W] tensor with C and H swapped, as tt-metal's transpose HC
    runs it (`reader/writer_unary_transpose_hc_interleaved_tiled_padding_aware.cpp`): the input
    tiles are split over `cores` cores (default the grid); the reader fetches each under its own
    barrier; the writer, from the first tile's arrival on, sends each real row of a tile to its own
    output tile, one 16-element face line per write (two writes a row of a 32-wide tile), and waits
    once per tile; when C is not a multiple of 32 it also writes the padding rows of every output tile in the last C tile (two
    writes per remaining 16-row face). Each write costs its issue (`write_issue_ns`): the writer,
    not the bytes, sets the time."""
    lead = prod(shape[:-3]) if len(shape) > 3 else 1
    c = shape[-3] if len(shape) > 2 else 1
    h, w = (shape[-2] if len(shape) > 1 else 1), shape[-1]
    ht, wt = ceil(h / 32), ceil(w / 32)
    tiles = lead * c * ht * wt
    grid = max(1, cores or p.grid_cores)
    workers = min(tiles, grid)
    per = ceil(tiles / workers)
    writes = per * 2 * min(32, h)  # the busiest core's tiles, each of full rows but for the last H tile's
    if c % 32:  # the padding rows' writes, their output tiles split over the grid
        writes += ceil(lead * h * wt / grid) * 2 * (2 - (c % 32) // 16)
    tb = tile_bytes(fmt)
    read = read_round_trip_ns(p, src_dram, tb)
    writer = per * read_round_trip_ns(p, dst_dram) + write_issue_ns(p, writes)
    # The writer starts once the first tile has arrived; then the slower of the two sets the pace.
    bound = read + max((per - 1) * read, writer)
    nbytes = tiles * tb * ((1 if src_dram else 0) + (1 if dst_dram else 0))
    chip = dram_stream_ns(p, nbytes, tiles if src_dram else 0, p.dram_stream_gbps)
    dram, noc = bound_side(chip, 0.0, bound, src_dram or dst_dram)
    return combine(p, "layout", 0.0, dram, noc)


@cache
def reshape_input_tiles(in_shape: tuple[int, ...], out_shape: tuple[int, ...], samples: int = 16) -> tuple[float, float]:
    """(distinct input tiles, contiguous segments) one output tile of a tiled reshape gathers,
    averaged over up to `samples` output tiles spread evenly (tt-metal's reshape map: segments
    contiguous in both tiles' face layouts, `reshape_map_output_page`). Shapes as tt-metal folds them: [C, H, W]."""
    def fold(s: Sequence[int]) -> tuple[int, int, int]:
        s = tuple(s) if len(s) >= 2 else (1, *s)
        return (prod(s[:-2]) if len(s) > 2 else 1, s[-2], s[-1])

    ci, hi, wi = fold(in_shape)
    co, ho, wo = fold(out_shape)
    in_wt, in_ht = ceil(wi / 32), ceil(hi / 32)
    out_wt, out_ht = ceil(wo / 32), ceil(ho / 32)
    out_tiles = co * out_ht * out_wt
    picks = sorted({(k * out_tiles) // min(samples, out_tiles) for k in range(min(samples, out_tiles))})
    pages = segs = 0
    for t in picks:
        c0, rem = divmod(t, out_ht * out_wt)
        h0, w0 = (rem // out_wt) * 32, (rem % out_wt) * 32
        seen: set[int] = set()
        for h in range(h0, min(ho, h0 + 32)):
            for f in range(w0, min(wo, w0 + 32), 16):
                # An output face line (16 elements, one segment at most: the next is another face's)
                # splits wherever its input crosses a face line or a row.
                left, flat = min(16, wo - f), c0 * ho * wo + h * wo + f
                while left:
                    c1, hw = divmod(flat, hi * wi)
                    h1, w1 = divmod(hw, wi)
                    run = min(left, 16 - w1 % 16, wi - w1)
                    seen.add(c1 * in_ht * in_wt + (h1 // 32) * in_wt + w1 // 32)
                    segs += 1
                    left, flat = left - run, flat + run
        pages += len(seen)
    return pages / len(picks), segs / len(picks)


def reshape_tiled_terms(
    p: CostParams, in_shape: Sequence[int], out_shape: Sequence[int], fmt: str, src_dram: bool, dst_dram: bool, cores: int = 0,
) -> Terms:
    """A tiled interleaved reshape that is not a view, as tt-metal's reshape program runs it
    (`reader/writer_reshape_tiled.cpp`): the output tiles are split over `cores` cores (default the
    grid); per output tile the reader fetches its map page (from DRAM, where tt-metal keeps the map)
    and then every input tile it gathers,
    each under its own barrier (from DRAM, behind the tiles the working cores have queued there, as
    `tile_row_reader_terms`), and its one-tile buffer makes the reader wait for the writer, which
    copies each contiguous segment (a write issued, `write_issue_ns`) into a scratch tile before it
    writes the tile out under a barrier. Many output tiles read the same input tiles again
    (`reshape_input_tiles`: an output tile of heads merged into the last dimension reads 32 tiles)."""
    out_tiles = tensor_tiles_of(out_shape)
    workers = max(1, min(out_tiles, cores or p.grid_cores))
    per = ceil(out_tiles / workers)
    gathered, segments = reshape_input_tiles(tuple(in_shape), tuple(out_shape))
    tb = tile_bytes(fmt)
    per_tile = (read_round_trip_ns(p, True) + gathered * queued_read_ns(p, src_dram, tb, workers)
                + write_issue_ns(p, segments) + read_round_trip_ns(p, dst_dram))  # fmt: skip
    reads = out_tiles * gathered
    chip = dram_stream_ns(p, reads * tb if src_dram else 0.0, reads if src_dram else 0, p.dram_stream_gbps)
    chip += out_tiles * tb / p.dram_stream_gbps if dst_dram else 0.0
    dram, noc = bound_side(chip, 0.0, per * per_tile, src_dram or dst_dram)
    return combine(p, "layout", 0.0, dram, noc)


@dataclass(frozen=True, slots=True)
class ConvShape:
    """A conv2d as tt-metal's program sees it: output pixels (N x H x W), channels, groups, kernel."""

    pixels: int
    in_channels: int
    out_channels: int
    groups: int
    kernel_h: int
    kernel_w: int


def conv_k_tiles(conv: ConvShape, c_in_cores: int = 1) -> int:
    """K tiles of tt-metal's conv matmul: each channel core's input channels aligned to 8, each
    kernel row rounded up to a tile (determine_per_core_conv_block_config), a grouped conv's weights
    zero-padded to the full channels (convert_conv_weight_tensor_to_grouped_layout); a depthwise
    conv (tt-metal's pool-based program, not modelled) keeps its one channel per group."""
    depthwise = conv.groups > 1 and conv.groups == conv.in_channels
    if depthwise:
        return conv.kernel_h * ceil(conv.kernel_w * 8 / 32)
    per_core = ceil(ceil(conv.in_channels / c_in_cores) / 8) * 8
    return c_in_cores * conv.kernel_h * ceil(conv.kernel_w * per_core / 32)


def conv_k_blocks(conv: ConvShape, c_in_cores: int = 1) -> int:
    """K blocks of tt-metal's height- or block-sharded conv matmul: one kernel row of one channel
    core's input channels each (determine_per_core_conv_block_config's act_block_w), so a core walks
    kernel_h blocks per channel core, as every capture's act_block_w records; a depthwise conv (not
    modelled) counts one."""
    if conv.groups > 1 and conv.groups == conv.in_channels:
        return 1
    return max(1, c_in_cores) * conv.kernel_h


def conv_program_terms(
    p: CostParams, conv: ConvShape, rows: int, cols: int, fidelity: str, weight_fmt: str, weights_in_dram: bool,
    dram_bytes: float, l1i_bytes: float, act_cycles: float = 0.0, width_sharded: bool = False, c_in_cores: int = 0,
    accumulation: Accumulation | None = None,
) -> Terms:
    """tt-metal's conv2d program (`conv_bmm_tilize.cpp` and its readers) with the output's tile rows
    split over `rows` cores and its channels over `cols` (height sharding `cols` 1, block sharding
    the grid's columns, which also split the input channels, over `c_in_cores` where they differ;
    width sharding `rows` 1). Each core tilizes its row-major activation block (its output tile
    rows x the K tiles, or, width sharded, its channels' share of K, at `conv_tilize_cycles`) and
    multiplies it into its 32x32x32 blocks at the LoFi rate x the fidelity's passes, a fused
    activation running on its output tiles; its activation reader copies one stick per output pixel
    and kernel row from the haloed shard (`conv_stick_cycles` each); one sender per grid column
    reads the weights its cores need from DRAM at one core's block rate (`dram_core_gbps`) and
    multicasts them, while other DRAM operands stream at the 2-D rate. Its K blocks (`conv_k_blocks`;
    width sharded: at least one per channel core, tt-metal's num_blocks_act_w being a multiple of
    them) carry the partial results as `accumulation` says (default: conv2d's default config with a
    bf16 output), priced by `reload_ns`."""
    kt = conv_k_tiles(conv, c_in_cores or cols)
    m_core = ceil(ceil(conv.pixels / 32) / max(1, rows))
    n_core = ceil(ceil(conv.out_channels / 32) / max(1, cols))
    sender = kt * n_core * tile_bytes(weight_fmt) if weights_in_dram else 0.0
    tilized = m_core * (ceil(kt / max(1, cols)) if width_sharded else kt)
    compute = (
        m_core * n_core * kt * p.matmul_cycles_lofi * FIDELITY_PASSES[fidelity] + tilized * p.conv_tilize_cycles
        + m_core * n_core * act_cycles
    ) / p.clock_ghz  # fmt: skip
    k_blocks = cols if width_sharded else conv_k_blocks(conv, c_in_cores or cols)
    compute += reload_ns(p, m_core * n_core, k_blocks, accumulation or accumulation_of("conv", "bf16"))
    dram = max(dram_bytes / p.dram_2d_gbps, sender / p.dram_core_gbps)
    sticks = ceil(conv.pixels / max(1, rows)) * conv.kernel_h
    noc = max(l1i_bytes / p.l1_interleaved_gbps, sticks * p.conv_stick_cycles / p.clock_ghz)
    return combine(p, "conv", compute, dram, noc)


def tensor_tiles_of(shape: Sequence[int]) -> int:
    """Tiles of a tiled tensor: its leading dimensions x the [H, W] tiles."""
    lead = prod(shape[:-2]) if len(shape) > 2 else 1
    return lead * ceil((shape[-2] if len(shape) > 1 else 1) / 32) * ceil(shape[-1] / 32)


def tile_row_reader_terms(
    p: CostParams, rows: int, tiles_per_row: int, fmt: str, src_dram: bool, dst_dram: bool, cores: int = 0,
) -> Terms:
    """A data-movement program that gives each core whole tile rows and reads every tile under its
    own barrier: tt-metal's nlp_create_qkv_heads (a row's Q, K and V tiles) and nlp_concat_heads
    (a row's tiles of every head), `reader_tm_tile_layout_nlp_*.cpp`. A read waits its round trip
    (`dram_block_ns` from DRAM, `page_latency_ns` from L1 banks, plus the tile over the link)
    behind the reads the working cores have queued at the DRAM, as in `rotary_terms`; the chip's
    stream bounds the whole. Reader and writer only: no compute kernel."""
    workers = max(1, min(rows, cores or p.grid_cores))
    per = ceil(rows / workers)
    tb = tile_bytes(fmt)
    reader = per * tiles_per_row * queued_read_ns(p, src_dram, tb, workers)
    tiles = rows * tiles_per_row
    dram_bytes = tiles * tb * ((1 if src_dram else 0) + (1 if dst_dram else 0))
    chip = dram_stream_ns(p, dram_bytes, dram_bytes / tb, p.dram_stream_gbps) if dram_bytes else 0.0
    noc = tiles * tb * ((0 if src_dram else 1) + (0 if dst_dram else 1)) / p.l1_interleaved_gbps
    dram, noc = bound_side(chip, noc, reader, src_dram)
    return combine(p, "layout", 0.0, dram, noc)


def rotary_terms(
    p: CostParams, shape: Sequence[int], fmt: str, cache_fmt: str, decode: bool, in_dram: bool, cache_dram: bool,
    out_dram: bool, in_sharded: bool = False, cores: int = 0,
) -> Terms:
    """x * cos + rotate_half(x) * sin over a `shape` tensor, as tt-metal's rotary_embedding runs it
    (`reader_rotary_embedding_interleaved_start_id.cpp`): its tile rows are split over `cores`
    (default the grid), and for every output tile the reader fetches the tile of the other half,
    the sin tile, the tile itself and the cos tile, each under its own barrier (decode, with a
    token index: the cos and sin rows once up front, two reads a tile; a sharded input's tiles
    are local). A read waits its round trip (`dram_block_ns` from DRAM, `page_latency_ns` from L1
    banks, plus the tile over the core's link) behind the reads every working core has queued at
    the DRAM (their bytes at the chip's `dram_stream_gbps`): the cores share the cos and sin
    tiles, so the queue adds to the latency rather than hiding under it. The program has a compute
    kernel (its launch adds `compute_init_ns`)."""
    lead = prod(shape[:-2]) if len(shape) > 2 else 1
    rows = lead * ceil((shape[-2] if len(shape) > 1 else 1) / 32)
    wt = ceil(shape[-1] / 32)
    workers = max(1, min(rows, cores or p.grid_cores))
    steps = ceil(rows / workers) * wt
    tb, tc = tile_bytes(fmt), tile_bytes(cache_fmt)
    input_dram = in_dram and not in_sharded
    input_reads = 0 if in_sharded else 2
    cache_reads = 0 if decode else 2
    per_step = input_reads * read_round_trip_ns(p, in_dram, tb) + cache_reads * read_round_trip_ns(p, cache_dram, tc)
    queued = (input_reads * tb if input_dram else 0) + (cache_reads * tc if cache_dram else 0)
    per_step += workers * queued / p.dram_stream_gbps
    upfront = read_round_trip_ns(p, cache_dram) + 2 * wt * tc / p.dram_core_gbps if decode else 0.0
    reader = steps * per_step + upfront
    tiles = rows * wt
    dram_bytes = (tiles * tb if input_dram else 0) + (tiles * tb if out_dram else 0)
    dram_bytes += (tiles if not decode else workers * wt) * 2 * tc if cache_dram else 0
    chip = dram_stream_ns(p, dram_bytes, dram_bytes / max(1, tb), p.dram_stream_gbps) if dram_bytes else 0.0
    dram, noc = (max(chip, reader), 0.0) if input_dram or cache_dram else (chip, reader)
    compute = steps * p.tile_cycles("norm", "rotary_embedding") / p.clock_ghz
    return combine(p, "layout", compute, dram, noc, launch_ns=compute_program_launch_ns(p))


def stream_terms(
    p: CostParams, kind: str, work_tiles: int, cores: int, dram_bytes: float = 0.0, dram_pages: int = 0,
    l1i_bytes: float = 0.0, noc_bytes: float = 0.0, parallel: int = 0, stride: int = 0, exchanges: int = 0,
    exchange_fmt: str = "bf16", exchange_cores: int = 0, passes: int = 1, write_dram_bytes: float = 0.0,
    write_l1i_bytes: float = 0.0, op: str = "", act_tiles: int = 0, act_cycles: float = 0.0, stick_reads: int = 0,
) -> Terms:
    """A streaming op of `kind`: `work_tiles` tiles of work on `cores` cores, the DRAM bytes and
    pages it reads and writes, its L1-interleaved bytes and bytes moved between cores (reshards).
    Work is split over min(`parallel` or the tiles, cores) cores (a reduction parallelises over
    its output tiles: one column or row of input per output tile); bandwidth scales with that share.
    A kind whose reader waits for each page before asking for the next (`page_latency_ns`) is bound
    per core by its pages x (that round trip + the page over the core's NoC link), whichever memory
    they are in; that per-core bound already accounts for few working cores, so its bandwidth
    is not scaled by their share. Its cores read in step, each
    `stride` interleaved pages after the previous core's (a column reduction: its columns per core);
    they then hit only banks / gcd(stride, banks) banks at a time, and a page waits for the other
    cores' pages queued at its bank. `exchanges`: the cross-core statistic passes of a sharded norm
    whose rows are split over `exchange_cores` cores (default `cores`; module doc: sync), with
    partials of `exchange_fmt`. `passes`: unpack-math-pack passes per tile where the kind's
    cycles per tile count one (a min reduction's -max(-x) program makes three: module doc).
    `write_dram_bytes` / `write_l1i_bytes`: the parts of `dram_bytes` / `l1i_bytes` the op writes
    (the rest it reads). An L1-interleaved page read waits at its bank behind the op's own
    L1-interleaved writes: the reader's requests (NoC 0) and the writer's pages (NoC 1) meet at the
    same L1 port, so each read page also waits for the write bytes per read page over one link
    (tt-metal issue 14421: reading and writing L1-interleaved pages contend at the banks' ports,
    and the reader's barrier per page turns the wait into per-page latency); DRAM reads queue at
    the DRAM banks instead, which the L1 writes do not reach. `op`: the TTNN op's short name,
    for ops with their own cycles per tile (`CostParams.tile_cycles`). `act_tiles` x `act_cycles`:
    a fused activation's output tiles and its cycles per tile (a norm's `activation`), split like the work.
    `stick_reads`: short reads each core makes one after another, each waiting for its answer (a page
    round trip, `page_latency_ns`, as a reduction's reader waits): an interleaved norm reads a
    row-major gamma or beta a 32-element stick per tile, a barrier after each
    (`reader_unary_interleaved_ln_rm_gb.cpp`), while its compute waits for them; serial, like sync."""
    workers = max(1, min(cores, parallel or work_tiles))
    per_core = ceil(work_tiles / workers)
    compute = (per_core * passes * p.tile_cycles(kind, op) + ceil(act_tiles / workers) * act_cycles) / p.clock_ghz
    latency = p.page_latency_ns.get(kind, 0.0)
    share = 1.0 if latency else min(1.0, workers / p.grid_cores)
    # A few cores stream at least their own block-read rate each (`dram_core_gbps`), whatever
    # share of the chip's stream they are.
    gbps = p.stream_eff.get(kind, 1.0) * max(p.dram_stream_gbps * share, min(p.dram_stream_gbps, workers * p.dram_core_gbps))
    dram = dram_stream_ns(p, dram_bytes, dram_pages, gbps) if dram_bytes else 0.0
    if p.dram_write_share < 1.0 and write_dram_bytes:
        # DRAM writes alone stream slower than reads (tt-metal issue 23560): an op that mostly
        # writes DRAM (a sharded -> DRAM conversion) is bound by its writes at that share of the
        # stream, their pages (the written bytes' share of the pages) paid as any page is.
        write_pages = dram_pages * write_dram_bytes / dram_bytes
        dram = max(dram, dram_stream_ns(p, write_dram_bytes, write_pages, p.dram_write_share * gbps))
    # The kind's efficiency scales its DRAM streaming only (fitted on DRAM-interleaved conversions);
    # L1-interleaved pages move at the same NoC rate for every kind.
    l1_rate = p.l1_interleaved_gbps * share
    noc = l1i_bytes / l1_rate + noc_bytes / p.noc_gbps
    read_dram, read_l1 = dram_bytes - write_dram_bytes, l1i_bytes - write_l1i_bytes
    read = read_dram + read_l1
    if latency and read:
        page = read / max(1, work_tiles)
        in_dram = bool(read_dram) or not read_l1
        per_page = latency + page / p.link_gbps
        if not in_dram:
            per_page += write_l1i_bytes / max(1, work_tiles) / p.link_gbps
        if stride:
            banks = p.dram_banks if in_dram else p.grid_cores  # an L1-interleaved bank per worker core
            distinct = min(workers, banks // gcd(stride, banks))
            bank_gbps = p.dram_bank_gbps if in_dram else p.link_gbps
            per_page = max(per_page, workers / max(1, distinct) * page / bank_gbps)
        bound = per_core * per_page
        dram, noc = (max(dram, bound), noc) if in_dram else (dram, max(noc, bound))
    sync = stick_reads * p.page_latency_ns.get("reduction", 0.0)
    row = exchange_cores or cores
    if exchanges and row > 1:
        sync += exchanges * (2 * p.sem_hop_ns + row * tile_bytes(exchange_fmt) / p.link_gbps)
    return combine(p, kind, compute, dram, noc, sync)


def read_table(path: Path = CALIBRATION_FILE) -> dict:
    """The parameter rows of cost_params.json: name -> {arch: value, unit, how, source, ...}."""
    return json.loads(path.read_text())["params"]


def params_from(rows: Mapping[str, Mapping], arch: str) -> CostParams:
    """A CostParams for `arch` from parameter rows (dotted names fill the per-kind maps)."""
    scalars: dict[str, float] = {}
    maps: dict[str, dict[str, float]] = {"launch_ns": {}, "cycles_per_tile": {}, "stream_eff": {}, "page_latency_ns": {}}
    for name, row in rows.items():
        value = float(row[arch])
        head, _, kind = name.partition(".")
        if kind:
            if head in maps:
                maps[head][kind] = value
        elif name in CostParams.__dataclass_fields__:
            scalars[name] = value
    for name in ("grid_rows", "grid_cores", "dram_banks"):
        if name in scalars:
            scalars[name] = int(scalars[name])
    return CostParams(**scalars, **maps)  # type: ignore[arg-type]


@cache
def params_for(arch: str) -> CostParams:
    """The parameters of `arch` (wormhole_b0's for archs without their own column)."""
    return params_from(read_table(), arch if arch in ARCHS else "wormhole_b0")
