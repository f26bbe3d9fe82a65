"""`stablehlo.reduce_window` -> TTIR pooling and scans (tt-mlir's conversion).

The body must be one add / maximum / multiply per input and each init a constant -inf (the type's
minimum for integers), 0 or 1; base dilations must be 1.

* cumsum / cumprod: one input, add with 0 (multiply with 1), strides and dilations 1, and a window
  spanning one whole dimension padded low by its size - 1 (or a window of ones, the scan along the
  first dimension of size 1) -> `ttir.cumsum` / `ttir.cumprod`.
* rank 4 or 2, per input: the (at most two) dimensions with a window larger than 1 are the spatial
  ones (dimensions 2 and 3 when fewer are), permuted to NHWC (a rank-2 input is reshaped to
  1xHxWx1). maximum with -inf -> `ttir.max_pool2d`; add with 0 -> `ttir.avg_pool2d` times the
  window size, or the `avg_pool2d` alone when the sum's only reader is a division by the window size
  (which it replaces). A `stablehlo.pad` of the spatial dimensions feeding the window is folded into
  the pooling padding, as tt-mlir does (whatever its value).
* rank 5, maximum with -inf and three spatial dimensions: a `max_pool2d` over H, W then one over D.

Anything else is a diagnostic naming what does not fit.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from ttopt.ir.attributes import BoolAttr, DenseArrayAttr, DenseElementsAttr, IntegerAttr
from ttopt.ir.properties import int_values
from ttopt.ir.types import ScalarType
from ttopt.lowering.stablehlo_handlers import Unsupported, lowers
from ttopt.lowering.stablehlo_ops.building import element, reshape_always, shape_of, tensor
from ttopt.lowering.stablehlo_ops.constant_source import constant_op, defining, element_of, splat

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation
    from ttopt.ir.values import Value
    from ttopt.lowering.stablehlo_to_ttir import Lowering

I64 = ScalarType("i64")
NEG_INF, ZERO, ONE = "-inf", "0", "1"
REDUCERS = ("stablehlo.add", "stablehlo.maximum", "stablehlo.multiply")


def init_kind(v: Value) -> str | None:
    """Which typical init value (-inf, 0, 1) the constant behind `v` is, as tt-mlir reads it."""
    src = constant_op(v)
    value = splat(v)
    if src is None or value is None:
        return None
    elem = element_of(src)
    if elem.startswith(("f", "bf")):
        f = float(value)
        return NEG_INF if f == -math.inf else ZERO if f == 0 else ONE if f == 1 else None
    width = int(elem.lstrip("sui") or 0)
    if width not in (1, 8, 32, 64):
        return None
    bits = int(value) % (1 << width)
    if width == 1:
        return ONE if bits else ZERO  # i1 false is both -inf and 0; 0 is what an add reads
    if bits == (1 << (width - 1)):
        return NEG_INF
    return ZERO if bits == 0 else ONE if bits == 1 else None


def _window(op: Operation, rank: int) -> dict[str, list[int]]:
    get = lambda key, fill: list(int_values(op.get_attr(key)) or [fill] * (2 * rank if key == "padding" else rank))  # noqa: E731
    return {"window": get("window_dimensions", 1), "strides": get("window_strides", 1), "dilations": get("window_dilations", 1),
            "base": get("base_dilations", 1), "padding": get("padding", 0)}  # fmt: skip


@lowers("stablehlo.reduce_window")
def reduce_window(low: Lowering, op: Operation) -> list[Value]:
    """Pooling (max / sum / average) or a cumulative sum / product."""
    n = len(op.results)
    ins, inits = list(op.operands[:n]), list(op.operands[n:])
    body = op.regions[0].blocks[0] if op.regions and op.regions[0].blocks else None
    if body is None or len(body.ops) < 2 or body.ops[-1].name != "stablehlo.return":
        raise Unsupported("its body is not reduction ops followed by stablehlo.return")
    reducers = [o.name for o in body.ops[:-1]]
    if any(r not in REDUCERS for r in reducers):
        raise Unsupported(f"reduction op '{next(r for r in reducers if r not in REDUCERS)}' (add, maximum or multiply lower)")
    if len(reducers) != n:
        raise Unsupported(f"{len(reducers)} reduction ops for {n} inputs")
    rank = len(shape_of(ins[0]))
    if rank > 5:
        raise Unsupported(f"rank {rank} (at most 5)")
    kinds = [init_kind(v) for v in inits]
    if any(k is None for k in kinds):
        raise Unsupported("an init value that is not a constant -inf, 0 or 1")
    w = _window(op, rank)
    if any(d != 1 for d in w["base"]):
        raise Unsupported("base dilations other than 1")
    if n == 1:
        scan = {("stablehlo.add", ZERO): "cumsum", ("stablehlo.multiply", ONE): "cumprod"}.get((reducers[0], kinds[0] or ""))
        dim = _scan_dimension(op, w, shape_of(ins[0])) if scan is not None else None
        if scan is not None and dim is not None:
            return [low.emit(scan, [ins[0]], op.results[0].type, dim=IntegerAttr(dim, I64))]
    if rank == 5:
        return _pool3d(low, op, ins, reducers, kinds, w)
    if rank not in (2, 4):
        raise Unsupported(f"rank {rank} (pooling takes rank 2, 4 or 5)")
    return _pool2d(low, op, ins, reducers, kinds, w)


def _scan_dimension(op: Operation, w: dict[str, list[int]], shape: tuple[int, ...]) -> int | None:
    """The dimension a cumulative reduce_window scans along (None when it is not one)."""
    strided = [op.get_attr(k) for k in ("window_strides", "base_dilations", "window_dilations")]
    if any(a is not None and any(v != 1 for v in int_values(a) or ()) for a in strided):
        return None
    pad, window = w["padding"], w["window"]
    if len(pad) != 2 * len(shape):
        return None
    if len(set(pad)) == 1:
        if pad[0] != 0 or any(v != 1 for v in window):
            return None
        return next((i for i, s in enumerate(shape) if s == 1), None)
    wide = [i for i, v in enumerate(window) if v != 1]
    if len(wide) != 1:
        return None
    dim = wide[0]
    if window[dim] != shape[dim] or window[dim] <= 1:
        return None
    want = [window[dim] - 1 if i == 2 * dim else 0 for i in range(len(pad))]
    return dim if pad == want else None


def pool_attrs(kernel: list[int], stride: list[int], dilation: list[int], padding: list[int]) -> dict[str, Any]:
    """The properties of a TTIR 2-D pooling op (padding top, left, bottom, right)."""
    i32 = lambda v: DenseArrayAttr("i32", tuple(int(x) for x in v))  # noqa: E731
    return {"kernel": i32(kernel), "stride": i32(stride), "dilation": i32(dilation), "padding": i32(padding), "ceil_mode": BoolAttr(False)}


def _pool2d(low: Lowering, op: Operation, ins: list[Value], reducers: list[str], kinds: list[str | None],
            w: dict[str, list[int]]) -> list[Value]:  # fmt: skip
    rank = len(shape_of(ins[0]))
    perm: list[int] | None = None
    if rank == 4:
        wide = [i for i, v in enumerate(w["window"]) if v > 1]
        if len(wide) > 2:
            raise Unsupported("more than two spatial dimensions in a rank-4 window")
        spatial = wide if len(wide) == 2 else [2, 3]
        if spatial != [1, 2]:
            rest = [i for i in range(4) if i not in spatial]
            perm = [rest[0], spatial[0], spatial[1], rest[1]]
    else:
        spatial = [0, 1]
    h, wd = spatial
    kernel = [w["window"][h], w["window"][wd]]
    stride, dilation = [w["strides"][h], w["strides"][wd]], [w["dilations"][h], w["dilations"][wd]]
    results = []
    for i, x in enumerate(ins):
        padding = list(w["padding"])
        x, padding = _fold_pad(x, padding, spatial)
        pad4 = [padding[2 * h], padding[2 * wd], padding[2 * h + 1], padding[2 * wd + 1]]
        out_t = op.results[i].type.resolve()
        pooled_shape: tuple[int, ...] = tuple(out_t.shape)
        if rank == 2:
            x = reshape_always(low, x, (1, *shape_of(x), 1))
            pooled_shape = (1, *pooled_shape, 1)
        elif perm is not None:
            x = permute(low, x, perm)
            pooled_shape = tuple(pooled_shape[p] for p in perm)
        pooled_t = tensor(pooled_shape, out_t.element_type, out_t)
        attrs = pool_attrs(kernel, stride, dilation, pad4)
        if reducers[i] == "stablehlo.maximum" and kinds[i] == NEG_INF:
            y = low.emit("max_pool2d", [x], pooled_t, **attrs)
        elif reducers[i] == "stablehlo.add" and kinds[i] == ZERO:
            if not out_t.element_type.resolve().text.startswith(("f", "bf")):
                raise Unsupported(f"sum pooling of {out_t.element_type.resolve().text} (lowered through avg_pool2d, floats only)")
            y = low.emit("avg_pool2d", [x], pooled_t, count_include_pad=BoolAttr(True), **attrs)
            divide = _division_by_window(op, i, kernel[0] * kernel[1] * _other_window(w, spatial)) if i == 0 else None
            if divide is not None:
                y = _restore(low, y, out_t, rank, perm)
                divide.results[0].replace_all_uses_with(y)
                divide.erase()  # absorbed; its divisor keeps any other readers
                results.append(y)
                continue
            size = DenseElementsAttr(f"{float(kernel[0] * kernel[1]):e}", pooled_t)
            y = low.emit("multiply", [y, low.emit("constant", [], pooled_t, value=size)], pooled_t)
        else:
            raise Unsupported(f"'{reducers[i]}' with init {kinds[i]} (max pooling takes -inf, sum pooling 0)")
        results.append(_restore(low, y, out_t, rank, perm))
    return results


def _other_window(w: dict[str, list[int]], spatial: list[int]) -> int:
    """The window's extent outside the spatial dimensions (1 for pooling windows)."""
    return math.prod(v for i, v in enumerate(w["window"]) if i not in spatial)


def _restore(low: Lowering, y: Value, out_t: Any, rank: int, perm: list[int] | None) -> Value:
    if rank == 2:
        return reshape_always(low, y, tuple(out_t.shape))
    if perm is not None:
        return permute(low, y, [perm.index(i) for i in range(4)])
    return y


def permute(low: Lowering, x: Value, perm: list[int]) -> Value:
    """A `ttir.permute`, emitted even for the identity (as tt-mlir's lowerings do)."""
    shape = shape_of(x)
    t = tensor(tuple(shape[p] for p in perm), element(x), x.type.resolve())
    return low.emit("permute", [x], t, permutation=DenseArrayAttr("i64", tuple(perm)))


def _fold_pad(x: Value, padding: list[int], spatial: list[int]) -> tuple[Value, list[int]]:
    """An edge `ttir.pad` (a lowered stablehlo.pad) of only the spatial dimensions, folded into the
    pooling padding: its input and the summed padding."""
    src = defining(x)
    if src is None or src.name != "ttir.pad":
        return x, padding
    extra = list(int_values(src.get_attr("padding")) or ())
    if any(v < 0 for v in extra) or any(extra[2 * d] or extra[2 * d + 1] for d in range(len(extra) // 2) if d not in spatial):
        return x, padding
    for d in spatial:
        padding[2 * d] += extra[2 * d]
        padding[2 * d + 1] += extra[2 * d + 1]
    return src.operands[0], padding


def _division_by_window(op: Operation, i: int, window_size: int) -> Operation | None:
    """The `stablehlo.divide` by the window size that is the sum's only reader (through an optional
    broadcast_in_dim), or None."""
    users = op.results[i].users
    if len(users) != 1:
        return None
    user = users[0]
    if user.name == "stablehlo.broadcast_in_dim":
        if len(user.results[0].users) != 1:
            return None
        user = user.results[0].users[0]
    if user.name != "stablehlo.divide" or defining(user.operands[1]) is None:
        return None
    src = constant_op(user.operands[1])
    if src is None or src.results[0].type.resolve().shape:
        return None
    value = splat(user.operands[1])
    return user if value is not None and float(value) == window_size else None


def _pool3d(low: Lowering, op: Operation, ins: list[Value], reducers: list[str], kinds: list[str | None],
            w: dict[str, list[int]]) -> list[Value]:  # fmt: skip
    spatial = [i for i, v in enumerate(w["window"]) if v > 1]
    if len(spatial) != 3:
        raise Unsupported("a rank-5 window needs exactly three spatial dimensions")
    if any(r != "stablehlo.maximum" or k != NEG_INF for r, k in zip(reducers, kinds)):
        raise Unsupported("rank-5 windows lower only as max pooling")
    rest = [i for i in range(5) if i not in spatial]
    pad = w["padding"]
    if any(w["strides"][d] != 1 or pad[2 * d] or pad[2 * d + 1] for d in rest):
        raise Unsupported("strides or padding on the non-spatial dimensions of a rank-5 window")
    to_canon = [*rest, *spatial]
    needs_permute = to_canon != [0, 1, 2, 3, 4]
    from_canon = [to_canon.index(i) for i in range(5)]
    d_, h_, w_ = spatial
    win, st, dil = w["window"], w["strides"], w["dilations"]
    hw = pool_attrs([win[h_], win[w_]], [st[h_], st[w_]], [dil[h_], dil[w_]], [pad[2 * h_], pad[2 * w_], pad[2 * h_ + 1], pad[2 * w_ + 1]])
    dd = pool_attrs([win[d_], 1], [st[d_], 1], [dil[d_], 1], [pad[2 * d_], 0, pad[2 * d_ + 1], 0])
    results = []
    for i, x in enumerate(ins):
        out_t = op.results[i].type.resolve()
        shape = shape_of(x)
        ndhwc_input = needs_permute and to_canon == [0, 4, 1, 2, 3]
        canon = tuple(shape[p] for p in to_canon) if needs_permute else shape
        if needs_permute and not ndhwc_input:
            x = permute(low, x, to_canon)
        n, c, d, hh, ww = canon
        out_canon = tuple(out_t.shape[p] for p in to_canon) if needs_permute else tuple(out_t.shape)
        dout, hout, wout = out_canon[2:]
        if not ndhwc_input:
            x = permute(low, x, [0, 2, 3, 4, 1])
        x = reshape_always(low, x, (n * d, hh, ww, c))
        x = low.emit("max_pool2d", [x], tensor((n * d, hout, wout, c), out_t.element_type), **hw)
        x = reshape_always(low, x, (n, d, hout * wout, c))
        x = low.emit("max_pool2d", [x], tensor((n, dout, hout * wout, c), out_t.element_type), **dd)
        x = permute(low, x, [0, 3, 1, 2])
        x = reshape_always(low, x, out_canon)
        if needs_permute:
            x = permute(low, x, from_canon)
        results.append(x)
    return results
