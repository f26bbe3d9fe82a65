"""matmul + add(bias) -> `ttir.linear` (HEAD's MatmulWithBiasFusionPattern).

Preconditions, as HEAD: exactly one add operand is a single-use `ttir.matmul`, possibly behind one
single-use reshape that keeps the trailing dimensions the bias spans; the bias, with single-use
broadcasts the matmul output already covers (or that only broadcast to the shape a reshape gives
the matmul, which HEAD's implicit-broadcast fold has removed by its second fusing run) and reshapes that only add or drop leading 1s peeled
off, broadcasts with the matmul shape to a shape of the add's volume. A rank-0 bias becomes rank 1.
"""

from __future__ import annotations

from math import prod
from typing import TYPE_CHECKING

from ttopt.dialects.ttir import broadcast_shape, inputs
from ttopt.ir.attributes import BoolAttr
from ttopt.ir.types import TensorType
from ttopt.lowering.fusing.match import Builder, Candidate, Rejected, one_use, producer, shape

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation
    from ttopt.ir.values import Value

NAME = "linear"


def _matmul_behind(v: Value) -> tuple[Operation | None, Operation | None]:
    r = producer(v, "ttir.reshape")
    if r is not None:
        if not one_use(v):
            return None, None
        v = inputs(r)[0]
    m = producer(v, "ttir.matmul")
    if m is not None and one_use(v):
        return m, r
    return None, None


def _strip1(s: tuple[int, ...]) -> tuple[int, ...]:
    i = 0
    while i < len(s) and s[i] == 1:
        i += 1
    return s[i:]


def _peel_bias(bias: Value, mm_shape: tuple[int, ...]) -> Value:
    while one_use(bias):
        b = producer(bias, "ttir.broadcast")
        if b is not None:
            src = inputs(b)[0]
            with_in, with_out = broadcast_shape(mm_shape, shape(src)), broadcast_shape(mm_shape, shape(bias))
            # A broadcast to the shape the matmul is reshaped to (the add's) does not broadcast
            # with the matmul's own shape; HEAD has folded it into the add by then (implicit
            # broadcast fold), and the volume check below keeps the rewrite exact.
            if with_in is not None and (with_out is None or with_in == with_out):
                bias = src
                continue
            break
        r = producer(bias, "ttir.reshape")
        if r is not None and _strip1(shape(inputs(r)[0])) == _strip1(shape(bias)):
            bias = inputs(r)[0]
            continue
        break
    return bias


def match(add: Operation) -> Candidate | Rejected | None:
    """A `ttir.add` of a matmul and a bias."""
    lhs, rhs = inputs(add)[:2]
    (lm, lr), (rm, rr) = _matmul_behind(lhs), _matmul_behind(rhs)
    if lm is None and rm is None:
        return None
    if lm is not None and rm is not None:
        return Rejected(NAME, add, "both add operands are matmuls")
    mm, reshape, raw = (lm, lr, rhs) if lm is not None else (rm, rr, lhs)
    assert mm is not None
    mm_shape = shape(mm.results[0])
    bias = _peel_bias(raw, mm_shape)
    bshape = shape(bias) or (1,)
    out = broadcast_shape(mm_shape, bshape)
    if out is None:
        return Rejected(NAME, add, f"bias {list(bshape)} does not broadcast with the matmul's {list(mm_shape)}")
    if prod(out) != prod(shape(add.results[0])):
        return Rejected(NAME, add, f"bias broadcasts the matmul to {list(out)}, not the add's volume")
    if reshape is not None:
        tail = _strip1(bshape)
        n = len(tail)
        if (
            n > len(mm_shape)
            or n > len(shape(reshape.results[0]))
            or mm_shape[len(mm_shape) - n :] != shape(reshape.results[0])[len(shape(reshape.results[0])) - n :]
        ):
            return Rejected(NAME, add, "the reshape after the matmul changes the dimensions the bias spans")

    def build(b: Builder) -> Value:
        bv = b.reshape(bias, (1,)) if not shape(bias) else bias
        t = mm.results[0].type.resolve()
        a, w = inputs(mm)[:2]
        props = {
            "transpose_a": mm.properties.get("transpose_a", BoolAttr(False)),
            "transpose_b": mm.properties.get("transpose_b", BoolAttr(False)),
        }
        y = b.emit("linear", [a, w, bv], TensorType(out, t.element_type, t.encoding), **props)
        if "ttcore.weight_dtype" in mm.attributes:  # the per-tensor weight dtype survives, as at HEAD
            b.ops[-1].attributes["ttcore.weight_dtype"] = mm.attributes["ttcore.weight_dtype"]
        return b.reshape(y, shape(add.results[0]))

    return Candidate(NAME, add, "ttir.linear", build)
