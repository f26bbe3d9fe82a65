"""Per-row statistics of a tensor, seen through the layout ops around them: the shared reading of
the norm patterns (rms_norm, layer_norm), which all reduce the last dimension and scale or shift
each row by its own statistic."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ttopt.dialects.ttir import inputs
from ttopt.lowering.fusing.match import near, producer, reduce_dims, shape, splat, through

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation
    from ttopt.ir.values import Value

LAST_DIM_OPS = ("ttir.reshape", "ttir.typecast")


def same_rows(v: Value) -> Value:
    """`v` through reshapes and typecasts that keep its last dimension (HEAD's lookThroughSafeOps)."""
    while True:
        p = producer(v, *LAST_DIM_OPS)
        if p is None:
            return v
        src = inputs(p)[0]
        if not shape(src) or not shape(v) or shape(src)[-1] != shape(v)[-1]:
            return v
        v = src


def per_row(v: Value) -> Value:
    """`v` through order-keeping reshapes, typecasts and broadcasts along the last dimension only."""
    while True:
        p = producer(v, "ttir.reshape", "ttir.typecast", "ttir.broadcast")
        if p is None:
            return v
        if p.name == "ttir.broadcast":
            src = shape(inputs(p)[0])
            if not src or any(a != b for a, b in zip(src[:-1], shape(v)[:-1])) or len(src) != len(shape(v)):
                return v
        v = inputs(p)[0]


def mean_input(v: Value) -> Value | None:
    """v = mean(y) over y's last dimension (or sum(y) / N, sum(y) * 1/N), through reshapes: y."""
    v = through(v, "ttir.reshape")
    red = producer(v, "ttir.mean")
    scale = None
    if red is None:
        op = producer(v, "ttir.div", "ttir.multiply")
        if op is None:
            return None
        s, c = inputs(op)[:2]
        if op.name == "ttir.multiply" and splat(s) is not None:
            s, c = c, s
        red = producer(through(s, "ttir.reshape"), "ttir.sum")
        scale = (op.name, splat(c))
    if red is None:
        return None
    y = inputs(red)[0]
    if not shape(y) or reduce_dims(red) != [len(shape(y)) - 1]:
        return None
    if scale is not None:
        n = shape(y)[-1]
        if not near(scale[1], float(n) if scale[0] == "ttir.div" else 1.0 / n):
            return None
    return y


def squared(v: Value) -> Value | None:
    """v = y * y, pow(y, 2) or square(y): y through reshapes and typecasts that keep its last dimension."""
    sq = producer(v, "ttir.multiply", "ttir.pow", "ttir.square")
    if sq is None:
        return None
    if sq.name == "ttir.square":
        return same_rows(inputs(sq)[0])
    a, b = inputs(sq)[:2]
    if sq.name == "ttir.multiply":
        return same_rows(a) if a is b else None
    return same_rows(a) if splat(b) == 2.0 else None


def mean_of(v: Value) -> Value | None:
    """v (per row) = mean(y) over the last dimension: y through reshapes and typecasts keeping it."""
    y = mean_input(per_row(v))
    return same_rows(y) if y is not None else None


def centred(v: Value) -> Value | None:
    """v = x - mean(x) (x through last-dimension-keeping layout ops): x."""
    sub = producer(through(v, "ttir.typecast"), "ttir.subtract")
    if sub is None:
        return None
    a, m = inputs(sub)[:2]
    x = same_rows(a)
    return x if mean_of(m) is x else None


def root_of(r_v: Value, divides: bool) -> Operation | None:
    """The op taking the root of `mean + eps` when `r_v` (per row) is that root's reciprocal:
    `rsqrt(s)`, or, beyond HEAD, `1 / sqrt(s)` and `reciprocal(sqrt(s))`; when the norm divides by
    `r_v`, `sqrt(s)` itself."""
    r = per_row(r_v)
    if divides:
        return producer(r, "ttir.sqrt")
    found = producer(r, "ttir.rsqrt")
    if found is not None:
        return found
    inv = producer(r, "ttir.div", "ttir.reciprocal")
    if inv is None or (inv.name == "ttir.div" and splat(inputs(inv)[0]) != 1.0):
        return None
    return producer(per_row(inputs(inv)[-1]), "ttir.sqrt")
