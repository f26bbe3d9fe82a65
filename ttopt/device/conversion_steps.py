"""How tt-mlir HEAD's TTNNDecomposeLayouts takes a device tensor from one `#ttnn.ttnn_layout` to
another, as a plan of conversion ops (the optimizer writes them, the cost model prices one program
per op):

* memory config only (buffer type, memory layout, grid): one `ttnn.to_memory_config`;
* page layout (tile / row-major) or data type only: one `ttnn.to_layout`;
* both: a tilize or a dtype change runs first, in the input's memory, then the memory move; an
  untilize runs after the move (the sharded untilize tt-metal rejects never happens). When the
  intermediate layout cannot exist (a row-major shard that is not tile aligned), the tensor goes
  through DRAM interleaved: move, convert, move.
"""

from __future__ import annotations

from typing import Any

from ttopt.device.layout_info import DRAM, INTERLEAVED
from ttopt.dialects.errors import AttrError
from ttopt.dialects.ttnn_layout import TTNNLayoutAttr

TO_LAYOUT = "ttnn.to_layout"
TO_MEMORY_CONFIG = "ttnn.to_memory_config"


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
    return False


def _relayout(base: TTNNLayoutAttr, shape: tuple[int, ...], tiled: bool, dtype: Any, wg: tuple[int, int]) -> TTNNLayoutAttr | None:
    """`base`'s memory with another page layout / dtype, or None when that layout cannot exist."""
    try:
        return TTNNLayoutAttr.build(shape, dtype, tiled=tiled, buffer_type=base.buffer_type, memory_layout=base.memory_layout,
                                    grid=tuple(base.grid) if base.is_sharded else None, worker_grid=wg,
                                    core_ranges=base.core_ranges if base.is_sharded else None)  # fmt: skip
    except (AttrError, ValueError, TypeError):
        return None


def steps(shape: tuple[int, ...], src: TTNNLayoutAttr, dst: TTNNLayoutAttr, wg: tuple[int, int]) -> list[tuple[str, TTNNLayoutAttr]]:
    """(op name, result layout) of each op from `src` to `dst`, in order; empty when they are equal."""
    if src == dst:
        return []
    if same_page(src, dst):
        return [(TO_MEMORY_CONFIG, dst)]
    if same_memory(src, dst):
        return [(TO_LAYOUT, dst)]
    untilize = src.is_tiled and not dst.is_tiled
    if untilize:
        mid = _relayout(dst, shape, src.is_tiled, src.dtype, wg)
        if mid is not None:
            return [(TO_MEMORY_CONFIG, mid), (TO_LAYOUT, dst)]
    else:
        mid = _relayout(src, shape, dst.is_tiled, dst.dtype, wg)
        if mid is not None:
            return [(TO_LAYOUT, mid), (TO_MEMORY_CONFIG, dst)]
    a = _relayout(TTNNLayoutAttr.build(shape, src.dtype, buffer_type=DRAM, memory_layout=INTERLEAVED, worker_grid=wg),
                  shape, src.is_tiled, src.dtype, wg)  # fmt: skip
    b = _relayout(TTNNLayoutAttr.build(shape, dst.dtype, buffer_type=DRAM, memory_layout=INTERLEAVED, worker_grid=wg),
                  shape, dst.is_tiled, dst.dtype, wg)  # fmt: skip
    assert a is not None and b is not None  # DRAM interleaved holds any shape in either page layout
    out = [] if a == src else [(TO_MEMORY_CONFIG, a)]
    out.append((TO_LAYOUT, b))
    if b != dst:
        out.append((TO_MEMORY_CONFIG, dst))
    return out
