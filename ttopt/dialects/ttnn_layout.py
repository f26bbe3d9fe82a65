"""`#ttnn.ttnn_layout<...>` (TTNNLayoutAttr): parsing, printing, and building from a tensor shape.

Syntax and derived quantities: reference/ttnn-optimizer-upstream.md §1.2. A parsed layout holds
exactly what its text says (the text does not know the logical shape); `TTNNLayoutAttr.build`
derives every piece (affine map, grid, shard shape, core ranges) from a shape the way tt-mlir does.
"""

from __future__ import annotations

import re
from functools import lru_cache
from math import ceil, prod
from typing import Any, ClassVar, Sequence

from pydantic import field_validator, model_validator

from ttopt.dialects.errors import AttrError, attr_errors
from ttopt.dialects.model import register_attr
from ttopt.dialects.ttcore_attrs import (
    DataType,
    DialectModel,
    TileType,
    scalar_bytes,
)
from ttopt.dialects.ttnn_attrs import (
    BufferType,
    BufferTypeAttr,
    CoreRange,
    CoreRangeSet,
    Layout,
    MemoryConfigAttr,
    ShardOrientation,
    ShardSpecAttr,
    TensorMemoryLayout,
    buffer_text,
    parse_memory_layout,
)
from ttopt.ir.attributes import DialectAttr
from ttopt.parse.attr_body import Part, keyword, params, parse_bool, parse_shape, shape_text, unwrap

DEFAULT_WORKER_GRID = (8, 8)
_SCALAR = re.compile(r"(?:[su]?i\d+|f\d+\w*|bf16|tf32|index)")
_MAP = re.compile(r"\(\s*((?:d\d+\s*(?:,\s*d\d+\s*)*)?)\)\s*->\s*\((.*)\)", re.S)


# ---------------------------------------------------------------------------------------------
# Pure derivations (ref §1.2), cached: an optimizer asks for the same shapes over and over.


@lru_cache(maxsize=4096)
def physical_shape(shape: tuple[int, ...], tile: tuple[int, int] | None = (32, 32)) -> tuple[int, ...]:
    """Logical shape with the last two dims aligned up to the tile (rank 1: the one dim to the tile width)."""
    if tile is None or not shape:
        return tuple(shape)
    p = list(shape)
    p[-1] = ceil(p[-1] / tile[1]) * tile[1]
    if len(p) >= 2:
        p[-2] = ceil(p[-2] / tile[0]) * tile[0]
    return tuple(p)


def collapsed_2d(physical: tuple[int, ...]) -> tuple[int, int]:
    """(prod of all but the last dim, last dim); rank 1 is (1, n) through the constant-0 row, rank 0
    one element (tt-mlir's `() -> (0, 0)` map)."""
    if not physical:
        return (1, 1)
    return (prod(physical[:-1]), physical[-1])


@lru_cache(maxsize=1024)
def linear_map_text(physical: tuple[int, ...]) -> str:
    """tt-mlir's collapsing affine map for a physical shape, e.g. `(d0, d1, d2) -> (d0 * 32 + d1, d2)`.

    Each leading dim is multiplied by the product of the physical sizes of the collapsed dims inside
    it; MLIR's simplifier drops `* 1` and zero terms (ref §1.2).
    """
    rank = len(physical)
    if rank == 0:
        return "() -> (0, 0)"  # both rows of the grid are constants: one element, as HEAD builds it
    dims = ", ".join(f"d{i}" for i in range(rank))
    if rank == 1:
        return "(d0) -> (0, d0)"
    terms = []
    mult = 1
    for d in range(rank - 2, -1, -1):
        if mult == 1:
            terms.append(f"d{d}")
        elif mult != 0:
            terms.append(f"d{d} * {mult}")
        mult *= physical[d]
    row = " + ".join(reversed(terms)) or "0"
    return f"({dims}) -> ({row}, d{rank - 1})"


@lru_cache(maxsize=1024)
def canonical_core_ranges(
    grid: tuple[int, int],
    memory_layout: TensorMemoryLayout,
    buffer_type: BufferType = BufferType.L1,
    worker_grid: tuple[int, int] = DEFAULT_WORKER_GRID,
) -> CoreRangeSet:
    """The core ranges tt-mlir attaches to a sharded layout with virtual grid `grid` (ref §1.2).

    Block [h, w] -> one range (0,0)-(w-1,h-1); height/width over N cores -> a row-major fill of the
    worker grid (full rows, then a tail); DRAM-sharded -> (0,0)-(N-1,0) over the DRAM banks.
    """
    volume = grid[0] * grid[1]
    if buffer_type is BufferType.DRAM:
        return CoreRangeSet.of([(0, 0, volume - 1, 0)])
    if memory_layout is TensorMemoryLayout.BLOCK_SHARDED:
        return CoreRangeSet.of([(0, 0, grid[1] - 1, grid[0] - 1)])
    width = worker_grid[1]
    full, rest = divmod(volume, width)
    ranges = []
    if full:
        ranges.append((0, 0, width - 1, full - 1))
    if rest:
        ranges.append((0, full, rest - 1, full))
    return CoreRangeSet.of(ranges)


# ---------------------------------------------------------------------------------------------


class TTNNLayoutAttr(DialectModel):
    """`#ttnn.ttnn_layout<MAP, <GRID>, [mesh = M,] memref<SxS x ELEM, BUF>[, <MEMLAYOUT>]
    [, core_ranges = CRS][, ignorePhysicalLayout = true]>`.

    `shard_shape` is the memref shape: per-core shard in tiles when `element` is a TileType, in
    scalars when it is a builtin scalar type name (row-major).
    """

    attr_name: ClassVar[str] = "ttnn.ttnn_layout"

    linear_map: str
    grid: tuple[int, ...]
    grid_mapping: tuple[str, ...] = ()
    mesh: str | None = None
    shard_shape: tuple[int, ...]
    element: TileType | str
    buffer_type: BufferType
    memory_layout: TensorMemoryLayout | None = None
    core_ranges: CoreRangeSet | None = None
    ignore_physical_layout: bool = False

    @field_validator("linear_map")
    @classmethod
    def _map(cls, v: str) -> str:
        m = _MAP.fullmatch(v.strip())
        if m is None:
            raise ValueError(f"expected an affine map '(d0, ...) -> (row, col)', got '{v}'")
        return v

    @field_validator("element")
    @classmethod
    def _element(cls, v: TileType | str) -> TileType | str:
        if isinstance(v, str) and not _SCALAR.fullmatch(v):
            raise ValueError(f"memref element must be a scalar type or !ttcore.tile, got '{v}'")
        return v

    @model_validator(mode="after")
    def _check(self) -> TTNNLayoutAttr:
        if len(self.grid) != 2 or min(self.grid) <= 0:
            raise ValueError(f"grid must be 2-D and positive, got <{shape_text(self.grid)}>")
        if len(self.shard_shape) != 2 or min(self.shard_shape) < 0:
            raise ValueError(f"memref shard shape must be 2-D, got {shape_text(self.shard_shape)}")
        sharded = self.memory_layout is not None and self.memory_layout.is_sharded
        if self.core_ranges is not None and not sharded:
            raise ValueError("core_ranges are only allowed on sharded layouts")
        # tt-mlir's verifier (ref §1.2): sharded layouts carry their core ranges.
        if sharded and self.core_ranges is None and not self.ignore_physical_layout:
            raise ValueError("a sharded layout needs core_ranges (or ignorePhysicalLayout = true)")
        return self

    # -- printing -------------------------------------------------------------------------------
    def print_body(self, alias_buffer: bool = False) -> str:
        """tt-mlir's text; the buffer type inline, or as the `#dram`/`#l1` alias when `alias_buffer`."""
        items = [self.linear_map, "<" + ", ".join((shape_text(self.grid), *self.grid_mapping)) + ">"]
        if self.mesh is not None:
            items.append(f"mesh = {self.mesh}")
        items.append(f"memref<{shape_text(self.shard_shape)}x{self.element_text}, {buffer_text(self.buffer_type, alias_buffer)}>")
        if self.memory_layout is not None:
            items.append(f"<{self.memory_layout.value}>")
        if self.core_ranges is not None:
            items.append(f"core_ranges = {self.core_ranges.short_text()}")
        if self.ignore_physical_layout:
            items.append("ignorePhysicalLayout = true")
        return ", ".join(items)

    # -- what the text says ---------------------------------------------------------------------
    @property
    def tile(self) -> TileType | None:
        """The tile type of a tiled layout, else None."""
        return self.element if isinstance(self.element, TileType) else None

    @property
    def is_tiled(self) -> bool:
        """True when the memref holds tiles."""
        return isinstance(self.element, TileType)

    @property
    def layout(self) -> Layout:
        """Page layout: tile or row_major."""
        return Layout.TILE if self.is_tiled else Layout.ROW_MAJOR

    @property
    def element_text(self) -> str:
        """Memref element spelling: `!ttcore.tile<32x32, bf16>` or `bf16`."""
        return self.element.text if isinstance(self.element, TileType) else self.element

    @property
    def dtype(self) -> DataType:
        """Data type of the elements (the tile's, or the one of the scalar type)."""
        return self.element.dtype if isinstance(self.element, TileType) else DataType.of(self.element)

    @property
    def element_size_bytes(self) -> int:
        """Bytes of one memref element: a whole tile, or one scalar."""
        return self.element.size_bytes if isinstance(self.element, TileType) else scalar_bytes(self.element)

    @property
    def map_rank(self) -> int:
        """Number of dims of the affine map (= the tensor rank)."""
        m = _MAP.fullmatch(self.linear_map.strip())
        return len(re.findall(r"d\d+", m.group(1))) if m else 0

    @property
    def grid_volume(self) -> int:
        """Cores of the (virtual) grid."""
        return self.grid[0] * self.grid[1]

    @property
    def scalar_shard_shape(self) -> tuple[int, int]:
        """Per-core shard in elements (tiles times tile size for tiled layouts)."""
        if isinstance(self.element, TileType):
            return (self.shard_shape[0] * self.element.shape[0], self.shard_shape[1] * self.element.shape[1])
        return (self.shard_shape[0], self.shard_shape[1])

    @property
    def shard_size_bytes(self) -> int:
        """Bytes of the memref per core: shard bytes (sharded), ceil(tiles/cores) tiles (L1 interleaved)."""
        return self.shard_shape[0] * self.shard_shape[1] * self.element_size_bytes

    @property
    def is_sharded(self) -> bool:
        """Height/width/block/nd sharded."""
        return self.memory_layout is not None and self.memory_layout.is_sharded

    @property
    def is_interleaved(self) -> bool:
        """Interleaved memory layout."""
        return self.memory_layout is TensorMemoryLayout.INTERLEAVED

    @property
    def is_l1(self) -> bool:
        """Lives in L1."""
        return self.buffer_type is BufferType.L1

    @property
    def is_dram(self) -> bool:
        """Lives in DRAM."""
        return self.buffer_type is BufferType.DRAM

    @property
    def is_system_memory(self) -> bool:
        """Lives on the host."""
        return self.buffer_type is BufferType.SYSTEM_MEMORY

    # -- derivations needing the logical shape ---------------------------------------------------
    def physical_shape(self, logical: Sequence[int]) -> tuple[int, ...]:
        """`logical` padded to this layout's tile (unchanged for row-major)."""
        return physical_shape(tuple(logical), self.tile.shape if self.tile else None)

    def collapsed_2d(self, logical: Sequence[int]) -> tuple[int, int]:
        """(rows, cols) of the physical shape collapsed to 2-D."""
        return collapsed_2d(self.physical_shape(logical))

    def memory_config(self) -> MemoryConfigAttr:
        """The `#ttnn.memory_config` this layout implies (shard spec in scalars, row-major orientation)."""
        spec = None
        if self.is_sharded and self.core_ranges is not None:
            spec = ShardSpecAttr(
                core_ranges=self.core_ranges, shape=self.scalar_shard_shape, orientation=ShardOrientation.ROW_MAJOR
            )
        return MemoryConfigAttr(buffer_type=self.buffer_type, memory_layout=self.memory_layout, shard_spec=spec)

    # -- building -------------------------------------------------------------------------------
    @classmethod
    def build(
        cls,
        shape: Sequence[int],
        dtype: DataType | str,
        *,
        tiled: bool = True,
        buffer_type: BufferType | str = BufferType.DRAM,
        memory_layout: TensorMemoryLayout | str | None = None,
        grid: int | Sequence[int] | None = None,
        worker_grid: Sequence[int] = DEFAULT_WORKER_GRID,
        core_ranges: CoreRangeSet | None = None,
        ignore_physical_layout: bool = False,
        mesh: str | None = None,
    ) -> TTNNLayoutAttr:
        """The layout tt-mlir creates for a tensor of `shape`/`dtype` in the given memory (ref §1.2).

        `memory_layout` defaults to interleaved (none for system memory). `grid` is required for
        sharded layouts: `N` or `(N, 1)` for height, `N` or `(1, N)` for width, `(h, w)` for block;
        interleaved grids are derived (DRAM 1x1, L1 the worker grid).
        """
        with attr_errors("ttnn layout"):
            return _build(
                tuple(int(d) for d in shape), dtype, tiled, BufferType(buffer_type),
                None if memory_layout is None else TensorMemoryLayout(memory_layout),
                grid if grid is None or isinstance(grid, int) else tuple(grid), tuple(worker_grid),
                core_ranges, ignore_physical_layout, mesh,
            )  # fmt: skip

    def relayout(
        self,
        shape: Sequence[int],
        *,
        buffer_type: BufferType | str | None = None,
        memory_layout: TensorMemoryLayout | str | None = None,
        grid: int | Sequence[int] | None = None,
        dtype: DataType | str | None = None,
        tiled: bool | None = None,
        worker_grid: Sequence[int] = DEFAULT_WORKER_GRID,
    ) -> TTNNLayoutAttr:
        """A layout built for `shape` with this one's element and memory, except what is overridden."""
        buffer = BufferType(buffer_type) if buffer_type is not None else self.buffer_type
        if memory_layout is None and buffer_type is None:
            memory_layout = self.memory_layout
        if grid is None and self.is_sharded and memory_layout is not None and TensorMemoryLayout(memory_layout).is_sharded:
            grid = self.grid
        if tiled is None:
            tiled = self.is_tiled
        if dtype is None:
            dtype = self.element if not tiled and isinstance(self.element, str) else self.dtype
        return TTNNLayoutAttr.build(
            shape, dtype, tiled=tiled, buffer_type=buffer, memory_layout=memory_layout, grid=grid,
            worker_grid=worker_grid, mesh=self.mesh,
        )  # fmt: skip

    # -- parsing --------------------------------------------------------------------------------
    @classmethod
    def parse(cls, body: str, scope: Any = None) -> TTNNLayoutAttr:
        """Parse a layout body; aliases inside it (`#dram`) resolve through `scope`."""
        parts = params(body)
        if len(parts) < 3:
            raise AttrError("#ttnn.ttnn_layout needs at least an affine map, a grid and a memref")
        amap = parts[0]
        if not _MAP.fullmatch(amap.text):
            raise AttrError(f"expected an affine map '(d0, ...) -> (row, col)', got '{amap.text}'", amap.offset)
        grid_part = unwrap(parts[1], "<", ">", "the grid")
        grid_items = params(grid_part.text, grid_part.offset)
        if not grid_items:
            raise AttrError("empty grid", grid_part.offset)
        fields: dict[str, Any] = {
            "linear_map": amap.text,
            "grid": parse_shape(grid_items[0], "grid shape"),
            "grid_mapping": tuple(p.text for p in grid_items[1:]),
        }
        seen: set[str] = set()
        for p in parts[2:]:
            kv = keyword(p)
            key = kv[0] if kv else ("memref" if p.text.startswith("memref<") else "memory_layout" if p.text.startswith("<") else None)
            if key is None:
                raise AttrError(f"unexpected parameter '{p.text}' in #ttnn.ttnn_layout", p.offset)
            if key in seen:
                raise AttrError(f"duplicate '{key}' in #ttnn.ttnn_layout", p.offset)
            seen.add(key)
            if key == "mesh":
                if "memref" in seen:
                    raise AttrError("'mesh = ...' must come before the memref", p.offset)
                assert kv is not None  # key "mesh" came from keyword(p)
                fields["mesh"] = kv[1].text
            elif key == "memref":
                fields.update(_parse_memref(p, scope))
            elif key == "memory_layout":
                fields["memory_layout"] = parse_memory_layout(p)
            elif key == "core_ranges" and kv is not None:
                fields["core_ranges"] = CoreRangeSet.from_part(kv[1], scope)
            elif key == "ignorePhysicalLayout" and kv is not None:
                fields["ignore_physical_layout"] = parse_bool(kv[1], "ignorePhysicalLayout")
            else:
                raise AttrError(f"unknown parameter '{key}' in #ttnn.ttnn_layout", p.offset)
            if key != "mesh" and "memref" not in seen:
                raise AttrError("the memref must come right after the grid (and the mesh)", p.offset)
        if "memref" not in seen:
            raise AttrError("#ttnn.ttnn_layout is missing its memref")
        with attr_errors("#ttnn.ttnn_layout"):
            return cls(**fields)


def _parse_memref(part: Part, scope: Any) -> dict[str, Any]:
    """Shard shape, element and buffer type of `memref<SxS x ELEM, BUF>` (via the builtin type parser)."""
    from ttopt.parse.attr_parser import AttrParser, AttrSyntaxError

    try:
        t = AttrParser(scope).type(part.text)
    except AttrSyntaxError as e:
        raise AttrError(f"bad memref: {e.message}", part.offset + e.offset) from None
    typed = getattr(t, "typed", None)
    if getattr(t, "name", None) != "memref" or not (isinstance(typed, tuple) and len(typed) == 3):
        raise AttrError(f"expected a memref type, got '{part.text}'", part.offset)
    shape, elem, rest = typed
    if any(d is None for d in shape):
        raise AttrError("memref shard shape must be static", part.offset)
    tile = getattr(elem, "typed", None)
    if isinstance(tile, TileType):
        element: TileType | str = tile
    elif getattr(elem, "name", None) == "ttcore.tile":
        raise AttrError(f"bad tile type '{elem.text}'", part.offset)
    else:
        element = elem.text
    if len(rest) != 1:
        raise AttrError("the memref needs exactly one memory space: a #ttnn.buffer_type", part.offset)
    space = rest[0]
    where = Part(space.text, part.offset + part.text.rfind(space.text))
    try:
        target = space.resolve()
    except (KeyError, AttributeError):
        raise AttrError(f"undefined alias {space.text} in memref", where.offset) from None
    if not isinstance(target, DialectAttr) or target.name != BufferTypeAttr.attr_name:
        raise AttrError(f"memref memory space must be a #ttnn.buffer_type, got '{space.text}'", where.offset)
    try:
        buffer = target.typed.value
    except AttrError as e:
        raise AttrError(f"memref memory space: {e.message}", where.offset) from None
    if len(shape) > 2:
        # tt-mlir's layout takes any memref rank; its passes build 2-D ones (leading dims collapsed),
        # so a higher-rank shard is read as that collapse: same tiles, same bytes.
        shape = [prod(shape[:-1]), shape[-1]]
    return {"shard_shape": tuple(shape), "element": element, "buffer_type": buffer}


def _build(
    shape: tuple[int, ...],
    dtype: DataType | str,
    tiled: bool,
    buffer: BufferType,
    memory_layout: TensorMemoryLayout | None,
    grid: int | tuple[int, ...] | None,
    worker_grid: tuple[int, ...],
    core_ranges: CoreRangeSet | None,
    ignore: bool,
    mesh: str | None,
) -> TTNNLayoutAttr:
    if any(d < 0 for d in shape):
        raise AttrError(f"negative dimension in shape {shape_text(shape)}")
    if len(worker_grid) != 2 or min(worker_grid) <= 0:
        raise AttrError(f"worker grid must be 2-D and positive, got {worker_grid}")
    if tiled:
        element: TileType | str = TileType(dtype=DataType.of(dtype))
        tile: tuple[int, int] | None = (32, 32)
    else:
        if isinstance(dtype, str) and _SCALAR.fullmatch(dtype):
            element = dtype
        else:
            dt = DataType.of(dtype)
            if dt.builtin is None:
                raise AttrError(f"{dt.value} has no row-major element type (block floats are tiled)")
            element = dt.builtin
        tile = None
    phys = physical_shape(shape, tile)
    rows, cols = collapsed_2d(phys)
    th, tw = tile or (1, 1)

    if buffer in (BufferType.L1_SMALL, BufferType.TRACE):
        raise AttrError(f"building {buffer.value} layouts is not supported")
    if buffer is BufferType.SYSTEM_MEMORY:
        if memory_layout is not None:
            raise AttrError("system-memory layouts have no tensor memory layout")
    elif memory_layout is None:
        memory_layout = TensorMemoryLayout.INTERLEAVED

    crs = None
    if memory_layout is None or memory_layout is TensorMemoryLayout.INTERLEAVED:
        if buffer is BufferType.L1:
            vgrid = (worker_grid[0], worker_grid[1])
            # ceil(numTiles / numCores) tiles per core, in one row (ref §1.2); row-major: as many
            # elements (tt-mlir's calculateLogicalShardShapeForL1Interleaved).
            pages = ceil(rows / th) * ceil(cols / tw)
            shard = (1, ceil(pages / (vgrid[0] * vgrid[1])))
        else:  # DRAM interleaved, system memory: one "core" holds everything
            vgrid = (1, 1)
            shard = (ceil(rows / th), ceil(cols / tw))
        if grid is not None and _as_grid(grid, memory_layout) != vgrid:
            raise AttrError(f"an interleaved {buffer.value} layout has grid {shape_text(vgrid)}, not {grid}")
        if core_ranges is not None:
            raise AttrError("core_ranges are only allowed on sharded layouts")
    else:
        if memory_layout is TensorMemoryLayout.ND_SHARDED:
            raise AttrError("building nd_sharded layouts is not supported")
        if grid is None:
            raise AttrError(f"a {memory_layout.value} layout needs a grid")
        vgrid = _as_grid(grid, memory_layout)
        _check_shard_grid(vgrid, memory_layout, buffer, worker_grid)
        # Plain ceil of the scalar split, then ceil to tiles (ref §1.2: R=160 on 4 rows -> 2 tiles).
        s_rows, s_cols = ceil(rows / vgrid[0]), ceil(cols / vgrid[1])
        shard = (ceil(s_rows / th), ceil(s_cols / tw))
        if core_ranges is not None:
            crs = core_ranges
        elif not ignore:
            crs = canonical_core_ranges(vgrid, memory_layout, buffer, (worker_grid[0], worker_grid[1]))
    return TTNNLayoutAttr(
        linear_map=linear_map_text(phys), grid=vgrid, mesh=mesh, shard_shape=shard, element=element,
        buffer_type=buffer, memory_layout=memory_layout, core_ranges=crs, ignore_physical_layout=ignore,
    )  # fmt: skip


def _as_grid(grid: int | tuple[int, ...], memory_layout: TensorMemoryLayout | None) -> tuple[int, int]:
    if isinstance(grid, int):
        if memory_layout is TensorMemoryLayout.HEIGHT_SHARDED:
            return (grid, 1)
        if memory_layout is TensorMemoryLayout.WIDTH_SHARDED:
            return (1, grid)
        raise AttrError(f"a {memory_layout.value if memory_layout else 'system-memory'} layout needs a 2-D grid, not {grid}")
    if len(grid) != 2:
        raise AttrError(f"grid must be 2-D, got {grid}")
    return (int(grid[0]), int(grid[1]))


def _check_shard_grid(
    grid: tuple[int, int], memory_layout: TensorMemoryLayout, buffer: BufferType, worker_grid: tuple[int, ...]
) -> None:
    if min(grid) <= 0:
        raise AttrError(f"grid must be positive, got {shape_text(grid)}")
    if memory_layout is TensorMemoryLayout.HEIGHT_SHARDED and grid[1] != 1:
        raise AttrError(f"a height-sharded grid is [N, 1], got {shape_text(grid)}")
    if memory_layout is TensorMemoryLayout.WIDTH_SHARDED and grid[0] != 1:
        raise AttrError(f"a width-sharded grid is [1, N], got {shape_text(grid)}")
    if buffer is BufferType.DRAM:
        return
    if memory_layout is TensorMemoryLayout.BLOCK_SHARDED:
        if grid[0] > worker_grid[0] or grid[1] > worker_grid[1]:
            raise AttrError(f"block grid {shape_text(grid)} does not fit the worker grid {shape_text(worker_grid)}")
    elif grid[0] * grid[1] > worker_grid[0] * worker_grid[1]:
        raise AttrError(f"{grid[0] * grid[1]} cores exceed the worker grid {shape_text(worker_grid)}")


register_attr(TTNNLayoutAttr.attr_name, TTNNLayoutAttr.parse, scoped=True)

# Re-exported so `from ttopt.dialects.ttnn_layout import ...` finds the layout's vocabulary in one place.
__all__ = [
    "TTNNLayoutAttr", "BufferType", "TensorMemoryLayout", "Layout", "CoreRange", "CoreRangeSet", "DataType",
    "TileType", "physical_shape", "collapsed_2d", "linear_map_text", "canonical_core_ranges", "DEFAULT_WORKER_GRID",
]  # fmt: skip
