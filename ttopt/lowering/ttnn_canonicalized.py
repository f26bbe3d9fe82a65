"""TTIR -> TTNN for ops tt-mlir's TTIR canonicalizer rewrites before the conversion, so the TTNN op
is the one HEAD's backend pipeline prints:

| TTIR | TTNN |
|---|---|
| `le(a, b)`, `lt(a, b)` | `ge(b, a)`, `gt(b, a)` (LessEqualOp / LessThanOp canonicalization) |
| `clamp_tensor` with constant min and max | `ttnn.clamp_scalar`: f32 bounds for float results, i32 bounds (saturated, rounded toward zero) for integer ones |
| `clamp_tensor` | `ttnn.clamp_tensor`; a min or max of another shape is reshaped and repeated to the result's |
| `repeat_interleave` with `repeats = 1` | nothing: its input (RepeatInterleaveOp's folder) |
| `typecast` to the type it reads | nothing: its input (TypecastOp's folder) |
| `get_dimension_size` | `ttnn.full` of the dimension's size (si32), as HEAD's TTIR decomposition |

A bound is constant when it is a `full` / `zeros` / `ones` (or a splat constant, which the
conversion makes a `full`) behind reshapes, typecasts and broadcasts, as HEAD's folds leave it.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from ttopt.dialects.ttir import inputs
from ttopt.ir.attributes import DialectAttr, FloatAttr, IntegerAttr
from ttopt.ir.types import ScalarType, TensorType
from ttopt.lowering.ttnn_direct import DIRECT, direct_rule

if TYPE_CHECKING:
    from ttopt.lowering.ttir_to_ttnn import _Lowering

F32, I32 = ScalarType("f32"), ScalarType("i32")
# Ops a constant is seen through: they change its shape or type, not its one value.
_TRANSPARENT = frozenset({f"{d}.{n}" for d in ("ttir", "ttnn") for n in ("reshape", "typecast", "broadcast", "repeat")})
_INT32 = (-(1 << 31), (1 << 31) - 1)


def _result(lw: _Lowering, op: Any) -> Any:
    return lw.layout_type(op.results[0].type, op)


def _swapped(name: str) -> Any:
    """`le`/`lt` -> `ge`/`gt` of the swapped operands."""

    def rule(lw: _Lowering, op: Any) -> Any:
        a, b = inputs(op)[:2]
        return lw.emit(name, [b, a], _result(lw, op), {}, op.location)

    return rule


def constant_value(v: Any) -> float | int | None:
    """The one value of a constant tensor (see the module docstring), else None."""
    p = getattr(v, "op", None)
    while p is not None and p.name in _TRANSPARENT:
        p = getattr(p.operands[0], "op", None)
    if p is None:
        return None
    short = p.name.partition(".")[2]
    if short == "zeros":
        return 0
    if short == "ones":
        return 1
    if short != "full":
        return None
    fill = p.properties.get("fill_value")
    value = getattr(fill.resolve(), "value", None) if fill is not None else None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return value


def _i32(value: float | int) -> int:
    """`value` as HEAD's APFloat::convertToInteger makes it a signed 32-bit integer: toward zero, saturated."""
    if isinstance(value, float) and math.isnan(value):
        return 0
    if isinstance(value, float) and math.isinf(value):
        return _INT32[1] if value > 0 else _INT32[0]
    return max(_INT32[0], min(_INT32[1], int(value)))


def _clamp_tensor(lw: _Lowering, op: Any) -> Any:
    x, lo, hi = inputs(op)[:3]
    out = op.results[0].type.resolve()
    bounds = constant_value(lo), constant_value(hi)
    if bounds[0] is not None and bounds[1] is not None:
        attrs: dict[str, Any]
        if out.element_type.resolve().text.startswith(("f", "bf")):
            attrs = {"min": FloatAttr(float(bounds[0]), F32), "max": FloatAttr(float(bounds[1]), F32)}
        else:
            attrs = {"min": IntegerAttr(_i32(bounds[0]), I32), "max": IntegerAttr(_i32(bounds[1]), I32)}
        return lw.emit("ttnn.clamp_scalar", [x], _result(lw, op), {"max": attrs["max"], "min": attrs["min"]}, op.location)
    shape = tuple(out.shape)
    return lw.emit("ttnn.clamp_tensor", [x, _broadcast_to(lw, op, lo, shape), _broadcast_to(lw, op, hi, shape)], _result(lw, op), {},
                   op.location)  # fmt: skip


def _broadcast_to(lw: _Lowering, op: Any, v: Any, shape: tuple[int, ...]) -> Any:
    """`v` reshaped to the rank of `shape` (leading ones) and repeated to it, as HEAD's broadcastValue."""
    s = tuple(v.type.resolve().shape)
    if s == shape:
        return v
    ranked = (1,) * (len(shape) - len(s)) + s
    if len(ranked) != len(shape) or any(a not in (1, b) for a, b in zip(ranked, shape)):
        raise ValueError(f"bound of shape {list(s)} does not broadcast to the result shape {list(shape)}")
    v = lw.reshape(v, ranked, op, op.location)
    repeats = "x".join(str(b if a == 1 else 1) for a, b in zip(ranked, shape))
    rt = lw.layout_type(TensorType(shape, v.type.resolve().element_type), op)
    return lw.emit("ttnn.repeat", [v], rt, {"repeat_dims": DialectAttr("ttnn.shape", repeats)}, op.location)


_repeat_interleave_direct = direct_rule("repeat_interleave", DIRECT["repeat_interleave"])


def _repeat_interleave(lw: _Lowering, op: Any) -> Any:
    repeats = op.get_attr("repeats")
    if repeats is not None and getattr(repeats.resolve(), "value", None) == 1:
        return inputs(op)[0]
    return _repeat_interleave_direct(lw, op)


def _typecast(lw: _Lowering, op: Any) -> Any:
    x = inputs(op)[0]
    t = _result(lw, op)
    if x.type.resolve().text == t.text:
        return x
    return lw.emit("ttnn.typecast", [x], t, {}, op.location)


def _get_dimension_size(lw: _Lowering, op: Any) -> Any:
    shape = tuple(inputs(op)[0].type.resolve().shape)
    dim = op.get_attr("dimension")
    d = getattr(dim.resolve(), "value", None) if dim is not None else None
    if not isinstance(d, int) or not -len(shape) <= d < len(shape):
        raise ValueError(f"dimension {d} is out of range for rank {len(shape)}")
    out = tuple(op.results[0].type.resolve().shape)
    properties = {"shape": DialectAttr("ttnn.shape", "x".join(map(str, out))), "fill_value": IntegerAttr(int(shape[d]), I32)}
    return lw.emit("ttnn.full", [lw.get_device()], _result(lw, op), properties, op.location)


CANONICALIZED_RULES = {
    "typecast": _typecast,
    "get_dimension_size": _get_dimension_size,
    "repeat_interleave": _repeat_interleave,
    "le": _swapped("ttnn.ge"),
    "lt": _swapped("ttnn.gt"),
    "clamp_tensor": _clamp_tensor,
}
