"""Layout pools: every candidate layout of a tensor type (seed 002 §3.1.2-3.1.3, reference §2.2-2.3).

For a tensor type (shape + data type) and page layout (tile; row-major only when enabled):
1. interleaved: DRAM (grid 1x1) and, tiled only, L1 on the whole worker grid;
2. L1 sharded: block [h, w] for h in 1..rows, w in 1..cols (h outer); height [N, 1] and width
   [1, N] for N in 1..rows*cols; within a family a candidate whose shard (memref) shape equals an
   earlier one is dropped, so the smallest grid producing a shard survives;
3. filtered: the grid's bounding box fits the worker grid, and for tiles the tensor has at least as
   many tiles per dim as the grid has cores per dim;
4. sorted by grid volume, descending. Upstream uses `std::sort` (unstable beyond 16 elements,
   reference §2.15); ttopt sorts stably (DECISIONS.md), so ties keep generation order:
   block, height, width.
Per op (reference §2.3): `[interleaved..., top max-legal-layouts sharded by volume]`; with
row-major enabled, max/2 row-major and max/2 tiled sharded ones, merged and re-sorted.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from math import ceil
from typing import Sequence

from ttopt.device.layout_info import BLOCK, DRAM, HEIGHT, INTERLEAVED, L1, WIDTH, make_layout
from ttopt.device.tensor import TensorTypeError, check_shape, data_type
from ttopt.dialects.ttcore_attrs import DataType
from ttopt.dialects.ttnn_layout import TTNNLayoutAttr, collapsed_2d, physical_shape

TILE = 32


@dataclass(frozen=True)
class LayoutPool:
    """All candidate layouts of one tensor type on one worker grid."""

    shape: tuple[int, ...]
    dtype: DataType
    worker_grid: tuple[int, int]
    row_major_enabled: bool
    interleaved: tuple[TTNNLayoutAttr, ...]
    sharded: tuple[TTNNLayoutAttr, ...]  # tiled, by volume descending
    sharded_row_major: tuple[TTNNLayoutAttr, ...] = ()  # only when row_major_enabled

    def op_layouts(self, max_legal_layouts: int = 8) -> tuple[TTNNLayoutAttr, ...]:
        """What an op may produce (reference §2.3): interleaved first, then the top sharded ones."""
        return self.interleaved + self.top_sharded(max_legal_layouts)

    def top_sharded(self, max_legal_layouts: int = 8) -> tuple[TTNNLayoutAttr, ...]:
        """The first `max_legal_layouts` sharded layouts (half row-major, half tiled when RM is on)."""
        if max_legal_layouts < 0:
            raise ValueError(f"max-legal-layouts must be >= 0, got {max_legal_layouts}")
        if not self.row_major_enabled:
            return self.sharded[:max_legal_layouts]
        half = max_legal_layouts // 2
        merged = list(self.sharded_row_major[:half]) + list(self.sharded[:half])
        return tuple(sorted(merged, key=_neg_volume))

    @property
    def all_layouts(self) -> tuple[TTNNLayoutAttr, ...]:
        """Every candidate: interleaved, then all sharded (row-major ones first when enabled)."""
        return self.interleaved + self.sharded_row_major + self.sharded


def _neg_volume(layout: TTNNLayoutAttr) -> int:
    return -(layout.grid[0] * layout.grid[1])


def _shard_grids(rows: int, cols: int, tiled: bool, worker_grid: tuple[int, int]) -> list[tuple]:
    """(memory layout, grid) of the surviving sharded candidates, in generation order (steps 2-3)."""
    gr, gc = worker_grid
    unit = TILE if tiled else 1
    rows_t, cols_t = ceil(rows / unit), ceil(cols / unit)

    def shard(g0: int, g1: int) -> tuple[int, int]:
        # Plain ceil of the scalar split, then ceil to tiles (reference §1.2).
        return (ceil(ceil(rows / g0) / unit), ceil(ceil(cols / g1) / unit))

    def fits(g0: int, g1: int) -> bool:
        return not tiled or (rows_t >= g0 and cols_t >= g1)

    out: list[tuple] = []
    families = (
        (BLOCK, [(h, w) for h in range(1, gr + 1) for w in range(1, gc + 1)]),
        (HEIGHT, [(n, 1) for n in range(1, gr * gc + 1)]),
        (WIDTH, [(1, n) for n in range(1, gr * gc + 1)]),
    )
    for mem, grids in families:
        seen: set[tuple[int, int]] = set()
        for g in grids:
            s = shard(*g)
            if s in seen:
                continue
            seen.add(s)
            if fits(*g):
                out.append((mem, g))
    return out


@lru_cache(maxsize=4096)
def _pool(shape: tuple[int, ...], dtype: DataType, worker_grid: tuple[int, int], row_major: bool) -> LayoutPool:
    def build(tiled: bool, buffer, mem, grid) -> TTNNLayoutAttr:
        return make_layout(shape, dtype, tiled, buffer, mem, grid, worker_grid)

    interleaved: list[TTNNLayoutAttr] = []
    sharded_rm: tuple[TTNNLayoutAttr, ...] = ()
    rm_ok = row_major and dtype.builtin is not None  # block floats exist only as tiles
    if rm_ok:
        # Row-major L1-interleaved is never generated (reference §1.2).
        interleaved.append(build(False, DRAM, INTERLEAVED, None))
    interleaved.append(build(True, DRAM, INTERLEAVED, None))
    interleaved.append(build(True, L1, INTERLEAVED, None))

    def sharded(tiled: bool) -> tuple[TTNNLayoutAttr, ...]:
        rows, cols = collapsed_2d(physical_shape(shape, (TILE, TILE) if tiled else None))
        cands = [build(tiled, L1, mem, g) for mem, g in _shard_grids(rows, cols, tiled, worker_grid)]
        return tuple(sorted(cands, key=_neg_volume))  # stable: ties keep block, height, width order

    if rm_ok:
        sharded_rm = sharded(False)
    return LayoutPool(shape, dtype, worker_grid, row_major, tuple(interleaved), sharded(True), sharded_rm)


def layout_pool(
    shape: Sequence[int],
    dtype: DataType | str,
    worker_grid: Sequence[int] = (8, 8),
    row_major_enabled: bool = False,
) -> LayoutPool:
    """The candidate pool of a tensor type (cached); TensorTypeError for a bad shape or dtype."""
    shp = check_shape(tuple(shape))
    dt = dtype if isinstance(dtype, DataType) else data_type(dtype)
    wg = tuple(worker_grid)
    if len(wg) != 2 or min(wg) <= 0:
        raise TensorTypeError(f"worker grid must be 2-D and positive, got {wg}")
    return _pool(shp, dt, (wg[0], wg[1]), bool(row_major_enabled))
