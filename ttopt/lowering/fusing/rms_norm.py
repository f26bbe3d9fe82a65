"""`(x * rsqrt(mean(x^2) + eps)) * gamma` -> `ttir.rms_norm` (HEAD's RMSNormFusionPattern).

Preconditions, as HEAD: the mean reduces the last dimension only; x^2 is `x * x`, `pow(x, 2)` or
`square(x)` of the same x the rsqrt scales (through reshapes, broadcasts and typecasts); eps is a
splat constant; gamma, once its broadcasts and reshapes are peeled off, is all 1s but its last
dimension, which is x's (reshaped to that one dimension); x and gamma have one element type.
The mean may also be the sum divided by (or multiplied by the reciprocal of) the dimension's size,
which HEAD first rewrites into a mean (ScaledSumToMeanPattern, ReductionWithReshapePattern).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ttopt.dialects.ttir import inputs
from ttopt.ir.attributes import DenseArrayAttr
from ttopt.lowering.fusing.match import (
    Builder,
    Candidate,
    Rejected,
    element,
    f32_attr,
    near,
    producer,
    reduced_along,
    shape,
    splat,
    through,
)

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation
    from ttopt.ir.values import Value

SAFE = ("ttir.broadcast", "ttir.reshape", "ttir.typecast")


def _mean_input(v: Value) -> Value | None:
    """v = mean(y) over the last dimension (or sum(y) / N, sum(y) * 1/N): y."""
    found = reduced_along(v, "ttir.mean")
    if found is not None:
        red, y, d = found
        return y if d == len(shape(y)) - 1 else None
    op = producer(v, "ttir.div", "ttir.multiply")
    if op is None:
        return None
    s, c = inputs(op)[:2]
    if op.name == "ttir.multiply" and splat(s) is not None:
        s, c = c, s
    found = reduced_along(s, "ttir.sum")
    if found is None:
        return None
    red, y, d = found
    n = shape(y)[-1]
    if d != len(shape(y)) - 1:
        return None
    want = float(n) if op.name == "ttir.div" else 1.0 / n
    return y if near(splat(c), want) else None


def _squared(v: Value) -> Value | None:
    sq = producer(v, "ttir.multiply", "ttir.pow", "ttir.square")
    if sq is None:
        return None
    if sq.name == "ttir.square":
        return through(inputs(sq)[0], *SAFE)
    a, b = inputs(sq)[:2]
    if sq.name == "ttir.multiply":
        return through(a, *SAFE) if a is b else None
    return through(a, *SAFE) if splat(b) == 2.0 else None


def match(outer: Operation) -> Candidate | Rejected | None:
    """(x * rsqrt(mean(x^2) + eps)) * gamma -> rms_norm(x, gamma)."""
    out_shape = shape(outer.results[0])
    if not out_shape:
        return None
    lhs, rhs = inputs(outer)[:2]
    for inner_v, gamma_raw in ((lhs, rhs), (rhs, lhs)):
        inner = producer(through(inner_v, "ttir.typecast"), "ttir.multiply")
        if inner is None:
            continue
        a, b = inputs(inner)[:2]
        for r_v, x_raw in ((a, b), (b, a)):
            rsqrt = producer(through(r_v, *SAFE), "ttir.rsqrt")
            if rsqrt is None:
                continue
            add = producer(through(inputs(rsqrt)[0], *SAFE), "ttir.add")
            if add is None:
                continue
            p, q = inputs(add)[:2]
            for m, e in ((p, q), (q, p)):
                y = _mean_input(m)
                if y is None:
                    continue
                x = through(x_raw, *SAFE)
                if _squared(y) is not x:
                    return Rejected("rms_norm", outer, "the mean is not of the square of the scaled input")
                eps = splat(e)
                if eps is None:
                    return Rejected("rms_norm", outer, "epsilon is not a splat constant")
                return _candidate(outer, x, gamma_raw, eps)
    return None


def _candidate(outer: Operation, x: Value, gamma_raw: Value, eps: float) -> Candidate | Rejected:
    d = shape(x)[-1] if shape(x) else 0
    if shape(x) != shape(outer.results[0]):
        return Rejected("rms_norm", outer, f"the input {list(shape(x))} is broadcast to the result {list(shape(outer.results[0]))}")
    gamma = through(gamma_raw, "ttir.broadcast", "ttir.reshape")
    gs = shape(gamma)
    if not gs or gs[-1] != d or any(s != 1 for s in gs[:-1]):
        return Rejected("rms_norm", outer, f"gamma {list(gs)} is not one value per element of the last dimension ({d})")
    if element(gamma) != element(x):
        return Rejected("rms_norm", outer, f"gamma is {element(gamma)}, the input {element(x)}")

    def build(b: Builder) -> Value:
        g = b.reshape(gamma, (d,))
        return b.emit("rms_norm", [x, g], outer.results[0].type, normalized_shape=DenseArrayAttr("i64", (d,)),
                      epsilon=f32_attr(float(eps)), operandSegmentSizes=DenseArrayAttr("i32", (1, 1, 0)))  # fmt: skip

    return Candidate("rms_norm", outer, "ttir.rms_norm", build, note=f"epsilon {eps:g}")
