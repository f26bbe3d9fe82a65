"""Rotary position embedding on TTIR (HEAD's RoPERotateHalfFusingPattern and
RoPEComplexRotationFusingPattern): the chain becomes a `ttcore.composite "rotary_embedding"`
(rope_composite.py) in ttir-fusing, before ttir-erase-inverse-ops could move a reshape or permute of
its result into the chain.

| pattern | anchor | form |
|---|---|---|
| rope | `ttir.add` | `x * cos + rotate_half(x) * sin`, rotate_half(x) = `concat(neg(x[..., D/2:]), x[..., :D/2])` |
| rope_expanded | `ttir.concat` | `concat(x1 * cos_h - x2 * sin_h, x2 * cos_h + x1 * sin_h)`, x1 / x2 x's halves |

Preconditions, as HEAD's: applied without the cost check (validation is left to the TTNN side);
never inside a decomposition function. x is 4-D and its halves are step-1 slices of the last
dimension, identity elsewhere, of one value.

* rope: both add operands are multiplies, either order, and either operand of each. The rotated
  concat is on the last dimension (its `dim` as written, not a negative one), two operands,
  `neg(slice)` first. The cos multiply reads x itself, else an operand that is x behind typecasts,
  reshapes and broadcasts. The two multiplies, the concat and the neg have one use each. cos and
  sin are taken from behind their broadcasts when that leaves them 4-D.
* rope_expanded: a 4-D result on its last dimension, two operands: a subtract and an add of
  multiplies, each multiplying a slice of x (either operand) by a table. The subtract is
  `x1 * cos - x2 * sin`, the add `x2 * cos + x1 * sin`, each table the same behind typecasts,
  reshapes and broadcasts in both; subtract, add and the four multiplies have one use each. The
  half-width tables become full width (`concat(h, h)`) as the composite's operands.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ttopt.dialects.ttir import inputs
from ttopt.ir.properties import int_values
from ttopt.lowering.fusing.match import Builder, Candidate, Rejected, one_use, producer, shape, through
from ttopt.lowering.fusing.rope_composite import concat_last, inside_decomposition, rope_composite

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation
    from ttopt.ir.values import Value

TMS = ("ttir.typecast", "ttir.reshape", "ttir.broadcast")
NOTE = "unconditional, as HEAD's: validation is left to the TTNN side"


def skip_tms(v: Value) -> Value:
    """`v` with typecasts, reshapes and broadcasts peeled off (HEAD's skipTMs)."""
    return through(v, *TMS)


def table_input(v: Value) -> Value:
    """A cos / sin operand for the composite: behind its broadcasts when that is 4-D, else itself."""
    u = v
    while (op := producer(u, "ttir.broadcast")) is not None:
        u = inputs(op)[0]
    t = u.type.resolve()
    return u if len(getattr(t, "shape", None) or ()) == 4 else v


def slice_on_last(op: Operation) -> tuple[int, int, int] | None:
    """(begin, end, size) of a step-1 slice of the last dimension, identity elsewhere."""
    begins, ends, steps = (int_values(op.properties.get(k)) for k in ("begins", "ends", "step"))
    dims = shape(inputs(op)[0])
    if not dims or begins is None or ends is None or steps is None or not len(begins) == len(ends) == len(steps) == len(dims):
        return None
    if any(s != 1 for s in steps):
        return None
    if any(begins[i] != 0 or ends[i] != dims[i] for i in range(len(dims) - 1)):
        return None
    return begins[-1], ends[-1], dims[-1]


def half_of(op: Operation) -> str | None:
    """"first" or "second" when `op` slices that half of an even last dimension."""
    s = slice_on_last(op)
    if s is None or s[2] % 2:
        return None
    b, e, n = s
    return "first" if (b, e) == (0, n // 2) else "second" if (b, e) == (n // 2, n) else None


def _rotate_half(v: Value) -> tuple[Value, Operation, Operation] | None:
    """(x, the concat, the neg) of `concat(neg(x[..., D/2:]), x[..., :D/2])` (HEAD's matchRotateHalf)."""
    cat = producer(v, "ttir.concat")
    if cat is None:
        return None
    rank = len(shape(cat.results[0]))
    ins = inputs(cat)
    if getattr(cat.properties.get("dim"), "value", None) != rank - 1 or len(ins) != 2:
        return None
    neg = producer(ins[0], "ttir.neg")
    hi = producer(inputs(neg)[0], "ttir.slice_static") if neg is not None else None
    lo = producer(ins[1], "ttir.slice_static")
    if neg is None or hi is None or lo is None or inputs(hi)[0] is not inputs(lo)[0]:
        return None
    if half_of(hi) != "second" or half_of(lo) != "first":
        return None
    return inputs(hi)[0], cat, neg


def _x_and_table(mul: Operation, x: Value) -> tuple[Value, Value] | None:
    """(x operand, table operand) of the cos multiply: x itself first, else behind TMs."""
    a, b = inputs(mul)[:2]
    if a is x:
        return a, b
    if b is x:
        return b, a
    if skip_tms(a) is x:
        return a, b
    if skip_tms(b) is x:
        return b, a
    return None


def match_rotate_half(add: Operation) -> Candidate | Rejected | None:
    """`x * cos + rotate_half(x) * sin` at its add."""
    if inside_decomposition(add):
        return None
    ins = inputs(add)
    if len(ins) < 2:
        return None
    muls = [producer(v, "ttir.multiply") for v in ins[:2]]
    if muls[0] is None or muls[1] is None:
        return None
    found = None
    for sin_mul, cos_mul in ((muls[1], muls[0]), (muls[0], muls[1])):
        for operand in inputs(sin_mul)[:2]:
            rot = _rotate_half(operand)
            if rot is not None:
                found = sin_mul, cos_mul, rot
                break
        if found is not None:
            break
    if found is None:
        return None
    sin_mul, cos_mul, (x, cat, neg) = found
    if len(shape(x)) != 4:
        return Rejected("rope", add, f"x is {len(shape(x))}-D, not 4-D")
    picked = _x_and_table(cos_mul, x)
    if picked is None:
        return Rejected("rope", add, "the cos multiply does not read the rotated x")
    cos = picked[1]
    a, b = inputs(sin_mul)[:2]
    sin = b if a is cat.results[0] else a
    if not all(one_use(o.results[0]) for o in (cos_mul, sin_mul, cat, neg)):
        return Rejected("rope", add, "a multiply, the rotated concat or the neg has other readers")
    cos_in, sin_in = table_input(cos), table_input(sin)

    def build(bld: Builder) -> Value:
        return rope_composite(bld, x, cos_in, sin_in, add.results[0].type)

    return Candidate("rope", add, "ttcore.composite", build, note=NOTE, cost_checked=False)


def _mul_slice(mul: Operation) -> tuple[Operation, Value] | None:
    """(the slice, the other operand) of a multiply with a slice operand (the first found)."""
    a, b = inputs(mul)[:2]
    for v, other in ((a, b), (b, a)):
        sl = producer(v, "ttir.slice_static")
        if sl is not None:
            return sl, other
    return None


def match_expanded(cat: Operation) -> Candidate | Rejected | None:
    """`concat(x1 * cos - x2 * sin, x2 * cos + x1 * sin)` at its concat."""
    if inside_decomposition(cat):
        return None
    out = shape(cat.results[0])
    ins = inputs(cat)
    if len(out) != 4 or getattr(cat.properties.get("dim"), "value", None) != 3 or len(ins) != 2:
        return None
    sub, add = producer(ins[0], "ttir.subtract"), producer(ins[1], "ttir.add")
    if sub is None or add is None:
        return None
    muls = [producer(v, "ttir.multiply") for v in (*inputs(sub)[:2], *inputs(add)[:2])]
    if any(m is None for m in muls):
        return None
    parts = [_mul_slice(m) for m in muls if m is not None]
    if any(p is None for p in parts):
        return None
    (s0, cos), (s1, sin), (a0, cos2), (a1, sin2) = parts  # type: ignore[misc]
    x = inputs(s0)[0]
    if any(inputs(s)[0] is not x for s in (s1, a0, a1)):
        return Rejected("rope_expanded", cat, "the four slices do not read one tensor")
    if len(shape(x)) != 4:
        return Rejected("rope_expanded", cat, f"x is {len(shape(x))}-D, not 4-D")
    if (half_of(s0), half_of(s1), half_of(a0), half_of(a1)) != ("first", "second", "second", "first"):
        return Rejected("rope_expanded", cat, "the slices are not x1 * cos - x2 * sin, x2 * cos + x1 * sin on the last dimension's halves")
    if skip_tms(cos) is not skip_tms(cos2) or skip_tms(sin) is not skip_tms(sin2):
        return Rejected("rope_expanded", cat, "the subtract and the add do not read the same cos and sin")
    if not all(one_use(o.results[0]) for o in (sub, add, *(m for m in muls if m is not None))):
        return Rejected("rope_expanded", cat, "the subtract, the add or a multiply has other readers")
    cos_h, sin_h = table_input(cos), table_input(sin)

    def build(bld: Builder) -> Value:
        return rope_composite(bld, x, concat_last(bld, cos_h), concat_last(bld, sin_h), cat.results[0].type)

    return Candidate("rope_expanded", cat, "ttcore.composite", build, note=NOTE, cost_checked=False)
