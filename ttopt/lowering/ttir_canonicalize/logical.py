"""TTIR selection, comparison and logic canonicalizations (tt-mlir's WhereOp, LessEqualOp,
LessThanOp, LogicalAndOp and LogicalOrOp folders and patterns).

* `where(c, x, y)` with `c` a nonzero `full`/`ones` is `x`, with `c` a zero one `y` (when that
  operand has the result's type);
* `le(a, b)` is `ge(b, a)` and `lt(a, b)` is `gt(b, a)`;
* `logical_and` with a zero `full`/`zeros` operand is zeros; with a nonzero constant operand it is
  the other operand when that one is boolean-valued (i1, a 0/1 constant, or a comparison or
  logical op's result);
* `logical_or` with a nonzero constant operand is ones; with a zero one it is the other operand
  when boolean-valued.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ttopt.dialects.ttir import inputs
from ttopt.ir.values import OpResult
from ttopt.lowering.ttir_canonicalize.constants import Constant, materialize, splat_fill, tensor_of
from ttopt.lowering.ttir_canonicalize.edits import replace_with_new, replace_with_value

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation
    from ttopt.ir.values import Value

_BOOLEAN_PRODUCERS = frozenset({
    "ttir.eq", "ttir.ne", "ttir.ge", "ttir.gt", "ttir.le", "ttir.lt", "ttir.logical_and", "ttir.logical_or",
    "ttir.logical_xor", "ttir.logical_not", "ttir.isfinite",
})  # fmt: skip
_SWAPPED = {"ttir.le": "ttir.ge", "ttir.lt": "ttir.gt"}


def fold_where(op: Operation) -> list[Operation] | None:
    """`where` of a constant condition is the operand it selects."""
    ins = inputs(op)
    if len(ins) != 3 or len(op.results) != 1:
        return None
    cond = splat_fill(ins[0])
    if cond is None:
        return None
    pick = ins[1] if cond != 0 else ins[2]
    return replace_with_value(op, pick) if pick.type == op.results[0].type else None


def swap_comparison(op: Operation) -> list[Operation] | None:
    """`le(a, b)` is `ge(b, a)`; `lt(a, b)` is `gt(b, a)`."""
    ins = inputs(op)
    if len(ins) != 2 or len(op.results) != 1:
        return None
    return replace_with_new(op, _SWAPPED[op.name], [ins[1], ins[0]], op.results[0].type)


def boolean_valued(v: Value) -> bool:
    """Whether `v` holds only 0 and 1: an i1 tensor, a splat of 0 or 1, or the result of an op that yields booleans."""
    info = tensor_of(v)
    if info is not None and info[0] == "i1":
        return True
    fill = splat_fill(v)
    if fill is not None and fill in (0, 1):
        return True
    return isinstance(v, OpResult) and v.op.name in _BOOLEAN_PRODUCERS


def _splat_result(op: Operation, value: int) -> list[Operation] | None:
    out = tensor_of(op.results[0])
    if out is None:
        return None
    new = materialize(op, Constant((value,), out[0], out[1]), op.results[0].type)
    return [new] + replace_with_value(op, new.results[0])


def fold_logical(op: Operation) -> list[Operation] | None:
    """An absorbing constant operand decides a `logical_and`/`logical_or`; an identity one leaves
    the other operand, when it is boolean-valued."""
    ins = inputs(op)
    if len(ins) != 2 or len(op.results) != 1:
        return None
    absorbing_zero = op.name == "ttir.logical_and"
    fills = [splat_fill(v) for v in ins]
    for f in fills:
        if f is not None and (f == 0) == absorbing_zero:
            return _splat_result(op, 0 if absorbing_zero else 1)
    for i, f in enumerate(fills):
        other = ins[1 - i]
        if f is not None and boolean_valued(other) and other.type == op.results[0].type:
            return replace_with_value(op, other)
    return None
