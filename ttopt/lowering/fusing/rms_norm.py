"""`(x * rsqrt(mean(x^2) + eps)) * gamma` -> `ttir.rms_norm` (HEAD's RMSNormFusionPattern).

Preconditions, as HEAD: the mean reduces the last dimension only; x^2 is `x * x`, `pow(x, 2)` or
`square(x)` of the same x the rsqrt scales, seen through reshapes and typecasts that keep the last
dimension; eps is a splat constant; gamma, once its broadcasts and reshapes are peeled off, is all
1s but its last dimension, which is x's (reshaped to that one dimension); x and gamma have one
element type, or x's producer computes in a wider type only because typecasts from gamma's type were
folded into it (HEAD's revertTypecastFolding): the norm then takes x cast back, placed right after
its producer, and x's other readers read that cast widened again, so they see x rounded as in HEAD. The per-row statistic may pass through reshapes and typecasts and is broadcast over
the last dimension only, so each row is scaled by its own statistic. The mean may also be the sum
divided by (or multiplied by the reciprocal of) the dimension's size, which HEAD first rewrites into
a mean (ScaledSumToMeanPattern, ReductionWithReshapePattern). The norm runs on x as it is and is
then reshaped and typecast to the multiply's type (HEAD's reshapeAndCastToType).

Beyond HEAD, the forms Hugging Face's Flax RMS norms (Llama, Mistral, Gemma, T5) export, which
divide by the root instead of multiplying by its reciprocal: `x / sqrt(mean(x^2) + eps) * gamma`,
`x * (1 / sqrt(mean(x^2) + eps)) * gamma` and `x * reciprocal(sqrt(...)) * gamma` -- the same
number, as x / s == x * rsqrt(s^2). eps must be added under the root (eps added after it is another
function). In these forms gamma may also be a widening typecast of a tensor of x's element type (T5
casts its weight to f32 where the norm computes in f32): the norm then takes the weight as it was
before the cast, as it takes x before the cast Flax puts around the norm. Gemma's `(1 + w)` weight
is gamma as it is: computed once on the [D] weight (and hoisted by const-eval when w is a
parameter), before its broadcast, as the unfused program computes it.
"""

from __future__ import annotations

from math import prod
from typing import TYPE_CHECKING

from ttopt.dialects.ttir import inputs
from ttopt.ir.attributes import DenseArrayAttr
from ttopt.ir.types import TensorType
from ttopt.lowering.fusing.match import Builder, Candidate, Rejected, element, f32_attr, producer, shape, splat, through
from ttopt.lowering.fusing.row_stats import centred, mean_input, per_row, root_of, same_rows, squared

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation
    from ttopt.ir.values import Value

def match(outer: Operation) -> Candidate | Rejected | None:
    """(x * rsqrt(mean(x^2) + eps)) * gamma, or x / sqrt(mean(x^2) + eps) * gamma -> rms_norm(x, gamma)."""
    if not shape(outer.results[0]):
        return None
    lhs, rhs = inputs(outer)[:2]
    for inner_v, gamma_raw in ((lhs, rhs), (rhs, lhs)):
        inner = producer(through(inner_v, "ttir.typecast"), "ttir.multiply", "ttir.div")
        if inner is None:
            continue
        a, b = inputs(inner)[:2]
        divides = inner.name == "ttir.div"
        # A division's root is its denominator; a product's reciprocal root is either operand.
        for r_v, x_raw in ((b, a),) if divides else ((a, b), (b, a)):
            rsqrt = root_of(r_v, divides)
            if rsqrt is None:
                continue
            add = producer(per_row(inputs(rsqrt)[0]), "ttir.add")
            if add is None:
                continue
            p, q = inputs(add)[:2]
            for m, e in ((p, q), (q, p)):
                y = mean_input(m)
                if y is None:
                    continue
                x = same_rows(x_raw)
                if rsqrt.name != "ttir.rsqrt" and centred(x) is not None:
                    # x - mean(x) scaled by its own RMS is a layer norm: the layer_norm pattern
                    # takes it whole (HEAD's rsqrt form stays HEAD's rms_norm of the centred x).
                    return None
                if squared(y) is not x:
                    return Rejected("rms_norm", outer, "the mean is not of the square of the scaled input")
                eps = splat(e)
                if eps is None:
                    return Rejected("rms_norm", outer, "epsilon is not a splat constant")
                return _candidate(outer, x, gamma_raw, eps, widened_gamma=rsqrt.name != "ttir.rsqrt")
    return None


def _candidate(outer: Operation, x: Value, gamma_raw: Value, eps: float, widened_gamma: bool = False) -> Candidate | Rejected:
    d = shape(x)[-1]
    out = shape(outer.results[0])
    if out[-1] != d or prod(out) != prod(shape(x)):
        return Rejected("rms_norm", outer, f"the input {list(shape(x))} is broadcast to the result {list(out)}")
    gamma = through(gamma_raw, "ttir.broadcast", "ttir.reshape")
    gs = shape(gamma)
    if not gs or gs[-1] != d or any(s != 1 for s in gs[:-1]):
        return Rejected("rms_norm", outer, f"gamma {list(gs)} is not one value per element of the last dimension ({d})")
    cast = producer(gamma, "ttir.typecast") if widened_gamma else None
    # Only a widening cast: reading a narrowed weight at its source's precision would change it.
    if cast is not None and element(gamma) == "f32" and element(x) in ("bf16", "f16") and element(inputs(cast)[0]) == element(x):
        gamma = through(inputs(cast)[0], "ttir.broadcast", "ttir.reshape")
        gs = shape(gamma)
        if not gs or gs[-1] != d or any(s != 1 for s in gs[:-1]):
            return Rejected("rms_norm", outer, f"gamma {list(gs)} is not one value per element of the last dimension ({d})")
    narrow = None
    if element(gamma) != element(x):
        narrow = _folded_typecast(x, outer)
        if narrow != element(gamma):
            return Rejected("rms_norm", outer, f"gamma is {element(gamma)}, the input {element(x)}")

    def build(b: Builder) -> Value:
        g = b.reshape(gamma, (d,))
        xn = x
        if narrow is not None:
            t = x.type.resolve()
            xn = b.emit_after(x.op, "typecast", [x], TensorType(t.shape, gamma.type.resolve().element_type, t.encoding))  # type: ignore[attr-defined]
            b.rounded.append((x, xn))
        y = b.emit("rms_norm", [xn, g], xn.type, normalized_shape=DenseArrayAttr("i64", (d,)), epsilon=f32_attr(eps),
                   operandSegmentSizes=DenseArrayAttr("i32", (1, 1, 0)))  # fmt: skip
        y = b.reshape(y, out)
        if element(y) != element(outer.results[0]):
            y = b.emit("typecast", [y], outer.results[0].type)
        return y

    note = f"epsilon {eps:g}" + (f", input cast back to {narrow} (a folded typecast)" if narrow else "")
    return Candidate("rms_norm", outer, "ttir.rms_norm", build, note=note)


def _folded_typecast(x: Value, outer: Operation) -> str | None:
    """The element type x's producer computes in only because typecasts of its operands were folded
    into it, if one: every operand reached through a typecast (past reshapes and permutes) is cast
    from that one type (HEAD's revertTypecastFolding). The norm then takes x cast back to it."""
    op = getattr(x, "op", None)
    if op is None or op.parent is not outer.parent:
        return None
    sources = {element(inputs(t)[0]) for v in op.operands if (t := producer(through(v, "ttir.reshape", "ttir.permute"), "ttir.typecast"))}
    if len(sources) != 1:
        return None
    (source,) = sources
    return source if source != element(x) else None
