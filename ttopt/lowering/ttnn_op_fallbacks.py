"""The input-layout fallbacks `ttnn-operation-validation-and-fallback` tries for an op its kernels
reject, in tt-mlir's order.

Each tensor operand may move to DRAM interleaved in row-major or tile layout with one of bf16, f32,
ui32, si32 (or stay as it is). Combinations are tried by their total distance from the original
layouts: a lateral data-type move (si32 <-> ui32) or a precision drop costs 1, a precision rise or a
change of kind (float <-> int) 2, a page-layout change 2, a buffer change 3 (6 from device to host).
Ties are ordered by each operand's (page layout, data type, buffer) enum values.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product
from typing import Iterator, Sequence

from ttopt.dialects.ttcore_attrs import DataType
from ttopt.dialects.ttnn_attrs import BufferType, TensorMemoryLayout
from ttopt.dialects.ttnn_layout import TTNNLayoutAttr

TARGET_DTYPES = (DataType.BF16, DataType.F32, DataType.U32, DataType.SI32)
_DTYPE_ORDER = {d: i for i, d in enumerate(DataType)}  # ttcore's DataType enum order
_BUFFER_ORDER = {BufferType.DRAM: 0, BufferType.L1: 1, BufferType.SYSTEM_MEMORY: 2}
_INTEGER = frozenset({DataType.SI32, DataType.U32, DataType.U16, DataType.U8})
_LOW_PRECISION = frozenset({DataType.BF16, DataType.BFP_BF8})
# Operands beyond which the full product of candidates is not enumerated (9 per operand).
MAX_OPERANDS = 6


@dataclass(frozen=True, slots=True)
class Combination:
    """One layout per tensor operand and its total distance from the original layouts."""

    layouts: tuple[TTNNLayoutAttr, ...]
    distance: float


def _category(d: DataType) -> tuple[bool, int]:
    """(is integer, precision 1 low / 2 high) as tt-mlir ranks data types."""
    if d in _INTEGER:
        return True, 2
    return False, 1 if d in _LOW_PRECISION else 2


def dtype_distance(a: DataType, b: DataType) -> float:
    """Cost of converting data type `a` to `b`."""
    if a is b:
        return 0.0
    (ia, pa), (ib, pb) = _category(a), _category(b)
    if ia != ib:
        return 2.0
    if pa == pb:
        return 1.0
    return 2.0 if pa < pb else 1.0


def layout_distance(a: TTNNLayoutAttr, b: TTNNLayoutAttr) -> float:
    """Cost of moving a tensor from layout `a` to layout `b`."""
    d = dtype_distance(a.dtype, b.dtype)
    if a.is_tiled != b.is_tiled:
        d += 2.0
    if a.buffer_type is not b.buffer_type:
        d += 3.0
        if not a.is_system_memory and b.is_system_memory:
            d += 3.0
    return d


def sort_key(lay: TTNNLayoutAttr) -> tuple[int, int, int]:
    """(page layout, data type, buffer) as tt-mlir's enums order them (row-major before tile)."""
    return (1 if lay.is_tiled else 0, _DTYPE_ORDER[lay.dtype], _BUFFER_ORDER.get(lay.buffer_type, 3))


def candidates(original: TTNNLayoutAttr, shape: Sequence[int]) -> list[TTNNLayoutAttr]:
    """The DRAM-interleaved fallbacks of one operand (row-major/tile x 4 data types), then the original."""
    out: dict[tuple[int, int, int], TTNNLayoutAttr] = {}
    for tiled in (False, True):
        for dt in TARGET_DTYPES:
            if (tiled == original.is_tiled and dt is original.dtype and original.is_dram
                    and original.memory_layout is TensorMemoryLayout.INTERLEAVED):  # fmt: skip
                continue
            lay = original.relayout(shape, buffer_type=BufferType.DRAM, memory_layout=TensorMemoryLayout.INTERLEAVED,
                                    dtype=dt, tiled=tiled)  # fmt: skip
            out.setdefault(sort_key(lay), lay)
    return [out[k] for k in sorted(out)] + [original]


def combinations(originals: Sequence[TTNNLayoutAttr], shapes: Sequence[Sequence[int]]) -> Iterator[Combination]:
    """Every combination of the operands' candidates, nearest first."""
    per_operand = [[(c, layout_distance(o, c)) for c in candidates(o, s)] for o, s in zip(originals, shapes)]
    combos = [Combination(tuple(c for c, _ in pick), sum(d for _, d in pick)) for pick in product(*per_operand)]
    combos.sort(key=lambda c: (c.distance, tuple(sort_key(x) for x in c.layouts)))
    return iter(combos)
