"""Ops tt-metal runs as zero-copy views of their input: the result is the input's buffer, so the L1
spill sweep counts it once (tt-mlir's isAliasingViewOp: reshape, pad, repeat, permute).

* reshape: the last dimension is kept and, tiled, the second-to-last too or both are whole tiles;
* pad: no padding, the same shape, or (tiled) padding inside the last tile that changes neither the
  padded last two dims nor any upper dim, none of it in front;
* repeat: every repetition is 1;
* permute: a no-op (rank <= 1, identity, or only size-1 dims move while the last dim, and tiled the
  last two, stay), with the output in the input's buffer type and memory layout.
"""

from __future__ import annotations

from typing import Any

from ttopt.device.rules.data_movement import reshape_shapes_view
from ttopt.dialects.ttnn import shape_values
from ttopt.ir.properties import int_values
from ttopt.ir.types import TensorType
from ttopt.optimizer.analyses import current_layout, ranked_shape

TILE = 32


def _types(op: Any) -> tuple[TensorType, TensorType] | None:
    if len(op.operands) < 1 or len(op.results) != 1:
        return None
    ti, to = op.operands[0].type.resolve(), op.results[0].type.resolve()
    if not isinstance(ti, TensorType) or not isinstance(to, TensorType):
        return None
    return ti, to


def _tiled(t: TensorType) -> bool:
    lay = current_layout(t)
    return lay is not None and lay.is_tiled


def _reshape_view(ti: TensorType, to: TensorType) -> bool:
    return reshape_shapes_view(ranked_shape(ti), ranked_shape(to), _tiled(ti))


def _pad_view(op: Any, ti: TensorType, to: TensorType) -> bool:
    padding = int_values(op.get_attr("padding"))
    if padding is not None and all(p == 0 for p in padding):
        return True
    a, b = ranked_shape(ti), ranked_shape(to)
    if len(a) != len(b) or not a:
        return False
    if a == b:
        return True
    if padding is None or not _tiled(ti) or any(padding[2 * d] != 0 for d in range(len(padding) // 2)):
        return False
    if any(x != y for x, y in zip(a[:-2], b[:-2])):
        return False

    def up(x: int) -> int:
        return -(-x // TILE) * TILE

    second = (a[-2] if len(a) >= 2 else 1, b[-2] if len(b) >= 2 else 1)
    return up(a[-1]) == up(b[-1]) and up(second[0]) == up(second[1])


def _repeat_view(op: Any) -> bool:
    a = op.get_attr("repeat_dims")
    dims = shape_values(a)
    dims = dims if dims is not None else int_values(a)
    return dims is not None and all(d == 1 for d in dims)


def _permute_view(op: Any, ti: TensorType, to: TensorType) -> bool:
    perm = int_values(op.get_attr("permutation"))
    shape = ranked_shape(ti)
    rank = len(shape)
    if perm is None or len(perm) != rank:
        return False
    if rank > 1:
        identity = all(p == i for i, p in enumerate(perm))
        fixed = perm[-1] == rank - 1 and (not _tiled(ti) or perm[-2] == rank - 2)
        only_ones = all(p == i or shape[i] == 1 for i, p in enumerate(perm))
        if not (identity or (fixed and only_ones)):
            return False
    li, lo = current_layout(ti), current_layout(to)
    return li is not None and lo is not None and li.buffer_type is lo.buffer_type and li.memory_layout is lo.memory_layout


def is_aliasing_view(op: Any) -> bool:
    """Whether tt-metal returns `op`'s input buffer as its result (see the module docstring)."""
    if op.name not in ("ttnn.reshape", "ttnn.pad", "ttnn.repeat", "ttnn.permute"):
        return False
    types = _types(op)
    if types is None:
        return False
    ti, to = types
    if not ti.shape or not to.shape:
        return op.name == "ttnn.repeat" and _repeat_view(op)
    if op.name == "ttnn.reshape":
        return _reshape_view(ti, to)
    if op.name == "ttnn.pad":
        return _pad_view(op, ti, to)
    if op.name == "ttnn.repeat":
        return _repeat_view(op)
    return _permute_view(op, ti, to)
