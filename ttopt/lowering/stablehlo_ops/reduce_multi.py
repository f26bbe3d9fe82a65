"""`stablehlo.reduce` of several operands: argmax / argmin, and reducers whose results are
independent one-op reductions. A reduce of one operand goes to the built-in lowering.

Argmax, as tt-mlir recognises it: operands (x, iota along the reduced dimension), inits (-inf or the
type's minimum, 0), and a reducer body of the compare/select sequences tt-xla (JAX) or tt-torch
emit, whose first compare is GT (JAX) or GE (torch) of the two values. It becomes `ttir.argmax`
(`keep_dim = false`). ttopt also reads the same bodies with LT / LE first and +inf (or the maximum)
as init as argmin, written as the argmax of the order-reversed input (`neg` for floats,
`bitwise_not` for integers); and when the value result is used too (tt-mlir requires it unused),
it is the matching `ttir.max` / `ttir.min`. tt-mlir's checks that ttopt makes as well: the inits
are constants, the index operand is an iota (ttopt also checks that it counts along the reduced
dimension). A reduce whose init is not a constant (a function argument) stays a diagnostic.

Independent results: when each result i is one add/max/min/multiply/and/or of its own pair of
block arguments, each operand is reduced on its own, as a one-operand reduce is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ttopt.dialects.format_base import enum_value
from ttopt.ir.attributes import BoolAttr
from ttopt.ir.properties import int_values
from ttopt.lowering.stablehlo_ops.building import constant_splat, defining, iota_dimension
from ttopt.lowering.stablehlo_to_ttir import REDUCE, Unsupported, _element, _i32s, _identity, lowers

if TYPE_CHECKING:
    from ttopt.ir.operation import Block, Operation
    from ttopt.ir.values import Value
    from ttopt.lowering.stablehlo_to_ttir import Lowering

# The reducer bodies of argmax/argmin after the first (value) compare, op by op (tt-mlir's patterns).
_TORCH = (("select", "maximum", "minimum"), ("compare",), ("minimum", "maximum"), ("select",), ("select",), ("return",))
_JAX_OR = (("compare",), ("or",), ("compare",), ("compare",), ("and",), ("or",), ("select",), ("select",), ("return",))
_JAX_CMP = (("compare",), ("compare",), ("and",), ("or",), ("select", "maximum", "minimum"), ("select",), ("return",))
FLOATS = ("f16", "bf16", "f32", "f64")


def _dims(op: Operation) -> list[int]:
    a = op.properties.get("dimensions") or op.attributes.get("dimensions")
    return list(int_values(a) or ())


def _matches(ops: list[Operation], pattern: tuple[tuple[str, ...], ...]) -> bool:
    return len(ops) == len(pattern) and all(o.name.partition(".")[2] in names for o, names in zip(ops, pattern))


def arg_kind(op: Operation) -> str | None:
    """ "max" or "min" when `op` is an argmax / argmin reduce (see the module docstring), else None."""
    if len(op.operands) != 4 or len(op.results) != 2 or not op.regions or len(op.regions[0].blocks) != 1:
        return None
    x, index, init_v, init_i = op.operands
    dims = _dims(op)
    if len(dims) != 1 or iota_dimension(index) != dims[0]:
        return None
    body = op.regions[0].blocks[0]
    ops = list(body.ops)
    first = ops[0] if ops else None
    if first is None or first.name != "stablehlo.compare" or list(first.operands) != [body.args[0], body.args[2]]:
        return None
    direction = enum_value(first.properties.get("comparison_direction") or first.attributes.get("comparison_direction"))
    rest = ops[1:]
    torch, jax = _matches(rest, _TORCH), _matches(rest, _JAX_OR) or _matches(rest, _JAX_CMP)
    kind = {"GT": "max", "GE": "max", "LT": "min", "LE": "min"}.get(str(direction))
    if kind is None or not (torch or jax) or (torch and direction not in ("GE", "LE")) or (jax and direction not in ("GT", "LT")):
        return None
    if constant_splat(init_i) != 0 or not _is_extreme(constant_splat(init_v), _element(x), lowest=kind == "max"):
        return None
    return kind


def _is_extreme(v: Any, element: str, lowest: bool) -> bool:
    if element == "i1":
        return v is (not lowest)
    if v is None or isinstance(v, bool):
        return False
    if element in FLOATS:
        return float(v) == (float("-inf") if lowest else float("inf"))
    bits = int(element.lstrip("sui"))
    if element.startswith("ui"):
        return int(v) == (0 if lowest else (1 << bits) - 1)
    return int(v) == (-(1 << (bits - 1)) if lowest else (1 << (bits - 1)) - 1)


def _arg_reduce(low: Lowering, op: Operation, kind: str) -> list[Value]:
    x = op.operands[0]
    dims = _i32s(_dims(op))
    t = x.type
    keyed = x
    if kind == "min":
        keyed = low.emit("neg" if _element(x) in FLOATS else "bitwise_not", [x], t)
    index = low.emit("argmax", [keyed], op.results[1].type, keep_dim=BoolAttr(False), dim_arg=dims)
    value = index  # the value result, when unused, is never read
    if op.results[0].uses:
        value = low.emit(kind, [x], op.results[0].type, keep_dim=BoolAttr(False), dim_arg=dims)
    return [value, index]


def _independent(low: Lowering, op: Operation, body: Block) -> list[Value] | None:
    """Each result reduced on its own, when every result is one combiner of its own argument pair."""
    n = len(op.results)
    ret = body.ops[-1] if body.ops else None
    if ret is None or ret.name != "stablehlo.return" or len(body.ops) != n + 1:
        return None
    out = []
    for i in range(n):
        inner = defining(ret.operands[i])
        pair = [body.args[i], body.args[n + i]]
        if inner is None or inner.name.partition(".")[2] not in REDUCE or list(inner.operands) not in (pair, pair[::-1]):
            return None
        out.append((inner.name.partition(".")[2], op.operands[i], op.operands[n + i], op.results[i]))
    values = []
    for combiner, x, init, result in out:
        kind = REDUCE[combiner]
        element = _element(x)
        if kind.startswith("reduce_") and element != "i1":
            raise Unsupported(f"'{combiner}' reduction over {element} (reduce_and/reduce_or take i1)")
        y = low.emit(kind, [x], result.type, keep_dim=BoolAttr(False), dim_arg=_i32s(_dims(op)))
        value = constant_splat(init)
        if value is None or value not in _identity(kind, element):
            name = combiner if combiner in ("add", "maximum", "minimum", "multiply") else f"logical_{combiner}"
            y = low.emit(name, [y, low.broadcast_to(init, y)], result.type)
        values.append(y)
    return values


@lowers("stablehlo.reduce")
def _reduce(low: Lowering, op: Operation) -> list[Value]:
    if len(op.operands) == 2:
        return [low._reduce(op)]
    kind = arg_kind(op)
    if kind is not None:
        return _arg_reduce(low, op, kind)
    body = op.regions[0].blocks[0] if op.regions and op.regions[0].blocks else None
    values = _independent(low, op, body) if body is not None else None
    if values is None:
        raise Unsupported(
            "a reduce of several operands that is neither an argmax/argmin (value and iota index, constant "
            "inits) nor independent one-op reductions"
        )
    return values
