"""Permutes and reshapes through `ttir.concat` (tt-mlir's ConcatCommutePatterns).

* **Upwards**, when every reader of the concat is the same TM, each operand gets the TM and the
  concat joins the changed operands along the dimension the TM moved its dimension to:
  - a **permute** by `p` moves the concat dimension `d` to the position of `d` in `p`;
  - a **reshape** moves above when its target has a dimension of the concat dimension's size with
    the same volume before it and after it as the concat result's (`1x64x64x2` concatenated on
    dim 3 and reshaped to `1x4096x2` concatenates on dim 2): each operand is reshaped to the
    target with its own size there.
* **Downwards**, a **permute** operand moves below when every other operand is the same permute
  or on a const-eval path: the concat reads the permute's input and the others' inverse permute
  (which cancels against an identical permute), along the dimension the permute read its concat
  dimension from, and one permute follows. HEAD has no downward reshape commute (never viable).

ttopt checks what HEAD asserts: a concat with one static result and no destination-passing
output, and a permute of its rank.
"""

from __future__ import annotations

from math import prod

from ttopt.dialects.ttir import inputs
from ttopt.ir.attributes import IntegerAttr
from ttopt.ir.operation import Operation
from ttopt.ir.rewriter import insert_before
from ttopt.ir.types import ScalarType
from ttopt.lowering.erase_inverse_ops.commute import (
    PERMUTE,
    RESHAPE,
    Commute,
    ConstevalAnalysis,
    Direction,
    all_users_identical_tms,
    apply_permutation,
    defining_op,
    identical_tms,
    inverse_permutation,
    inverse_tm,
    new_tm,
    permutation,
    readers_used,
    replace_readers,
    replace_results,
    shape_of,
    with_shape,
)

CONCAT = "ttir.concat"


def concat_dim(op: Operation) -> int | None:
    """A well-formed concat's dimension, non-negative; None for a destination-passing concat, one of
    a dynamic shape or a dimension out of range."""
    dim = op.properties.get("dim")
    dim = dim.resolve() if dim is not None else None
    if len(op.results) != 1 or not op.operands or len(inputs(op)) != len(op.operands) or not isinstance(dim, IntegerAttr):
        return None
    out = shape_of(op.results[0])
    if out is None or any(shape_of(v) is None or len(shape_of(v) or ()) != len(out) for v in op.operands):
        return None
    return dim.value % len(out) if -len(out) <= dim.value < len(out) else None


def _with_dim(op: Operation, dim: int) -> dict:
    props = dict(op.properties)
    old = op.properties["dim"].resolve()
    props["dim"] = IntegerAttr(dim, old.type if isinstance(old, IntegerAttr) else ScalarType("si32"))
    return props


def _new_concat(op: Operation, operands: list[Operation], shape: tuple[int, ...], dim: int) -> Operation:
    return insert_before(op, Operation(CONCAT, [o.results[0] for o in operands], [with_shape(op.results[0], shape)], _with_dim(op, dim),
                                       dict(op.attributes), location=op.location))  # fmt: skip


def _favorable_up(op: Operation, tm: Operation, analysis: ConstevalAnalysis) -> bool:
    return all_users_identical_tms(op) and readers_used(op)


def _permute_viable(op: Operation, tm: Operation) -> bool:
    order, out = permutation(tm), shape_of(op.results[0])
    return concat_dim(op) is not None and order is not None and out is not None and len(order) == len(out)


def _permute_up(op: Operation, tm: Operation) -> list[Operation]:
    dim, order, out = concat_dim(op), permutation(tm), shape_of(op.results[0])
    assert dim is not None and order is not None and out is not None
    moved = [new_tm(PERMUTE, v, apply_permutation(shape_of(v) or (), order), like=tm, location=op.location, before=op) for v in op.operands]
    new = _new_concat(op, moved, apply_permutation(out, order), order.index(dim))
    return [*moved, new, *replace_readers(op, new.results[0])]


def reshape_concat_dim(shape: tuple[int, ...], dim: int, target: tuple[int, ...]) -> int | None:
    """The dimension of `target` holding dimension `dim` of `shape` unchanged: its size, with the same
    volume before and after it (HEAD's retrieveReshapeUserConcatDim); the first such one."""
    before, after = prod(shape[:dim]), prod(shape[dim + 1:])
    for i, d in enumerate(target):
        if d == shape[dim] and prod(target[:i]) == before and prod(target[i + 1:]) == after:
            return i
    return None


def _reshape_plan(op: Operation, tm: Operation) -> tuple[int, tuple[int, ...], int] | None:
    """(concat dim, `tm`'s shape, the concat dim in it) when `tm` can move above `op`."""
    dim, out, target = concat_dim(op), shape_of(op.results[0]), shape_of(tm.results[0])
    if dim is None or out is None or target is None:
        return None
    new_dim = reshape_concat_dim(out, dim, target)
    return None if new_dim is None else (dim, target, new_dim)


def _reshape_viable(op: Operation, tm: Operation) -> bool:
    return _reshape_plan(op, tm) is not None


def _reshape_up(op: Operation, tm: Operation) -> list[Operation]:
    plan = _reshape_plan(op, tm)
    assert plan is not None  # `_reshape_viable`
    dim, target, new_dim = plan
    moved = []
    for v in op.operands:
        shape = list(target)
        shape[new_dim] = (shape_of(v) or ())[dim]
        moved.append(new_tm(RESHAPE, v, tuple(shape), like=tm, location=op.location, before=op))
    new = _new_concat(op, moved, target, new_dim)
    return [*moved, new, *replace_readers(op, new.results[0])]


def _permute_down_favorable(op: Operation, tm: Operation, analysis: ConstevalAnalysis) -> bool:
    return all(identical_tms(defining_op(v), tm) or analysis.traces_to_constant_args(v) for v in op.operands)


def _permute_down(op: Operation, tm: Operation) -> list[Operation]:
    dim, order, out = concat_dim(op), permutation(tm), shape_of(op.results[0])
    assert dim is not None and order is not None and out is not None
    values = []
    inverses: list[Operation] = []
    for v in op.operands:
        if defining_op(v) is tm:
            values.append(tm.operands[0])
            continue
        inverses.append(inverse_tm(tm, v, before=op))
        values.append(inverses[-1].results[0])
    shape = apply_permutation(out, inverse_permutation(order))
    new = insert_before(op, Operation(CONCAT, values, [with_shape(op.results[0], shape)], _with_dim(op, order[dim]), dict(op.attributes),
                                      location=op.location))  # fmt: skip
    after = new_tm(PERMUTE, new.results[0], out, like=tm, location=op.location, before=op)
    return [*inverses, new, after, *replace_results(op, [after.results[0]]), tm]


def commutes(direction: Direction) -> list[Commute]:
    """Permutes and reshapes through a concat, in `direction` (only permutes downwards, as in HEAD)."""
    ops = frozenset({CONCAT})
    if direction is Direction.UPWARDS:
        return [
            Commute("permute-through-concat", PERMUTE, ops, direction, _permute_viable, _favorable_up, _permute_up),
            Commute("reshape-through-concat", RESHAPE, ops, direction, _reshape_viable, _favorable_up, _reshape_up),
        ]
    return [Commute("permute-through-concat", PERMUTE, ops, direction, _permute_viable, _permute_down_favorable, _permute_down)]
