"""KV-cache writes spelled as a `scatter` or a `dynamic_update_slice` -> `ttir.update_cache` /
`ttir.fill_cache`, as tt-mlir HEAD's CacheFillUpdatePattern rewrites a frontend's cache update.

A cache is a 4-D [B, N, M, H] tensor (batch, heads, positions, head size); a write puts an
update [B, N, S, H] at positions p[0..S) of dim 2: `cache[:, :, p[s], :] = update[:, :, s, :]`.

* One position (S == 1, decode): `ttir.update_cache(cache, update, p)`, the update permuted to
  [1, N, B, H] when B > 1 (the op's input layout), p reshaped to one element.
* S > 1 (prefill): `ttir.fill_cache`, one per batch row (the op writes from position 0), only when
  the positions are provably 0..S-1. HEAD fills whenever the positions come from a function
  argument, whatever they hold; a fill from an unknown position stays a scatter here.

The forms recognised, exactly (anything else keeps the generic lowering):

* scatter that overwrites (its body returns the update), along dim 2 only, the update's window
  covering dims 0, 1 and 3 whole (JAX's `cache.at[:, :, pos].set(x)`, torch-xla's index_copy);
* scatter of one element per index, its index grid [B, N, S, H, 4] the iotas of dims 0, 1 and 3
  and the positions broadcast along dim 2 (torch-xla's `cache[:, :, pos] = x` as HEAD's tests
  spell it);
* dynamic_update_slice at (0, 0, p, 0) (JAX's `lax.dynamic_update_slice`; HEAD runs it on the
  host): p is clamped into the cache as StableHLO specifies.

The cache is written in place, so the write is used only when the cache is a function argument
(the caller's buffer, as in every model that keeps one: a cache built in the function, such as a
`zeros`, is a value that folds, merges with equal ones and hoists into const-eval, which an in-place
write would corrupt) and the op is its only reader (a later reader of the old cache would see the
new one). A scatter drops an update at a
position outside the cache, the cache ops do not: positions are taken to be in the cache, as every
KV-cache kernel takes them.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod
from typing import TYPE_CHECKING

from ttopt.ir.attributes import IntegerAttr
from ttopt.ir.properties import props
from ttopt.ir.types import ScalarType
from ttopt.ir.values import BlockArgument
from ttopt.lowering.stablehlo_ops.building import element, emit_results, i32_array, reshape_always, shape_of, tensor
from ttopt.lowering.stablehlo_ops.constant_source import defining, splat

if TYPE_CHECKING:
    from ttopt.dialects.stablehlo_attrs import ScatterDimensionNumbers
    from ttopt.ir.operation import Operation
    from ttopt.ir.values import Value
    from ttopt.lowering.stablehlo_to_ttir import Lowering

I32 = ScalarType("i32")
SEQ = 2  # the cache's position dim
# Ops an index component passes through unchanged in value (shape changes by size-1 dims only).
_COPIES = frozenset({"ttir.reshape", "ttir.broadcast", "ttir.typecast"})


@dataclass(frozen=True)
class _Positions:
    """Where a write lands along the cache's positions: the tensor holding them (one per update
    position), or provably 0..S-1 (`from_zero`)."""

    values: Value | None
    from_zero: bool


def scatter_cache_write(low: Lowering, op: Operation, overwrite: bool) -> Value | None:
    """The cache write a scatter is (see the module doc), emitted; None when it is not one."""
    cache, indices, update = op.operands
    if not overwrite or not _is_cache_pair(cache, update, op):
        return None
    dn: ScatterDimensionNumbers = props(op).scatter_dimension_numbers
    if dn.input_batching_dims or dn.scatter_indices_batching_dims:
        return None
    if list(dn.scatter_dims_to_operand_dims) == [SEQ] and list(dn.inserted_window_dims) == [SEQ]:
        found = _windowed(low, cache, indices, update, dn)
    elif list(dn.scatter_dims_to_operand_dims) == [0, 1, 2, 3] and list(dn.inserted_window_dims) == [0, 1, 2, 3]:
        found = _index_grid(cache, indices, update, dn)
    else:
        return None
    if found is None:
        return None
    positions, update4 = found
    return _write(low, cache, update4, positions)


def update_slice_cache_write(low: Lowering, op: Operation) -> Value | None:
    """The cache write a dynamic_update_slice is (see the module doc), emitted; None when it is not one."""
    cache, update, *starts = op.operands
    if len(starts) != 4 or not _is_cache_pair(cache, update, op):
        return None
    if any(splat(starts[d]) != 0 for d in (0, 1, 3)):
        return None
    s, m = shape_of(update)[SEQ], shape_of(cache)[SEQ]
    if s == 1:
        p = reshape_always(low, starts[SEQ], (1,))
        p = low.emit("clamp_scalar", [p], p.type, min=IntegerAttr(0, I32), max=IntegerAttr(m - 1, I32))
        return _write(low, cache, update, _Positions(p, False))
    if splat(starts[SEQ]) == 0:
        return _write(low, cache, update, _Positions(None, True))
    return None


def _is_cache_pair(cache: Value, update: Value, op: Operation) -> bool:
    """A 4-D cache that is a function argument (and a 4-D update agreeing with it but on dim 2),
    the op the cache's only reader."""
    c, u = shape_of(cache), shape_of(update)
    if len(c) != 4 or not isinstance(cache, BlockArgument):
        return False
    if len(u) == 4 and (u[0], u[1], u[3]) != (c[0], c[1], c[3]):
        return False
    return len(cache.uses) == 1 and cache.uses[0] is op


def _windowed(low: Lowering, cache: Value, indices: Value, update: Value, dn: ScatterDimensionNumbers) -> tuple[_Positions, Value] | None:
    """Dim 2 indexed, dims 0, 1, 3 a whole window: the update as [B, N, S, H] and its positions."""
    c, u, ishape = shape_of(cache), shape_of(update), shape_of(indices)
    window = list(dn.update_window_dims)
    if len(window) != 3 or [u[d] for d in window] != [c[0], c[1], c[3]]:
        return None
    scatter_dims = [d for d in range(len(u)) if d not in window]
    ivd = dn.vector_dim(len(ishape))
    batch = [ishape[d] for d in range(len(ishape)) if d != ivd]
    s = prod(batch)
    if len(scatter_dims) > 1 or (scatter_dims and u[scatter_dims[0]] != s) or (not scatter_dims and s != 1):
        return None
    # [B, N, H] window plus S: the window dims in operand order, the positions third
    order = [window[0], window[1], *scatter_dims, window[2]]
    update4 = low.permute(update, order) if len(order) == 4 else update
    update4 = reshape_always(low, update4, (c[0], c[1], s, c[3])) if shape_of(update4) != (c[0], c[1], s, c[3]) else update4
    if s == 1:
        return _Positions(indices, False), update4
    return (_Positions(None, True), update4) if _is_iota(indices, ivd, s) else None


def _index_grid(cache: Value, indices: Value, update: Value, dn: ScatterDimensionNumbers) -> tuple[_Positions, Value] | None:
    """One element per index, the index grid [B, N, S, H, 4] of (iota, iota, positions, iota)."""
    u, ishape = shape_of(update), shape_of(indices)
    if dn.update_window_dims or len(u) != 4 or ishape != (*u, 4) or dn.vector_dim(5) != 4:
        return None
    src = defining(indices)
    if src is None or src.name != "ttir.concat" or len(src.operands) != 4 or _int_attr(src, "dim") != 4:
        return None
    comps = list(src.operands)
    if not all(_coordinate(comps[d], d) for d in (0, 1, 3)):
        return None
    s = u[SEQ]
    if s == 1:
        p = _uniform_source(comps[SEQ])
        return (_Positions(p, False), update) if p is not None else None
    return (_Positions(None, True), update) if _coordinate(comps[SEQ], SEQ) else None


def _write(low: Lowering, cache: Value, update: Value, positions: _Positions) -> Value | None:
    """update_cache at one position, or fill_cache from position 0 per batch row; the cache."""
    b, n, s, h = shape_of(update)
    if s == 1 and positions.values is not None:
        p = positions.values
        if shape_of(p) != (1,):
            p = reshape_always(low, p, (1,))
        if b > 1:
            update = low.permute(update, [2, 1, 0, 3])
        emit_results(low, "update_cache", [cache, update, p], [], batch_offset=IntegerAttr(0, I32))
        return cache
    if s > 1 and positions.from_zero and s <= shape_of(cache)[SEQ]:
        for row in range(b):
            part = update
            if b > 1:
                part = low.emit("slice_static", [update], tensor((1, n, s, h), element(update), update.type.resolve()),
                                begins=i32_array([row, 0, 0, 0]), ends=i32_array([row + 1, n, s, h]), step=i32_array([1, 1, 1, 1]))  # fmt: skip
            emit_results(low, "fill_cache", [cache, part], [], batch_offset=IntegerAttr(row, I32))
        return cache
    return None


def _int_attr(op: Operation, name: str) -> int | None:
    a = op.get_attr(name)
    v = getattr(a.resolve(), "value", None) if a is not None else None
    return v if isinstance(v, int) else None


def _coordinate(v: Value, dim: int) -> bool:
    """Whether v[i] == i[dim] for every index i (all zeros when dim has extent 1)."""
    want = (dim, 1, 0) if shape_of(v)[dim] != 1 else (None, 0, 0)
    return _affine(v) == want


def _is_iota(v: Value, ivd: int, s: int) -> bool:
    """Whether index tensor `v` holds 0..s-1 along its one non-unit batch dim."""
    dims = [d for d, e in enumerate(shape_of(v)) if e != 1 and d != ivd]
    return len(dims) == 1 and shape_of(v)[dims[0]] == s and _affine(v) == (dims[0], 1, 0)


def _affine(v: Value) -> tuple[int | None, int, int] | None:
    """(dim, scale, offset) when v[i] == scale * i[dim] + offset ((None, 0, c): v is c everywhere),
    traced through aranges, splat constants, reshapes that move dims of extent 1, broadcasts,
    typecasts and multiplies / adds by a splat constant; else None."""
    c = splat(v)
    if isinstance(c, int) and not isinstance(c, bool):
        return None, 0, c
    op = defining(v)
    if op is None:
        return None
    if op.name == "ttir.arange":
        dim, start, step = (_int_attr(op, k) for k in ("arange_dimension", "start", "step"))
        if dim is None or start is None or step is None:
            return None
        return (None, 0, start) if shape_of(v)[dim] == 1 else (dim, step, start)
    if op.name in _COPIES:
        inner = _affine(op.operands[0])
        if inner is None or inner[0] is None or op.name != "ttir.reshape":
            return inner
        dim, scale, offset = inner
        src, dst = shape_of(op.operands[0]), shape_of(v)
        src_dims = [d for d, e in enumerate(src) if e != 1]
        dst_dims = [d for d, e in enumerate(dst) if e != 1]
        if [src[d] for d in src_dims] != [dst[d] for d in dst_dims] or dim not in src_dims:
            return None
        return dst_dims[src_dims.index(dim)], scale, offset
    if op.name in ("ttir.multiply", "ttir.add") and len(op.operands) == 2:
        for a, k in (op.operands, op.operands[::-1]):
            c = splat(k)
            inner = _affine(a)
            if isinstance(c, int) and not isinstance(c, bool) and inner is not None:
                dim, scale, offset = inner
                if op.name == "ttir.add":
                    return dim, scale, offset + c
                return (None, 0, 0) if c == 0 else (dim, scale * c, offset * c)
    return None


def _uniform_source(v: Value) -> Value | None:
    """The one-element tensor `v` is a broadcast copy of (the same position everywhere), or None."""
    while prod(shape_of(v)) != 1:
        op = defining(v)
        if op is None or op.name not in _COPIES:
            return None
        v = op.operands[0]
    # back to the tensor the position came in as (a copy of one element is the same element)
    op = defining(v)
    while op is not None and op.name in ("ttir.reshape", "ttir.broadcast"):
        v = op.operands[0]
        op = defining(v)
    return v
