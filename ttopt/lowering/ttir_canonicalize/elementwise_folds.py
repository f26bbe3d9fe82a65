"""Elementwise TTIR ops of constants folded into constants (tt-mlir's constantFoldEltwiseUnary /
constantFoldEltwiseBinary folders, and its comparison folders).

Unary: `abs`, `bitwise_not`, `logical_not`, `sign` on floats and integers; `atan`, `cbrt`, `ceil`,
`cos`, `exp`, `expm1`, `floor`, `isfinite`, `log`, `log1p`, `reciprocal`, `rsqrt`, `sin`,
`sqrt`, `tan` on floats only (computed in f32, rounded to the element type, as tt-mlir's
ApplyToAPFloat); `reciprocal` and `rsqrt` of a constant holding a zero do not fold. The result
type must be the operand's.

Binary: `add`, `subtract`, `multiply`, `div`, `remainder` (the divisor's sign, as TTNN), `maximum`,
`minimum`, `pow`, `atan2`, `bitwise_and/or/xor`, `logical_and/or`, and `eq`, `ne`, `ge`, `gt`
as 0/1 in the operands' type; both operands and the result share one element type, a non-splat
operand of a splat one must have the result's type, otherwise operands broadcast from the
trailing dimensions. `div` and `remainder` by a constant holding a zero do not fold; `x ^ x` is
zeros; a logical right shift by the width or more everywhere is zeros. `eq`/`ne` of one value with itself is ones/zeros, and of two splats of one element type
is ones or zeros of the result type (an i1 result, too).

Non-splat operands fold only up to a million elements. A value a fold cannot compute in Python
(a domain error) leaves the op as it is.
"""

from __future__ import annotations

import math
import operator
from math import prod
from typing import TYPE_CHECKING, Any, Callable

import numpy as np

from ttopt.dialects.ttir import inputs
from ttopt.lowering.ttir_canonicalize.constant_folds import fold_to
from ttopt.lowering.ttir_canonicalize.constants import (
    FOLD_LIMIT,
    Constant,
    constant_of,
    int_bits,
    is_float,
    is_int,
    round_float,
    saturate,
    tensor_of,
    wrap,
)

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation

Fn = Callable[..., Any]


def _f32(fn: Fn) -> Fn:
    """`fn` over f32 values (its arguments and result rounded to f32)."""
    return lambda *xs: round_float(fn(*(round_float(float(x), "f32") for x in xs)), "f32")


def _sign(x: Any) -> Any:
    if isinstance(x, float) and x != x:
        return x
    return type(x)((x > 0) - (x < 0))


def _rem_float(a: float, b: float) -> float:
    r = math.fmod(a, b)
    return r + b if b != 0 and ((r < 0 < b) or (r > 0 > b)) else r


def _rem_int(a: int, b: int) -> int:
    r = abs(a) % abs(b) * (1 if a >= 0 else -1)  # C's truncating remainder
    return r + b if r != 0 and (a < 0) != (b < 0) else r


def _div_int(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def _bool(pred: Fn) -> Fn:
    return lambda a, b: type(a)(1 if pred(a, b) else 0)


# op -> (float map or None, integer map or None)
UNARY: dict[str, tuple[Fn | None, Fn | None]] = {
    "ttir.abs": (abs, abs),
    "ttir.bitwise_not": (None, operator.invert),
    "ttir.logical_not": (lambda x: 1.0 if x == 0 else 0.0, lambda x: 1 if x == 0 else 0),
    "ttir.sign": (_sign, _sign),
    "ttir.atan": (_f32(math.atan), None),
    "ttir.cbrt": (_f32(lambda x: math.copysign(abs(x) ** (1 / 3), x)), None),
    "ttir.ceil": (_f32(lambda x: float(math.ceil(x)) if math.isfinite(x) else x), None),
    "ttir.floor": (_f32(lambda x: float(math.floor(x)) if math.isfinite(x) else x), None),
    "ttir.cos": (_f32(math.cos), None),
    "ttir.sin": (_f32(math.sin), None),
    "ttir.tan": (_f32(math.tan), None),
    "ttir.exp": (_f32(math.exp), None),
    "ttir.expm1": (_f32(math.expm1), None),
    "ttir.log": (_f32(math.log), None),
    "ttir.log1p": (_f32(math.log1p), None),
    "ttir.sqrt": (_f32(math.sqrt), None),
    "ttir.isfinite": (lambda x: 1.0 if math.isfinite(x) else 0.0, None),
    "ttir.reciprocal": (lambda x: 1.0 / x, None),
    "ttir.rsqrt": (_f32(lambda x: 1.0 / math.sqrt(x)), None),
}
_NO_ZERO_OPERAND = frozenset({"ttir.reciprocal", "ttir.rsqrt"})

BINARY: dict[str, tuple[Fn | None, Fn | None]] = {
    "ttir.add": (operator.add, operator.add),
    "ttir.subtract": (operator.sub, operator.sub),
    "ttir.multiply": (operator.mul, operator.mul),
    "ttir.div": (operator.truediv, _div_int),
    "ttir.remainder": (_f32(_rem_float), _rem_int),
    "ttir.maximum": (max, max),
    "ttir.minimum": (min, min),
    "ttir.pow": (_f32(math.pow), None),
    "ttir.atan2": (_f32(math.atan2), None),
    "ttir.bitwise_and": (None, operator.and_),
    "ttir.bitwise_or": (None, operator.or_),
    "ttir.bitwise_xor": (None, operator.xor),
    "ttir.logical_and": (_bool(lambda a, b: a != 0 and b != 0), _bool(lambda a, b: a != 0 and b != 0)),
    "ttir.logical_or": (_bool(lambda a, b: a != 0 or b != 0), _bool(lambda a, b: a != 0 or b != 0)),
    "ttir.eq": (_bool(operator.eq), _bool(operator.eq)),
    "ttir.ne": (_bool(operator.ne), _bool(operator.ne)),
    "ttir.ge": (_bool(operator.ge), _bool(operator.ge)),
    "ttir.gt": (_bool(operator.gt), _bool(operator.gt)),
}
_NO_ZERO_DIVISOR = frozenset({"ttir.div", "ttir.remainder"})
SHIFTS = frozenset({"ttir.logical_left_shift", "ttir.logical_right_shift"})


def _shift(name: str, element: str) -> Fn:
    """A logical shift of `element` integers: by the width or more is 0; a right shift reads the
    bits unsigned."""
    width = int_bits(element)
    mask = (1 << width) - 1

    def shift(a: int, b: int) -> int:
        if b >= width:
            return 0
        return (a << b) if name == "ttir.logical_left_shift" else ((a & mask) >> b)

    return shift
_SELF = {"ttir.eq": 1, "ttir.ne": 0}
_SPLAT_PREDICATES: dict[str, Fn] = {"ttir.eq": operator.eq, "ttir.ne": operator.ne}


def _finish(values: list[Any], element: str) -> tuple[Any, ...] | None:
    """The computed values stored in `element` (None when one is not a number)."""
    out = []
    for v in values:
        if is_float(element):
            if isinstance(v, complex):
                return None
            out.append(round_float(float(v), element))
        else:
            out.append(wrap(int(v), element))
    return tuple(out)


def _map(fn: Fn, *args: Any) -> Any:
    try:
        return fn(*args)
    except (ValueError, ZeroDivisionError, OverflowError):
        return None


def fold_unary(op: Operation) -> list[Operation] | None:
    """An elementwise unary op of a constant is the mapped constant."""
    ins = inputs(op)
    if len(ins) != 1 or len(op.results) != 1 or ins[0].type != op.results[0].type:
        return None
    const = constant_of(ins[0])
    if const is None:
        return None
    fn = UNARY[op.name][0 if is_float(const.element) else 1] if (is_float(const.element) or is_int(const.element)) else None
    if fn is None or (op.name in _NO_ZERO_OPERAND and any(v == 0 for v in const.values)):
        return None
    values = [_map(fn, v) for v in const.values]
    if any(v is None for v in values):
        return None
    done = _finish(values, const.element)
    return None if done is None else fold_to(op, Constant(done, const.element, const.shape))


def fold_self_comparison(op: Operation) -> list[Operation] | None:
    """`eq(x, x)` is ones and `ne(x, x)` zeros (a NaN is assumed absent, as tt-mlir does); `eq`/`ne`
    of two splats of one element type is ones or zeros."""
    ins = inputs(op)
    out = tensor_of(op.results[0]) if len(op.results) == 1 else None
    if len(ins) != 2 or out is None or not (is_float(out[0]) or is_int(out[0])):
        return None
    if ins[0] is ins[1]:
        return fold_to(op, Constant((_SELF[op.name],), out[0], out[1]))
    a, b = constant_of(ins[0]), constant_of(ins[1])
    if a is None or b is None or not a.splat or not b.splat or a.element != b.element:
        return None
    hit = _SPLAT_PREDICATES[op.name](a.values[0], b.values[0])
    return fold_to(op, Constant((1 if hit else 0,), out[0], out[1]))


def fold_xor_self(op: Operation) -> list[Operation] | None:
    """`x ^ x` is zeros."""
    ins = inputs(op)
    out = tensor_of(op.results[0]) if len(op.results) == 1 else None
    if len(ins) != 2 or ins[0] is not ins[1] or out is None or not (is_float(out[0]) or is_int(out[0])):
        return None
    return fold_to(op, Constant((0,), out[0], out[1]))


def fold_binary(op: Operation) -> list[Operation] | None:
    """An elementwise binary op of two constants is the computed constant."""
    ins = inputs(op)
    out = tensor_of(op.results[0]) if len(op.results) == 1 else None
    if len(ins) != 2 or out is None:
        return None
    lhs, rhs = constant_of(ins[0]), constant_of(ins[1])
    if lhs is None or rhs is None or not (lhs.element == rhs.element == out[0]):
        return None
    if op.name in SHIFTS:
        if not is_int(out[0]) or any(v < 0 for v in rhs.values):
            return None
        fn: Fn | None = _shift(op.name, out[0])
    else:
        fn = BINARY[op.name][0 if is_float(out[0]) else 1]
    if fn is None or (op.name in _NO_ZERO_DIVISOR and any(v == 0 for v in rhs.values)):
        return None
    if lhs.splat and rhs.splat:
        v = _map(fn, lhs.values[0], rhs.values[0])
        done = _finish([v], out[0]) if v is not None else None
        return None if done is None else fold_to(op, Constant(done, out[0], out[1]))
    if prod(out[1]) > FOLD_LIMIT:
        return None
    if (lhs.splat and ins[1].type != op.results[0].type) or (rhs.splat and ins[0].type != op.results[0].type):
        return None
    try:
        a, b = (np.array(c.flat(), dtype=object).reshape(c.shape) for c in (lhs, rhs))
        a, b = np.broadcast_arrays(a, b)
    except ValueError:
        return None
    if tuple(a.shape) != out[1]:
        return None
    values = [_map(fn, x, y) for x, y in zip(a.ravel().tolist(), b.ravel().tolist())]
    if any(v is None for v in values):
        return None
    done = _finish(values, out[0])
    return None if done is None else fold_to(op, Constant(done, out[0], out[1]))


def fold_clamp_constant(op: Operation) -> list[Operation] | None:
    """`clamp_scalar` of a constant is the clamped constant (bounds in the element type; integer
    bounds truncated toward zero and saturated to the type's range: a bound past it clamps nothing)."""
    ins = inputs(op)
    if len(ins) != 1 or len(op.results) != 1 or ins[0].type != op.results[0].type:
        return None
    const = constant_of(ins[0])
    lo_a, hi_a = (op.properties.get(k) for k in ("min", "max"))
    lo_a, hi_a = (a.resolve() if a is not None else None for a in (lo_a, hi_a))
    lo, hi = getattr(lo_a, "value", None), getattr(hi_a, "value", None)
    if const is None or not isinstance(lo, (int, float)) or not isinstance(hi, (int, float)):
        return None
    if is_float(const.element):
        lo_v, hi_v = round_float(float(lo), const.element), round_float(float(hi), const.element)
        values: list[Any] = [min(max(v, lo_v), hi_v) for v in const.values]
    else:
        if not (math.isfinite(float(lo)) and math.isfinite(float(hi))):
            return None
        lo_i, hi_i = saturate(int(lo), const.element), saturate(int(hi), const.element)
        values = [max(lo_i, min(v, hi_i)) for v in const.values]
    return fold_to(op, Constant(tuple(values), const.element, const.shape))


def fold_right_shift_out(op: Operation) -> list[Operation] | None:
    """A logical right shift by a constant of the width or more everywhere is zeros."""
    ins = inputs(op)
    out = tensor_of(op.results[0]) if len(op.results) == 1 else None
    rhs = constant_of(ins[1]) if len(ins) == 2 else None
    if out is None or rhs is None or not is_int(out[0]) or not is_int(rhs.element):
        return None
    lhs = tensor_of(ins[0])
    if lhs is None or not is_int(lhs[0]):
        return None
    width = int_bits(lhs[0])
    if any(v < 0 for v in rhs.values) or not all(v >= width for v in rhs.values):
        return None
    return fold_to(op, Constant((0,), out[0], out[1]))
