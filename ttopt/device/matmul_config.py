"""Matmul program configs: derivation per output layout and the checks tt-metal applies to them.

Derivation follows tt-mlir's `generateMatmulProgramConfig` (reference §2.4):
* Mt, Nt, Kt = ceil(M/32), ceil(N/32), ceil(K/32); (gx, gy) = bounding box (cols, rows) of the
  output layout's core ranges; max subblock = 8 (half of the 16-tile DST).
* block sharded with gx > 1 and gy > 1 -> 2-D multicast: per_core_M = ceil(Mt/gy),
  per_core_N = ceil(Nt/gx), in0_block_w = 2 if Kt is even else 1;
* block with a degenerate grid -> treated as width (gy == 1) or height (gx == 1);
* width sharded -> 1-D, mcast_in0 = true: per_core_M = Mt, per_core_N = ceil(Nt/(gx*gy)),
  in0_block_w = (2 if Kt even else 1) when Nt > 128, else the largest of 8, 4, 2, 1 dividing Kt;
* height sharded -> 1-D, mcast_in0 = false: per_core_M = ceil(Mt/(gx*gy)), per_core_N = Nt,
  in0_block_w = Kt;
* out_subblock_h = 1, out_subblock_w = largest divisor of per_core_N <= max subblock,
  out_block = per-core block; none for non-L1-sharded outputs and for a batched second operand
  (fuse_batch would be false: tt-metal hang #42572).
ttopt reads M as the product of all output dims but the last: fuse_batch folds the batch into M,
as tt-metal does, so per_core_M equals the output shard height also for batched first operands
(for rank-2 outputs this is upstream's out[-2]).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import ceil, prod
from typing import Any, Callable, Sequence

from ttopt.device.circular_buffers import matmul_cb
from ttopt.device.layout_info import BLOCK, HEIGHT, WIDTH, LayoutInfo

TILE = 32
MULTICAST_2D = "multi_cast"
MULTICAST_1D = "multi_cast_1d"


@dataclass(frozen=True, slots=True)
class MatmulProgramConfig:
    """A `#ttnn.matmul_multi_core_reuse_multi_cast[_1d]_program_config` (fields as tt-mlir names them)."""

    kind: str  # MULTICAST_2D or MULTICAST_1D
    grid: tuple[int, int]  # compute_with_storage_grid_size (x = cols, y = rows)
    in0_block_w: int
    out_subblock_h: int
    out_subblock_w: int
    out_block_h: int
    out_block_w: int
    per_core_m: int
    per_core_n: int
    fuse_batch: bool = True
    mcast_in0: bool = False  # 1-D only
    transpose_mcast: bool = False  # 2-D only
    fused_activation: str | None = None  # unary op name, e.g. "relu"

    def to_attr(self) -> Any:
        """The typed ttnn attribute model (prints as tt-mlir does)."""
        from ttopt.dialects.ttnn_attrs import (
            MatmulMultiCoreReuseMultiCast1DProgramConfigAttr,
            MatmulMultiCoreReuseMultiCastProgramConfigAttr,
        )

        items: list[tuple[str, Any]] = [
            ("compute_with_storage_grid_size", f"#ttnn.core_coord<{self.grid[0]}, {self.grid[1]}>"),
            ("in0_block_w", self.in0_block_w), ("out_subblock_h", self.out_subblock_h),
            ("out_subblock_w", self.out_subblock_w), ("out_block_h", self.out_block_h),
            ("out_block_w", self.out_block_w), ("per_core_m", self.per_core_m), ("per_core_n", self.per_core_n),
        ]  # fmt: skip
        act = f"#ttnn.unary_with_param<op_type = {self.fused_activation}>" if self.fused_activation else None
        if self.kind == MULTICAST_2D:
            items += [("transpose_mcast", self.transpose_mcast), ("fused_activation", act), ("fuse_batch", self.fuse_batch)]
            return MatmulMultiCoreReuseMultiCastProgramConfigAttr.of(items)
        items += [
            ("fuse_batch", self.fuse_batch), ("fused_activation", act), ("mcast_in0", self.mcast_in0),
            ("gather_in0", False), ("hop_cores", "#ttnn.core_range_set<>"), ("num_global_cb_receivers", 0),
            ("untilize_out", False),
        ]  # fmt: skip
        return MatmulMultiCoreReuseMultiCast1DProgramConfigAttr.of(items)

    @classmethod
    def from_attr(cls, attr: Any) -> MatmulProgramConfig | None:
        """From a typed program-config attribute (2-D or 1-D multicast); None for other kinds."""
        name = getattr(attr, "attr_name", "")
        if name.endswith("multi_cast_program_config"):
            kind = MULTICAST_2D
        elif name.endswith("multi_cast_1d_program_config"):
            kind = MULTICAST_1D
        else:
            return None
        grid = attr.compute_with_storage_grid_size
        act = attr.get("fused_activation")
        op_type = None
        if act:
            import re

            m = re.search(r"op_type\s*=\s*([\w.]+)", act)
            op_type = m.group(1) if m else act
        return cls(
            kind=kind, grid=(grid.x, grid.y) if grid else (1, 1), in0_block_w=attr.in0_block_w or 1,
            out_subblock_h=attr.out_subblock_h or 1, out_subblock_w=attr.out_subblock_w or 1,
            out_block_h=attr.out_block_h or attr.per_core_m or 1, out_block_w=attr.out_block_w or attr.per_core_n or 1,
            per_core_m=attr.per_core_m or 1, per_core_n=attr.per_core_n or 1,
            fuse_batch=bool(attr.get_bool("fuse_batch")), mcast_in0=bool(attr.get_bool("mcast_in0")),
            transpose_mcast=bool(attr.get_bool("transpose_mcast")), fused_activation=op_type,
        )  # fmt: skip


@dataclass(frozen=True, slots=True)
class MatmulDims:
    """Tile counts of a matmul: output Mt x Nt, inner Kt."""

    mt: int
    nt: int
    kt: int


def matmul_dims(
    a_shape: Sequence[int], b_shape: Sequence[int], out_shape: Sequence[int], transpose_a: bool = False
) -> MatmulDims:
    """Mt (batch folded in), Nt, Kt of `a @ b -> out`."""
    m = prod(out_shape[:-1]) if len(out_shape) > 1 else 1
    k = a_shape[-2] if transpose_a and len(a_shape) >= 2 else a_shape[-1]
    return MatmulDims(ceil(m / TILE), ceil(out_shape[-1] / TILE), ceil(k / TILE))


def is_batched(b_shape: Sequence[int]) -> bool:
    """True when the second operand has a non-1 batch dim (fuse_batch false: no program config)."""
    return any(d != 1 for d in b_shape[:-2])


def _largest_divisor(n: int, limit: int) -> int:
    for d in range(min(n, limit), 0, -1):
        if n % d == 0:
            return d
    return 1


def derive_program_config(
    dims: MatmulDims, out: LayoutInfo, max_subblock: int = 8, activation: str | None = None
) -> MatmulProgramConfig | None:
    """tt-mlir's program config for an L1-sharded output layout; None when there is none."""
    if not (out.sharded and out.l1) or out.memory_layout not in (BLOCK, HEIGHT, WIDTH):
        return None
    rows, cols = out.bbox
    gx, gy = cols, rows
    mem = out.memory_layout
    if mem is BLOCK and gx > 1 and gy > 1:
        pm, pn = ceil(dims.mt / gy), ceil(dims.nt / gx)
        return MatmulProgramConfig(
            MULTICAST_2D, (gx, gy), 2 if dims.kt % 2 == 0 else 1, 1, _largest_divisor(pn, max_subblock),
            pm, pn, pm, pn, fused_activation=activation,
        )  # fmt: skip
    if mem is BLOCK:
        mem = WIDTH if gy == 1 else HEIGHT
    cores = gx * gy
    if mem is WIDTH:
        pm, pn = dims.mt, ceil(dims.nt / cores)
        if dims.nt > 128:
            in0_block_w = 2 if dims.kt % 2 == 0 else 1
        else:
            in0_block_w = next(w for w in (8, 4, 2, 1) if dims.kt % w == 0)
        mcast_in0 = True
    else:
        pm, pn = ceil(dims.mt / cores), dims.nt
        in0_block_w = dims.kt
        mcast_in0 = False
    return MatmulProgramConfig(
        MULTICAST_1D, (gx, gy), in0_block_w, 1, _largest_divisor(pn, max_subblock), pm, pn, pm, pn,
        mcast_in0=mcast_in0, fused_activation=activation,
    )  # fmt: skip


def check_program_config(cfg: MatmulProgramConfig, dims: MatmulDims, out: LayoutInfo, max_subblock: int = 8) -> str | None:
    """Why tt-metal would reject `cfg` for this output (reference §4.3), or None when it is fine."""
    gx, gy = cfg.grid
    rows, cols = out.bbox
    if (gx, gy) != (cols, rows):
        return f"program config grid {gx}x{gy} (x*y) does not match the output's core grid {cols}x{rows}"
    if cfg.in0_block_w <= 0 or dims.kt % cfg.in0_block_w:
        return f"Kt={dims.kt} is not a multiple of in0_block_w={cfg.in0_block_w}"
    if cfg.out_subblock_h <= 0 or cfg.per_core_m % cfg.out_subblock_h:
        return f"per_core_M={cfg.per_core_m} is not a multiple of out_subblock_h={cfg.out_subblock_h}"
    if cfg.out_subblock_w <= 0 or cfg.per_core_n % cfg.out_subblock_w:
        return f"per_core_N={cfg.per_core_n} is not a multiple of out_subblock_w={cfg.out_subblock_w}"
    if cfg.out_subblock_h * cfg.out_subblock_w > max_subblock:
        return f"out subblock {cfg.out_subblock_h}x{cfg.out_subblock_w} exceeds {max_subblock} DST tiles"
    if cfg.kind == MULTICAST_2D:
        if dims.mt < gy or dims.nt < gx:
            return f"2-D multicast needs Mt >= grid rows and Nt >= grid cols (Mt={dims.mt}, Nt={dims.nt}, grid {gy}x{gx})"
    elif cfg.mcast_in0 and dims.nt < out.num_cores:
        return f"1-D width config needs Nt >= cores (Nt={dims.nt}, {out.num_cores} cores)"
    elif not cfg.mcast_in0 and dims.mt < out.num_cores:
        return f"1-D height config needs Mt >= cores (Mt={dims.mt}, {out.num_cores} cores)"
    if out.tiled and (cfg.per_core_m, cfg.per_core_n) != out.shard_shape:
        return (
            f"per-core block {cfg.per_core_m}x{cfg.per_core_n} tiles does not match the output shard "
            f"{out.shard_shape[0]}x{out.shard_shape[1]}"
        )
    return None


def interleaved_blocking(dims: MatmulDims, worker_grid: tuple[int, int]) -> tuple[int, int, int]:
    """(per_core_M, per_core_N, in0_block_w) ttopt assumes for an interleaved output.

    tt-metal's runtime auto-picker is not reproducible (reference §4.3); ttopt models it as the
    2-D derivation over the whole worker grid.
    """
    rows, cols = worker_grid
    return ceil(dims.mt / rows), ceil(dims.nt / cols), 2 if dims.kt % 2 == 0 else 1


def fit_out_block(per_core_m: int, per_core_n: int, in0_block_w: int, cb_bytes: Callable[[int, int, int], int],
                  budget: int) -> tuple[int, int, int]:  # fmt: skip
    """(out_block_h, out_block_w, in0_block_w) whose circular buffers fit `budget`, as tt-metal's
    auto-picker shrinks the output block of an interleaved matmul (get_multi_dim_per_core_factor,
    in0_block_w kept): the per-core block when it fits, else the divisor pair of (per_core_M,
    per_core_N) with the largest product (the squarest among equal products) that fits, else 1x1."""
    if cb_bytes(per_core_m, per_core_n, in0_block_w) < budget:
        return per_core_m, per_core_n, in0_block_w
    ms = [per_core_m, 1, *(f for f in range(per_core_m // 2, 1, -1) if per_core_m % f == 0)]
    ns = [per_core_n, 1, *(f for f in range(per_core_n // 2, 1, -1) if per_core_n % f == 0)]
    best: dict[int, tuple[int, int]] = {}
    for m in ms:
        for n in ns:
            prev = best.get(m * n)
            if prev is None or max(prev) / min(prev) >= max(m, n) / min(m, n):
                best[m * n] = (m, n)
    for product in sorted(best, reverse=True):
        m, n = best[product]
        if cb_bytes(m, n, in0_block_w) < budget:
            return m, n, in0_block_w
    return 1, 1, 1


# Programs tt-metal picks for an interleaved-output matmul that has no program config.
AUTO = "auto"  # ttopt's size rule (cost_terms.matmul_terms): 2-D from one tile row per grid row, else 1-D
TWO_D = "2d"  # 2-D multicast (MatmulMultiCoreReuseMultiCastProgramConfig)
MCAST_IN1 = "1d_in1"  # 1-D weight multicast (MatmulMultiCoreReuseMultiCast1DProgramConfig, mcast_in0 = false)
NO_REUSE = "no_reuse"  # MatmulMultiCoreProgramConfig: each output tile re-reads its row of A and column of B
PER_CORE_FACTORS = (16, 8, 4, 2)
NARROW_RATIO = 8


def per_core_factor(cb_bytes: Callable[[int, int, int], int], budget: int) -> int:
    """The square output block (tiles) tt-metal's auto-picker starts from: the largest of 16, 8, 4, 2
    whose circular buffers (in0_block_w 2) fit L1, else 1 (matmul_program_config get_per_core_factor)."""
    return next((f for f in PER_CORE_FACTORS if cb_bytes(f, f, 2) < budget), 1)


def interleaved_factor(in0_tile: int, in1_tile: int, out_tile: int, budget: int) -> int:
    """`per_core_factor` of a matmul whose operands and output are interleaved, tiles of these bytes."""
    return per_core_factor(lambda pm, pn, k: matmul_cb(pm, pn, k, in0_tile, in1_tile, out_tile, False, False), budget)


def interleaved_program(
    a_shape: Sequence[int], b_shape: Sequence[int], all_dram_interleaved: bool, factor: int,
    grid: tuple[int, int] = (8, 8),
) -> str:
    """The program tt-metal's auto-picker (create_simple_matmul_program_config) runs for an
    interleaved-input, interleaved-output matmul without a program config, where ttopt models it.
    The picker tiles the output (its per-batch height: the batch is not fused) in `factor` x
    `factor`-tile blocks over the `grid` (rows, cols). A tall narrow shape (height over width above
    8, or all in DRAM and one tile wide), or blocks that form one column of the grid, run the 1-D
    weight-multicast program (MCAST_IN1) when the picker may use the grid (all in DRAM, or the
    blocks fit the grid's cores and Kt splits into in0_block_w 2, or 1 for odd Kt). A shape within
    one block that is not narrow gets 2-D multicast when all of it is DRAM interleaved and the
    no-reuse program otherwise. AUTO elsewhere (wide and multi-block shapes: ttopt's size rule; a
    batched second operand takes other paths)."""
    if len(a_shape) < 2 or len(b_shape) < 2 or is_batched(b_shape):
        return AUTO
    height, width = ceil(a_shape[-2] / TILE) * TILE, ceil(b_shape[-1] / TILE) * TILE
    ratio = max(height, width) // min(height, width)
    narrow = ratio > NARROW_RATIO or (all_dram_interleaved and min(height, width) <= TILE)
    mt, nt, kt = height // TILE, width // TILE, ceil(a_shape[-1] / TILE)
    blocks_y, blocks_x = ceil(mt / factor), ceil(nt / factor)
    in0_block_w = 1 if (blocks_y > 1 or blocks_x > 1) and kt % 2 else 2
    rows, cols = grid
    if all_dram_interleaved or (blocks_y * blocks_x <= rows * cols and kt % in0_block_w == 0):
        # get_core_range: the blocks' (rows, cols) when there is more than one and they fit the grid.
        spans = (blocks_y, blocks_x) != (1, 1) and blocks_y <= rows and blocks_x <= cols
        one_row, one_col = spans and blocks_y == 1, spans and blocks_x == 1
        wide = narrow and width > height
        tall = narrow and not wide
        # The picker tries the activation multicast (one row of blocks, or wide) before this.
        if not (one_row or wide) and (one_col or tall):
            return MCAST_IN1
    if narrow:
        return AUTO
    if blocks_y > 1 or blocks_x > 1:
        return AUTO
    return TWO_D if all_dram_interleaved else NO_REUSE
