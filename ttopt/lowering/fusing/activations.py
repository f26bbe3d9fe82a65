"""Activations from their parts (HEAD's ReluFusionPattern, SiluFusionPattern, GeluFusionPattern).

* `maximum(x, 0)` (either side; zeros or a zero fill) -> `ttir.relu(x)`.
* `minimum(relu(x), 6)` (either side) -> `ttir.relu6(x)`; as at HEAD, x has one use.
* `multiply(x, sigmoid(x))` (either side, through typecasts) -> `ttir.silu(x)`, typecast to the
  multiply's type when that differs; the sigmoid has one use.
* `0.5 * x * (1 + erf(x * 0.70710678))` or `0.5 * x * (1 + tanh(0.7978845608 * (x + 0.044715 * x^3)))`
  (the three factors in any order and nesting of two multiplies; x^3 as `pow(x, 3)` or `x * x * x`)
  -> `ttir.gelu(x)`. Constants match within HEAD's relative tolerance of 1.5e-3. As at HEAD, the
  tanh form also becomes the erf gelu (ttir.gelu has no approximate flag).
* `relu6(x + 3) / 6` (the add either side) -> `ttir.hardsigmoid(x)`; the relu6 and the add have one
  use (HEAD's HardsigmoidFusionPattern).
* `x * tanh(softplus(x))` (either side, through typecasts), softplus in its numerically stable form
  `where(x > c, x, log1p(exp(x)))` -> `ttir.mish(x)`, typecast to the multiply's type when that
  differs; the tanh, where, log1p and exp have one use (HEAD's MishFusingPattern).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ttopt.dialects.ttir import inputs
from ttopt.lowering.fusing.match import Builder, Candidate, Rejected, near, one_use, producer, shape, splat, through

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation
    from ttopt.ir.values import Value

RECIPROCAL_SQRT_2 = 0.7071067811865476
SQRT_2_OVER_PI = 0.7978845608028654
CUBED_COEFFICIENT = 0.044715


def _unary(name: str, x: Value, anchor: Operation, pattern: str, note: str = "") -> Candidate:
    def build(b: Builder) -> Value:
        return b.emit(name, [x], anchor.results[0].type)

    return Candidate(pattern, anchor, f"ttir.{name}", build, note=note)


def match_relu(op: Operation) -> Candidate | Rejected | None:
    """maximum(x, 0) -> relu(x)."""
    a, b = inputs(op)[:2]
    if splat(b) == 0.0:
        x = a
    elif splat(a) == 0.0:
        x = b
    else:
        return None
    if x.type.resolve().text != op.results[0].type.resolve().text:
        return Rejected("relu", op, "the operand is broadcast to the result (relu keeps the shape)")
    return _unary("relu", x, op, "relu")


def match_relu6(op: Operation) -> Candidate | Rejected | None:
    """minimum(relu(x), 6) -> relu6(x)."""
    a, b = inputs(op)[:2]
    relu, six = producer(a, "ttir.relu"), b
    if relu is None:
        relu, six = producer(b, "ttir.relu"), a
    if relu is None or not near(splat(six), 6.0, 1e-6):
        return None
    x = inputs(relu)[0]
    if not one_use(x):
        return Rejected("relu6", op, "the relu's input has other users")
    if x.type.resolve().text != op.results[0].type.resolve().text:
        return Rejected("relu6", op, "the relu's input is broadcast to the result")
    return _unary("relu6", x, op, "relu6")


def match_silu(op: Operation) -> Candidate | Rejected | None:
    """x * sigmoid(x) -> silu(x)."""
    a, b = (through(v, "ttir.typecast") for v in inputs(op)[:2])
    sig, other = producer(a, "ttir.sigmoid"), b
    if sig is None:
        sig, other = producer(b, "ttir.sigmoid"), a
    if sig is None:
        return None
    if through(inputs(sig)[0], "ttir.typecast") is not other:
        return None
    if not one_use(sig.results[0]):
        return Rejected("silu", op, "the sigmoid has other users")
    return _unary_of_multiply("silu", other, op)


def _unary_of_multiply(name: str, x: Value, op: Operation) -> Candidate | Rejected:
    """`name`(x) for the multiply `op`, in x's type, typecast to the multiply's when that differs
    (as HEAD builds silu and mish from a multiply read through typecasts)."""
    if shape(x) != shape(op.results[0]):
        return Rejected(name, op, "the input is broadcast to the result")
    if x.type.resolve().text == op.results[0].type.resolve().text:
        return _unary(name, x, op, name)

    def build(b: Builder) -> Value:
        return b.emit("typecast", [b.emit(name, [x], x.type)], op.results[0].type)

    return Candidate(name, op, f"ttir.{name}", build, note="typecast to the result type")


def match_hardsigmoid(op: Operation) -> Candidate | Rejected | None:
    """relu6(x + 3) / 6 -> hardsigmoid(x)."""
    num, den = inputs(op)[:2]
    relu6 = producer(num, "ttir.relu6")
    if relu6 is None or splat(den) != 6.0:
        return None
    add = producer(inputs(relu6)[0], "ttir.add")
    if add is None:
        return None
    a, b = inputs(add)[:2]
    x = a if splat(b) == 3.0 else b if splat(a) == 3.0 else None
    if x is None:
        return None
    if not one_use(relu6.results[0]) or not one_use(add.results[0]):
        return Rejected("hardsigmoid", op, "the relu6 or the add has other users")
    if x.type.resolve().text != op.results[0].type.resolve().text:
        return Rejected("hardsigmoid", op, "the input is broadcast to the result")
    return _unary("hardsigmoid", x, op, "hardsigmoid")


def _stable_softplus(v: Value) -> Value | None:
    """v = where(x > c, x, log1p(exp(x))), each step with one use: x."""
    where = producer(v, "ttir.where")
    if where is None or not one_use(v):
        return None
    cond, x, other = inputs(where)[:3]
    log1p = producer(other, "ttir.log1p")
    gt = producer(cond, "ttir.gt")
    if log1p is None or not one_use(other) or gt is None or inputs(gt)[0] is not x:
        return None
    exp = producer(inputs(log1p)[0], "ttir.exp")
    if exp is None or not one_use(exp.results[0]) or inputs(exp)[0] is not x:
        return None
    return x


def match_mish(op: Operation) -> Candidate | Rejected | None:
    """x * tanh(softplus(x)) -> mish(x)."""
    a, b = (through(v, "ttir.typecast") for v in inputs(op)[:2])
    tanh, x = producer(a, "ttir.tanh"), b
    if tanh is None:
        tanh, x = producer(b, "ttir.tanh"), a
    if tanh is None or _stable_softplus(inputs(tanh)[0]) is not x:
        return None
    if not one_use(tanh.results[0]):
        return Rejected("mish", op, "the tanh has other users")
    return _unary_of_multiply("mish", x, op)


def _factors(op: Operation) -> list[tuple[Value, Value, Value]]:
    """The triples (a, b, c) with op = (a * b) * c or a * (b * c)."""
    lhs, rhs = inputs(op)[:2]
    out = []
    m = producer(lhs, "ttir.multiply")
    if m is not None:
        out.append((rhs, *inputs(m)[:2]))
    m = producer(rhs, "ttir.multiply")
    if m is not None:
        out.append((*inputs(m)[:2], lhs))
    return out


def _one_plus(v: Value, name: str) -> Value | None:
    """v = 1 + name(y) (either side): y."""
    add = producer(v, "ttir.add")
    if add is None:
        return None
    a, b = inputs(add)[:2]
    for one, other in ((a, b), (b, a)):
        if near(splat(one), 1.0):
            f = producer(other, name)
            if f is not None:
                return inputs(f)[0]
    return None


def _scaled(v: Value, constant: float) -> Value | None:
    """v = y * constant (either side): y."""
    m = producer(v, "ttir.multiply")
    if m is None:
        return None
    a, b = inputs(m)[:2]
    if near(splat(b), constant):
        return a
    if near(splat(a), constant):
        return b
    return None


def _cubed(v: Value) -> Value | None:
    p = producer(v, "ttir.pow")
    if p is not None:
        x, e = inputs(p)[:2]
        return x if near(splat(e), 3.0) else None
    m = producer(v, "ttir.multiply")
    if m is None:
        return None
    a, b = inputs(m)[:2]
    for sq, x in ((a, b), (b, a)):
        s = producer(sq, "ttir.multiply")
        if s is not None and inputs(s)[0] is x and inputs(s)[1] is x:
            return x
    return None


def _gaussian_cdf(v: Value) -> tuple[str, Value] | None:
    """v = 1 + erf(x / sqrt 2) or 1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)): (form, x)."""
    y = _one_plus(v, "ttir.erf")
    if y is not None:
        scaled = _scaled(y, RECIPROCAL_SQRT_2)
        return None if scaled is None else ("erf", scaled)
    y = _one_plus(v, "ttir.tanh")
    if y is None:
        return None
    inner = _scaled(y, SQRT_2_OVER_PI)
    add = producer(inner, "ttir.add") if inner is not None else None
    if add is None:
        return None
    a, b = inputs(add)[:2]
    for x, term in ((b, a), (a, b)):
        cube = _scaled(term, CUBED_COEFFICIENT)
        cubed = _cubed(cube) if cube is not None else None
        if cubed is not None and cubed is x:
            return "tanh", cubed
    return None


def match_gelu(op: Operation) -> Candidate | Rejected | None:
    """0.5 * x * gaussian_cdf(x) -> gelu(x)."""
    for triple in _factors(op):
        half = [v for v in triple if near(splat(v), 0.5)]
        if not half:
            continue
        for cdf in triple:
            found = _gaussian_cdf(cdf)
            if found is None:
                continue
            form, x = found
            if not any(v is x for v in triple):
                continue
            if x.type.resolve().text != op.results[0].type.resolve().text:
                return Rejected("gelu", op, "the input's type differs from the result's")
            return _unary("gelu", x, op, "gelu", note=f"{form} form")
    return None
