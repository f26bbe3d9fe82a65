"""`(x - mean(x)) * rsqrt(var(x) + eps) [* gamma] [+ beta]` -> `ttir.layer_norm` over the last
dimension (tt-mlir HEAD has no such TTIR pattern: it fuses layer norms only from the
`tenstorrent.layer_norm` composite; this one takes the forms JAX programs export, Flax's LayerNorm
foremost).

Preconditions (layout ops as the rms_norm pattern reads them, fusing/row_stats.py):

* the anchor is the `add` of beta, or, without beta, the outermost `multiply` (or `div`); a
  multiply or div whose only reader is a multiply or add that matches too is left to that reader,
  so the norm takes its gamma and beta;
* the product, through typecasts, multiplies (in any grouping, operands broadcast to the product's
  shape) exactly one centred input `x - mean(x)`, one per-row inverse deviation and at most one
  gamma -- Flax multiplies rsqrt(var + eps) by gamma first -- or divides the centred input (times
  gamma) by `sqrt(var + eps)`; the inverse deviation is `rsqrt(var + eps)`, `1 / sqrt(var + eps)`
  or `reciprocal(sqrt(var + eps))`, eps a splat added under the root;
* var is `mean(x^2) - mean(x)^2` (Flax's fast variance), optionally under `maximum(0, .)` or the
  `relu` that pattern becomes (which only guards rounding: the variance the fused op computes is never negative), or
  `mean((x - mean(x))^2)`; every mean reduces the last dimension only (a mean, or a sum over N or
  times 1/N) and every x is the same value seen through reshapes and typecasts that keep the last
  dimension;
* gamma and beta, once broadcasts and reshapes are peeled off, are all 1s but their last dimension,
  which is x's; a widening typecast (to f32, of x's bf16 / f16 element type) is read through, as
  Flax casts its parameters to the f32 the norm computes in; they then have x's element type.

The norm runs on x as it is (before the f32 cast Flax puts around it), then is reshaped and
typecast to the anchor's type, as the rms_norm pattern does.
"""

from __future__ import annotations

from math import prod
from typing import TYPE_CHECKING

from ttopt.dialects.ttir import inputs
from ttopt.ir.attributes import DenseArrayAttr
from ttopt.lowering.fusing.match import Builder, Candidate, Rejected, element, f32_attr, producer, shape, splat, through
from ttopt.lowering.fusing.row_stats import centred, mean_input, mean_of, per_row, root_of, squared

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation
    from ttopt.ir.values import Value

NAME = "layer_norm"
MAX_FACTORS = 4  # centred input, inverse deviation, gamma, and one more to report as unexpected


def _variance_of(v: Value) -> Value | None:
    """v = mean(x^2) - mean(x)^2 [under maximum(0, .)] or mean((x - mean(x))^2), per row: x."""
    v = per_row(v)
    guard = producer(v, "ttir.maximum", "ttir.relu")
    if guard is not None and guard.name == "ttir.relu":  # the relu pattern fuses maximum(0, .) first
        v = per_row(inputs(guard)[0])
    elif guard is not None:
        a, b = inputs(guard)[:2]
        if splat(a) == 0.0:
            v = per_row(b)
        elif splat(b) == 0.0:
            v = per_row(a)
        else:
            return None
    diff = producer(v, "ttir.subtract")
    if diff is not None:
        m2, sq = inputs(diff)[:2]
        y = mean_input(m2)
        x = squared(y) if y is not None else None
        m = squared(per_row(sq))
        return x if x is not None and m is not None and mean_of(m) is x else None
    y = mean_input(v)
    c = squared(y) if y is not None else None
    return centred(c) if c is not None else None


def _factors(v: Value, num: list[Value], den: list[Value]) -> None:
    """The operands of the multiply / divide tree behind `v` (through typecasts): numerators, and
    the divisors."""
    op = producer(through(v, "ttir.typecast"), "ttir.multiply", "ttir.div")
    if op is None or len(num) + len(den) >= MAX_FACTORS:
        num.append(v)
        return
    a, b = inputs(op)[:2]
    _factors(a, num, den)
    if op.name == "ttir.div":
        den.append(b)
    else:
        _factors(b, num, den)


def _deviation(root: Operation) -> tuple[Value, float] | str | None:
    """`root` = (r)sqrt(var(x) + eps): (x, eps), or why not."""
    add = producer(per_row(inputs(root)[0]), "ttir.add")
    if add is None:
        return None
    p, q = inputs(add)[:2]
    for var, e in ((p, q), (q, p)):
        x = _variance_of(var)
        if x is None:
            continue
        eps = splat(e)
        if eps is None:
            return "epsilon is not a splat constant"
        return x, eps
    return None


def _param(v: Value, x: Value, what: str) -> Value | str:
    """gamma / beta as one value per element of x's last dimension, of x's element type, or why not."""
    d = shape(x)[-1]
    p = through(v, "ttir.broadcast", "ttir.reshape")
    cast = producer(p, "ttir.typecast")
    # Only a widening cast: reading a narrowed parameter at its source's precision would change it.
    if cast is not None and element(p) == "f32" and element(x) in ("bf16", "f16") and element(inputs(cast)[0]) == element(x):
        p = through(inputs(cast)[0], "ttir.broadcast", "ttir.reshape")
    ps = shape(p)
    if not ps or ps[-1] != d or any(s != 1 for s in ps[:-1]):
        return f"{what} {list(ps)} is not one value per element of the last dimension ({d})"
    if element(p) != element(x):
        return f"{what} is {element(p)}, the input {element(x)}"
    return p


def _normalized(v: Value) -> tuple[Value, float, Value | None] | str | None:
    """v = (x - mean) * rsqrt(var + eps) [* gamma] or (x - mean) [* gamma] / sqrt(var + eps):
    (x, eps, gamma), or why not (None: not a layer norm at all)."""
    if producer(through(v, "ttir.typecast"), "ttir.multiply", "ttir.div") is None:
        return None
    factors: list[Value] = []
    divisors: list[Value] = []
    _factors(v, factors, divisors)
    if len(divisors) > 1:
        return None
    roots = [(f, root_of(f, True)) for f in divisors] if divisors else [(f, root_of(f, False)) for f in factors]
    found = [(f, r) for f, r in roots if r is not None]
    if len(found) != 1:
        return None
    leaf, root = found[0]
    dev = _deviation(root)
    if dev is None or isinstance(dev, str):
        return dev
    x, eps = dev
    rest = [f for f in factors if f is not leaf]
    shifted = [f for f in rest if centred(f) is x]
    if len(shifted) != 1:
        return None if not shifted else "the centred input is multiplied in twice"
    rest.remove(shifted[0])
    if len(rest) > 1:
        return f"{len(rest)} factors besides the centred input and its deviation (one gamma at most)"
    gamma = _param(rest[0], x, "gamma") if rest else None
    if isinstance(gamma, str):
        return gamma
    return x, eps, gamma


def _part_of_larger(op: Operation) -> bool:
    """Whether the only reader of `op` is a multiply (by gamma) or an add (of beta) that is itself a
    layer norm: the larger match is the anchor, so the norm takes its weight and bias."""
    uses = list(op.results[0].uses)
    if len(uses) != 1 or uses[0].name not in ("ttir.multiply", "ttir.add"):
        return False
    if uses[0].name == "ttir.add":
        return isinstance(match(uses[0]), Candidate)
    # a multiply that is a layer norm too: it, or what reads it in turn, is the anchor
    return isinstance(_normalized(uses[0].results[0]), tuple)


def match(anchor: Operation) -> Candidate | Rejected | None:
    """(x - mean(x)) * rsqrt(var(x) + eps) [* gamma] [+ beta] -> layer_norm(x, gamma, beta)."""
    if not shape(anchor.results[0]):
        return None
    if anchor.name in ("ttir.multiply", "ttir.div"):
        found = _normalized(anchor.results[0])
        if found is None or _part_of_larger(anchor):
            return None
        if isinstance(found, str):
            return Rejected(NAME, anchor, found)
        return _candidate(anchor, *found, None)
    lhs, rhs = inputs(anchor)[:2]
    for prod_v, beta_v in ((lhs, rhs), (rhs, lhs)):
        found = _normalized(prod_v)
        if found is None:
            continue
        if isinstance(found, str):
            return Rejected(NAME, anchor, found)
        x, eps, gamma = found
        beta = _param(beta_v, x, "beta")
        if isinstance(beta, str):
            return None  # the multiply then fuses without its bias
        return _candidate(anchor, x, eps, gamma, beta)
    return None


def _candidate(anchor: Operation, x: Value, eps: float, gamma: Value | None, beta: Value | None) -> Candidate | Rejected:
    d = shape(x)[-1]
    out = shape(anchor.results[0])
    if out[-1] != d or prod(out) != prod(shape(x)):
        return Rejected(NAME, anchor, f"the input {list(shape(x))} is broadcast to the result {list(out)}")

    def build(b: Builder) -> Value:
        params = [b.reshape(p, (d,)) for p in (gamma, beta) if p is not None]
        y = b.emit("layer_norm", [x, *params], x.type, normalized_shape=DenseArrayAttr("i64", (d,)), epsilon=f32_attr(eps),
                   operandSegmentSizes=DenseArrayAttr("i32", (1, int(gamma is not None), int(beta is not None))))  # fmt: skip
        y = b.reshape(y, out)
        if element(y) != element(anchor.results[0]):
            y = b.emit("typecast", [y], anchor.results[0].type)
        return y

    parts = [p for p, v in (("gamma", gamma), ("beta", beta)) if v is not None]
    return Candidate(NAME, anchor, "ttir.layer_norm", build, note=f"epsilon {eps:g}" + (f", {' and '.join(parts)}" if parts else ""))
