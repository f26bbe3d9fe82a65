"""Softmax from its parts (HEAD's SoftmaxFusionPattern and NumericStableSoftmaxFusionPattern).

* `div(exp(x), [broadcast](sum(exp(x), dim, keep_dim)))` -> `ttir.softmax(x, dim)`: exp has exactly
  two users (the sum and the div), the sum and the broadcast one each, the sum reduces one dimension.
* `softmax(subtract(x, [broadcast](max(x, dim, keep_dim))), dim)` -> `ttir.softmax(x, dim,
  numericStable = true)`: the max reduces the softmax's dimension of the subtract's own input; the
  subtract, max and broadcast have one use each.

A reduction without keep_dim followed by the reshape that restores the dimension counts as keep_dim
(HEAD folds that pair first, ReductionWithReshapePattern); so does a max behind `maximum(max, -inf)`,
the initial value JAX's softmax reduces from (an identity).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ttopt.dialects.ttir import inputs
from ttopt.ir.attributes import BoolAttr, IntegerAttr
from ttopt.ir.types import ScalarType
from ttopt.lowering.fusing.match import Builder, Candidate, Rejected, one_use, producer, reduced_along, shape, splat, users

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation
    from ttopt.ir.values import Value

SI32 = ScalarType("si32")


def _chain_single_use(v: Value) -> bool:
    """Every op between `v` and the reduction (broadcast, reshape) has one use."""
    while True:
        p = producer(v, "ttir.broadcast", "ttir.reshape", "ttir.maximum")
        if p is None:
            return one_use(v)
        if not one_use(v):
            return False
        v = inputs(p)[0] if p.name != "ttir.maximum" else _max_operand(p)


def _max_operand(p: Operation) -> Value:
    a, b = inputs(p)[:2]
    return b if splat(a) == float("-inf") else a


def match_div(div: Operation) -> Candidate | Rejected | None:
    """div(exp(x), sum(exp(x))) -> softmax(x)."""
    num, den = inputs(div)[:2]
    exp = producer(num, "ttir.exp")
    if exp is None:
        return None
    found = reduced_along(den, "ttir.sum")
    if found is None:
        return None
    red, summed, dim = found
    if summed is not num:
        return Rejected("softmax", div, "the sum does not reduce the numerator's exp")
    if users(num) != 2 or len(num.uses) != 2:
        return Rejected("softmax", div, f"exp has {users(num)} users (the sum and the div only)")
    if not _chain_single_use(den):
        return Rejected("softmax", div, "the sum (or its broadcast) has other users")
    x = inputs(exp)[0]

    def build(b: Builder) -> Value:
        return b.emit("softmax", [x], div.results[0].type, dimension=IntegerAttr(dim, SI32), numericStable=BoolAttr(False))

    return Candidate("softmax", div, "ttir.softmax", build, note=f"dimension {dim}")


def match_stable(sm: Operation) -> Candidate | Rejected | None:
    """softmax(x - max(x)) -> softmax(x, numericStable = true)."""
    if getattr(sm.properties.get("numericStable"), "value", False):
        return None
    sub = producer(inputs(sm)[0], "ttir.subtract")
    if sub is None:
        return None
    x, m = inputs(sub)[:2]
    found = reduced_along(m, "ttir.max")
    if found is None:
        return None
    red, maxed, dim = found
    if maxed is not x:
        return Rejected("softmax_stable", sm, "the max does not reduce the subtract's input")
    sdim = getattr(sm.properties.get("dimension"), "value", None)
    rank = len(shape(x))
    if sdim is None or sdim % rank != dim:
        return Rejected("softmax_stable", sm, f"the max reduces dimension {dim}, the softmax {sdim}")
    if not one_use(inputs(sm)[0]) or not _chain_single_use(m):
        return Rejected("softmax_stable", sm, "the subtract, max or broadcast has other users")

    def build(b: Builder) -> Value:
        return b.emit("softmax", [x], sm.results[0].type, dimension=IntegerAttr(dim, SI32), numericStable=BoolAttr(True))

    return Candidate("softmax_stable", sm, "ttir.softmax", build, note=f"dimension {dim}, numericStable")
