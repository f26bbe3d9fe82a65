"""How tt-mlir HEAD's TTNNDecomposeLayouts takes a device tensor from one `#ttnn.ttnn_layout` to
another, as a plan of conversion ops (the optimizer writes them, the cost model prices one program
per op):

* memory config only (buffer type, memory layout, grid): one `ttnn.to_memory_config`;
* data type only: one `ttnn.typecast`; page layout (tile / row-major) only: one `ttnn.to_layout`;
* both: one `ttnn.to_layout` for a float-to-float tilize, else a typecast and a to_layout, ordered
  so the (un)tilize runs on a data type the device can (un)tilize (bf16, f32, u32, u16, si32):
  an untilize after the typecast when the output's can, a tilize before it when the input's can;
* with a memory change the page and dtype changes run in the input's memory, then the memory
  move; an untilize of an L1-sharded tensor, or of an L1 one going to DRAM, moves first and
  untilizes in the output's memory.

When an intermediate layout cannot exist (a row-major shard that is not tile aligned), or a
height-sharded L1 tensor whose last two dims are not tile aligned would be tilized in place (which
tt-metal rejects; HEAD unshards, pads, tilizes and slices), the tensor goes through DRAM
interleaved: move, convert, move. HEAD's host round trips (neither data type can (un)tilize on the
device: u8, f16, block floats) are not planned: the conversion stays on the device, in the order
whose intermediate layout can exist (a block float has no row-major layout).
"""

from __future__ import annotations

from typing import Any

from ttopt.device.layout_info import DRAM, INTERLEAVED
from ttopt.dialects.errors import AttrError
from ttopt.dialects.ttcore_attrs import DataType
from ttopt.dialects.ttnn_attrs import BufferType, TensorMemoryLayout
from ttopt.dialects.ttnn_layout import TTNNLayoutAttr

TO_LAYOUT = "ttnn.to_layout"
TO_MEMORY_CONFIG = "ttnn.to_memory_config"
TYPECAST = "ttnn.typecast"
# Data types tt-metal tilizes and untilizes on the device (HEAD's isOnDeviceLayoutChangeSupportedForDataType).
DEVICE_PAGE_DTYPES = frozenset({DataType.BF16, DataType.F32, DataType.U32, DataType.U16, DataType.SI32})
# A to_layout converts numerically only within the float family (HEAD's isFloatFamily).
NOT_FLOAT = frozenset({DataType.U32, DataType.U16, DataType.U8, DataType.SI32})


def same_memory(a: TTNNLayoutAttr, b: TTNNLayoutAttr) -> bool:
    """Whether two layouts have one memory config (what `ttnn.to_layout` must keep)."""
    return (a.buffer_type == b.buffer_type and a.memory_layout == b.memory_layout and tuple(a.grid) == tuple(b.grid)
            and a.core_ranges == b.core_ranges)  # fmt: skip


def same_page(a: TTNNLayoutAttr, b: TTNNLayoutAttr) -> bool:
    """Whether two layouts have one page layout and data type (what `ttnn.to_memory_config` keeps)."""
    return a.is_tiled == b.is_tiled and a.dtype == b.dtype


def expresses(name: str, src: TTNNLayoutAttr, dst: TTNNLayoutAttr) -> bool:
    """Whether the conversion op `name` alone takes `src` to `dst` under HEAD's verifiers."""
    if name == TO_MEMORY_CONFIG:
        return same_page(src, dst)
    if name == TO_LAYOUT:
        return same_memory(src, dst)
    if name == TYPECAST:
        return same_memory(src, dst) and src.is_tiled == dst.is_tiled
    return False


def _relayout(base: TTNNLayoutAttr, shape: tuple[int, ...], tiled: bool, dtype: Any, wg: tuple[int, int]) -> TTNNLayoutAttr | None:
    """`base`'s memory (its grid too: an L1-interleaved tensor may sit on fewer cores than the
    worker grid) with another page layout / dtype, or None when that layout cannot exist."""
    try:
        return TTNNLayoutAttr.build(shape, dtype, tiled=tiled, buffer_type=base.buffer_type, memory_layout=base.memory_layout,
                                    grid=tuple(base.grid) if base.is_sharded else None,
                                    worker_grid=tuple(base.grid) if base.buffer_type == BufferType.L1 and not base.is_sharded else wg,
                                    core_ranges=base.core_ranges if base.is_sharded else None)  # fmt: skip
    except (AttrError, ValueError, TypeError):
        return None


def _unaligned_sharded_tilize(shape: tuple[int, ...], cur: TTNNLayoutAttr, dst: TTNNLayoutAttr) -> bool:
    """A tilize of a height-sharded L1 tensor whose last two dims are not tile aligned (tt-metal#30541)."""
    return (not cur.is_tiled and dst.is_tiled and cur.buffer_type == BufferType.L1
            and cur.memory_layout == TensorMemoryLayout.HEIGHT_SHARDED and len(shape) >= 2
            and (shape[-2] % 32 != 0 or shape[-1] % 32 != 0))  # fmt: skip


def _page_steps(shape: tuple[int, ...], cur: TTNNLayoutAttr, dst: TTNNLayoutAttr, wg: tuple[int, int]) -> list[tuple[str, TTNNLayoutAttr]] | None:
    """The page-layout and data-type changes from `cur` to `dst`'s page layout and dtype, in `cur`'s
    memory (HEAD's layoutAndDtypeTransformations on the device); None when a layout cannot exist."""
    layout, dtype = cur.is_tiled != dst.is_tiled, cur.dtype != dst.dtype
    if layout and _unaligned_sharded_tilize(shape, cur, dst):
        return None
    orders: list[list[tuple[str, bool, Any]]]
    if layout and dtype:
        # The typecast runs on tiles either side of the (un)tilize; the order puts the (un)tilize on
        # a dtype the device (un)tilizes, else (HEAD's host order) the one whose layout can exist.
        cast_tiles_first = [(TYPECAST, True, dst.dtype), (TO_LAYOUT, False, dst.dtype)]
        untilize_first = [(TO_LAYOUT, False, cur.dtype), (TYPECAST, False, dst.dtype)]
        tilize_first = [(TO_LAYOUT, True, cur.dtype), (TYPECAST, True, dst.dtype)]
        cast_rows_first = [(TYPECAST, False, dst.dtype), (TO_LAYOUT, True, dst.dtype)]
        if dst.is_tiled and cur.dtype not in NOT_FLOAT and dst.dtype not in NOT_FLOAT:
            orders = [[(TO_LAYOUT, True, dst.dtype)]]
        elif cur.is_tiled:
            orders = [cast_tiles_first, untilize_first] if dst.dtype in DEVICE_PAGE_DTYPES else [untilize_first, cast_tiles_first]
        else:
            orders = [tilize_first, cast_rows_first] if cur.dtype in DEVICE_PAGE_DTYPES else [cast_rows_first, tilize_first]
    elif layout:
        orders = [[(TO_LAYOUT, dst.is_tiled, cur.dtype)]]
    elif dtype:
        orders = [[(TYPECAST, cur.is_tiled, dst.dtype)]]
    else:
        return []
    for seq in orders:
        out = []
        for name, tiled, dt in seq:
            lay = _relayout(cur, shape, tiled, dt, wg)
            if lay is None:
                break
            out.append((name, lay))
        else:
            return out
    return None


def _ending_at(plan: list[tuple[str, TTNNLayoutAttr]], dst: TTNNLayoutAttr) -> list[tuple[str, TTNNLayoutAttr]]:
    """`plan` with its last op's result exactly `dst` (what it rebuilt equals it in all that matters)."""
    return [*plan[:-1], (plan[-1][0], dst)] if plan else plan


def steps(shape: tuple[int, ...], src: TTNNLayoutAttr, dst: TTNNLayoutAttr, wg: tuple[int, int]) -> list[tuple[str, TTNNLayoutAttr]]:
    """(op name, result layout) of each op from `src` to `dst`, in order; empty when they are equal."""
    if src == dst:
        return []
    if same_page(src, dst):
        return [(TO_MEMORY_CONFIG, dst)]
    if same_memory(src, dst):
        plan = _page_steps(shape, src, dst, wg)
        if plan is not None:
            return _ending_at(plan, dst)
    else:
        untilize = src.is_tiled and not dst.is_tiled
        l1 = src.buffer_type == BufferType.L1
        move_first = untilize and ((l1 and src.is_sharded) or (l1 and dst.buffer_type == BufferType.DRAM))
        if not move_first:
            plan = _page_steps(shape, src, dst, wg)
            if plan is not None:
                return [*plan, (TO_MEMORY_CONFIG, dst)]
        else:
            mid = _relayout(dst, shape, src.is_tiled, src.dtype, wg)
            plan = _page_steps(shape, mid, dst, wg) if mid is not None else None
            if mid is not None and plan is not None:
                return [(TO_MEMORY_CONFIG, mid), *_ending_at(plan, dst)]
    a = _relayout(TTNNLayoutAttr.build(shape, src.dtype, buffer_type=DRAM, memory_layout=INTERLEAVED, worker_grid=wg),
                  shape, src.is_tiled, src.dtype, wg)  # fmt: skip
    b = _relayout(TTNNLayoutAttr.build(shape, dst.dtype, buffer_type=DRAM, memory_layout=INTERLEAVED, worker_grid=wg),
                  shape, dst.is_tiled, dst.dtype, wg)  # fmt: skip
    assert a is not None and b is not None  # DRAM interleaved holds any shape in either page layout
    plan = _page_steps(shape, a, b, wg)
    if plan is None:  # no intermediate either way (a block-float tile to row-major): one to_layout
        plan = [(TO_LAYOUT, b)]
    out = [] if a == src else [(TO_MEMORY_CONFIG, a)]
    out.extend(_ending_at(plan, b))
    if b != dst:
        out.append((TO_MEMORY_CONFIG, dst))
    return out
