"""Permutes and reshapes through the reductions (tt-mlir's ReduceCommutePatterns): sum, mean,
max, min, prod, reduce_and, reduce_or and argmax.

* A **permute** moves both ways. Upwards, `reduce(D) -> permute(P)` becomes
  `permute(P') -> reduce(D')`: with keep_dim P' = P; without, P' is P widened to the input's rank,
  the reduced dimensions staying where they are. D' is D read through P''s inverse. Downwards,
  `permute(P) -> reduce(D)` becomes `reduce(P(D)) -> permute(P')`: with keep_dim P' = P; without,
  P with the reduced positions dropped and the rest renumbered (an identity then folds away).
* A **reshape** moves downwards when every reduced dimension survives it (`reshape_dims.py`): the
  reduction runs on the reshape's input along the matching dimensions and a reshape to the old
  result follows, now of the smaller reduced tensor. It moves upwards only past a reduction that
  reduces nothing (keep_dim, every reduced dimension of size 1) whose dimensions survive it.
  Without dim_arg a reduction reduces every dimension of either shape; a commute writes dim_arg.

Upward moves need every reader of the reduction to be the same TM (HEAD's favorability);
downward ones always pay (a reduction has one operand).

Where HEAD trusts the IR, ttopt checks: the reduction has one static tensor operand (no
destination-passing output) and distinct dimensions in range, the moved dimensions stay distinct
(two size-1 dimensions can match one; HEAD's reduce verifier rejects repeated dimensions), and an
argmax moves a permute only when it reduces at most one dimension of size > 1: its index counts
through the reduced dimensions in order, which a permute may change (HEAD does not check this).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ttopt.dialects.ttir import REDUCTIONS
from ttopt.ir.operation import Operation
from ttopt.ir.properties import int_values
from ttopt.ir.rewriter import insert_before
from ttopt.ir.types import TensorType
from ttopt.lowering.erase_inverse_ops.commute import (
    PERMUTE,
    RESHAPE,
    Commute,
    ConstevalAnalysis,
    Direction,
    all_users_identical_tms,
    apply_permutation,
    defining_op,
    i32_array,
    identical_tms,
    inverse_permutation,
    new_tm,
    permutation,
    replace_results,
    shape_of,
    users,
)
from ttopt.lowering.erase_inverse_ops.reshape_dims import matching_dim

if TYPE_CHECKING:
    from ttopt.ir.values import Value

REDUCTION_OPS = frozenset(f"ttir.{n}" for n in REDUCTIONS)
ARGMAX = "ttir.argmax"


def keep_dim(op: Operation) -> bool:
    """The reduction keeps its reduced dimensions (as 1s)."""
    a = op.properties.get("keep_dim")
    return bool(getattr(a.resolve(), "value", False)) if a is not None else False


def reduced_dims(op: Operation) -> tuple[int, ...] | None:
    """The reduction's dimensions of its input, non-negative, in dim_arg's order (all of them
    without dim_arg); None when one is out of range or repeated."""
    shape = shape_of(op.operands[0])
    if shape is None:
        return None
    rank = len(shape)
    if "dim_arg" not in op.properties:
        return tuple(range(rank))
    raw = int_values(op.properties["dim_arg"])
    if raw is None or any(not -rank <= d < rank for d in raw):
        return None
    dims = tuple(d % rank for d in raw)
    return dims if len(set(dims)) == len(dims) else None


def reduced_shape(shape: tuple[int, ...], dims: tuple[int, ...], keep: bool) -> tuple[int, ...]:
    """`shape` reduced along `dims`: 1s there with keep_dim, dropped without."""
    if keep:
        return tuple(1 if i in dims else s for i, s in enumerate(shape))
    return tuple(s for i, s in enumerate(shape) if i not in dims)


def _plain(op: Operation) -> bool:
    """One static tensor operand (no destination-passing output), one result, valid dimensions."""
    return (len(op.operands) == 1 and len(op.results) == 1 and shape_of(op.results[0]) is not None
            and reduced_dims(op) is not None)  # fmt: skip


def _new_reduction(op: Operation, value: Value, dims: tuple[int, ...]) -> Operation:
    """`op`'s reduction of `value` along `dims` (written as dim_arg), built before `op`."""
    shape = shape_of(value)
    t = op.results[0].type.resolve()
    assert shape is not None and isinstance(t, TensorType)
    props = dict(op.properties)
    props["dim_arg"] = i32_array(dims)
    result = TensorType(reduced_shape(shape, dims, keep_dim(op)), t.element_type, t.encoding)
    return insert_before(op, Operation(op.name, [value], [result], props, location=op.location))


def _replace_readers(op: Operation, value: Value) -> list[Operation]:
    """Every reader of `op` (all the same TM) read as `value`; the ops to revisit."""
    touched: list[Operation] = []
    for reader in users(op):
        touched += replace_results(reader, [value])
    return touched


# -- permutes -------------------------------------------------------------------------------------
def widened_permutation(order: tuple[int, ...], dims: tuple[int, ...], rank: int) -> tuple[int, ...]:
    """`order`, a permutation of the dimensions a reduction along `dims` keeps, as one of all
    `rank` dimensions of its input: the reduced ones stay in place (HEAD's expandPermutation)."""
    kept = [i for i in range(rank) if i not in dims]
    full = list(range(rank))
    for j, at in enumerate(kept):
        full[at] = kept[order[j]]
    return tuple(full)


def contracted_permutation(order: tuple[int, ...], dropped: tuple[int, ...]) -> tuple[int, ...]:
    """`order` without the positions `dropped`, the remaining values renumbered 0.. (HEAD's
    contractPermutation): the permutation of what a reduction without keep_dim leaves."""
    gone = {order[p] for p in dropped}
    renumber = {v: i for i, v in enumerate(v for v in range(len(order)) if v not in gone)}
    return tuple(renumber[v] for p, v in enumerate(order) if p not in dropped)


def _argmax_order_safe(op: Operation) -> bool:
    """Not an argmax, or one reducing at most one dimension of size > 1 (its index would count
    through several in their order, which a permute changes)."""
    if op.name != ARGMAX:
        return True
    shape, dims = shape_of(op.operands[0]), reduced_dims(op)
    assert shape is not None and dims is not None
    return sum(1 for d in dims if shape[d] > 1) <= 1


def _permute_up_viable(op: Operation, tm: Operation) -> bool:
    if not _plain(op) or not _argmax_order_safe(op):
        return False
    order, result = permutation(tm), shape_of(op.results[0])
    return order is not None and result is not None and len(order) == len(result)


def _permute_up_favorable(op: Operation, tm: Operation, analysis: ConstevalAnalysis) -> bool:
    return all_users_identical_tms(op)


def _permute_up(op: Operation, tm: Operation) -> list[Operation]:
    src, order, dims = op.operands[0], permutation(tm), reduced_dims(op)
    shape = shape_of(src)
    assert shape is not None and order is not None and dims is not None  # `_permute_up_viable`
    full = order if keep_dim(op) else widened_permutation(order, dims, len(shape))
    moved = new_tm(PERMUTE, src, apply_permutation(shape, full), order=full, location=tm.location, before=op)
    inv = inverse_permutation(full)
    new = _new_reduction(op, moved.results[0], tuple(inv[d] for d in dims))
    return [moved, new, *_replace_readers(op, new.results[0])]


def _permute_down_viable(op: Operation, tm: Operation) -> bool:
    return _plain(op) and _argmax_order_safe(op)


def _down_favorable(op: Operation, tm: Operation, analysis: ConstevalAnalysis) -> bool:
    """Every operand is the TM or computed by const-eval (HEAD's rule; a reduction's only operand is the TM)."""
    return all(identical_tms(defining_op(v), tm) or analysis.traces_to_constant_args(v) for v in op.operands)


def _permute_down(op: Operation, tm: Operation) -> list[Operation]:
    order, dims = permutation(tm), reduced_dims(op)
    assert order is not None and dims is not None  # `_permute_down_viable`
    new = _new_reduction(op, tm.operands[0], tuple(order[d] for d in dims))
    out_order = order if keep_dim(op) else contracted_permutation(order, dims)
    shape = shape_of(new.results[0])
    assert shape is not None
    after = new_tm(PERMUTE, new.results[0], apply_permutation(shape, out_order), order=out_order, location=tm.location, before=op)
    return [new, after, *replace_results(op, [after.results[0]]), tm]


# -- reshapes -------------------------------------------------------------------------------------
def mapped_dims(op: Operation, src: tuple[int, ...], dst: tuple[int, ...]) -> tuple[int, ...] | None:
    """The reduction's dimensions (of `src`, its input) as dimensions of the reshaped `dst`; every
    one of `dst` without dim_arg. None when one does not survive, two meet, or there are none
    (HEAD's mapReduceDims, which reads an empty list as failure)."""
    if "dim_arg" not in op.properties:
        mapped: tuple[int | None, ...] = tuple(range(len(dst)))
    else:
        dims = reduced_dims(op)
        if dims is None:
            return None
        mapped = tuple(matching_dim(src, dst, d) for d in dims)
    if not mapped or any(d is None for d in mapped) or len(set(mapped)) != len(mapped):
        return None
    return tuple(d for d in mapped if d is not None)


def _reshape_up_viable(op: Operation, tm: Operation) -> bool:
    # The new reshape reads the reduction's input, so the reduction must keep every element.
    if not _plain(op) or not keep_dim(op):
        return False
    shape, dims = shape_of(op.operands[0]), reduced_dims(op)
    assert shape is not None and dims is not None
    return all(shape[d] == 1 for d in dims) and shape_of(tm.results[0]) is not None


def _reshape_up_favorable(op: Operation, tm: Operation, analysis: ConstevalAnalysis) -> bool:
    src, dst = shape_of(op.operands[0]), shape_of(tm.results[0])
    assert src is not None and dst is not None
    return mapped_dims(op, src, dst) is not None and all_users_identical_tms(op)


def _reshape_up(op: Operation, tm: Operation) -> list[Operation]:
    src, dst = shape_of(op.operands[0]), shape_of(tm.results[0])
    assert src is not None and dst is not None
    dims = mapped_dims(op, src, dst)
    assert dims is not None  # `_reshape_up_favorable`
    moved = new_tm(RESHAPE, op.operands[0], dst, location=tm.location, before=op)
    new = _new_reduction(op, moved.results[0], dims)
    return [moved, new, *_replace_readers(op, new.results[0])]


def _reshape_down_viable(op: Operation, tm: Operation) -> bool:
    return _plain(op) and shape_of(tm.operands[0]) is not None


def _reshape_down_favorable(op: Operation, tm: Operation, analysis: ConstevalAnalysis) -> bool:
    src, dst = shape_of(tm.results[0]), shape_of(tm.operands[0])
    assert src is not None and dst is not None
    return mapped_dims(op, src, dst) is not None


def _reshape_down(op: Operation, tm: Operation) -> list[Operation]:
    src, dst, out = shape_of(tm.results[0]), shape_of(tm.operands[0]), shape_of(op.results[0])
    assert src is not None and dst is not None and out is not None
    dims = mapped_dims(op, src, dst)
    assert dims is not None  # `_reshape_down_favorable`
    new = _new_reduction(op, tm.operands[0], dims)
    after = new_tm(RESHAPE, new.results[0], out, location=tm.location, before=op)
    return [new, after, *replace_results(op, [after.results[0]]), tm]


def commutes(direction: Direction) -> list[Commute]:
    """Permutes, then reshapes, through the reductions, in `direction` (HEAD's order)."""
    if direction is Direction.UPWARDS:
        permute = (_permute_up_viable, _permute_up_favorable, _permute_up)
        reshape = (_reshape_up_viable, _reshape_up_favorable, _reshape_up)
    else:
        permute = (_permute_down_viable, _down_favorable, _permute_down)
        reshape = (_reshape_down_viable, _reshape_down_favorable, _reshape_down)
    return [Commute("permute-through-reduce", PERMUTE, REDUCTION_OPS, direction, *permute),
            Commute("reshape-through-reduce", RESHAPE, REDUCTION_OPS, direction, *reshape)]  # fmt: skip
