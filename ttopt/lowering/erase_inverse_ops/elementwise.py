"""Permutes and reshapes through elementwise ops (tt-mlir's ElementwiseCommutePatterns): the unary
and binary ops of HEAD's ElementwiseUnary / ElementwiseBinary interfaces.

* **Upwards**, when every reader of the op is the same TM: each operand gets that TM (its own
  element type: a typecast's operand keeps its type), the op computes on the changed operands and
  its readers read it directly. Nothing is added: n identical TMs below become one per operand.
* **Downwards**, when every other operand is the same TM, a constant, or on a const-eval path: the
  op reads the TM's input, each other operand gets the inverse TM (which cancels against an
  identical TM, or is computed once with the constant), and one TM follows the op.

Where HEAD assumes operands of the result's shape (`ttir-explicate-tms` makes them so before the
pipeline runs this pass), ttopt checks it: a reshape moves only over operands of the op's shape,
a permute over operands of its rank, and a TM moved down must carry the op's result shape, so an
op that broadcasts an operand implicitly is never given a mis-shaped operand.
"""

from __future__ import annotations

from ttopt.dialects.ttir import ELEMENTWISE_BINARY, ELEMENTWISE_UNARY, inputs
from ttopt.ir.location import suffixed_location
from ttopt.ir.operation import Operation
from ttopt.ir.rewriter import insert_before
from ttopt.ir.types import TensorType
from ttopt.lowering.erase_inverse_ops.commute import (
    CONSTANT_LIKE,
    PERMUTE,
    RESHAPE,
    Commute,
    ConstevalAnalysis,
    Direction,
    all_users_identical_tms,
    defining_op,
    identical_tms,
    inverse_tm,
    new_tm,
    replace_results,
    shape_of,
    tm_result_shape,
    users,
    with_shape,
)

ELEMENTWISE = ELEMENTWISE_UNARY | ELEMENTWISE_BINARY


def _plain(op: Operation) -> bool:
    """One result, every operand a static tensor input (no destination-passing output)."""
    return len(op.results) == 1 and len(inputs(op)) == len(op.operands) and all(shape_of(v) is not None for v in (*op.operands, op.results[0]))


def _up_viable(op: Operation, tm: Operation) -> bool:
    return _plain(op) and all(tm_result_shape(tm, shape_of(v) or ()) is not None for v in op.operands)


def _up_favorable(op: Operation, tm: Operation, analysis: ConstevalAnalysis) -> bool:
    return all_users_identical_tms(op)


def _up(op: Operation, tm: Operation) -> list[Operation]:
    readers = users(op)
    moved = []
    for i, v in enumerate(op.operands):
        shape = tm_result_shape(tm, shape_of(v) or ())
        assert shape is not None  # `_up_viable`
        moved.append(new_tm(tm.name, v, shape, like=tm, location=suffixed_location(tm.location, f"_tm{i}"), before=op))
    t = op.results[0].type.resolve()
    tm_t = tm.results[0].type.resolve()
    assert isinstance(t, TensorType) and isinstance(tm_t, TensorType)
    result = TensorType(tm_t.shape, t.element_type, tm_t.encoding)
    new = insert_before(op, Operation(op.name, [m.results[0] for m in moved], [result], dict(op.properties), dict(op.attributes), location=op.location))
    touched: list[Operation] = [*moved, new]
    for reader in readers:
        touched += replace_results(reader, [new.results[0]])
    return touched


def _down_viable(op: Operation, tm: Operation) -> bool:
    if not _plain(op) or shape_of(tm.results[0]) != shape_of(op.results[0]):
        return False
    result = shape_of(op.results[0])
    for v in op.operands:
        if defining_op(v) is tm:
            continue
        shape = shape_of(v)
        if shape is None or (tm.name == RESHAPE and shape != result) or len(shape) != len(result or ()):
            return False
    return True


def _down_favorable(op: Operation, tm: Operation, analysis: ConstevalAnalysis) -> bool:
    for v in op.operands:
        d = defining_op(v)
        if identical_tms(d, tm) or (d is not None and d.name in CONSTANT_LIKE) or analysis.traces_to_constant_args(v):
            continue
        return False
    return True


def _down(op: Operation, tm: Operation) -> list[Operation]:
    src = tm.operands[0]
    src_shape = shape_of(src)
    assert src_shape is not None
    operands = []
    touched: list[Operation] = []
    for v in op.operands:
        if defining_op(v) is tm:
            operands.append(src)
            continue
        inv = inverse_tm(tm, v, before=op)
        touched.append(inv)
        operands.append(inv.results[0])
    new = insert_before(op, Operation(op.name, operands, [with_shape(op.results[0], src_shape)], dict(op.properties), dict(op.attributes),
                                      location=op.location))  # fmt: skip
    after = new_tm(tm.name, new.results[0], shape_of(op.results[0]) or (), like=tm, location=op.location, before=op)
    return [*touched, new, after, *replace_results(op, [after.results[0]]), tm]


def commutes(direction: Direction) -> list[Commute]:
    """Permutes and reshapes through the elementwise ops, in `direction`."""
    viable, favorable, perform = (_up_viable, _up_favorable, _up) if direction is Direction.UPWARDS else (_down_viable, _down_favorable, _down)
    return [Commute(f"{kind[5:]}-through-elementwise", kind, ELEMENTWISE, direction, viable, favorable, perform) for kind in (PERMUTE, RESHAPE)]
