"""`x / clamp_min(sqrt(sum(x^2, d)), eps) * sqrt(D) [* gamma]` -> `ttir.rms_norm` over dimension d
(HEAD's NormalizeRMSNormFusionPattern: an RMS norm exported as torch's F.normalize scaled by sqrt(D),
since x / sqrt(sum(x^2)) * sqrt(D) == x / sqrt(mean(x^2))).

Preconditions, as HEAD (layout ops are reshapes, broadcasts, typecasts and repeat_interleaves):

* the anchor multiply reads a `ttir.div` (through typecasts) and a splat scale within 2% of sqrt(D),
  D > 1 the size of the reduced dimension;
* the numerator, through layout ops, is x; the denominator, through layout ops, is optionally a
  `clamp_tensor` with a splat minimum (or a `clamp_scalar`) between 0 and 1e-3 -- a larger floor is
  a real clamp, not an epsilon guard -- of `sqrt(s)` or `pow(s, ~0.5)`;
* s is, through layout ops, a `ttir.sum` over one dimension of `pow(v, ~2)` or `v * v`, v (through
  layout ops, and an `abs`) being x itself.

The clamp floor e becomes the norm's epsilon e^2 / D. When the anchor is read only by another
multiply whose other operand, through layout ops, holds exactly D elements, that is gamma: it
becomes the norm's weight (reshaped to [D], typecast to x's element type) and that multiply is the
one replaced; otherwise the norm has no weight. A reduced dimension that is not the last is
permuted last and back around the norm. The result is reshaped and typecast to the replaced
multiply's type. The new ops take the anchor's location, as HEAD creates them.
"""

from __future__ import annotations

from math import prod, sqrt
from typing import TYPE_CHECKING

from ttopt.dialects.ttir import inputs
from ttopt.ir.attributes import DenseArrayAttr
from ttopt.ir.types import TensorType
from ttopt.lowering.fusing.match import (
    Builder,
    Candidate,
    Rejected,
    element,
    f32_attr,
    one_use,
    producer,
    reduce_dims,
    shape,
    splat,
    through,
)

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation
    from ttopt.ir.values import Value

NAME = "normalize_rms_norm"
LAYOUT = ("ttir.typecast", "ttir.reshape", "ttir.broadcast", "ttir.repeat_interleave")
MAX_EPS_GUARD = 1e-3  # a larger clamp floor changes the result: it is not an epsilon guard


def _about(v: Value, expected: float, rel: float) -> bool:
    """`v` is a splat within `rel` of `expected` (relative to max(|expected|, 1), as HEAD)."""
    got = splat(through(v, *LAYOUT))
    return got is not None and abs(got - expected) / max(abs(expected), 1.0) <= rel


def _root(v: Value, name: str) -> Operation | None:
    return producer(through(v, *LAYOUT), name)


def _sum_of_squares(v: Value) -> tuple[Operation, Value] | None:
    """v = sqrt(sum(base^2)) or pow(sum(base^2), 0.5), through layout ops: (the sum, base)."""
    root = through(v, *LAYOUT)
    op = producer(root, "ttir.sqrt", "ttir.pow")
    if op is None or (op.name == "ttir.pow" and not _about(inputs(op)[1], 0.5, 1e-3)):
        return None
    red = _root(inputs(op)[0], "ttir.sum")
    if red is None:
        return None
    sq = _root(inputs(red)[0], "ttir.pow") or _root(inputs(red)[0], "ttir.multiply")
    if sq is None:
        return None
    a, b = inputs(sq)[:2]
    if (sq.name == "ttir.pow" and not _about(b, 2.0, 1e-3)) or (sq.name == "ttir.multiply" and a is not b):
        return None
    base = through(a, *LAYOUT)
    absolute = producer(base, "ttir.abs")
    return red, (through(inputs(absolute)[0], *LAYOUT) if absolute is not None else base)


def _guard(den: Value) -> tuple[float | str, Value]:
    """The denominator's clamp floor (or why it is no epsilon guard) and what it clamps; 0 and the
    denominator without a clamp."""
    root = through(den, *LAYOUT)
    clamp = producer(root, "ttir.clamp_tensor", "ttir.clamp_scalar")
    if clamp is None:
        return 0.0, den
    if clamp.name == "ttir.clamp_tensor":
        low = splat(inputs(clamp)[1])
    else:
        value = getattr(clamp.properties.get("min"), "value", None)
        low = float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None
    if low is None:
        return "the clamp's minimum is not a splat constant", inputs(clamp)[0]
    if not 0.0 <= low <= MAX_EPS_GUARD:
        return f"the clamp floor {low:g} is not an epsilon guard (0 to {MAX_EPS_GUARD:g})", inputs(clamp)[0]
    return low, inputs(clamp)[0]



def _along(g: Value, d: int, rank: int) -> bool:
    """Whether `g` (read through broadcasts, aligned to `rank` dims from the right) varies only
    along dim `d`: the weight of a norm over `d`, not a tensor of another dim of the same size."""
    while (b := producer(g, "ttir.broadcast")) is not None:
        g = inputs(b)[0]
    gs = (1,) * (rank - len(shape(g))) + tuple(shape(g))
    return len(gs) == rank and all(e == 1 for i, e in enumerate(gs) if i != d)

def match(mul: Operation) -> Candidate | Rejected | None:
    """(x / clamp_min(sqrt(sum(x^2, d)), eps)) * sqrt(D) [* gamma] -> rms_norm over d."""
    lhs, rhs = inputs(mul)[:2]
    div, scale = producer(through(lhs, "ttir.typecast"), "ttir.div"), rhs
    if div is None:
        div, scale = producer(through(rhs, "ttir.typecast"), "ttir.div"), lhs
    if div is None:
        return None
    num, den = inputs(div)[:2]
    x = through(num, *LAYOUT)
    low, clamped = _guard(den)
    found = _sum_of_squares(clamped)
    if found is None:
        return None
    red, base = found
    if isinstance(low, str):
        return Rejected(NAME, mul, low)
    dims = reduce_dims(red)
    if dims is None or len(dims) != 1:
        return Rejected(NAME, mul, "the sum is not over one dimension")
    if base is not x:
        return Rejected(NAME, mul, "the squares summed are not of the normalized tensor")
    d, xs = dims[0], shape(x)
    if d >= len(xs) or xs[d] <= 1:
        return Rejected(NAME, mul, "the reduced dimension has fewer than 2 elements")
    size = xs[d]
    if not _about(scale, sqrt(size), 0.02):
        return Rejected(NAME, mul, f"the scale is not sqrt({size}) (an L2 normalization, not an RMS norm)")
    eps = low**2 / size
    target, gamma = mul, None
    if one_use(mul.results[0]):
        user = next(iter(mul.results[0].uses))
        if user.name == "ttir.multiply":
            a, b = inputs(user)[:2]
            g = b if a is mul.results[0] else a
            src = through(g, *LAYOUT)
            if src is not mul.results[0] and prod(shape(src)) == size and _along(g, d, len(xs)):
                target, gamma = user, src

    def build(bld: Builder) -> Value:
        weight = None
        if gamma is not None:
            weight = bld.reshape(gamma, (size,))
            if element(weight) != element(x):
                weight = bld.emit("typecast", [weight], TensorType((size,), x.type.resolve().element_type, weight.type.resolve().encoding))
        xt = x.type.resolve()
        rank = len(xs)
        order = [i for i in range(rank) if i != d] + [d]
        src = x
        if d != rank - 1:
            src = bld.emit("permute", [x], TensorType(tuple(xs[i] for i in order), xt.element_type, xt.encoding), permutation=DenseArrayAttr("i64", tuple(order)))
        y = bld.emit("rms_norm", [src] + ([weight] if weight is not None else []), src.type, normalized_shape=DenseArrayAttr("i64", (size,)),
                     epsilon=f32_attr(eps), operandSegmentSizes=DenseArrayAttr("i32", (1, int(weight is not None), 0)))  # fmt: skip
        if d != rank - 1:
            y = bld.emit("permute", [y], xt, permutation=DenseArrayAttr("i64", tuple(order.index(i) for i in range(rank))))
        y = bld.reshape(y, shape(target.results[0]))
        if element(y) != element(target.results[0]):
            y = bld.emit("typecast", [y], target.results[0].type)
        for o in bld.ops:
            o.location = mul.location
        return y

    return Candidate(NAME, target, "ttir.rms_norm", build, note=f"over dimension {d}" + (", gamma as its weight" if gamma is not None else ""))
