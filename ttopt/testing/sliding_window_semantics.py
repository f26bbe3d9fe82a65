"""NumPy semantics of TTIR's sliding-window ops for the reference interpreter: `conv2d`,
`conv_transpose2d`, `max_pool2d`, `avg_pool2d` and `max_pool2d_with_indices`, computed in NHWC
and in float64 (the interpreter rounds once to the result type).

An op flattened by `ttir-flatten-sliding-window` (a `flattened_compat_info`) reads its
`1x1x(N*H*W)xC` input as the N x H x W x C tensor the attribute names and writes its results
flattened the same way, so it computes what the plain op between the reshapes does. A conv in
another layout (`batch_dim` / `height_dim` / `width_dim` / `channel_dim`) is permuted to NHWC and
its result back. Attributes may be one integer or an array (`stride = 2 : i32`, `array<i32: 2, 2>`)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ttopt.dialects.ttir_attrs import flattened_compat_info
from ttopt.ir.properties import int_values
from ttopt.testing import indexing_semantics as ix

Array = Any  # np.ndarray
LAYOUT_DIMS = ("batch_dim", "height_dim", "width_dim", "channel_dim")


class WindowError(ValueError):
    """A sliding-window op in a form the reference semantics do not cover."""


def spatial(op: Any, key: str, n: int, default: int | None = None) -> tuple[int, ...]:
    """An `I32Attr` or integer-array attribute as `n` integers (one value repeated; a pair of
    paddings (h, w) as (h, w, h, w) when n is 4)."""
    a = op.get_attr(key)
    if a is None:
        if default is None:
            raise WindowError(f"needs a '{key}' attribute")
        return (default,) * n
    vals = int_values(a)
    if vals is None:
        v = getattr(a.resolve(), "value", None)
        if not isinstance(v, int) or isinstance(v, bool):
            raise WindowError(f"'{key}' is not an integer or an integer array")
        vals = (v,)
    if len(vals) == 1:
        return tuple(vals) * n
    if n == 4 and len(vals) == 2:
        return (vals[0], vals[1], vals[0], vals[1])
    if len(vals) != n:
        raise WindowError(f"'{key}' has {len(vals)} values; expected 1 or {n}")
    return tuple(vals)


def _layout(op: Any) -> list[int]:
    """Where N, H, W and C sit in the op's tensors (NHWC unless a conv names other dims)."""
    if "conv" not in op.name:
        return [0, 1, 2, 3]
    dims = [int(getattr(op.get_attr(k), "value", i)) for i, k in enumerate(LAYOUT_DIMS)]
    if sorted(dims) != [0, 1, 2, 3]:
        raise WindowError(f"layout dims {dims} are not a permutation of 0..3")
    return dims


def to_nhwc(op: Any, x: Array) -> Array:
    """The op's input as N x H x W x C."""
    info = flattened_compat_info(op)
    if info is not None:
        return x.reshape(info.batch_size, info.input_height, info.input_width, x.shape[-1])
    return x.transpose(_layout(op))


def from_nhwc(op: Any, y: Array, shape: tuple[int, ...]) -> Array:
    """An N x H x W x C result in the op's form (flattened, or its layout) of result shape `shape`."""
    if flattened_compat_info(op) is not None:
        return y.reshape(shape)
    perm = _layout(op)
    return y.transpose([perm.index(i) for i in range(4)])


def conv_nchw(x: Array, w: Array, strides: list[int], pads: list[tuple[int, int]], dilation: list[int], groups: int) -> Array:
    """2-D convolution of x (N, C, H, W) with w (O, C/groups, KH, KW) in float64: (N, O, Ho, Wo)."""
    x = np.pad(x.astype(np.float64), [(0, 0), (0, 0), *pads])
    w = w.astype(np.float64)
    (sh, sw), (dh, dw) = strides, dilation
    o, cg, kh, kw = w.shape
    ho = (x.shape[2] - dh * (kh - 1) - 1) // sh + 1
    wo = (x.shape[3] - dw * (kw - 1) - 1) // sw + 1
    out = np.zeros((x.shape[0], o, ho, wo))
    og = o // groups
    for i in range(kh):
        for j in range(kw):
            patch = x[:, :, i * dh : i * dh + sh * (ho - 1) + 1 : sh, j * dw : j * dw + sw * (wo - 1) + 1 : sw]
            for g in range(groups):
                out[:, g * og : (g + 1) * og] += np.einsum("nchw,oc->nohw", patch[:, g * cg : (g + 1) * cg], w[g * og : (g + 1) * og, :, i, j])
    return out


def _groups(op: Any) -> int:
    g = getattr(op.get_attr("groups"), "value", 1)
    return int(g) if isinstance(g, int) and g > 0 else 1


def _bias(y: Array, ins: list[Array]) -> Array:
    return y + ins[2].astype(np.float64).reshape(1, 1, 1, -1) if len(ins) > 2 else y


def conv2d(op: Any, ins: list[Array], shape: tuple[int, ...]) -> Array:
    """ttir.conv2d: NHWC input, (O, C/G, KH, KW) weight, padding (top, left, bottom, right)."""
    x = to_nhwc(op, ins[0])
    top, left, bottom, right = spatial(op, "padding", 4)
    y = conv_nchw(x.transpose(0, 3, 1, 2), ins[1], list(spatial(op, "stride", 2)), [(top, bottom), (left, right)],
                  list(spatial(op, "dilation", 2)), _groups(op))  # fmt: skip
    return from_nhwc(op, _bias(y.transpose(0, 2, 3, 1), ins), shape)


def conv_transpose2d(op: Any, ins: list[Array], shape: tuple[int, ...]) -> Array:
    """ttir.conv_transpose2d: NHWC input, (C, O/G, KH, KW) weight; input position (h, w) adds
    x * w[.., kh, kw] at output (h*sH - top + kh*dH, w*sW - left + kw*dW) (PyTorch's
    conv_transpose2d); `output_padding` extends the bottom and right."""
    x = to_nhwc(op, ins[0]).astype(np.float64)
    w = ins[1].astype(np.float64)
    n, h, wd, cin = x.shape
    _, og, kh, kw = w.shape
    groups = _groups(op)
    (sh, sw), (dh, dw) = spatial(op, "stride", 2), spatial(op, "dilation", 2)
    top, left, bottom, right = spatial(op, "padding", 4)
    oph, opw = spatial(op, "output_padding", 2, 0)
    ho = (h - 1) * sh - top - bottom + dh * (kh - 1) + oph + 1
    wo = (wd - 1) * sw - left - right + dw * (kw - 1) + opw + 1
    full = np.zeros((n, max((h - 1) * sh + dh * (kh - 1) + 1, top + ho), max((wd - 1) * sw + dw * (kw - 1) + 1, left + wo), og * groups))
    cg = cin // groups
    for i in range(kh):
        for j in range(kw):
            for g in range(groups):
                part = np.einsum("nhwc,co->nhwo", x[..., g * cg : (g + 1) * cg], w[g * cg : (g + 1) * cg, :, i, j])
                full[:, i * dh : i * dh + sh * (h - 1) + 1 : sh, j * dw : j * dw + sw * (wd - 1) + 1 : sw, g * og : (g + 1) * og] += part
    return from_nhwc(op, _bias(full[:, top : top + ho, left : left + wo, :], ins), shape)


def pool2d(op: Any, ins: list[Array], shapes: list[tuple[int, ...]]) -> list[Array]:
    """max_pool2d / avg_pool2d (one result) and max_pool2d_with_indices (values, and the flat
    H*W input position of each maximum). `ceil_mode` is covered when it does not change the
    output size."""
    x = to_nhwc(op, ins[0])
    kind = "max" if "max" in op.name else "avg"
    count = op.get_attr("count_include_pad")
    values, where = ix.pool2d(x, kind, list(spatial(op, "kernel", 2)), list(spatial(op, "stride", 2)), list(spatial(op, "dilation", 2)),
                              list(spatial(op, "padding", 4)), count_include_pad=count is None or bool(getattr(count, "value", True)))  # fmt: skip
    want = tuple(shapes[0])
    if values.size != int(np.prod(want)) or (flattened_compat_info(op) is None and tuple(values.shape) != want):
        raise WindowError(f"output {list(want)} is not the floor-mode size {list(values.shape)} (ceil_mode)")
    outs = [values, where] if op.name.endswith("_with_indices") else [values]
    return [from_nhwc(op, v, s) for v, s in zip(outs, shapes)]


CONVS = {"ttir.conv2d": conv2d, "ttir.conv_transpose2d": conv_transpose2d}
POOLS = frozenset({"ttir.max_pool2d", "ttir.avg_pool2d", "ttir.max_pool2d_with_indices"})
