"""`stablehlo.scatter` -> TTIR, with tt-mlir's patterns in its order.

The update computation decides the reduce type: its first add / multiply / maximum / minimum (sum,
prod, max, min), or `invalid` (overwrite) when it only returns the update.

1. An embedding gradient (sum into the rows of a 2-D table, rows indexed by the first dimension,
   the update's last dimension the row width) -> `ttir.embedding_backward`, plus the table when it
   is not a zero constant.
2. A scatter along at most one operand dimension -> `ttir.scatter` (torch-style): the update is
   reshaped to the operand's rank, and the index tensor holds, per update element, the position
   along the scattered dimension (the window start repeated over the window, plus an iota of the
   within-window offset where the window spans that dimension). A plain overwrite of the whole
   operand is the update itself.
3. A scatter along several dimensions: indices and updates are flattened and scattered element by
   element into the flattened operand at their row-major flat positions.

A KV-cache write (an overwrite of positions along dim 2 of a 4-D cache) becomes tt-mlir's
`ttir.update_cache` / `fill_cache` first (stablehlo_ops/cache_writes.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import prod
from typing import TYPE_CHECKING, Any

from ttopt.ir.attributes import DenseArrayAttr, DenseElementsAttr, DialectAttr, IntegerAttr
from ttopt.ir.properties import props
from ttopt.ir.types import ScalarType
from ttopt.lowering.stablehlo_handlers import Unsupported, lowers
from ttopt.lowering.stablehlo_ops.cache_writes import scatter_cache_write
from ttopt.lowering.stablehlo_ops.constant_source import defining, splat
from ttopt.lowering.stablehlo_ops.pad_slices import element, i32_array, reshape_always, row_major_strides, shape_of, tensor
from ttopt.lowering.stablehlo_ops.select_and_scatter import reduce_type

if TYPE_CHECKING:
    from ttopt.dialects.stablehlo_attrs import ScatterDimensionNumbers
    from ttopt.ir.operation import Operation
    from ttopt.ir.values import Value
    from ttopt.lowering.stablehlo_to_ttir import Lowering

I32, SI64, I64 = ScalarType("i32"), ScalarType("si64"), ScalarType("i64")


@lowers("stablehlo.scatter")
def scatter(low: Lowering, op: Operation) -> list[Value]:
    """Embedding gradient, single-dimension or flattened multi-dimension scatter."""
    if len(op.results) != 1:
        raise Unsupported("it scatters several tensors at once")
    operand, indices, update = op.operands
    kind = reduce_type(op.regions[0])
    dn: ScatterDimensionNumbers = props(op).scatter_dimension_numbers
    out = op.results[0].type.resolve()
    if kind == "sum":
        grad = _embedding_backward(low, operand, indices, update, dn, out)
        if grad is not None:
            return [grad]
    s2o = list(dn.scatter_dims_to_operand_dims)
    if s2o != sorted(s2o):
        raise Unsupported("scatter_dims_to_operand_dims is not in increasing order")
    if kind is None:
        raise Unsupported("its update computation is not add / multiply / maximum / minimum or a plain overwrite")
    if kind == "invalid" and not _returns_update(op.regions[0]):
        raise Unsupported("its update computation neither combines its arguments nor returns the update value")
    if kind == "invalid":
        written = scatter_cache_write(low, op, overwrite=True)
        if written is not None:
            return [written]
    reduce = DialectAttr("ttcore.reduce_type", kind)
    if len(s2o) <= 1:
        return [_single_dim(low, op, operand, indices, update, dn, kind, reduce)]
    return [_multi_dim(low, operand, indices, update, dn, reduce)]


def _returns_update(region: Any) -> bool:
    block = region.blocks[0]
    ret = block.ops[-1] if block.ops else None
    return ret is not None and ret.name == "stablehlo.return" and len(block.args) == 2 and list(ret.operands) == [block.args[1]]


def _is_zero_constant(v: Value) -> bool:
    src = defining(v)
    return src is not None and src.name in ("ttir.constant", "stablehlo.constant") and splat(v, frozenset()) == 0


# -- 1. embedding gradient --------------------------------------------------------------------------
def _embedding_backward(low: Lowering, operand: Value, indices: Value, update: Value, dn: ScatterDimensionNumbers,
                        out: Any) -> Value | None:  # fmt: skip
    table = shape_of(operand)
    if len(table) != 2 or list(dn.scatter_dims_to_operand_dims) != [0] or list(dn.inserted_window_dims) != [0]:
        return None
    if table[1] != shape_of(update)[-1]:
        return None
    ishape = shape_of(indices)
    if len(ishape) == 2 and dn.vector_dim(len(ishape)) == 1:
        indices = reshape_always(low, indices, (1, *ishape))
    grad = low.emit("embedding_backward", [indices, operand, update], out)
    if _is_zero_constant(operand):
        return grad
    return low.emit("add", [grad, operand], out)


# -- 2. along at most one dimension ----------------------------------------------------------------
@dataclass
class _Source:
    """Where one operand dimension takes its extent and written position from."""

    update_dim: int | None = None  # the update dimension landing here (None: extent 1)
    index_dim: int | None = None  # the index dimension varying the position written here
    displaced: int | None = None  # a window dimension a scatter-batch dimension took this slot from


@dataclass
class _Layout:
    by_operand_dim: list[_Source]
    scatter_dim: int = 0
    has_index: bool = False
    unplaced: list[int] = field(default_factory=list)


def _layout(dn: ScatterDimensionNumbers, rank: int, update_rank: int, index_rank: int) -> _Layout:
    ivd = dn.vector_dim(index_rank)
    lay = _Layout([_Source() for _ in range(rank)])
    collapsed = [*dn.inserted_window_dims, *dn.input_batching_dims]
    window_dims = [d for d in range(rank) if d not in collapsed]
    if len(window_dims) != len(dn.update_window_dims):
        raise Unsupported("update_window_dims does not cover the operand's window dimensions")
    for d, u in zip(window_dims, dn.update_window_dims):
        lay.by_operand_dim[d].update_dim = u
    lay.has_index = bool(dn.scatter_dims_to_operand_dims)
    if lay.has_index:
        lay.scatter_dim = dn.scatter_dims_to_operand_dims[0]
    update_scatter = [d for d in range(update_rank) if d not in dn.update_window_dims]
    index_batch = [d for d in range(index_rank) if d != ivd]
    if len(update_scatter) != len(index_batch):
        raise Unsupported("the update's scatter dimensions do not match the index tensor's batch dimensions")
    taken = False
    batching_ix = list(dn.scatter_indices_batching_dims)
    for u, i in zip(update_scatter, index_batch):
        if i in batching_ix:
            d = dn.input_batching_dims[batching_ix.index(i)]
        elif lay.has_index and not taken:
            d, taken = lay.scatter_dim, True
        else:
            lay.unplaced.append(u)
            continue
        src = lay.by_operand_dim[d]
        src.displaced, src.update_dim, src.index_dim = src.update_dim, u, i
    return lay


def _single_dim(low: Lowering, op: Operation, operand: Value, indices: Value, update: Value, dn: ScatterDimensionNumbers,
                kind: str, reduce: DialectAttr) -> Value:  # fmt: skip
    oshape, ushape, ishape = shape_of(operand), shape_of(update), shape_of(indices)
    out = op.results[0].type.resolve()
    overwrite = (not dn.scatter_dims_to_operand_dims and not dn.inserted_window_dims and not dn.input_batching_dims
                 and list(dn.update_window_dims) == list(range(len(ushape))) and ushape == oshape and kind == "invalid")  # fmt: skip
    if overwrite and update.type.resolve().text == out.text:
        return update
    lay = _layout(dn, len(oshape), len(ushape), len(ishape))
    if lay.unplaced:
        raise Unsupported("more than one non-batching scatter-batch dimension (ttir.scatter tracks one)")
    if any(s.displaced is not None and ushape[s.displaced] != 1 for s in lay.by_operand_dim):
        raise Unsupported("an operand dimension carries both a scatter-batch dimension and a window wider than one element")
    order = [s.update_dim for s in lay.by_operand_dim if s.update_dim is not None]
    if order != sorted(order):
        raise Unsupported("the update's dimensions are not in operand order (a transpose would be needed)")
    ivd = dn.vector_dim(len(ishape))
    if ivd < len(ishape) and ishape[ivd] != len(dn.scatter_dims_to_operand_dims):
        raise Unsupported("the index vector's length is not the number of scattered dimensions")
    aligned = tuple(ushape[s.update_dim] if s.update_dim is not None else 1 for s in lay.by_operand_dim)
    if aligned != ushape:
        update = reshape_always(low, update, aligned)
    index = _aligned_indices(low, indices, lay, aligned, dn)
    return low.emit("scatter", [operand, index, update], out, dim=IntegerAttr(lay.scatter_dim, I32), scatter_reduce_type=reduce)


def _aligned_indices(low: Lowering, indices: Value, lay: _Layout, aligned: tuple[int, ...], dn: ScatterDimensionNumbers) -> Value:
    elem = element(indices)
    target = tensor(aligned, elem)
    d = lay.scatter_dim

    def iota() -> Value:
        return low.emit("arange", [], target, start=IntegerAttr(0, SI64), end=IntegerAttr(aligned[d], SI64), step=IntegerAttr(1, SI64),
                        arange_dimension=IntegerAttr(d, I64))  # fmt: skip

    if not lay.has_index:
        return iota()
    start_shape = tuple(shape_of(indices)[s.index_dim] if s.index_dim is not None else 1 for s in lay.by_operand_dim)
    start = indices if shape_of(indices) == start_shape else reshape_always(low, indices, start_shape)
    if start_shape != aligned:
        factors = tuple(1 if s == w else w for s, w in zip(start_shape, aligned))
        start = low.emit("repeat", [start], target, repeat_dimensions=DenseArrayAttr("i64", factors))
    if lay.by_operand_dim[d].update_dim not in dn.update_window_dims:
        return start
    return low.emit("add", [start, iota()], target)


# -- 3. along several dimensions --------------------------------------------------------------------
def _multi_dim(low: Lowering, operand: Value, indices: Value, update: Value, dn: ScatterDimensionNumbers, reduce: DialectAttr) -> Value:
    s2o = list(dn.scatter_dims_to_operand_dims)
    ishape, ushape, oshape = shape_of(indices), shape_of(update), shape_of(operand)
    if dn.input_batching_dims or dn.scatter_indices_batching_dims:
        raise Unsupported("batching dimensions in a scatter along several dimensions")
    ivd = dn.vector_dim(len(ishape))
    if ivd != len(ishape) - 1:
        raise Unsupported("a scatter along several dimensions needs index_vector_dim last")
    if any(d not in s2o for d in dn.inserted_window_dims):
        raise Unsupported("an inserted window dimension that is not scattered along")
    window_dims = list(dn.update_window_dims)
    positions = prod(s for i, s in enumerate(ishape) if i != ivd)
    if positions > 1 and window_dims != list(range(len(ushape) - len(window_dims), len(ushape))):
        raise Unsupported("update window dimensions that are not the update's last dimensions")
    window = [ushape[d] for d in window_dims]
    wsize = prod(window)
    n = positions * wsize
    k = ishape[ivd]
    elem = element(indices)
    rows = reshape_always(low, indices, (positions, k))
    rows = reshape_always(low, rows, (positions, 1, k))
    rows = low.emit("repeat", [rows], tensor((positions, wsize, k), elem), repeat_dimensions=DenseArrayAttr("i64", (1, wsize, 1)))
    rows = reshape_always(low, rows, (n, k))
    offsets = []
    for d in range(len(window)):
        stride = prod(window[d + 1 :])
        column = [(i // stride) % window[d] for i in range(wsize)] * positions
        t = tensor((n, 1), elem)
        offsets.append(low.emit("constant", [], t, value=DenseElementsAttr("[" + ", ".join(f"[{v}]" for v in column) + "]", t)))
    strides = row_major_strides(oshape)
    flat: Value | None = None
    w = 0
    col_t = tensor((n, 1), elem)
    for d in range(len(oshape)):
        part: Value | None = None
        if d in s2o:
            j = s2o.index(d)
            part = low.emit("slice_static", [rows], col_t, begins=i32_array([0, j]), ends=i32_array([n, j + 1]), step=i32_array([1, 1]))
        if d not in dn.inserted_window_dims:
            offset = offsets[w]
            w += 1
            part = offset if part is None else low.emit("add", [part, offset], col_t)
        assert part is not None
        if strides[d] > 1:
            full = low.emit("full", [], col_t, shape=DenseArrayAttr("i32", (n, 1)), fill_value=IntegerAttr(strides[d], I32))
            part = low.emit("multiply", [part, full], col_t)
        flat = part if flat is None else low.emit("add", [flat, part], col_t)
    assert flat is not None
    index = reshape_always(low, flat, (n,))
    total = prod(oshape)
    flat_operand = reshape_always(low, operand, (total,))
    flat_update = reshape_always(low, update, (prod(ushape),))
    t = operand.type.resolve()
    y = low.emit("scatter", [flat_operand, index, flat_update], tensor((total,), t.element_type, t), dim=IntegerAttr(0, I32),
                 scatter_reduce_type=reduce)  # fmt: skip
    return reshape_always(low, y, oshape)
