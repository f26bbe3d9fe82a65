"""Derived numbers of a layout, computed once per layout object and interned.

The op model is called 10^5+ times per optimizer run; hashing or comparing a pydantic
`TTNNLayoutAttr` costs ~2 us, so every layout is mapped (by object identity, then by value) to a
`LayoutInfo` holding plain ints and tuples plus a small integer `uid` that memo keys use.
All layout math comes from `ttopt.dialects.ttnn_layout` (reference §1.2); nothing is re-derived here.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Sequence

from ttopt.dialects.ttcore_attrs import DataType
from ttopt.dialects.ttnn_attrs import BufferType, CoreRangeSet, TensorMemoryLayout
from ttopt.dialects.ttnn_layout import DEFAULT_WORKER_GRID, TTNNLayoutAttr, canonical_core_ranges, collapsed_2d, physical_shape

INTERLEAVED = TensorMemoryLayout.INTERLEAVED
HEIGHT = TensorMemoryLayout.HEIGHT_SHARDED
WIDTH = TensorMemoryLayout.WIDTH_SHARDED
BLOCK = TensorMemoryLayout.BLOCK_SHARDED
DRAM, L1, SYSTEM = BufferType.DRAM, BufferType.L1, BufferType.SYSTEM_MEMORY
# L1 banks a whole-tensor L1-interleaved layout is spread over: the layout text does not name the
# device, and every wormhole chip (tt-mlir's lit-test device included) has one bank per worker core
# of its 8x8 grid. On a larger grid this over-counts the bytes per bank (never under-counts).
WHOLE_TENSOR_L1_BANKS = DEFAULT_WORKER_GRID[0] * DEFAULT_WORKER_GRID[1]


def is_whole_tensor_interleaved(layout: TTNNLayoutAttr) -> bool:
    """An L1-interleaved layout on a 1x1 grid: its memref holds the whole tensor, which tt-metal
    spreads page by page over every L1 bank (tt-mlir's form; ttopt's own spans the worker grid)."""
    return layout.buffer_type is L1 and layout.memory_layout is INTERLEAVED and tuple(layout.grid[:2]) == (1, 1)


def interleaved_bytes_per_bank(layout: TTNNLayoutAttr, banks: int) -> int:
    """Bytes per L1 bank of an interleaved layout's pages (a tile, or one memref row when row-major)
    dealt round-robin over `banks` banks: ceil(pages / banks) pages."""
    rows, cols = layout.shard_shape[0], layout.shard_shape[1]
    grid = layout.grid[0] * layout.grid[1]
    if layout.is_tiled:
        pages, page = grid * rows * cols, layout.element_size_bytes
    else:
        pages, page = grid * rows, cols * layout.element_size_bytes
    return -(-pages // max(banks, 1)) * page


class LayoutInfo:
    """Plain-Python view of a TTNNLayoutAttr: everything the op and cost models read in their loops."""

    __slots__ = (
        "uid", "layout", "buffer", "memory_layout", "sharded", "l1", "dram", "system", "tiled", "dtype",
        "grid", "num_cores", "bbox", "shard_shape", "element_bytes", "shard_bytes", "per_core_bytes",
        "spec_key", "ranges",
    )  # fmt: skip

    def __init__(self, uid: int, layout: TTNNLayoutAttr) -> None:
        self.uid = uid
        self.layout = layout
        self.buffer: BufferType = layout.buffer_type
        self.memory_layout: TensorMemoryLayout | None = layout.memory_layout
        self.sharded = layout.is_sharded
        self.l1 = layout.buffer_type is L1
        self.dram = layout.buffer_type is DRAM
        self.system = layout.buffer_type is SYSTEM
        self.tiled = layout.is_tiled
        self.dtype: DataType = layout.dtype
        self.grid: tuple[int, int] = (layout.grid[0], layout.grid[1])
        crs = layout.core_ranges
        if self.sharded and crs is None and self.memory_layout is not TensorMemoryLayout.ND_SHARDED:
            # ignorePhysicalLayout: cores are those tt-mlir would attach canonically.
            crs = canonical_core_ranges(self.grid, self.memory_layout, self.buffer)
        self.ranges: tuple[tuple[int, int, int, int], ...] = (
            tuple((r.start.x, r.start.y, r.end.x, r.end.y) for r in crs.ranges) if crs is not None else ()
        )
        self.num_cores = crs.num_cores if (self.sharded and crs is not None) else self.grid[0] * self.grid[1]
        self.bbox: tuple[int, int] = crs.bounding_box if (self.sharded and crs is not None) else self.grid
        self.shard_shape: tuple[int, int] = (layout.shard_shape[0], layout.shard_shape[1])
        self.element_bytes = layout.element_size_bytes
        self.shard_bytes = layout.shard_size_bytes
        # OP-MODEL §2: sharded = shard bytes; L1 interleaved = ceil(tiles / cores) tiles, which is
        # exactly the (1, ceil(tiles/cores)) memref of ttopt's L1-interleaved layout; the 1x1 form
        # holding the whole tensor is dealt over the banks the same way; DRAM/host = 0.
        self.per_core_bytes = self.shard_bytes if self.l1 else 0
        if is_whole_tensor_interleaved(layout):
            self.per_core_bytes = interleaved_bytes_per_bank(layout, WHOLE_TENSOR_L1_BANKS)
        # "Identical shard spec": same memory layout, same cores, same shard, same page layout.
        self.spec_key = (self.memory_layout, self.buffer, self.ranges, self.shard_shape, self.tiled) if self.sharded else None

    @property
    def memory_layout_name(self) -> str:
        """The memory layout's spelling for messages ("-" for host tensors, which have none)."""
        return self.memory_layout.value if self.memory_layout is not None else "-"

    @property
    def cores(self) -> int:
        """Cores holding the tensor (sharded: its core ranges; interleaved: the grid)."""
        return self.num_cores

    def short(self) -> str:
        """`l1 block_sharded 2x2 [1x1 tiles]`-style summary for tables and reasons."""
        mem = self.memory_layout.value if self.memory_layout is not None else "-"
        unit = "tiles" if self.tiled else "elems"
        return f"{self.buffer.value} {mem} {self.grid[0]}x{self.grid[1]} [{self.shard_shape[0]}x{self.shard_shape[1]} {unit}]"

    def __repr__(self) -> str:
        return f"LayoutInfo#{self.uid}({self.short()})"


_BY_ID: dict[int, tuple[TTNNLayoutAttr, LayoutInfo]] = {}
_BY_VALUE: dict[TTNNLayoutAttr, LayoutInfo] = {}


def layout_info(layout: TTNNLayoutAttr) -> LayoutInfo:
    """The interned LayoutInfo of `layout`: a dict lookup by identity after the first call."""
    entry = _BY_ID.get(id(layout))
    if entry is not None and entry[0] is layout:
        return entry[1]
    info = _BY_VALUE.get(layout)
    if info is None:
        info = LayoutInfo(len(_BY_VALUE) + 1, layout)
        _BY_VALUE[layout] = info
    # Keep `layout` alive so its id cannot be reused by another object.
    _BY_ID[id(layout)] = (layout, info)
    return info


@lru_cache(maxsize=65536)
def make_layout(
    shape: tuple[int, ...],
    dtype: DataType,
    tiled: bool,
    buffer: BufferType,
    memory_layout: TensorMemoryLayout | None,
    grid: tuple[int, int] | None,
    worker_grid: tuple[int, int],
    core_ranges: CoreRangeSet | None = None,
) -> TTNNLayoutAttr:
    """`TTNNLayoutAttr.build` with the result cached (an AttrError propagates)."""
    return TTNNLayoutAttr.build(
        shape, dtype, tiled=tiled, buffer_type=buffer, memory_layout=memory_layout, grid=grid,
        worker_grid=worker_grid, core_ranges=core_ranges,
    )  # fmt: skip


def tensor_bytes(shape: Sequence[int], info: LayoutInfo) -> int:
    """Bytes of the whole tensor in this layout (tiles x tile bytes, or elements x element bytes)."""
    rows, cols = info.layout.collapsed_2d(shape)
    if info.tiled:
        t = info.layout.tile
        th, tw = t.shape if t is not None else (32, 32)
        return -(-rows // th) * -(-cols // tw) * info.element_bytes
    return rows * cols * info.element_bytes


def tensor_tiles(shape: Sequence[int]) -> int:
    """32x32 tiles of a tensor: its physical shape (last two dims padded) collapsed to 2-D, in tiles."""
    rows, cols = collapsed_2d(physical_shape(tuple(shape)))
    return (rows // 32) * (cols // 32) if len(shape) >= 2 else -(-rows // 32) * (cols // 32)
