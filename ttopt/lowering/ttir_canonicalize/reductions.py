"""TTIR reductions canonicalized as tt-mlir's SumOp folder and ProdOp / TopKOp patterns do.

* `sum` of a splat is the splat times the number of elements each result element sums (in the
  element type; the input's element type must be the result's);
* `prod` of a boolean-valued input (i1, a 0/1 constant, a comparison or logical result) is `min`
  with the same dimensions (a product of 0s and 1s is their minimum; TTNN's prod copies the
  whole input to permute it);
* `topk` over a dimension of size 1 is its input, and zeros for the indices.
"""

from __future__ import annotations

from math import prod
from typing import TYPE_CHECKING

from ttopt.ir.attributes import IntegerAttr
from ttopt.lowering.ttir_canonicalize.constant_folds import fold_to
from ttopt.lowering.ttir_canonicalize.constants import Constant, constant_of, is_float, materialize, round_float, tensor_of, wrap
from ttopt.lowering.ttir_canonicalize.edits import replace_with_new, single_input
from ttopt.lowering.ttir_canonicalize.logical import boolean_valued

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation


def fold_sum_of_splat(op: Operation) -> list[Operation] | None:
    """`sum` of a splat is a splat of the value times the reduced count."""
    src = single_input(op)
    const = constant_of(src) if src is not None else None
    out = tensor_of(op.results[0]) if len(op.results) == 1 else None
    if const is None or out is None or not const.splat or const.element != out[0] or prod(out[1]) == 0:
        return None
    count = prod(const.shape) // prod(out[1])
    v = const.values[0]
    value = round_float(float(v) * count, out[0]) if is_float(out[0]) else wrap(int(v) * count, out[0])
    return fold_to(op, Constant((value,), out[0], out[1]))


def prod_of_booleans_is_min(op: Operation) -> list[Operation] | None:
    """`prod` of a boolean-valued input is `min` over the same dimensions."""
    src = single_input(op)
    if src is None or not boolean_valued(src):
        return None
    return replace_with_new(op, "ttir.min", [src], op.results[0].type, dict(op.properties))


def fold_width_one_topk(op: Operation) -> list[Operation] | None:
    """`topk` over a size-1 dimension: the values are the input, the indices zeros."""
    src = single_input(op) if len(op.results) != 2 else (op.operands[0] if op.operands else None)
    info = tensor_of(src) if src is not None else None
    dim = op.properties.get("dim") or op.attributes.get("dim")
    dim = dim.resolve() if dim is not None else None
    if src is None or info is None or len(op.results) != 2 or not isinstance(dim, IntegerAttr):
        return None
    rank = len(info[1])
    d = dim.value + rank if dim.value < 0 else dim.value
    if not 0 <= d < rank or info[1][d] != 1 or src.type != op.results[0].type:
        return None
    indices = tensor_of(op.results[1])
    if indices is None:
        return None
    zeros = materialize(op, Constant((0,), indices[0], indices[1]), op.results[1].type)
    values_users, index_users = op.results[0].users, op.results[1].users
    op.results[0].replace_all_uses_with(src)
    op.results[1].replace_all_uses_with(zeros.results[0])
    op.erase()
    return [zeros] + values_users + index_users
