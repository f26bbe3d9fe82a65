"""Where a value's constant comes from: a value traced back through ops that keep a constant a
constant (reshape, broadcast, convert / typecast), in StableHLO or in the TTIR already lowered from
it, to the literal -- as tt-mlir's lowerings find pad values, init values and divisors."""

from __future__ import annotations

from math import prod
from typing import TYPE_CHECKING, Any

from ttopt.ir.attributes import DenseElementsAttr
from ttopt.lowering.dense_values import splat_value

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation
    from ttopt.ir.values import Value

LOOK_THROUGH = frozenset({"stablehlo.reshape", "stablehlo.broadcast_in_dim", "stablehlo.convert",
                          "ttir.reshape", "ttir.broadcast", "ttir.typecast"})  # fmt: skip
CONSTANTS = frozenset({"stablehlo.constant", "ttir.constant", "arith.constant"})


def defining(v: Value) -> Operation | None:
    """The op that produces `v` (None for a block argument)."""
    return getattr(v, "op", None)


def constant_op(v: Value, look_through: frozenset[str] = LOOK_THROUGH) -> Operation | None:
    """The constant op `v` is a reshaped / broadcast / converted copy of, or None."""
    op = defining(v)
    while op is not None and op.name in look_through and op.operands:
        op = defining(op.operands[0])
    return op if op is not None and op.name in CONSTANTS else None


def element_of(op: Operation) -> str:
    """The element type name of an op's first result."""
    return op.results[0].type.resolve().element_type.resolve().text


def splat(v: Value, look_through: frozenset[str] = LOOK_THROUGH) -> float | int | bool | None:
    """The one value of the splat constant behind `v`, or None."""
    op = constant_op(v, look_through)
    if op is None:
        return None
    return splat_value(op.properties["value"], element_of(op))


def literal(v: Value) -> list[Any] | None:
    """All values of the constant `v` is (row-major, a splat repeated), or None (not a constant
    op itself, or a hex blob)."""
    op = defining(v)
    if op is None or op.name not in CONSTANTS:
        return None
    a = op.properties["value"].resolve()
    if not isinstance(a, DenseElementsAttr) or a.body.strip().startswith('"'):
        return None
    n = prod(op.results[0].type.resolve().shape)
    values = a.values
    if not isinstance(values, list):
        return [values] * n
    flat: list[Any] = []

    def walk(x: Any) -> None:
        if isinstance(x, list):
            for y in x:
                walk(y)
        else:
            flat.append(x)

    walk(values)
    return flat if len(flat) == n else None
