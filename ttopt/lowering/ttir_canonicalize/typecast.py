"""TTIR typecasts folded as tt-mlir's TypecastOp folder and canonicalization do.

* a typecast to its input's own type is its input;
* a typecast of a constant is the cast constant: floats round to nearest in the target type (not
  when that overflows), a float to an integer rounds toward zero and does not fold when the value
  is out of the target's range or not finite, an integer to an integer does not fold when the
  value changes (an i1 target does not fold);
* a typecast of a typecast casts the first one's input once (the intermediate type dropped), unless
  either is marked `conservative_folding`: tt-mlir then keeps pairs that would change numerics
  (float -> integer -> float, or a narrowing cast then a widening one); ttopt keeps every such pair.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from ttopt.ir.attributes import BoolAttr, UnitAttr
from ttopt.lowering.ttir_canonicalize.constant_folds import fold_to
from ttopt.lowering.ttir_canonicalize.constants import Constant, constant_of, int_bits, is_float, is_int, round_float, tensor_of, wrap
from ttopt.lowering.ttir_canonicalize.edits import producer, replace_with_new, replace_with_value, single_input

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation


def _cast(v: Any, src: str, dst: str) -> Any:
    """One element cast from `src` to `dst` as tt-mlir's typecast folder does, None if it must not fold."""
    if is_float(src):
        x = float(v)
        if is_float(dst):
            if x != x or x in (math.inf, -math.inf):
                return x
            out = round_float(x, dst)
            return None if out in (math.inf, -math.inf) else out
        if x != x or x in (math.inf, -math.inf):
            return None
        n = int(x)  # toward zero
        return n if wrap(n, dst) == n else None
    n = int(v)
    if is_float(dst):
        return round_float(float(n), dst)
    return n if wrap(n, dst) == n else None


def fold_typecast(op: Operation) -> list[Operation] | None:
    """`typecast` of a constant is the cast constant; a cast to the input's own type is its input."""
    src = single_input(op)
    if src is None:
        return None
    if src.type == op.results[0].type:
        return replace_with_value(op, src)
    const = constant_of(src)
    out = tensor_of(op.results[0])
    if const is None or out is None or not (is_float(out[0]) or is_int(out[0])):
        return None
    if is_int(out[0]) and int_bits(out[0]) == 1:
        return None
    values = tuple(_cast(v, const.element, out[0]) for v in const.values)
    if any(v is None for v in values):
        return None
    return fold_to(op, Constant(values, out[0], out[1]))



def _conservative(op: Operation) -> bool:
    a = op.properties.get("conservative_folding") or op.attributes.get("conservative_folding")
    a = a.resolve() if a is not None else None
    return isinstance(a, UnitAttr) or (isinstance(a, BoolAttr) and a.value)


def fold_consecutive_typecast(op: Operation) -> list[Operation] | None:
    """A typecast of a typecast casts the first one's input once (not a conservative pair)."""
    src = single_input(op)
    first = producer(src, "ttir.typecast") if src is not None else None
    inner = single_input(first) if first is not None else None
    if first is None or inner is None or _conservative(op) or _conservative(first):
        return None
    return replace_with_new(op, "ttir.typecast", [inner], op.results[0].type)
