"""`stablehlo.gather` -> TTIR, with tt-mlir's patterns tried in its order (highest benefit first):

1. a dynamic slice (no batching or collapsed dimensions, one start-index vector, the other
   dimensions sliced whole) -> `ttir.slice_dynamic` of the start vector padded with zeros, or one
   `ttir.slice_static` when the start indices are a constant;
2. a batched index-select (batching dimensions, one indexed dimension of slice size 1, the rest
   whole, the output laid out like the operand) -> `ttir.gather` (torch.gather) with the indices
   reshaped and broadcast to the output shape;
3. a constant index list [0, .., 0, 1, .., n, .., n] along one dimension (replicate padding) ->
   slices of the first / last element, `ttir.repeat`, `ttir.concat`;
4. otherwise the embedding form: the indexed dimensions are permuted to the front and flattened into
   the rows of a 2-D table, the start indices flattened (a float matmul with the row strides when
   several dimensions are indexed), expanded over a partial slice, looked up with
   `ttir.embedding` -- or with `ttir.gather` for an integer operand, which the bf16 embedding
   table would round -- and the result reshaped and permuted into place;
   several partially sliced dimensions are expanded over the whole window at once.

Batching dimensions that form 2 does not take (BigBird's block-sparse attention: the indices carry
dimensions of their own besides the batch ones, so the output is not laid out like the operand) are
made ordinary indexed dimensions first, as StableHLO defines them (see `_batching_as_indices`), and
go to form 4; HEAD has no pattern for them and fails to legalize such a gather.

A gather none of them fits (partial slices of several dimensions mixed with others, ...) is a
diagnostic.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod
from typing import TYPE_CHECKING, Any

from ttopt.ir.attributes import DenseArrayAttr, DenseElementsAttr, IntegerAttr
from ttopt.ir.properties import props
from ttopt.ir.types import ScalarType
from ttopt.lowering.stablehlo_handlers import Unsupported, lowers
from ttopt.lowering.stablehlo_ops.building import element, i32_array, reshape_always, shape_of, tensor
from ttopt.lowering.stablehlo_ops.constant_source import literal
from ttopt.lowering.stablehlo_ops.pad_slices import int_constant
from ttopt.lowering.stablehlo_ops.reduce_window import permute

if TYPE_CHECKING:
    from ttopt.dialects.stablehlo_attrs import GatherDimensionNumbers
    from ttopt.ir.operation import Operation
    from ttopt.ir.values import Value
    from ttopt.lowering.stablehlo_to_ttir import Lowering

F32, I32, SI32 = ScalarType("f32"), ScalarType("i32"), ScalarType("si32")
I64, SI64 = ScalarType("i64"), ScalarType("si64")


@dataclass
class Gather:
    """One gather's operands and dimension numbers."""

    operand: Value
    indices: Value
    dn: GatherDimensionNumbers
    slice_sizes: list[int]
    out: Any

    @property
    def shape(self) -> tuple[int, ...]:
        return shape_of(self.operand)

    @property
    def index_shape(self) -> tuple[int, ...]:
        return shape_of(self.indices)

    @property
    def vector_dim(self) -> int:
        return self.dn.vector_dim(len(self.index_shape))

    @property
    def start_index_map(self) -> list[int]:
        return list(self.dn.start_index_map)


@lowers("stablehlo.gather")
def gather(low: Lowering, op: Operation) -> list[Value]:
    """The first of tt-mlir's gather patterns that fits."""
    p = props(op)
    g = Gather(op.operands[0], op.operands[1], p.dimension_numbers, list(p.slice_sizes), op.results[0].type.resolve())
    for pattern in (_dynamic_slice, _gather_dim, _slice_repeat_concat):
        out = pattern(low, g)
        if out is not None:
            return [out]
    if g.dn.operand_batching_dims:
        g = _batching_as_indices(low, g)
    partial = [d for d in g.start_index_map if 1 < g.slice_sizes[d] < g.shape[d]]
    if len(partial) >= 2:
        return [_multi_partial(low, g, partial)]
    _check_shape_legality(g)
    return [_embedding(low, g)]


# -- 1. dynamic slice ------------------------------------------------------------------------------
def _dynamic_slice(low: Lowering, g: Gather) -> Value | None:
    dn = g.dn
    if dn.operand_batching_dims or dn.start_indices_batching_dims or dn.collapsed_slice_dims:
        return None
    if len(dn.offset_dims) != len(g.out.shape):
        return None
    smap = g.start_index_map
    if len(g.index_shape) != 1 or g.index_shape[0] != len(smap):
        return None
    if any(g.slice_sizes[i] != s for i, s in enumerate(g.shape) if i not in smap):
        return None
    rank = len(g.shape)
    values = literal(g.indices)
    if values is not None:
        begins, ends = [0] * rank, list(g.slice_sizes)
        for i, d in enumerate(smap):
            begins[d], ends[d] = int(values[i]), int(values[i]) + g.slice_sizes[d]
        return low.emit("slice_static", [g.operand], g.out, begins=i32_array(begins), ends=i32_array(ends), step=i32_array([1] * rank))
    elem = element(g.indices)
    zero = int_constant(low, [0], (1,), elem) if len(smap) < rank else None
    parts = []
    for d in range(rank):
        if d in smap:
            k = smap.index(d)
            parts.append(low.emit("slice_static", [g.indices], tensor((1,), elem), begins=i32_array([k]), ends=i32_array([k + 1]),
                                  step=i32_array([1])))  # fmt: skip
        else:
            assert zero is not None
            parts.append(zero)
    begins_v = parts[0] if len(parts) == 1 else low.emit("concat", parts, tensor((rank,), elem), dim=IntegerAttr(0, SI32))
    ends_v = low.emit("add", [begins_v, int_constant(low, g.slice_sizes, (rank,), elem)], begins_v.type)
    return low.emit("slice_dynamic", [g.operand, begins_v, ends_v], g.out)


# -- 2. batched index-select ----------------------------------------------------------------------
def _gather_dim(low: Lowering, g: Gather) -> Value | None:
    dn = g.dn
    ob, ib = list(dn.operand_batching_dims), list(dn.start_indices_batching_dims)
    smap = g.start_index_map
    if not ob or not ib or len(smap) != 1 or len(ob) != len(ib):
        return None
    dim = smap[0]
    if dim in ob or g.slice_sizes[dim] != 1:
        return None
    if any(g.slice_sizes[i] != s for i, s in enumerate(g.shape) if i != dim and i not in ob):
        return None
    out_shape = tuple(g.out.shape)
    if len(out_shape) != len(g.shape) or not _aligned_like_operand(g, dim):
        return None
    vd = g.vector_dim
    index_shape = tuple(s for i, s in enumerate(g.index_shape) if i != vd)
    idx = g.indices if len(index_shape) == len(g.index_shape) else reshape_always(low, g.indices, index_shape)
    if len(index_shape) < len(out_shape):
        unsqueezed = list(index_shape)
        for od in dn.offset_dims:
            unsqueezed.insert(od, 1)
        idx = reshape_always(low, idx, tuple(unsqueezed))
        if tuple(unsqueezed) != out_shape:
            factors = tuple(o // u if u == 1 else 1 for u, o in zip(unsqueezed, out_shape))
            idx = low.emit("broadcast", [idx], tensor(out_shape, element(idx)), broadcast_dimensions=DenseArrayAttr("i64", factors))
    return low.emit("gather", [g.operand, idx], g.out, dim=IntegerAttr(dim, I32))


def _aligned_like_operand(g: Gather, dim: int) -> bool:
    """Output dimension i reads operand dimension i (the indexed one through the indices), which is
    what torch.gather computes."""
    dn = g.dn
    index_dims = [i for i in range(len(g.index_shape)) if i != g.vector_dim]
    batch_positions = [i for i in range(len(g.out.shape)) if i not in dn.offset_dims]
    window_dims = [d for d in range(len(g.shape)) if d not in dn.collapsed_slice_dims and d not in dn.operand_batching_dims]
    source: dict[int, int] = dict(zip(dn.offset_dims, window_dims))
    for pos, idim in zip(batch_positions, index_dims):
        ib = list(dn.start_indices_batching_dims)
        source[pos] = dn.operand_batching_dims[ib.index(idim)] if idim in ib else dim
    return all(source.get(i) == i for i in range(len(g.out.shape)))


def _batching_as_indices(low: Lowering, g: Gather) -> Gather:
    """The same gather without batching dimensions: StableHLO defines a batching pair (operand dim
    o, indices dim i) as indexing o with the position along i, so an iota along i appended to every
    start index vector, o collapsed and added to start_index_map, reads the same elements. A
    batching dimension of size 1 only collapses (its start is 0)."""
    dn, vd = g.dn, g.vector_dim
    idx, ishape = g.indices, g.index_shape
    if vd == len(ishape):  # the index vectors are the trailing scalars: give them their dimension
        ishape = (*ishape, 1)
        idx = reshape_always(low, idx, ishape)
    elem = element(idx)
    parts, smap, collapsed = [idx], list(dn.start_index_map), list(dn.collapsed_slice_dims)
    for od, idim in zip(dn.operand_batching_dims, dn.start_indices_batching_dims):
        collapsed.append(od)
        if g.shape[od] == 1:
            continue
        one = tuple(1 if d == vd else s for d, s in enumerate(ishape))
        parts.append(low.emit("arange", [], tensor(one, elem), start=IntegerAttr(0, SI64), end=IntegerAttr(ishape[idim], SI64),
                              step=IntegerAttr(1, SI64), arange_dimension=IntegerAttr(idim, I64)))  # fmt: skip
        smap.append(od)
    if len(parts) > 1:
        widened = tuple(len(smap) if d == vd else s for d, s in enumerate(ishape))
        idx = low.emit("concat", parts, tensor(widened, elem), dim=IntegerAttr(vd, SI32))
    flat = dn.model_copy(update={"operand_batching_dims": (), "start_indices_batching_dims": (), "start_index_map": tuple(smap),
                                 "collapsed_slice_dims": tuple(sorted(collapsed)), "index_vector_dim": vd})  # fmt: skip
    return Gather(g.operand, idx, flat, g.slice_sizes, g.out)


# -- 3. replicate padding from a constant index list ----------------------------------------------
def _slice_repeat_concat(low: Lowering, g: Gather) -> Value | None:
    smap = g.start_index_map
    values = literal(g.indices)
    if len(smap) != 1 or values is None:
        return None
    dim = smap[0]
    size = g.slice_sizes[dim]
    max_index = g.shape[dim] - size
    starts = ends = last = 0
    for v in (int(x) for x in values):
        if v == 0:
            starts += 1
        elif v == max_index:
            ends += 1
        if not (v - last == 1 or (v == last == 0) or (v == last == max_index)):
            return None
        last = v
    if last != max_index or starts == 0 or (max_index != 0 and ends == 0):
        return None
    starts -= 1
    if max_index != 0:
        ends -= 1
    want = list(g.shape)
    want[dim] = g.shape[dim] + (starts + ends) * size
    dn = g.dn
    if tuple(want) != tuple(g.out.shape) or list(dn.offset_dims) != [i for i in range(len(want)) if i != dim] or size != 1:
        return None
    pieces = _repeated_slice(low, g, starts, dim, size, 0) + [g.operand] + _repeated_slice(low, g, ends, dim, size, g.shape[dim] - size)
    return low.emit("concat", pieces, g.out, dim=IntegerAttr(dim, SI32))


def _repeated_slice(low: Lowering, g: Gather, repeats: int, dim: int, size: int, start: int) -> list[Value]:
    if repeats <= 0:
        return []
    begins, ends = [0] * len(g.shape), list(g.shape)
    begins[dim], ends[dim] = start, start + size
    shape = list(g.shape)
    shape[dim] = size
    t = g.operand.type.resolve()
    piece = low.emit("slice_static", [g.operand], tensor(shape, t.element_type, t), begins=i32_array(begins), ends=i32_array(ends),
                     step=i32_array([1] * len(shape)))  # fmt: skip
    shape[dim] = repeats
    factors = tuple(repeats if i == dim else 1 for i in range(len(shape)))
    return [low.emit("repeat", [piece], tensor(shape, t.element_type, t), repeat_dimensions=DenseArrayAttr("i64", factors))]


# -- 4. embedding ------------------------------------------------------------------------------------
@dataclass
class IndexedDims:
    """The operand dimensions the lookup actually indexes (dimensions sliced whole dropped)."""

    start_index_map: list[int]
    actual: int  # position in the original start_index_map of the last dimension kept
    expand: bool  # a kept dimension has a slice larger than 1


def _indexed_dims(g: Gather) -> IndexedDims:
    smap, shape, sizes = g.start_index_map, g.shape, g.slice_sizes
    full = sum(1 for d in smap if sizes[d] == shape[d])
    partial = any(sizes[d] != shape[d] and sizes[d] != 1 for d in smap)
    kept: list[int] = []
    actual, expand = -1, False
    for i, d in enumerate(smap):
        if shape[d] == 1:
            if full == len(smap):
                kept.append(d)
                actual = i
                break
            if partial or full > 0:
                continue
        elif sizes[d] == shape[d]:
            continue
        kept.append(d)
        actual = i
        if sizes[d] != 1:
            expand = True
    return IndexedDims(kept, actual, expand)


def _check_shape_legality(g: Gather) -> None:
    smap, shape, sizes, dn = g.start_index_map, g.shape, g.slice_sizes, g.dn
    if len(smap) > 1 and len(g.index_shape) == 1:
        raise Unsupported("several indexed dimensions with 1-D start indices")
    if dn.operand_batching_dims or dn.start_indices_batching_dims:
        raise Unsupported("batching dimensions outside a batched index-select along one dimension")
    full = partial = singleton = 0
    for i, s in enumerate(shape):
        if i in smap:
            if s == 1:
                singleton += 1
            elif sizes[i] == s:
                full += 1
            elif sizes[i] != 1:
                partial += 1
        elif sizes[i] != s:
            raise Unsupported(f"dimension {i} is not indexed but sliced to {sizes[i]} of {s}")
    remaining = len(smap) - full - singleton
    if (partial and remaining != 1) or (full and (remaining > 1 or remaining + singleton == 0)):
        raise Unsupported("its slice sizes along the indexed dimensions mix whole, partial and single slices")
    if not _indexed_dims(g).start_index_map:
        raise Unsupported("no dimension is indexed")


def _table(low: Lowering, g: Gather, dims: list[int]) -> tuple[Value, tuple[int, ...]]:
    """The operand with `dims` permuted to the front and flattened into rows: (table, permuted shape)."""
    rest = [d for d in range(len(g.shape)) if d not in dims]
    permuted = permute(low, g.operand, dims + rest)
    pshape = shape_of(permuted)
    k = len(dims)
    return reshape_always(low, permuted, (prod(pshape[:k]), prod(pshape[k:]))), pshape


def _flatten_indices(low: Lowering, g: Gather, indices: Value, row_shape: tuple[int, ...], n: int) -> Value:
    """Start index vectors of `n` components folded into one row number (a float matmul with the row
    strides, as tt-mlir does: matmul takes floats)."""
    ishape = shape_of(indices)
    vd = g.vector_dim
    perm = [i for i in range(len(ishape)) if i != vd] + [vd]
    permuted = permute(low, indices, perm)
    pshape = shape_of(permuted)
    as_float = low.emit("typecast", [permuted], tensor(pshape, F32))
    strides, step = [0.0] * n, 1
    for i in range(n - 1, -1, -1):
        strides[i] = float(step)
        step *= row_shape[i]
    t = tensor((n, 1), F32)
    body = "[" + ", ".join(f"[{v:e}]" for v in strides) + "]"
    const = low.emit("constant", [], t, value=DenseElementsAttr(body, t))
    return low.emit("matmul", [as_float, const], tensor((*pshape[:-1], 1), F32))


def _embedding(low: Lowering, g: Gather) -> Value:
    info = _indexed_dims(g)
    kept = info.start_index_map
    integer = element(g.operand).is_integer
    table, pshape = _table(low, g, kept)
    idx = g.indices
    vd = g.vector_dim
    smap = g.start_index_map
    if len(kept) > 1:
        idx = _flatten_indices(low, g, idx, pshape, len(smap))
    elif len(smap) != len(kept):
        ishape = shape_of(idx)
        begins, ends = [0] * len(ishape), list(ishape)
        begins[vd], ends[vd] = info.actual, info.actual + 1
        sliced = list(ishape)
        sliced[vd] = 1
        idx = low.emit("slice_static", [idx], tensor(sliced, element(idx)), begins=i32_array(begins), ends=i32_array(ends),
                       step=i32_array([1] * len(ishape)))  # fmt: skip
    if len(shape_of(idx)) != 2 or (info.expand and vd != 0):
        idx = reshape_always(low, idx, (1, prod(shape_of(idx))))
    if info.expand:
        idx = _expand(low, idx, [g.slice_sizes[smap[info.actual]]], [1])
    ishape = shape_of(idx)
    d = shape_of(table)[1]
    rows = tensor((*ishape, d), element(g.operand))
    if integer:
        b = prod(ishape)
        flat = reshape_always(low, idx, (b, 1))
        if not element(flat).is_integer:  # several indexed dims: the row numbers came from a float matmul
            flat = low.emit("typecast", [flat], tensor((b, 1), I32))
        if d != 1:
            flat = low.emit("broadcast", [flat], tensor((b, d), element(flat)), broadcast_dimensions=DenseArrayAttr("i64", (1, d)))
        picked = low.emit("gather", [table, flat], tensor((b, d), element(g.operand)), dim=IntegerAttr(0, I32))
        looked_up = reshape_always(low, picked, (*ishape, d))
    else:
        looked_up = low.emit("embedding", [idx, table], rows)
    return _place_output(low, g, looked_up, kept[0])


def _expand(low: Lowering, idx: Value, window: list[int], strides: list[int]) -> Value:
    """[1, M] start rows -> [prod(window), M]: row r adds the flat offset of window position r."""
    m = shape_of(idx)[1]
    total = prod(window)
    offsets = []
    for r in range(total):
        rem, flat = r, 0
        for w, s in zip(reversed(window), reversed(strides)):
            flat += (rem % w) * s
            rem //= w
        offsets.append(flat)
    elem = element(idx)
    t = tensor((total, m), elem)
    if elem.text.startswith(("f", "bf")):
        body = "[" + ", ".join("[" + ", ".join([f"{float(o):e}"] * m) + "]" for o in offsets) + "]"
        const = low.emit("constant", [], t, value=DenseElementsAttr(body, t))
    else:
        const = int_constant(low, [o for o in offsets for _ in range(m)], (total, m), elem)
    spread = low.emit("broadcast", [idx], t, broadcast_dimensions=DenseArrayAttr("i64", (total, 1)))
    return low.emit("add", [spread, const], t)


def _place_output(low: Lowering, g: Gather, looked_up: Value, indexed_dim: int) -> Value:
    """The lookup's [index dims..., row] result reshaped to the output's dimensions (offset
    dimensions last) and permuted into place."""
    out_shape = tuple(g.out.shape)
    offset, collapsed = list(g.dn.offset_dims), list(g.dn.collapsed_slice_dims)
    reorder = g.slice_sizes[indexed_dim] != 1
    first = offset[indexed_dim - sum(1 for c in collapsed if c < indexed_dim)] if reorder else None
    order = ([first] if first is not None else []) + [i for i in range(len(out_shape)) if i not in offset]
    order += [o for o in offset if o != first]
    y = reshape_always(low, looked_up, tuple(out_shape[i] for i in order))
    return permute(low, y, [order.index(i) for i in range(len(out_shape))])


# -- several partially sliced dimensions ------------------------------------------------------------
def _multi_partial(low: Lowering, g: Gather, partial: list[int]) -> Value:
    dn = g.dn
    if dn.operand_batching_dims or dn.start_indices_batching_dims:
        raise Unsupported("batching dimensions with several partially sliced dimensions")
    if dn.collapsed_slice_dims:
        raise Unsupported("collapsed dimensions with several partially sliced dimensions")
    if any(g.slice_sizes[i] != s for i, s in enumerate(g.shape) if i not in g.start_index_map):
        raise Unsupported("a dimension that is not indexed is not sliced whole")
    if g.start_index_map != partial:
        raise Unsupported("several partially sliced dimensions mixed with whole or single slices")
    if any(a + 1 != b for a, b in zip(partial, partial[1:])):
        raise Unsupported("partially sliced dimensions that are not adjacent")
    if list(dn.offset_dims) != list(range(len(dn.offset_dims))):
        raise Unsupported("several partially sliced dimensions with offset dimensions not leading the output")
    table, pshape = _table(low, g, partial)
    idx = _flatten_indices(low, g, g.indices, pshape, len(partial))
    idx = reshape_always(low, idx, (1, prod(shape_of(idx))))
    window = [g.slice_sizes[d] for d in partial]
    sizes = [g.shape[d] for d in partial]
    idx = _expand(low, idx, window, [prod(sizes[i + 1 :]) for i in range(len(sizes))])
    ishape = shape_of(idx)
    looked_up = low.emit("embedding", [idx, table], tensor((*ishape, shape_of(table)[1]), element(g.operand)))
    vd = g.vector_dim
    batch = [s for i, s in enumerate(g.index_shape) if i != vd]
    rest = [s for i, s in enumerate(g.shape) if i not in partial]
    y = reshape_always(low, looked_up, (*window, *batch, *rest))
    rank, nw, nb = len(g.shape), len(window), len(batch)
    perm = [0] * len(g.out.shape)
    for j in range(nw):
        perm[partial[0] + j] = j
    for b in range(nb):
        perm[rank + b] = nw + b
    k = nw + nb
    for i in [*range(partial[0]), *range(partial[0] + nw, rank)]:
        perm[i] = k
        k += 1
    return permute(low, y, perm)
