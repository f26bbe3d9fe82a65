"""TTIR -> TTNN for the indexing, scan, padding and pooling ops the StableHLO gather / scatter /
reduce_window / pad / dynamic-slice lowerings produce (tt-mlir's TTIRToTTNN patterns).

| TTIR | TTNN |
|---|---|
| `gather`, `scatter`, `cumsum`, `cumprod` | same name; `dim` as si32, the scatter's reduce type kept; a rank-1 gather on [1, N] / [1, M] reshapes (HEAD's GatherOpRank1RewritePattern); the scatter's f32 / bf16 / 32-bit integer operands row-major and its row-major result tiled again (HEAD's scatter workarounds) |
| `slice_dynamic`, `clamp_scalar`, `repeat` | same name (`repeat_dims = #ttnn.shape<..>`) |
| `pad` | `ttnn.pad` with `use_multicore = true` |
| `embedding_backward` | `ttnn.embedding_bw` on [B, 1, 1, S] indices (the sequence padded to a multiple of 32) and a [1, 1, R, C] gradient; its [1, 1, V, D] result reshaped to the table |
| `max_pool2d`, `avg_pool2d`, `max_pool2d_with_indices` | same name on the flattened NHWC input (ttnn_sliding_window.py); padding (top, left) when symmetric, else (top, left, bottom, right); padding wider than half the window is a `ttnn.pad` first |
"""

from __future__ import annotations

from math import ceil, prod
from typing import TYPE_CHECKING, Any

from ttopt.dialects.ttir import inputs
from ttopt.dialects.ttnn_layout import TTNNLayoutAttr
from ttopt.ir.attributes import BoolAttr, DenseArrayAttr, DialectAttr, FloatAttr, IntegerAttr
from ttopt.ir.operation import Operation
from ttopt.ir.properties import int_values, props
from ttopt.ir.types import ScalarType, TensorType
from ttopt.lowering.op_error import OpError
from ttopt.lowering.ttnn_direct import row_major
from ttopt.lowering.ttnn_sliding_window import flat_input, flat_result_type, result_value, window

if TYPE_CHECKING:
    from ttopt.lowering.ttir_to_ttnn import _Lowering

SI32, F32 = ScalarType("si32"), ScalarType("f32")
TILE = 32


def _type(lw: _Lowering, op: Any, shape: tuple[int, ...], like: Any) -> Any:
    return lw.layout_type(TensorType(tuple(shape), like.type.resolve().element_type), op)


def _result(lw: _Lowering, op: Any) -> Any:
    return lw.layout_type(op.results[0].type, op)


def _dim_op(name: str) -> Any:
    """TTIR op with a `dim` -> the TTNN op of the same name, `dim` as si32 (other properties kept)."""

    def rule(lw: _Lowering, op: Any) -> Any:
        properties = {k: v for k, v in op.properties.items() if k != "dim"}
        properties["dim"] = IntegerAttr(int(props(op).dim), SI32)
        return lw.emit(f"ttnn.{name}", inputs(op), _result(lw, op), properties, op.location)

    return rule


def _slice_dynamic(lw: _Lowering, op: Any) -> Any:
    properties = {"step": op.properties["step"]} if "step" in op.properties else {}
    return lw.emit("ttnn.slice_dynamic", inputs(op), _result(lw, op), properties, op.location)


def _clamp_scalar(lw: _Lowering, op: Any) -> Any:
    return lw.emit("ttnn.clamp_scalar", inputs(op), _result(lw, op), {"min": op.properties["min"], "max": op.properties["max"]}, op.location)


def _repeat(lw: _Lowering, op: Any) -> Any:
    dims = "x".join(str(d) for d in props(op).repeat_dimensions)
    return lw.emit("ttnn.repeat", inputs(op), _result(lw, op), {"repeat_dims": DialectAttr("ttnn.shape", dims)}, op.location)


def _pad_value(lw: _Lowering, v: Any, padding: list[int], op: Any, value: float = 0.0) -> Any:
    shape = tuple(v.type.resolve().shape)
    out = tuple(s + padding[2 * i] + padding[2 * i + 1] for i, s in enumerate(shape))
    return lw.emit("ttnn.pad", [v], _type(lw, op, out, v),
                   {"padding": DenseArrayAttr("i32", tuple(padding)), "value": FloatAttr(value, F32), "use_multicore": BoolAttr(True)},
                   op.location)  # fmt: skip


def _pad(lw: _Lowering, op: Any) -> Any:
    p = props(op)
    return lw.emit("ttnn.pad", inputs(op), _result(lw, op),
                   {"padding": DenseArrayAttr("i32", tuple(p.padding)), "value": FloatAttr(float(p.value), F32),
                    "use_multicore": BoolAttr(True)}, op.location)  # fmt: skip


def _embedding_backward(lw: _Lowering, op: Any) -> Any:
    idx, weight, grad = inputs(op)
    loc = op.location
    ishape = tuple(idx.type.resolve().shape)
    if len(ishape) > 2 and ishape[-1] == 1:
        ishape = ishape[:-1]
    if len(ishape) == 1:
        ishape = (1, ishape[0])
    seq = ishape[-1]
    padded = ceil(seq / TILE) * TILE
    # The squeeze / unsqueeze reshapes stand alone only before a pad; otherwise HEAD's canonicalizer
    # folds them into the final 4-D reshape of the indices.
    if seq != padded:
        idx = lw.reshape(idx, ishape, op, loc)
        idx = _pad_value(lw, idx, [0] * (2 * len(ishape) - 1) + [padded - seq], op)
        gshape = tuple(grad.type.resolve().shape)
        gpad = [0] * (2 * len(gshape))
        gpad[2 * (len(gshape) - 2) + 1] = padded - seq
        grad = _pad_value(lw, grad, gpad, op)
    gshape = tuple(grad.type.resolve().shape)
    grad = lw.reshape(grad, (1, 1, prod(gshape[:-1]), gshape[-1]), op, loc)
    ishape = tuple(idx.type.resolve().shape) if seq != padded else ishape
    if len(ishape) == 2:
        idx = lw.reshape(idx, (ishape[0], 1, 1, ishape[1]), op, loc)
    out = tuple(op.results[0].type.resolve().shape)
    y = lw.emit("ttnn.embedding_bw", [idx, weight, grad], _type(lw, op, (1, 1, *out), weight), {}, loc)
    return lw.reshape(y, out, op, loc)


def _pair(a: Any, n: int = 2) -> tuple[int, ...]:
    vals = int_values(a)
    if vals is None:
        vals = (int(a.resolve().value),)
    return tuple(vals) * n if len(vals) == 1 else tuple(vals)


def _padding_tlbr(a: Any) -> tuple[int, int, int, int]:
    """TTIR pooling padding (one value, (h, w), or (top, left, bottom, right)) as top, left, bottom, right."""
    vals = _pair(a, 4)
    if len(vals) == 2:
        return (vals[0], vals[1], vals[0], vals[1])
    if len(vals) != 4:
        raise ValueError(f"padding has {len(vals)} values; expected 1, 2 or 4")
    return (vals[0], vals[1], vals[2], vals[3])


def _pool(lw: _Lowering, op: Any) -> Any:
    win = window(op)
    n, h, w, c = win.n, win.h, win.w, win.c
    p = props(op)
    loc = op.location
    kernel = _pair(p.kernel)
    if op.name == "ttir.avg_pool2d" and _pair(p.dilation) != (1, 1):
        raise OpError("only supports lowering to TTNN for dilation of (1, 1)")  # HEAD's AvgPool2d conversion
    top, left, bottom, right = _padding_tlbr(p.padding)
    if top > kernel[0] // 2 or bottom > kernel[0] // 2 or left > kernel[1] // 2 or right > kernel[1] // 2:
        # TTNN pools pad at most half the window: pad the NHWC input explicitly instead (a
        # flattened input is unflattened for it, as HEAD's conversion does).
        x = lw.reshape(op.operands[0], (n, h, w, c), op, loc)
        x = _pad_value(lw, x, [0, 0, top, bottom, left, right, 0, 0], op, float("-inf") if "max" in op.name else 0.0)
        h, w = h + top + bottom, w + left + right
        top = left = bottom = right = 0
        x = lw.reshape(x, (1, 1, n * h * w, c), op, loc)
    else:
        x = flat_input(lw, op, win)
    padding = (top, left) if (top, left) == (bottom, right) else (top, left, bottom, right)
    properties: dict[str, Any] = {
        "batch_size": IntegerAttr(n, SI32), "input_height": IntegerAttr(h, SI32), "input_width": IntegerAttr(w, SI32),
        "channels": IntegerAttr(c, SI32), "kernel_size": DenseArrayAttr("i32", kernel),
        "stride": DenseArrayAttr("i32", _pair(p.stride)), "padding": DenseArrayAttr("i32", padding),
        "dilation": DenseArrayAttr("i32", _pair(p.dilation)), "ceil_mode": BoolAttr(p.ceil_mode),
    }  # fmt: skip
    if op.name == "ttir.avg_pool2d":
        properties["count_include_pad"] = BoolAttr(p.count_include_pad)
    flat = [flat_result_type(lw, op, win, i) for i in range(len(op.results))]
    pooled = Operation("ttnn." + op.name[5:], [x], flat, properties=properties, location=loc)
    lw.out.append(pooled)
    results = [result_value(lw, op, win, r, i) for i, r in enumerate(pooled.results)]
    return results if len(results) > 1 else results[0]


_gather_direct = _dim_op("gather")
# Element types tt-metal's scatter reads row-major only when tiled (HEAD's createScatterOpOperandsWorkarounds).
SCATTER_ROW_MAJOR = frozenset({"f32", "bf16", "si32", "i32", "ui32"})


def _scatter(lw: _Lowering, op: Any) -> Any:
    """HEAD's scatter workarounds: an f32 / bf16 / 32-bit integer tiled index is made row-major (the
    tiled int32 kernel scatters at most 256 elements per axis); when the input or the source is of
    those types, both are made row-major, the scatter writes a row-major result and a
    `ttnn.to_layout` tiles it again."""
    x, index, source = inputs(op)[:3]
    loc = op.location
    dtype = lambda v: lw.layout_type(v.type, op).resolve().element_type.resolve().text  # noqa: E731
    data_rm = dtype(x) in SCATTER_ROW_MAJOR or dtype(source) in SCATTER_ROW_MAJOR
    ins = [row_major(lw, op, x) if data_rm else x, row_major(lw, op, index) if dtype(index) in SCATTER_ROW_MAJOR else index,
           row_major(lw, op, source) if data_rm else source]  # fmt: skip
    properties = {k: v for k, v in op.properties.items() if k != "dim"}
    properties["dim"] = IntegerAttr(int(props(op).dim), SI32)
    if not data_rm:
        return lw.emit("ttnn.scatter", ins, _result(lw, op), properties, loc)
    tiled = _result(lw, op).resolve()
    typed = tiled.encoding.resolve().typed
    rm = TTNNLayoutAttr.build(tuple(tiled.shape), typed.dtype.value, tiled=False, buffer_type="dram", memory_layout="interleaved")
    out = lw.emit("ttnn.scatter", ins, lw.aliaser.tensor_type(TensorType(tuple(tiled.shape), tiled.element_type), rm), properties, loc)
    return lw.emit("ttnn.to_layout", [out], _result(lw, op), {}, loc)


def _gather(lw: _Lowering, op: Any) -> Any:
    """Rank 1: tt-metal's gather needs rank >= 2 (tt-metal #45155), so, as HEAD's
    GatherOpRank1RewritePattern, the input and index gain a leading unit dimension, the gather runs
    on dim + 1 (a negative dim unchanged) and its [1, M] result is reshaped back."""
    x, index = inputs(op)[:2]
    if len(x.type.resolve().shape) != 1:
        return _gather_direct(lw, op)
    loc = op.location
    out_t = op.results[0].type.resolve()
    dim = int(props(op).dim)
    x2 = lw.reshape(x, (1, *x.type.resolve().shape), op, loc)
    i2 = lw.reshape(index, (1, *index.type.resolve().shape), op, loc)
    wide = lw.layout_type(TensorType((1, *out_t.shape), out_t.element_type), op)
    g = lw.emit("ttnn.gather", [x2, i2], wide, {"dim": IntegerAttr(dim + 1 if dim >= 0 else dim, SI32)}, loc)
    return lw.reshape(g, tuple(out_t.shape), op, loc)


INDEXING_RULES = {
    "gather": _gather, "scatter": _scatter, "cumsum": _dim_op("cumsum"), "cumprod": _dim_op("cumprod"),
    "slice_dynamic": _slice_dynamic, "clamp_scalar": _clamp_scalar, "repeat": _repeat, "pad": _pad,
    "embedding_backward": _embedding_backward,
    "max_pool2d": _pool, "avg_pool2d": _pool, "max_pool2d_with_indices": _pool,
}  # fmt: skip
# Rules whose TTIR op has several results: they return one TTNN value per result.
MULTI_RESULT = frozenset({"max_pool2d_with_indices"})
