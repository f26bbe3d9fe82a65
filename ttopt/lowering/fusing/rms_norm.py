"""`(x * rsqrt(mean(x^2) + eps)) * gamma` -> `ttir.rms_norm` (HEAD's RMSNormFusionPattern).

Preconditions, as HEAD: the mean reduces the last dimension only; x^2 is `x * x`, `pow(x, 2)` or
`square(x)` of the same x the rsqrt scales, seen through reshapes and typecasts that keep the last
dimension; eps is a splat constant; gamma, once its broadcasts and reshapes are peeled off, is all
1s but its last dimension, which is x's (reshaped to that one dimension); x and gamma have one
element type. The per-row statistic may pass through reshapes and typecasts and is broadcast over
the last dimension only, so each row is scaled by its own statistic. The mean may also be the sum
divided by (or multiplied by the reciprocal of) the dimension's size, which HEAD first rewrites into
a mean (ScaledSumToMeanPattern, ReductionWithReshapePattern). The norm runs on x as it is and is
then reshaped and typecast to the multiply's type (HEAD's reshapeAndCastToType).
"""

from __future__ import annotations

from math import prod
from typing import TYPE_CHECKING

from ttopt.dialects.ttir import inputs
from ttopt.ir.attributes import DenseArrayAttr
from ttopt.lowering.fusing.match import Builder, Candidate, Rejected, element, f32_attr, near, producer, reduce_dims, shape, splat, through

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation
    from ttopt.ir.values import Value

LAST_DIM_OPS = ("ttir.reshape", "ttir.typecast")


def _same_rows(v: Value) -> Value:
    """`v` through reshapes and typecasts that keep its last dimension (HEAD's lookThroughSafeOps)."""
    while True:
        p = producer(v, *LAST_DIM_OPS)
        if p is None:
            return v
        src = inputs(p)[0]
        if not shape(src) or not shape(v) or shape(src)[-1] != shape(v)[-1]:
            return v
        v = src


def _per_row(v: Value) -> Value:
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


def _mean_input(v: Value) -> Value | None:
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


def _squared(v: Value) -> Value | None:
    sq = producer(v, "ttir.multiply", "ttir.pow", "ttir.square")
    if sq is None:
        return None
    if sq.name == "ttir.square":
        return _same_rows(inputs(sq)[0])
    a, b = inputs(sq)[:2]
    if sq.name == "ttir.multiply":
        return _same_rows(a) if a is b else None
    return _same_rows(a) if splat(b) == 2.0 else None


def match(outer: Operation) -> Candidate | Rejected | None:
    """(x * rsqrt(mean(x^2) + eps)) * gamma -> rms_norm(x, gamma)."""
    if not shape(outer.results[0]):
        return None
    lhs, rhs = inputs(outer)[:2]
    for inner_v, gamma_raw in ((lhs, rhs), (rhs, lhs)):
        inner = producer(through(inner_v, "ttir.typecast"), "ttir.multiply")
        if inner is None:
            continue
        a, b = inputs(inner)[:2]
        for r_v, x_raw in ((a, b), (b, a)):
            rsqrt = producer(_per_row(r_v), "ttir.rsqrt")
            if rsqrt is None:
                continue
            add = producer(_per_row(inputs(rsqrt)[0]), "ttir.add")
            if add is None:
                continue
            p, q = inputs(add)[:2]
            for m, e in ((p, q), (q, p)):
                y = _mean_input(m)
                if y is None:
                    continue
                x = _same_rows(x_raw)
                if _squared(y) is not x:
                    return Rejected("rms_norm", outer, "the mean is not of the square of the scaled input")
                eps = splat(e)
                if eps is None:
                    return Rejected("rms_norm", outer, "epsilon is not a splat constant")
                return _candidate(outer, x, gamma_raw, eps)
    return None


def _candidate(outer: Operation, x: Value, gamma_raw: Value, eps: float) -> Candidate | Rejected:
    d = shape(x)[-1]
    out = shape(outer.results[0])
    if out[-1] != d or prod(out) != prod(shape(x)):
        return Rejected("rms_norm", outer, f"the input {list(shape(x))} is broadcast to the result {list(out)}")
    gamma = through(gamma_raw, "ttir.broadcast", "ttir.reshape")
    gs = shape(gamma)
    if not gs or gs[-1] != d or any(s != 1 for s in gs[:-1]):
        return Rejected("rms_norm", outer, f"gamma {list(gs)} is not one value per element of the last dimension ({d})")
    if element(gamma) != element(x):
        return Rejected("rms_norm", outer, f"gamma is {element(gamma)}, the input {element(x)}")

    def build(b: Builder) -> Value:
        g = b.reshape(gamma, (d,))
        y = b.emit("rms_norm", [x, g], x.type, normalized_shape=DenseArrayAttr("i64", (d,)), epsilon=f32_attr(eps),
                   operandSegmentSizes=DenseArrayAttr("i32", (1, 1, 0)))  # fmt: skip
        y = b.reshape(y, out)
        if element(y) != element(outer.results[0]):
            y = b.emit("typecast", [y], outer.results[0].type)
        return y

    return Candidate("rms_norm", outer, "ttir.rms_norm", build, note=f"epsilon {eps:g}")
