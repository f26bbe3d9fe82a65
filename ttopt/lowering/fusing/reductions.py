"""A reduction without keep_dim whose only reader is a reshape restoring the reduced dimensions as 1s
-> the reduction with keep_dim (HEAD's ReductionWithReshapePattern, for sum, mean, max, min, prod,
reduce_and, reduce_or, argmax). Anchored on the reshape, whose value the new reduction gives.

Preconditions, as HEAD: the reduction has one use, that reshape; it has no keep_dim; the reshape's
shape is the reduction input's with every reduced dimension (all of them without dim_arg) set to 1.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ttopt.dialects.ttir import inputs
from ttopt.ir.attributes import BoolAttr
from ttopt.lowering.fusing.match import Builder, Candidate, keep_dim, one_use, producer, reduce_dims, shape

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation
    from ttopt.ir.values import Value

REDUCTIONS = tuple(f"ttir.{n}" for n in ("sum", "mean", "max", "min", "prod", "reduce_and", "reduce_or", "argmax"))


def match(reshape: Operation) -> Candidate | None:
    """reshape(reduce(x, keep_dim = false)) -> reduce(x, keep_dim = true)."""
    v = inputs(reshape)[0]
    red = producer(v, *REDUCTIONS)
    if red is None or keep_dim(red) or not one_use(v):
        return None
    x = inputs(red)[0]
    xs = shape(x)
    dims = reduce_dims(red)
    want = tuple(1 if dims is None or i in dims else s for i, s in enumerate(xs))
    if shape(reshape.results[0]) != want:
        return None

    def build(b: Builder) -> Value:
        props = {**red.properties, "keep_dim": BoolAttr(True)}
        return b.emit(red.name[5:], [x], reshape.results[0].type, **props)

    return Candidate("reduction_keep_dim", reshape, red.name, build)
