"""How a TTIR canonicalization changes the IR: an op's result replaced by a value, or by a new op
built in its place (as MLIR's `replaceOp` / `replaceOpWithNewOp`).

Each returns the ops the canonicalize driver should revisit (the readers of the replaced result
and the new op), as its patterns must.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ttopt.dialects.ttir import inputs
from ttopt.ir.operation import Operation
from ttopt.ir.rewriter import insert_before
from ttopt.ir.values import OpResult

if TYPE_CHECKING:
    from ttopt.ir.attributes import Attribute
    from ttopt.ir.types import Type
    from ttopt.ir.values import Value


def replace_with_value(op: Operation, value: Value) -> list[Operation]:
    """`op`'s single result becomes `value` everywhere and `op` goes (its producers are revisited:
    they may now be dead)."""
    users = op.results[0].users
    producers = [v.op for v in op.operands if isinstance(v, OpResult)]
    op.results[0].replace_all_uses_with(value)
    op.erase()
    return users + [p for p in producers if p.parent is not None]


def replace_with_new(op: Operation, name: str, operands: list[Value], result_type: Type,
                     properties: dict[str, Attribute] | None = None) -> list[Operation]:
    """`op` is replaced by a new `name` op, built before it, of one result of `result_type`."""
    new = Operation(name, operands, [result_type], properties or {}, location=op.location)
    insert_before(op, new)
    return [new] + replace_with_value(op, new.results[0])


def single_input(op: Operation) -> Value | None:
    """The one tensor input of a unary TTIR op (a destination-passing `ttir.empty` aside), or None."""
    ins = inputs(op)
    return ins[0] if len(ins) == 1 and len(op.results) == 1 else None


def producer(value: Value, name: str) -> Operation | None:
    """The op called `name` that defines `value`, or None."""
    return value.op if isinstance(value, OpResult) and value.op.name == name else None
