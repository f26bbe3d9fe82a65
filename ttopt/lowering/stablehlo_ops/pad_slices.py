"""`stablehlo.pad`, `dynamic_slice` and `dynamic_update_slice` -> TTIR.

* pad (tt-mlir's conversion): the padding value must trace back to a constant (through reshape,
  broadcast and convert); edge padding becomes `ttir.pad` (`padding` = low/high per dimension,
  `value` as f32). Interior padding becomes a `ttir.full` of the padding value into which the
  flattened operand is scattered (`ttir.scatter` along dimension 0 at the constant flat positions
  its elements land on, row-major).
* dynamic_slice (tt-mlir's conversion): the scalar start indices are reshaped to one element each
  and concatenated; the ends are the starts plus the slice sizes (a constant); `ttir.slice_dynamic`.
  Like tt-mlir, the start indices are not clamped into range.
* dynamic_update_slice (tt-mlir hoists it to the CPU; here it stays on the device unless
  `enable-cpu-fallback=true`, which hoists it as tt-mlir does: cpu_hoist_shlo.py): the start
  indices are clamped into range as StableHLO specifies, turned into one flat offset (each start
  times its row-major stride), added to the constant flat positions of the update window, and the
  flattened update is scattered into the flattened operand (`ttir.scatter`, dimension 0).
"""

from __future__ import annotations

from math import prod
from typing import TYPE_CHECKING, Any

from ttopt.ir.attributes import DenseArrayAttr, DenseElementsAttr, DialectAttr, FloatAttr, IntegerAttr
from ttopt.ir.properties import props
from ttopt.ir.types import ScalarType
from ttopt.lowering.stablehlo_handlers import Unsupported, lowers
from ttopt.lowering.stablehlo_ops.building import element, reshape_always, shape_of, tensor
from ttopt.lowering.stablehlo_ops.cache_writes import update_slice_cache_write
from ttopt.lowering.stablehlo_ops.constant_source import splat

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation
    from ttopt.ir.values import Value
    from ttopt.lowering.stablehlo_to_ttir import Lowering

I32, SI32, F32 = ScalarType("i32"), ScalarType("si32"), ScalarType("f32")
INVALID_REDUCE = DialectAttr("ttcore.reduce_type", "invalid")


def int_constant(low: Lowering, values: list[int], shape: tuple[int, ...], elem: Any) -> Value:
    """A `ttir.constant` of integers (a splat when they are all equal)."""
    body = str(values[0]) if values and all(v == values[0] for v in values) else _nested(values, shape)
    t = tensor(shape, elem)
    return low.emit("constant", [], t, value=DenseElementsAttr(body, t))


def _nested(values: list[Any], shape: tuple[int, ...]) -> str:
    if len(shape) <= 1:
        return "[" + ", ".join(str(v) for v in values) + "]"
    step = prod(shape[1:])
    return "[" + ", ".join(_nested(values[i : i + step], shape[1:]) for i in range(0, len(values), step)) + "]"


def flat_scatter(low: Lowering, into: Value, index: Value, source: Value, out_shape: tuple[int, ...]) -> Value:
    """`into` and `source` flattened, `source` scattered into `into` at the flat positions `index`
    (overwriting), and the result reshaped to `out_shape`."""
    n, k = prod(shape_of(into)), prod(shape_of(source))
    flat_into = reshape_always(low, into, (n,))
    flat_source = reshape_always(low, source, (k,))
    t = into.type.resolve()
    y = low.emit("scatter", [flat_into, index, flat_source], tensor((n,), element(into), t), dim=IntegerAttr(0, I32),
                 scatter_reduce_type=INVALID_REDUCE)  # fmt: skip
    return reshape_always(low, y, out_shape)


def row_major_strides(shape: tuple[int, ...]) -> list[int]:
    """Elements between consecutive indices of each dimension."""
    return [prod(shape[i + 1 :]) for i in range(len(shape))]


def window_positions(window: tuple[int, ...], strides: list[int], origin: list[int], step: list[int]) -> list[int]:
    """Flat positions of a window's elements (row-major), element i of dimension d at
    origin[d] + i * step[d]."""
    out = [0]
    for d, n in enumerate(window):
        out = [p + (origin[d] + i * step[d]) * strides[d] for p in out for i in range(n)]
    return out


@lowers("stablehlo.pad")
def pad(low: Lowering, op: Operation) -> list[Value]:
    """Edge padding -> `ttir.pad`; interior padding -> `ttir.full` + `ttir.scatter`."""
    x, padding_value = op.operands
    p = props(op)
    lo, hi, interior = list(p.edge_padding_low), list(p.edge_padding_high), list(p.interior_padding)
    value = splat(padding_value)
    if value is None:
        raise Unsupported("its padding value does not trace back to a constant")
    out = op.results[0].type.resolve()
    fill = FloatAttr(float(value), F32)
    if not any(interior):
        padding = tuple(v for pair in zip(lo, hi) for v in pair)
        return [low.emit("pad", [x], out, padding=DenseArrayAttr("i32", padding), value=fill)]
    if any(v < 0 for v in lo + hi):
        raise Unsupported("interior padding together with negative edge padding")
    out_shape = tuple(out.shape)
    full = low.emit("full", [], out, shape=DenseArrayAttr("i32", out_shape), fill_value=fill)
    positions = window_positions(shape_of(x), row_major_strides(out_shape), lo, [v + 1 for v in interior])
    index = int_constant(low, positions, (len(positions),), ScalarType("i64"))
    return [flat_scatter(low, full, index, x, out_shape)]


@lowers("stablehlo.dynamic_slice")
def dynamic_slice(low: Lowering, op: Operation) -> list[Value]:
    """Starts concatenated into one tensor, ends = starts + sizes, `ttir.slice_dynamic`."""
    x, *starts = op.operands
    if not starts:
        return [x]
    sizes = list(props(op).slice_sizes)
    elem = element(starts[0])
    begins = _concat_starts(low, starts)
    ends = low.emit("add", [begins, int_constant(low, sizes, (len(sizes),), elem)], begins.type)
    return [low.emit("slice_dynamic", [x, begins, ends], op.results[0].type)]


def _concat_starts(low: Lowering, starts: list[Value]) -> Value:
    parts = [reshape_always(low, s, (1,)) for s in starts]
    elem = element(starts[0])
    return low.emit("concat", parts, tensor((len(parts),), elem), dim=IntegerAttr(0, SI32))


@lowers("stablehlo.dynamic_update_slice")
def dynamic_update_slice(low: Lowering, op: Operation) -> list[Value]:
    """A KV-cache write (stablehlo_ops/cache_writes.py), else the update scattered into the operand
    at its clamped, flattened start position."""
    written = update_slice_cache_write(low, op)
    if written is not None:
        return [written]
    x, update, *starts = op.operands
    shape, window = shape_of(x), shape_of(update)
    if not shape:
        return [update]
    strides = row_major_strides(shape)
    elem = element(starts[0])
    offset: Value | None = None
    for d, s in enumerate(starts):
        s1 = reshape_always(low, s, (1,))
        s1 = low.emit("clamp_scalar", [s1], s1.type, min=IntegerAttr(0, I32), max=IntegerAttr(shape[d] - window[d], I32))
        if strides[d] != 1:
            s1 = low.emit("multiply", [s1, int_constant(low, [strides[d]], (1,), elem)], s1.type)
        offset = s1 if offset is None else low.emit("add", [offset, s1], s1.type)
    assert offset is not None
    positions = window_positions(window, strides, [0] * len(shape), [1] * len(shape))
    k = len(positions)
    base = int_constant(low, positions, (k,), elem)
    spread = offset if k == 1 else low.emit("broadcast", [offset], tensor((k,), elem), broadcast_dimensions=DenseArrayAttr("i64", (k,)))
    index = low.emit("add", [base, spread], base.type)
    return [flat_scatter(low, x, index, update, shape)]
