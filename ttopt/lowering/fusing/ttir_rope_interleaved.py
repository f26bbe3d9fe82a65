"""Interleaved-pair rotary position embedding on TTIR (HEAD's RoPEInterleavedPairFusingPattern):
the complex-multiply form with x read as (real, imaginary) pairs and a `freqs_cis` table of
per-pair 2x2 rotations,

    x_ = reshape(x, [..., D/2, 1, 2])
    out = reshape(freqs[..., 0] * x_[..., 0] + freqs[..., 1] * x_[..., 1], [..., D]),

becomes the rotate-half `ttcore.composite "rotary_embedding"` (rope_composite.py) between the two
permutations of the last dimension:

    x_rh = concat(x[..., 0::2], x[..., 1::2]); cos = concat(c, c); sin = concat(s, s)
    out = reshape(permute(reshape(rotary_embedding(x_rh, cos, sin), [..., 2, D/2]), [0, 1, 2, 4, 3]), [..., D])

with c = freqs[..., 0, 0] and s = freqs[..., 1, 0] reshaped to 4-D. Anchored on the add; applied
without the cost check, never inside a decomposition function.

Preconditions, as HEAD's: both add operands are multiplies, each of a pair slice of x's 6-D
reshape `[..., D/2, 1, 2]` (index 0 or 1 of the last dimension, identity elsewhere; behind
reshapes, broadcasts and typecasts) by a column slice of `freqs_cis` `[..., D/2, 2, 2]` (column 0
or 1, identity elsewhere), either operand order. One branch may instead read its column as a flat
gather: an `embedding` over a linearised freqs_cis (behind typecasts, reshapes and broadcasts)
with half its elements as indices; its column is then the other branch's complement. Both
branches read one 6-D reshape of x and one freqs_cis (up to reshapes); pair indices and columns
are {0, 1} and each branch's pair index is its column. x is 4-D with an even last dimension D; the
add's only reader is a reshape back to x's shape (it is replaced too); the multiplies have one use
each.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import ceil
from typing import TYPE_CHECKING

from ttopt.dialects.ttir import inputs
from ttopt.ir.attributes import DenseArrayAttr, IntegerAttr
from ttopt.ir.properties import int_values
from ttopt.ir.types import TensorType
from ttopt.lowering.fusing.match import Builder, Candidate, Rejected, i32_array, one_use, producer, shape
from ttopt.lowering.fusing.rope_composite import SI32, inside_decomposition, rope_composite
from ttopt.lowering.fusing.ttir_rope import NOTE, TMS, skip_tms

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation
    from ttopt.ir.values import Value


NAME = "rope_interleaved"


@dataclass
class _Branch:
    """One multiply of the form: x's pair slice times a freqs_cis column."""

    pair: int
    x6d: Value
    freqs: Value
    column: int
    gathered: bool = False  # the column read by a gather: the sibling's complement


def _slice_behind_tms(v: Value) -> Operation | None:
    while True:
        op = getattr(v, "op", None)
        if op is None:
            return None
        if op.name == "ttir.slice_static":
            return op
        if op.name not in TMS:
            return None
        v = inputs(op)[0]


def _bounds(sl: Operation) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]] | None:
    begins, ends, steps = (int_values(sl.properties.get(k)) for k in ("begins", "ends", "step"))
    dims = shape(inputs(sl)[0])
    if begins is None or ends is None or steps is None or not len(begins) == len(ends) == len(steps) == len(dims):
        return None
    return dims, begins, ends, steps


def _last_index(sl: Operation, middle: int | None) -> int | None:
    """0 or 1: the index a slice takes of a last dimension of 2 (dim -2 of size `middle` if given),
    step 1 and identity on every other dimension."""
    b = _bounds(sl)
    if b is None:
        return None
    dims, begins, ends, steps = b
    if len(dims) < 2 or dims[-1] != 2 or (middle is not None and dims[-2] != middle):
        return None
    if any(s != 1 for s in steps) or any(begins[i] != 0 or ends[i] != dims[i] for i in range(len(dims) - 1)):
        return None
    return {(0, 1): 0, (1, 2): 1}.get((begins[-1], ends[-1]))


def _gathered_freqs(v: Value) -> Value | None:
    """freqs_cis when `v` is a flat gather of half its elements (HEAD's matchFlatGatherFreqs)."""
    emb = producer(skip_tms(v), "ttir.embedding")
    if emb is None:
        return None
    idx, table = inputs(emb)[:2]
    freqs = skip_tms(table)
    ft, it = freqs.type.resolve(), idx.type.resolve()
    fs, ids = getattr(ft, "shape", None), getattr(it, "shape", None)
    if fs is None or ids is None or any(not isinstance(d, int) for d in (*fs, *ids)):
        return None
    n_f, n_i = 1, 1
    for d in fs:
        n_f *= d
    for d in ids:
        n_i *= d
    return freqs if n_f == 2 * n_i else None


def _branch(mul: Operation) -> _Branch | None:
    ins = inputs(mul)[:2]
    for swap in (0, 1):
        x_side, f_side = ins[swap], ins[1 - swap]
        xs = _slice_behind_tms(x_side)
        if xs is None:
            continue
        pair = _last_index(xs, 1)
        if pair is None:
            continue
        fs = _slice_behind_tms(f_side)
        col = _last_index(fs, None) if fs is not None else None
        if fs is not None and col is not None:
            return _Branch(pair, inputs(xs)[0], inputs(fs)[0], col)
        gathered = _gathered_freqs(f_side)
        if gathered is not None:
            return _Branch(pair, inputs(xs)[0], gathered, -1, gathered=True)
    return None


def _reshape_root(v: Value) -> Value:
    while (op := producer(v, "ttir.reshape")) is not None:
        v = inputs(op)[0]
    return v


def match(add: Operation) -> Candidate | Rejected | None:
    """The interleaved-pair form at its add (the reshape reading the add is replaced too)."""
    if inside_decomposition(add):
        return None
    ins = inputs(add)
    if len(ins) < 2:
        return None
    mul0, mul1 = producer(ins[0], "ttir.multiply"), producer(ins[1], "ttir.multiply")
    if mul0 is None or mul1 is None:
        return None
    b0, b1 = _branch(mul0), _branch(mul1)
    if b0 is None or b1 is None:
        return None
    if b0.x6d is not b1.x6d or _reshape_root(b0.freqs) is not _reshape_root(b1.freqs):
        return Rejected(NAME, add, "the two branches do not read one reshape of x and one freqs_cis")
    if b0.gathered and b1.gathered:
        return Rejected(NAME, add, "both freqs_cis columns are gathered: neither is known")
    if b0.gathered:
        b0.column = 1 - b1.column
    elif b1.gathered:
        b1.column = 1 - b0.column
    if b0.pair == b1.pair or b0.column == b1.column or b0.pair != b0.column or b1.pair != b1.column:
        return Rejected(NAME, add, "the pair indices and freqs_cis columns are not (0, 0) and (1, 1)")
    freqs = (b1 if b0.gathered else b0).freqs  # the sliced branch's (..., D/2, 2, 2) table
    reshape6 = producer(b0.x6d, "ttir.reshape")
    if reshape6 is None:
        return Rejected(NAME, add, "x's pairs are not a reshape of x")
    x = inputs(reshape6)[0]
    xd = shape(x)
    if len(xd) != 4 or xd[-1] < 2 or xd[-1] % 2:
        return Rejected(NAME, add, f"x is {list(xd)}, not 4-D with an even last dimension")
    half = xd[-1] // 2
    x6 = shape(b0.x6d)
    if len(x6) != 6 or x6[-3:] != (half, 1, 2):
        return Rejected(NAME, add, f"x's pairs are {list(x6)}, not [..., {half}, 1, 2]")
    fd = shape(freqs)
    if len(fd) != 6 or fd[-3:] != (half, 2, 2):
        return Rejected(NAME, add, f"freqs_cis is {list(fd)}, not [..., {half}, 2, 2]")
    final = add.results[0].uses[0] if one_use(add.results[0]) else None
    if final is None or final.name != "ttir.reshape" or shape(final.results[0]) != xd:
        return Rejected(NAME, add, "the add's only reader is not a reshape back to x's shape")
    if final.results[0].type.resolve().element_type.resolve().text != x.type.resolve().element_type.resolve().text:
        return Rejected(NAME, add, "the result's element type is not x's")  # HEAD would replace a value of another type
    if not one_use(mul0.results[0]) or not one_use(mul1.results[0]):
        return Rejected(NAME, add, "a multiply has other readers")

    def build(b: Builder) -> list[Value]:
        out = _rewrite(b, x, freqs)
        return [out, out]  # the add's only reader, the reshape, is replaced too

    return Candidate(NAME, add, "ttcore.composite", build, note=NOTE, also=[final], cost_checked=False)  # type: ignore[arg-type]


def _slice(b: Builder, v: Value, dim: int, begin: int, end: int, step: int = 1) -> Value:
    """`v` sliced on one dimension, identity elsewhere (HEAD's buildSliceOnDim)."""
    t = v.type.resolve()
    dims = shape(v)
    begins, ends, steps = [0] * len(dims), list(dims), [1] * len(dims)
    begins[dim], ends[dim], steps[dim] = begin, end, step
    out = list(dims)
    out[dim] = ceil((end - begin) / step)
    return b.emit("slice_static", [v], TensorType(tuple(out), t.element_type), begins=i32_array(begins), ends=i32_array(ends), step=i32_array(steps))


def _rewrite(b: Builder, x: Value, freqs: Value) -> Value:
    xt = x.type.resolve()
    xd, fd = shape(x), shape(freqs)
    d, half, rank = xd[-1], xd[-1] // 2, len(fd)
    elem = xt.element_type
    cache = tuple(fd[: rank - 2])
    tables = []
    for row in (0, 1):  # cos = freqs[..., 0, 0], sin = freqs[..., 1, 0]
        picked = _slice(b, _slice(b, freqs, rank - 2, row, row + 1), rank - 1, 0, 1)
        h = b.emit("reshape", [picked], TensorType(cache, elem), shape=i32_array(cache))
        tables.append(b.emit("concat", [h, h], TensorType((*cache[:-1], d), elem), dim=IntegerAttr(len(cache) - 1, SI32)))
    evens, odds = _slice(b, x, 3, 0, d, 2), _slice(b, x, 3, 1, d, 2)
    x_rh = b.emit("concat", [evens, odds], xt, dim=IntegerAttr(3, SI32))
    rot = rope_composite(b, x_rh, tables[0], tables[1], x.type)
    split = (*xd[:-1], 2, half)
    halves = b.emit("reshape", [rot], TensorType(split, elem), shape=i32_array(split))
    paired = b.emit("permute", [halves], TensorType((*xd[:-1], half, 2), elem), permutation=DenseArrayAttr("i64", (0, 1, 2, 4, 3)))
    return b.emit("reshape", [paired], xt, shape=i32_array(xd))
