"""NumPy semantics of the indexing, windowed and padding ops for the reference interpreter: StableHLO's
gather / scatter / reduce_window / select_and_scatter / pad / dynamic_slice / dynamic_update_slice
(per the StableHLO spec: start indices clamped, out-of-bounds scatter updates skipped) and the TTIR
ops they lower to (embedding, embedding_backward, torch-style gather / scatter, slice_dynamic,
pad, full, cumsum / cumprod, NHWC pooling, pooling with indices, repeat, clamp_scalar)."""

from __future__ import annotations

import itertools
from typing import Any, Callable

import numpy as np

Array = Any  # np.ndarray
Body = Callable[[list[Array], list[Array]], list[Array]]  # (accumulators, values) -> accumulators


# -- StableHLO --------------------------------------------------------------------------------------
def _index_vectors(indices: Array, ivd: int) -> tuple[Array, list[int]]:
    """The start index vectors as (batch positions..., vector), and the index tensor's batch dims."""
    if ivd == indices.ndim:
        indices = indices[..., None]
    return np.moveaxis(indices, ivd, -1).astype(np.int64), [d for d in range(indices.ndim) if d != ivd]


def hlo_gather(operand: Array, indices: Array, dn: Any, slice_sizes: list[int]) -> Array:
    """stablehlo.gather."""
    vectors, idx_batch = _index_vectors(indices, dn.vector_dim(indices.ndim))
    batch_shape = list(vectors.shape[:-1])
    flat = vectors.reshape(-1, vectors.shape[-1])
    b = flat.shape[0]
    starts = np.zeros((b, operand.ndim), np.int64)
    for k, d in enumerate(dn.start_index_map):
        starts[:, d] = np.clip(flat[:, k], 0, operand.shape[d] - slice_sizes[d])
    positions = np.indices(batch_shape).reshape(len(batch_shape), b)
    for k, d in enumerate(dn.operand_batching_dims):
        starts[:, d] = positions[idx_batch.index(dn.start_indices_batching_dims[k])]
    rank = operand.ndim
    grid = []
    for d in range(rank):
        shape = [1] * (rank + 1)
        shape[1 + d] = slice_sizes[d]
        grid.append(starts[:, d].reshape([b] + [1] * rank) + np.arange(slice_sizes[d]).reshape(shape))
    slabs = operand[tuple(grid)]
    window_dims = [d for d in range(rank) if d not in dn.collapsed_slice_dims and d not in dn.operand_batching_dims]
    cur = slabs.reshape([*batch_shape, *(slice_sizes[d] for d in window_dims)])
    out_rank = len(dn.offset_dims) + len(batch_shape)
    batch_out = [d for d in range(out_rank) if d not in dn.offset_dims]
    nb = len(batch_shape)
    return np.transpose(cur, [batch_out.index(d) if d in batch_out else nb + list(dn.offset_dims).index(d) for d in range(out_rank)])


def hlo_scatter(operand: Array, indices: Array, updates: Array, dn: Any, combine: Any) -> Array:
    """stablehlo.scatter (one operand); updates that fall outside the operand are skipped. `combine`
    is a numpy ufunc (applied with `.at`), None for an overwrite, or any function of two arrays."""
    result = operand.copy()
    vectors, idx_batch = _index_vectors(indices, dn.vector_dim(indices.ndim))
    upd_scatter = [d for d in range(updates.ndim) if d not in dn.update_window_dims]
    window_dims = [d for d in range(operand.ndim) if d not in dn.inserted_window_dims and d not in dn.input_batching_dims]
    coords = np.indices(updates.shape).reshape(updates.ndim, updates.size)
    vec = vectors[tuple(coords[d] for d in upd_scatter)] if upd_scatter else np.broadcast_to(vectors, (coords.shape[1], vectors.shape[-1]))
    target = np.zeros((operand.ndim, coords.shape[1]), np.int64)
    for k, d in enumerate(dn.scatter_dims_to_operand_dims):
        target[d] += vec[:, k]
    for k, d in enumerate(dn.input_batching_dims):
        target[d] += coords[upd_scatter[idx_batch.index(dn.scatter_indices_batching_dims[k])]]
    for w, d in zip(dn.update_window_dims, window_dims):
        target[d] += coords[w]
    inside = np.all((target >= 0) & (target < np.asarray(operand.shape, np.int64).reshape(-1, 1)), axis=0)
    where, values = tuple(target[:, inside]), updates.reshape(-1)[inside]
    if combine is None:
        result[where] = values
    elif hasattr(combine, "at"):
        combine.at(result, where, values)
    else:
        for t, v in zip(zip(*where), values):
            result[t] = combine(result[t], v)
    return result


def hlo_pad(x: Array, value: Array, lo: list[int], hi: list[int], interior: list[int]) -> Array:
    """stablehlo.pad (negative edge padding crops)."""
    grown = [s + (s - 1) * i if s else 0 for s, i in zip(x.shape, interior)]
    spread = np.full(grown, value, x.dtype)
    spread[tuple(slice(None, None, i + 1) for i in interior)] = x
    full = np.pad(spread, [(max(a, 0), max(b, 0)) for a, b in zip(lo, hi)], constant_values=value)
    return full[tuple(slice(-min(a, 0), full.shape[d] + min(b, 0)) for d, (a, b) in enumerate(zip(lo, hi)))]


def hlo_reduce_window(ins: list[Array], inits: list[Array], body: Body, w: dict[str, list[int]]) -> list[Array]:
    """stablehlo.reduce_window: each window folded with the body, the operands padded with the inits."""
    padded = []
    for x, init in zip(ins, inits):
        dilated = [(s - 1) * b + 1 if s else 0 for s, b in zip(x.shape, w["base"])]
        base = np.full(dilated, init, x.dtype)
        base[tuple(slice(None, None, b) for b in w["base"])] = x
        pad = w["padding"]
        padded.append(hlo_pad(base, init, pad[0::2], pad[1::2], [0] * x.ndim))
    shape = padded[0].shape
    out_shape = [(s - (k - 1) * d - 1) // st + 1 for s, k, d, st in zip(shape, w["window"], w["dilations"], w["strides"])]
    accs = [np.full(out_shape, init, x.dtype) for x, init in zip(ins, inits)]
    for offset in itertools.product(*(range(k) for k in w["window"])):
        sl = tuple(slice(o * d, o * d + st * (n - 1) + 1, st) for o, d, st, n in zip(offset, w["dilations"], w["strides"], out_shape))
        accs = body(accs, [p[sl] for p in padded])
    return accs


def hlo_select_and_scatter(operand: Array, source: Array, init: Array, select: Callable[[Array, Array], Array],
                           scatter: Callable[[Array, Array], Array], w: dict[str, list[int]]) -> Array:  # fmt: skip
    """stablehlo.select_and_scatter: per window the element the select body keeps (padding never
    selected) receives the source value."""
    result = np.full(operand.shape, init, operand.dtype)
    lo = w["padding"][0::2]
    for s in np.ndindex(*source.shape):
        best: tuple[int, ...] | None = None
        for offset in itertools.product(*(range(k) for k in w["window"])):
            pos = tuple(i * st + o - p for i, st, o, p in zip(s, w["strides"], offset, lo))
            if not all(0 <= q < n for q, n in zip(pos, operand.shape)):
                continue
            if best is None or not bool(select(operand[best], operand[pos])):
                best = pos
        if best is not None:
            result[best] = scatter(result[best], source[s])
    return result


def hlo_dynamic_slice(x: Array, starts: list[Array], sizes: list[int]) -> Array:
    """stablehlo.dynamic_slice (starts clamped into range)."""
    begins = [int(np.clip(s, 0, n - k)) for s, n, k in zip(starts, x.shape, sizes)]
    return x[tuple(slice(b, b + k) for b, k in zip(begins, sizes))]


def hlo_dynamic_update_slice(x: Array, update: Array, starts: list[Array]) -> Array:
    """stablehlo.dynamic_update_slice (starts clamped into range)."""
    out = x.copy()
    begins = [int(np.clip(s, 0, n - k)) for s, n, k in zip(starts, x.shape, update.shape)]
    out[tuple(slice(b, b + k) for b, k in zip(begins, update.shape))] = update
    return out


# -- TTIR ---------------------------------------------------------------------------------------------
def _ints(a: Array) -> Array:
    return np.rint(a).astype(np.int64) if np.issubdtype(a.dtype, np.floating) or a.dtype.kind == "V" else a.astype(np.int64)


def embedding(indices: Array, weight: Array) -> Array:
    """Rows of a 2-D table (or of an effectively 2-D one, shaped (1, ..., 1, N, M))."""
    weight = weight.reshape(weight.shape[-2:]) if weight.ndim > 2 and weight.size == weight.shape[-2] * weight.shape[-1] else weight
    return weight[_ints(np.asarray(indices, np.float64) if indices.dtype.kind not in "iub" else indices)]


def embedding_backward(indices: Array, weight: Array, grad: Array) -> Array:
    """Gradient rows summed into a table of the weight's shape."""
    out = np.zeros(weight.shape, np.float64)
    np.add.at(out, _ints(indices.reshape(-1)), grad.reshape(-1, weight.shape[-1]).astype(np.float64))
    return out


def torch_gather(x: Array, index: Array, dim: int) -> Array:
    """torch.gather: out[c] = x[c with c[dim] = index[c]]."""
    x = x[tuple(slice(None) if d == dim else slice(0, n) for d, n in enumerate(index.shape))]
    return np.take_along_axis(x, _ints(index), axis=dim)


SCATTER_REDUCE: dict[str, Any] = {"sum": np.add, "prod": np.multiply, "max": np.maximum, "min": np.minimum}


def torch_scatter(x: Array, index: Array, source: Array, dim: int, reduce: str) -> Array:
    """torch.scatter(_reduce): x[c with c[dim] = index[c]] (combined with) source[c]."""
    out = x.copy()
    coords = list(np.indices(index.shape))
    coords[dim] = _ints(index)
    target = tuple(coords)
    values = source[tuple(slice(0, n) for n in index.shape)]
    if reduce in SCATTER_REDUCE:
        SCATTER_REDUCE[reduce].at(out, target, values)
    else:
        out[target] = values
    return out


def slice_dynamic(x: Array, begins: Array, ends: Array, step: list[int] | None) -> Array:
    """Slices between runtime bounds."""
    steps = step or [1] * x.ndim
    return x[tuple(slice(int(b), int(e), s) for b, e, s in zip(begins, ends, steps))]


def ttir_pad(x: Array, padding: list[int], value: float) -> Array:
    """ttir.pad: low/high per dimension (negative values crop)."""
    return hlo_pad(x, np.asarray(value).astype(x.dtype), padding[0::2], padding[1::2], [0] * x.ndim)


def _quad(values: list[int]) -> tuple[int, int, int, int]:
    if len(values) == 1:
        return (values[0],) * 4  # type: ignore[return-value]
    if len(values) == 2:
        return (values[0], values[1], values[0], values[1])
    return tuple(values)  # type: ignore[return-value]


def _pair(values: list[int]) -> list[int]:
    return values * 2 if len(values) == 1 else values


def pool2d(x: Array, kind: str, kernel: list[int], stride: list[int], dilation: list[int], padding: list[int],
           count_include_pad: bool = True) -> tuple[Array, Array | None]:  # fmt: skip
    """NHWC max / average pooling; for max also the flat H*W input position of each maximum."""
    (kh, kw), (sh, sw), (dh, dw) = _pair(kernel), _pair(stride), _pair(dilation)
    top, left, bottom, right = _quad(padding)
    n, h, w, c = x.shape
    fill = -np.inf if kind == "max" else 0.0
    xp = np.pad(x.astype(np.float64), [(0, 0), (top, bottom), (left, right), (0, 0)], constant_values=fill)
    ho = (h + top + bottom - dh * (kh - 1) - 1) // sh + 1
    wo = (w + left + right - dw * (kw - 1) - 1) // sw + 1
    acc = np.full((n, ho, wo, c), fill)
    where = np.zeros((n, ho, wo, c), np.int64)
    count = np.zeros((1, ho, wo, 1))
    rows, cols = np.arange(ho) * sh, np.arange(wo) * sw
    for i in range(kh):
        for j in range(kw):
            patch = xp[:, i * dh : i * dh + sh * (ho - 1) + 1 : sh, j * dw : j * dw + sw * (wo - 1) + 1 : sw]
            r = (rows + i * dh - top)[None, :, None, None]
            q = (cols + j * dw - left)[None, None, :, None]
            if kind == "max":
                better = patch > acc
                acc = np.where(better, patch, acc)
                where = np.where(better, r * w + q, where)
            else:
                acc = acc + patch
                count = count + ((r >= 0) & (r < h) & (q >= 0) & (q < w))
    if kind == "max":
        return acc, where
    return acc / (kh * kw if count_include_pad else count), None


def repeat(x: Array, factors: list[int]) -> Array:
    """ttir.repeat: the tensor tiled `factors` times per dimension."""
    return np.tile(x, factors)
