"""TTIR's algebraic op traits as folds (tt-mlir's TTIRTraits: TTIRInvolution, TTIRIdempotence,
TTIRBinaryIdempotence, declared per op in TTIROps.td).

* involution (`neg`, `bitwise_not`, `reciprocal`): `f(f(x))` is `x`;
* idempotence (`abs`, `ceil`, `floor`, `relu`, `relu6`, `sign`): `f(f(x))` is `f(x)`;
* binary idempotence (`logical_and`, `logical_or`, `bitwise_and`, `bitwise_or`, `minimum`):
  `f(x, x)` is `x`.

Each holds only when every operand and result of the ops involved has one type (a `relu` from
f32 to bf16 is a conversion too), as tt-mlir's verifyInvolution / verifyIdempotence require.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ttopt.dialects.ttir import inputs
from ttopt.ir.values import OpResult
from ttopt.lowering.ttir_canonicalize.edits import replace_with_value

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation
    from ttopt.ir.values import Value

INVOLUTIONS = frozenset({"ttir.neg", "ttir.bitwise_not", "ttir.reciprocal"})
IDEMPOTENT = frozenset({"ttir.abs", "ttir.ceil", "ttir.floor", "ttir.relu", "ttir.relu6", "ttir.sign"})
BINARY_IDEMPOTENT = frozenset({"ttir.logical_and", "ttir.logical_or", "ttir.bitwise_and", "ttir.bitwise_or", "ttir.minimum"})


def _same_typed(op: Operation) -> bool:
    """One operand (a destination `ttir.empty` aside), one result, all of one type."""
    ins = inputs(op)
    return len(ins) == 1 and len(op.results) == 1 and all(v.type == op.results[0].type for v in op.operands)


def _same_producer(op: Operation) -> Operation | None:
    """The op of `op`'s name that defines its input, when both are same-typed unary ops."""
    if not _same_typed(op):
        return None
    src: Value = inputs(op)[0]
    if not isinstance(src, OpResult) or src.op.name != op.name or not _same_typed(src.op):
        return None
    return src.op


def fold_involution(op: Operation) -> list[Operation] | None:
    """`f(f(x))` is `x` for an involution `f`."""
    first = _same_producer(op)
    return None if first is None else replace_with_value(op, inputs(first)[0])


def fold_idempotence(op: Operation) -> list[Operation] | None:
    """`f(f(x))` is `f(x)` for an idempotent `f`."""
    first = _same_producer(op)
    return None if first is None else replace_with_value(op, first.results[0])


def fold_binary_idempotence(op: Operation) -> list[Operation] | None:
    """`f(x, x)` is `x` for a binary idempotent `f`."""
    ins = inputs(op)
    if len(ins) != 2 or len(op.results) != 1 or ins[0] is not ins[1] or ins[0].type != op.results[0].type:
        return None
    return replace_with_value(op, ins[0])
