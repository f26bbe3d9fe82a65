"""`stablehlo.select_and_scatter` (the gradient of max pooling) -> TTIR, as tt-mlir lowers it.

The select body must be a comparison (the window's maximum is selected) and the init a constant.
Operand, source and a `ttir.full` of the init are permuted so the two dimensions with a window
larger than 1 are H and W of an NHWC layout; `ttir.max_pool2d_with_indices` of the operand gives,
per window, the flat H*W position of its maximum; the source is scattered there
(`ttir.scatter` along the flattened H*W dimension, combined as the scatter body says) and the
result reshaped and permuted back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ttopt.ir.attributes import DenseArrayAttr, DialectAttr, FloatAttr, IntegerAttr
from ttopt.ir.operation import Operation
from ttopt.ir.properties import int_values
from ttopt.ir.types import ScalarType
from ttopt.lowering.stablehlo_handlers import Unsupported, lowers
from ttopt.lowering.stablehlo_ops.building import reshape_always, shape_of, tensor
from ttopt.lowering.stablehlo_ops.constant_source import splat
from ttopt.lowering.stablehlo_ops.reduce_window import permute, pool_attrs

if TYPE_CHECKING:
    from ttopt.ir.values import Value
    from ttopt.lowering.stablehlo_to_ttir import Lowering

F32, I32 = ScalarType("f32"), ScalarType("i32")
# The op of a scatter body -> ttcore reduce type (a body that only returns: overwrite).
REDUCE_TYPES = {"stablehlo.add": "sum", "stablehlo.multiply": "prod", "stablehlo.maximum": "max", "stablehlo.minimum": "min"}


def reduce_type(region: Any) -> str | None:
    """The ttcore reduce type of a scatter-style body: its first combining op, `invalid` when it
    only returns, None for any other op (tt-mlir's getReduceTypeFromRegion)."""
    for o in region.blocks[0].ops:
        if o.name in REDUCE_TYPES:
            return REDUCE_TYPES[o.name]
        if o.name == "stablehlo.return":
            return "invalid"
    return None


def emit_multi(low: Lowering, name: str, operands: list[Value], results: list[Any], **properties: Any) -> list[Value]:
    """A `ttir.<name>` with several results before the op being lowered; its results."""
    anchor = low.anchor
    assert anchor is not None
    op = Operation(f"ttir.{name}", operands, results, properties=dict(sorted(properties.items())), location=anchor.location)
    return list(low.place(op).results)


@lowers("stablehlo.select_and_scatter")
def select_and_scatter(low: Lowering, op: Operation) -> list[Value]:
    """max_pool2d_with_indices picks each window's maximum; the source is scattered to it."""
    operand, source, init = op.operands
    select, scatter = op.regions
    if any(o.name not in ("stablehlo.compare", "stablehlo.return") for o in select.blocks[0].ops):
        raise Unsupported("its select body is not a single comparison")
    kind = reduce_type(scatter)
    if kind is None:
        raise Unsupported("its scatter body is not add / multiply / maximum / minimum")
    fill = splat(init)
    if fill is None:
        raise Unsupported("its init value is not a constant")
    shape = shape_of(operand)
    rank = len(shape)
    window = list(int_values(op.get_attr("window_dimensions")) or [1] * rank)
    strides = list(int_values(op.get_attr("window_strides")) or [1] * rank)
    padding = list(int_values(op.get_attr("padding")) or [0] * (2 * rank))
    spatial = [i for i, v in enumerate(window) if v > 1]
    if rank != 4 or len(spatial) != 2:
        raise Unsupported("it needs a rank-4 operand with exactly two window dimensions larger than 1")
    h, w = spatial
    rest = [i for i in range(4) if i not in spatial]
    perm = [rest[0], h, w, rest[1]]
    back = [perm.index(i) for i in range(4)]
    out_t = op.results[0].type.resolve()
    full = low.emit("full", [], out_t, shape=DenseArrayAttr("i32", shape), fill_value=FloatAttr(float(fill), F32))
    x, src, into = (permute(low, v, perm) for v in (operand, source, full))
    n, hh, ww, c = shape_of(x)
    sn, sh, sw, sc = shape_of(src)
    empties = [low.emit("empty", [], tensor(shape_of(src), t)) for t in (source.type.resolve().element_type, I32)]
    attrs = pool_attrs([window[h], window[w]], [strides[h], strides[w]], [1, 1],
                        [padding[2 * h], padding[2 * w], padding[2 * h + 1], padding[2 * w + 1]])  # fmt: skip
    _, indices = emit_multi(low, "max_pool2d_with_indices", [x, *empties], [e.type for e in empties], **attrs)
    indices = reshape_always(low, indices, (sn, sh * sw, 1, sc))
    src = reshape_always(low, src, (sn, sh * sw, 1, sc))
    into = reshape_always(low, into, (n, hh * ww, 1, c))
    y = low.emit("scatter", [into, indices, src], into.type, dim=IntegerAttr(1, I32), scatter_reduce_type=DialectAttr("ttcore.reduce_type", kind))
    y = reshape_always(low, y, (n, hh, ww, c))
    return [permute(low, y, back)]
