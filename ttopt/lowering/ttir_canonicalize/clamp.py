"""TTIR clamps canonicalized as tt-mlir's ClampScalarOp / ClampTensorOp patterns do.

* `clamp_scalar` of a `clamp_scalar` read by nothing else is one clamp to the tighter bounds
  (the larger min, the smaller max), typed as the outer clamp's bounds;
* `clamp_scalar` with min 0 and max 6 is `relu6`;
* `clamp_tensor` whose min and max are `full`/`zeros`/`ones` is a `clamp_scalar` of their values
  (f32 bounds for a float result, i32 rounded toward zero and saturated for an integer one);
* otherwise a `clamp_tensor` whose min or max has another shape than its result reads them
  broadcast to it (a reshape to the result's rank, then a `broadcast`), so the converted op sees
  operands of one shape. A bound of another rank whose every dimension is not 1 is left (the
  side it would be unsqueezed on is tt-mlir's `frontUnsqueeze=false`, not needed by a scalar).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from ttopt.dialects.ttir import inputs
from ttopt.ir.attributes import ArrayAttr, DenseArrayAttr, FloatAttr, IntegerAttr
from ttopt.ir.operation import Operation
from ttopt.ir.rewriter import insert_before
from ttopt.ir.types import ScalarType, TensorType
from ttopt.lowering.ttir_canonicalize.constants import is_float, saturate_i32, splat_fill, tensor_of
from ttopt.lowering.ttir_canonicalize.edits import producer, replace_with_new, single_input

if TYPE_CHECKING:
    from ttopt.ir.attributes import Attribute
    from ttopt.ir.values import Value


def _number(a: Attribute | None) -> float | None:
    a = a.resolve() if a is not None else None
    return float(a.value) if isinstance(a, (FloatAttr, IntegerAttr)) else None


def merge_clamps(op: Operation) -> list[Operation] | None:
    """`clamp_scalar(clamp_scalar(x))`, the inner one read only here, is one clamp of `x`."""
    src = single_input(op)
    first = producer(src, "ttir.clamp_scalar") if src is not None else None
    if first is None or len(first.results[0].uses) != 1 or single_input(first) is None:
        return None
    bounds = [_number(o.properties.get(k)) for o in (first, op) for k in ("min", "max")]
    lo1, hi1, lo2, hi2 = bounds
    if lo1 is None or hi1 is None or lo2 is None or hi2 is None:
        return None
    # llvm::maximum / minimum: a NaN bound wins.
    lo = math.nan if math.isnan(lo1) or math.isnan(lo2) else max(lo1, lo2)
    hi = math.nan if math.isnan(hi1) or math.isnan(hi2) else min(hi1, hi2)
    if lo > hi:  # disjoint ranges: the pair is a constant, not clamp(x, lo, hi)
        return None
    min_attr, max_attr = op.properties["min"].resolve(), op.properties["max"].resolve()
    if isinstance(min_attr, FloatAttr) and isinstance(max_attr, FloatAttr):
        props: dict[str, Attribute] = {"min": FloatAttr(lo, min_attr.type), "max": FloatAttr(hi, max_attr.type)}
    elif isinstance(min_attr, IntegerAttr) and isinstance(max_attr, IntegerAttr) and math.isfinite(lo) and math.isfinite(hi):
        props = {"min": IntegerAttr(int(lo), min_attr.type), "max": IntegerAttr(int(hi), max_attr.type)}
    else:
        return None
    return replace_with_new(op, "ttir.clamp_scalar", [single_input(first)], op.results[0].type, props)  # type: ignore[list-item]


def clamp_to_relu6(op: Operation) -> list[Operation] | None:
    """`clamp_scalar(x, 0, 6)` is `relu6(x)`."""
    src = single_input(op)
    if src is None or _number(op.properties.get("min")) != 0.0 or _number(op.properties.get("max")) != 6.0:
        return None
    return replace_with_new(op, "ttir.relu6", [src], op.results[0].type)


def _bound(value: Any, element: str) -> FloatAttr | IntegerAttr:
    if is_float(element):
        return FloatAttr(float(value), ScalarType("f32"))
    return IntegerAttr(saturate_i32(int(value)), ScalarType("i32"))


def _broadcast_to(anchor: Operation, v: Value, target: TensorType, made: list[Operation]) -> Value | None:
    """`v` broadcast to `target`'s shape (reshaped to its rank first), ops built before `anchor`."""
    info = tensor_of(v)
    if info is None or target.shape is None:
        return None
    shape, want = info[1], tuple(int(d) for d in target.shape if d is not None)
    if shape == want:
        return v
    if len(shape) != len(want):
        if any(d != 1 for d in shape):
            return None
        shape = (1,) * len(want)
        t = v.type.resolve()
        assert isinstance(t, TensorType)
        reshaped = Operation("ttir.reshape", [v], [t.with_shape(shape)],
                             {"shape": ArrayAttr(tuple(IntegerAttr(d, ScalarType("i32")) for d in shape))}, location=anchor.location)
        insert_before(anchor, reshaped)
        made.append(reshaped)
        v = reshaped.results[0]
    if any(s != w and s != 1 for s, w in zip(shape, want)):
        return None
    dims = tuple(w if s == 1 and w != 1 else 1 for s, w in zip(shape, want))
    t = v.type.resolve()
    assert isinstance(t, TensorType)
    out = Operation("ttir.broadcast", [v], [t.with_shape(want)], {"broadcast_dimensions": DenseArrayAttr("i64", dims)}, location=anchor.location)
    insert_before(anchor, out)
    made.append(out)
    return out.results[0]


def canonicalize_clamp_tensor(op: Operation) -> list[Operation] | None:
    """`clamp_tensor` with constant bounds is a `clamp_scalar`; else its bounds take the result's shape."""
    ins = inputs(op)
    out = tensor_of(op.results[0]) if len(op.results) == 1 else None
    if len(ins) != 3 or out is None:
        return None
    x, lo_v, hi_v = ins
    lo, hi = splat_fill(lo_v), splat_fill(hi_v)
    if lo is not None and hi is not None:
        if not is_float(out[0]) and not (math.isfinite(float(lo)) and math.isfinite(float(hi))):
            return None
        props: dict[str, Attribute] = {"min": _bound(lo, out[0]), "max": _bound(hi, out[0])}
        return replace_with_new(op, "ttir.clamp_scalar", [x], op.results[0].type, props)
    lo_info, hi_info = tensor_of(lo_v), tensor_of(hi_v)
    if lo_info is None or hi_info is None or (lo_info[1] == out[1] and hi_info[1] == out[1]):
        return None
    target = op.results[0].type.resolve()
    if not isinstance(target, TensorType):
        return None
    made: list[Operation] = []
    new_lo = _broadcast_to(op, lo_v, target, made)
    new_hi = _broadcast_to(op, hi_v, target, made) if new_lo is not None else None
    if new_lo is None or new_hi is None:
        for m in reversed(made):
            m.erase()
        return None
    return made + replace_with_new(op, "ttir.clamp_tensor", [x, new_lo, new_hi], op.results[0].type)
