"""Reshapes through `ttir.softmax` (tt-mlir's SoftmaxCommutePatterns).

A softmax normalizes along one dimension; a reshape that keeps that dimension (the same size and
stride on the other side: `reshape_dims.py`) moves through it, the softmax's `dimension` becoming
the matching one. Upwards when every reader of the softmax is that reshape; downwards always (the
softmax has no other operand). A reshape that splits or merges the softmax dimension stays.

Where HEAD trusts the IR, ttopt checks: one static tensor operand (no destination-passing output),
a result of its shape, and `dimension` in range.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ttopt.ir.attributes import IntegerAttr
from ttopt.ir.operation import Operation
from ttopt.ir.rewriter import insert_before
from ttopt.ir.types import ScalarType
from ttopt.lowering.erase_inverse_ops.commute import (
    RESHAPE,
    Commute,
    ConstevalAnalysis,
    Direction,
    all_users_identical_tms,
    new_tm,
    replace_results,
    shape_of,
    users,
    with_shape,
)
from ttopt.lowering.erase_inverse_ops.reshape_dims import matching_dim

if TYPE_CHECKING:
    from ttopt.ir.values import Value

SOFTMAX = "ttir.softmax"


def softmax_dim(op: Operation) -> int | None:
    """The softmax's dimension, non-negative; None when the op is not plain or it is out of range."""
    if len(op.operands) != 1 or len(op.results) != 1:
        return None
    shape = shape_of(op.operands[0])
    attr = op.properties.get("dimension")
    dim = getattr(attr.resolve(), "value", None) if attr is not None else None
    if shape is None or shape_of(op.results[0]) != shape or not isinstance(dim, int) or not -len(shape) <= dim < len(shape):
        return None
    return dim % len(shape)


def _moved_dim(op: Operation, src: tuple[int, ...] | None, dst: tuple[int, ...] | None) -> int | None:
    """The softmax's dimension (of `src`) as one of the reshaped `dst`, None if it does not survive."""
    dim = softmax_dim(op)
    if dim is None or src is None or dst is None:
        return None
    return matching_dim(src, dst, dim)


def _new_softmax(op: Operation, value: Value, dim: int) -> Operation:
    """`op` on `value` along `dim` (an si32, as HEAD writes it), built before `op`."""
    props = dict(op.properties)
    props["dimension"] = IntegerAttr(dim, ScalarType("si32"))
    shape = shape_of(value)
    assert shape is not None
    return insert_before(op, Operation(SOFTMAX, [value], [with_shape(op.results[0], shape)], props, location=op.location))


def _viable(op: Operation, tm: Operation) -> bool:
    return softmax_dim(op) is not None


def _up_favorable(op: Operation, tm: Operation, analysis: ConstevalAnalysis) -> bool:
    return _moved_dim(op, shape_of(op.operands[0]), shape_of(tm.results[0])) is not None and all_users_identical_tms(op)


def _up(op: Operation, tm: Operation) -> list[Operation]:
    dst = shape_of(tm.results[0])
    dim = _moved_dim(op, shape_of(op.operands[0]), dst)
    assert dst is not None and dim is not None  # `_up_favorable`
    moved = new_tm(RESHAPE, op.operands[0], dst, location=tm.location, before=op)
    new = _new_softmax(op, moved.results[0], dim)
    touched: list[Operation] = [moved, new]
    for reader in users(op):
        touched += replace_results(reader, [new.results[0]])
    return touched


def _down_favorable(op: Operation, tm: Operation, analysis: ConstevalAnalysis) -> bool:
    return _moved_dim(op, shape_of(tm.results[0]), shape_of(tm.operands[0])) is not None


def _down(op: Operation, tm: Operation) -> list[Operation]:
    dim = _moved_dim(op, shape_of(tm.results[0]), shape_of(tm.operands[0]))
    out = shape_of(op.results[0])
    assert dim is not None and out is not None  # `_down_favorable`
    new = _new_softmax(op, tm.operands[0], dim)
    after = new_tm(RESHAPE, new.results[0], out, location=tm.location, before=op)
    return [new, after, *replace_results(op, [after.results[0]]), tm]


def commutes(direction: Direction) -> list[Commute]:
    """Reshapes through the softmax, in `direction`."""
    favorable, perform = (_up_favorable, _up) if direction is Direction.UPWARDS else (_down_favorable, _down)
    return [Commute("reshape-through-softmax", RESHAPE, frozenset({SOFTMAX}), direction, _viable, favorable, perform)]
