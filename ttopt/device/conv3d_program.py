"""tt-metal's conv3d program (`ttnn.experimental.conv3d`: conv3d_program_factory.cpp and its
reader_vol2col, compute and writer kernels) as the cost model prices it.

The factory cuts the output [N, T, H, W, C_out] into blocks of `T_out_block x H_out_block x
W_out_block` voxels by `C_out_block` channels and the input channels into `C_in_block` slices.
Each C_in slice runs on its own cores (the factory requires one slice per core); the cores of one
output block's slices reduce their partial sums on the slice-0 core (the reducer). The remaining
cores split the output blocks C_out first, then T, H, W. Per block a core:

* reader: vol2col. A kernel larger than 1x1x1 (no dilation) first gathers the block's receptive
  field (`T_s x H_s x W_s` input positions of `C_in_block` channels) from the input into an L1
  shard, keeping the W columns it shares with the previous block, when that shard fits next to the
  other circular buffers; it then copies one `kW x C_in_block` stick per patch and (kt, kh) into the
  vol2col buffer. Without the shard every patch reads its `kT x kH x kW` positions from the input,
  a barrier per 32 patches.
* compute: tilizes the patches ([patches, kD*kH*kW*C_in_block], one tile row at a time) and
  multiplies them by the block's weights ([K, C_out_block] tiles) in one K block; the reducer adds
  the other slices' partials (and the bias) and untilizes the result.
* writer: reads the weights once per C_out block, hands a worker's partials to its reducer
  (a semaphore each way, the reducer reading every worker's tiles), and the reducer writes the
  block's output rows, a barrier per block.

Its default compute config is HiFi2 without fp32 accumulation (ttnn::prim::conv3d); its input and
output are row-major and interleaved, its weights tiled.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from math import ceil, gcd, lcm

from ttopt.device.cost_terms import (
    FIDELITY_PASSES,
    CostParams,
    Terms,
    bound_side,
    combine,
    dram_stream_ns,
    read_round_trip_ns,
    tile_bytes,
)

TILE = 32
# tt-metal's L1 alignment (hal::get_l1_alignment, Wormhole and Blackhole): C_in_block is a multiple of it.
L1_ALIGNMENT = 16
# The factory's L1 budget for the receptive-field shard: the CBs' share of L1 less 200 KB kept for
# kernel code and stack, the shard at most 500 KB (L1_KERNEL_CODE_RESERVE, L1_PREFETCH_HARD_CAP).
KERNEL_CODE_RESERVE = 200 * 1024
PREFETCH_CAP = 500 * 1024
# conv3d's default math fidelity (ttnn::prim::conv3d's init_device_compute_kernel_config).
DEFAULT_FIDELITY = "HiFi2"

_FIELD = re.compile(r"\b(t_out_block|w_out_block|h_out_block|c_out_block|c_in_block)\s*=\s*(\d+)")
_GRID = re.compile(r"compute_with_storage_grid_size\s*=\s*#ttcore\.grid<(\d+)x(\d+)")


@dataclass(frozen=True, slots=True)
class Conv3dShape:
    """A conv3d as its program sees it: output voxels per dimension, channels, kernel and stride."""

    batch: int
    t_out: int
    h_out: int
    w_out: int
    in_channels: int
    out_channels: int
    kernel: tuple[int, int, int]
    stride: tuple[int, int, int] = (1, 1, 1)

    @property
    def kernel_volume(self) -> int:
        """kD x kH x kW."""
        return self.kernel[0] * self.kernel[1] * self.kernel[2]


@dataclass(frozen=True, slots=True)
class Conv3dBlocking:
    """The `#ttnn.conv3d_config` fields the program reads (0: the field is not given)."""

    t_out_block: int = 1
    w_out_block: int = 1
    h_out_block: int = 1
    c_out_block: int = 0
    c_in_block: int = 0
    grid_cores: int = 0


def blocking_of(config_text: str | None) -> Conv3dBlocking:
    """The blocking a `#ttnn.conv3d_config<...>` text gives; without one, tt-metal's conv3d defaults
    (1 x 1 x 1 voxel blocks, one tile of output channels, the smallest valid C_in block, the
    device grid), as ttnn::experimental::conv3d fills them where no config is passed."""
    if not config_text:
        return Conv3dBlocking(c_out_block=TILE)
    fields = {k: int(v) for k, v in _FIELD.findall(config_text)}
    grid = _GRID.search(config_text)
    return Conv3dBlocking(
        t_out_block=fields.get("t_out_block", 1), w_out_block=fields.get("w_out_block", 1),
        h_out_block=fields.get("h_out_block", 1), c_out_block=fields.get("c_out_block", 0),
        c_in_block=fields.get("c_in_block", 0), grid_cores=int(grid.group(1)) * int(grid.group(2)) if grid else 0,
    )  # fmt: skip


def default_c_in_block(kernel_volume: int) -> int:
    """The smallest C_in block whose patches fill whole tile columns and stay L1-aligned (conv3d's
    default when no config is given: lcm(l1 alignment, 32 / gcd(kernel volume, 32)))."""
    return lcm(L1_ALIGNMENT, TILE // gcd(max(1, kernel_volume), TILE))


@dataclass(frozen=True, slots=True)
class Conv3dSplit:
    """The factory's blocks and their split over the cores."""

    patches: int  # output voxels per block (the matmul's rows)
    m_tiles: int
    k_tiles: int
    n_tiles: int
    c_in_block: int
    c_out_block: int
    c_in_slices: int  # C_in blocks, one per core (reduced on the slice-0 core)
    c_out_per_core: int  # C_out blocks a core walks
    spatial_per_core: int  # T x H x W blocks (and batch) a core walks per C_out block
    w_per_core: int  # of those, consecutive W blocks (they share input columns)
    cores: int  # cores with work

    @property
    def blocks_per_core(self) -> int:
        """Output blocks one core computes, one after another."""
        return self.c_out_per_core * self.spatial_per_core


def conv3d_split(shape: Conv3dShape, blocking: Conv3dBlocking, grid_cores: int) -> Conv3dSplit:
    """The blocks and parallel split of conv3d_program_factory.cpp on `grid_cores` cores (the
    config's grid where it gives one): C_in slices outermost, then C_out, T, H and W blocks."""
    cores = max(1, blocking.grid_cores or grid_cores)
    padded_out = ceil(shape.out_channels / TILE) * TILE
    c_out_block = blocking.c_out_block or padded_out
    c_in_block = blocking.c_in_block or shape.in_channels
    tb, hb, wb = (max(1, b) for b in (blocking.t_out_block, blocking.h_out_block, blocking.w_out_block))
    patches = tb * hb * wb
    c_in_blocks = max(1, ceil(shape.in_channels / c_in_block))
    c_out_blocks = max(1, ceil(padded_out / c_out_block))
    t_blocks, h_blocks, w_blocks = ceil(shape.t_out / tb), ceil(shape.h_out / hb), ceil(shape.w_out / wb)
    c_in_par = min(c_in_blocks, cores)
    remaining = max(1, cores // c_in_par)
    factors = []
    for blocks in (c_out_blocks, t_blocks, h_blocks, w_blocks):
        f = max(1, min(blocks, remaining))
        factors.append(f)
        remaining = max(1, remaining // f)
    c_out_par, t_par, h_par, w_par = factors
    w_per = ceil(w_blocks / w_par)
    return Conv3dSplit(
        patches=patches, m_tiles=ceil(patches / TILE), k_tiles=ceil(shape.kernel_volume * c_in_block / TILE),
        n_tiles=ceil(c_out_block / TILE), c_in_block=c_in_block, c_out_block=c_out_block, c_in_slices=c_in_par,
        c_out_per_core=ceil(c_out_blocks / c_out_par),
        spatial_per_core=max(1, shape.batch) * ceil(t_blocks / t_par) * ceil(h_blocks / h_par) * w_per,
        w_per_core=w_per, cores=c_in_par * c_out_par * t_par * h_par * w_par,
    )  # fmt: skip


def partial_format(fmt: str, fp32_acc: bool, split: Conv3dSplit) -> str:
    """The format partial sums travel in: fp32 when fp32 accumulation is on and C_in is sliced."""
    return "f32" if fp32_acc and split.c_in_slices > 1 else fmt


def cb_bytes(split: Conv3dSplit, elem_bytes: int, fmt: str, partial_fmt: str, bias: bool) -> int:
    """L1 per core of the program's circular buffers apart from the receptive-field shard: the
    row-major vol2col rows (two tile heights of patches at most), one tile row of tilized patches,
    the block's weights, its partials and untilized result, the reduction buffers of a sliced C_in
    and the bias row."""
    tile, partial = tile_bytes(fmt), tile_bytes(partial_fmt)
    padded_patch = split.k_tiles * TILE * elem_bytes
    out_tiles = split.m_tiles * split.n_tiles
    total = padded_patch * min(split.patches, 2 * TILE) + tile * split.k_tiles + tile * split.k_tiles * split.n_tiles
    total += partial * out_tiles + tile * out_tiles
    if split.c_in_slices > 1:
        total += partial * out_tiles + tile
    if partial_fmt != fmt:
        total += tile  # the zero tile the fp32 reduction adds onto
    if bias:
        total += tile * split.n_tiles
    return total


def shard_positions(shape: Conv3dShape, blocking: Conv3dBlocking) -> tuple[int, int, int]:
    """(T, H, W) input positions of one block's receptive field (its L1 shard)."""
    tb, hb, wb = (max(1, b) for b in (blocking.t_out_block, blocking.h_out_block, blocking.w_out_block))
    return tuple((b - 1) * s + k for b, s, k in zip((tb, hb, wb), shape.stride, shape.kernel))  # type: ignore[return-value]


def uses_shard(shape: Conv3dShape, blocking: Conv3dBlocking, split: Conv3dSplit, elem_bytes: int, other_cbs: int, l1_bytes: int) -> bool:
    """Whether the reader gathers each block's receptive field into L1 first: a kernel larger than
    1x1x1 whose shard fits the factory's budget (L1 less the other CBs and 200 KB, at most 500 KB)."""
    if shape.kernel_volume <= 1:
        return False
    budget = min(l1_bytes - KERNEL_CODE_RESERVE - other_cbs, PREFETCH_CAP)
    t, h, w = shard_positions(shape, blocking)
    return t * h * w * split.c_in_block * elem_bytes <= budget


def l1_bytes_of(
    shape: Conv3dShape, blocking: Conv3dBlocking, grid_cores: int, elem_bytes: int, fmt: str, fp32_acc: bool,
    bias: bool, l1_bytes: int,
) -> int:
    """L1 per core the program allocates: its circular buffers and, where it uses one, the shard."""
    split = conv3d_split(shape, blocking, grid_cores)
    others = cb_bytes(split, elem_bytes, fmt, partial_format(fmt, fp32_acc, split), bias)
    if not uses_shard(shape, blocking, split, elem_bytes, others, l1_bytes):
        return others
    t, h, w = shard_positions(shape, blocking)
    return others + t * h * w * split.c_in_block * elem_bytes


def conv3d_terms(
    p: CostParams, shape: Conv3dShape, blocking: Conv3dBlocking, grid_cores: int, elem_bytes: int, fmt: str,
    weight_fmt: str, fidelity: str = DEFAULT_FIDELITY, fp32_acc: bool = False, bias: bool = False,
    in_dram: bool = True, out_dram: bool = True, weights_dram: bool = True, l1_bytes: int = 0,
) -> Terms:
    """The program's time (module doc) on `grid_cores` cores with `l1_bytes` of L1 per core (0: the
    shard always fits). Per core and block: the compute kernel tilizes the patch tile rows
    (`conv_tilize_cycles` a tile, as conv2d's) and multiplies them at the LoFi rate x the fidelity's
    passes in one K block (no partial reloads), the reducer untilizing its result (priced as a
    tilize) and adding the other slices' partials and the bias (an eltwise add a tile); the reader
    copies its sticks at `conv_stick_cycles` each (a read command, as conv2d's reader), a gather or
    a chunk of direct reads waiting one round trip and moving its bytes at one core's rate; the
    writer reads the weights once per C_out block under one barrier and writes the block's output
    rows (`write_issue_cycles` a row) under one. The reader and writer each bound the data movement
    where their waits are (DRAM or the L1 banks), with the chip's DRAM stream (every read a page);
    the C_in reduction's hand-off (a semaphore round trip, then the reducer reading each worker's
    partial tiles) is serial with the compute, as both wait on it."""
    split = conv3d_split(shape, blocking, grid_cores)
    clock = p.clock_ghz
    blocks = split.blocks_per_core
    m, k, n = split.m_tiles, split.k_tiles, split.n_tiles
    pfmt = partial_format(fmt, fp32_acc, split)
    others = cb_bytes(split, elem_bytes, fmt, pfmt, bias)
    shard = uses_shard(shape, blocking, split, elem_bytes, others, l1_bytes) if l1_bytes else shape.kernel_volume > 1
    add_cycles = p.tile_cycles("eltwise_binary")

    per_block = m * k * (p.conv_tilize_cycles + n * p.matmul_cycles_lofi * FIDELITY_PASSES.get(fidelity, 2))
    per_block += m * n * (p.conv_tilize_cycles + (split.c_in_slices - 1 + (1 if bias else 0)) * add_cycles)
    compute = blocks * per_block / clock

    in_rate = p.dram_core_gbps if in_dram else p.link_gbps
    stick_bytes = split.c_in_block * elem_bytes
    kt, kh, kw = shape.kernel
    if shard:
        t, h, w = shard_positions(shape, blocking)
        # Consecutive W blocks keep the columns they share; only the new ones are gathered.
        new_w = min(w, max(1, blocking.w_out_block) * shape.stride[2])
        w_runs = max(1, split.w_per_core)
        columns = (w + (w_runs - 1) * new_w) / w_runs
        gathered = t * h * columns
        gather = read_round_trip_ns(p, in_dram) + max(gathered * p.conv_stick_cycles / clock, gathered * stick_bytes / in_rate)
        reader = blocks * (gather + split.patches * kt * kh * p.conv_stick_cycles / clock)
        input_reads = gathered
    else:
        reads = split.patches * shape.kernel_volume
        chunks = ceil(split.patches / TILE)
        reader = blocks * (chunks * read_round_trip_ns(p, in_dram) + max(reads * p.conv_stick_cycles / clock, reads * stick_bytes / in_rate))
        input_reads = reads

    weight_tiles = k * n
    weight_bytes = weight_tiles * tile_bytes(weight_fmt)
    out_row = split.c_out_block * elem_bytes
    out_rate = p.dram_core_gbps if out_dram else p.link_gbps
    writer = split.c_out_per_core * (read_round_trip_ns(p, weights_dram) + weight_bytes / (p.dram_core_gbps if weights_dram else p.link_gbps))
    writer += blocks * (
        read_round_trip_ns(p, out_dram) + max(split.patches * p.write_issue_cycles / clock, split.patches * out_row / out_rate)
    )  # fmt: skip

    sync = 0.0
    if split.c_in_slices > 1:
        partials = m * n * tile_bytes(pfmt)
        sync = blocks * (p.sem_hop_ns + (split.c_in_slices - 1) * read_round_trip_ns(p, False, partials))

    cores = split.cores
    dram_bytes = dram_pages = 0.0
    if in_dram:
        dram_bytes += cores * blocks * input_reads * stick_bytes
        dram_pages += cores * blocks * input_reads
    if weights_dram:
        dram_bytes += cores * split.c_out_per_core * weight_bytes
        dram_pages += cores * split.c_out_per_core * weight_tiles
    if out_dram:
        writers = cores // split.c_in_slices
        dram_bytes += writers * blocks * split.patches * out_row
        dram_pages += writers * blocks * split.patches
    chip = dram_stream_ns(p, dram_bytes, dram_pages, p.dram_stream_gbps) if dram_bytes else 0.0
    dram, noc = bound_side(chip, 0.0, max(reader, writer), in_dram or out_dram)
    return combine(p, "conv", compute, dram, noc, sync)


def conv3d_flops(shape: Conv3dShape) -> int:
    """Multiply-adds x 2 of the convolution: every output voxel's kD*kH*kW*C_in x C_out products."""
    voxels = max(1, shape.batch) * shape.t_out * shape.h_out * shape.w_out
    return 2 * voxels * shape.kernel_volume * shape.in_channels * shape.out_channels
