"""`stablehlo.convolution` -> TTIR, as tt-mlir HEAD's StableHLO-to-TTIR patterns lower it.

* 2-D: `ttir.conv2d` on the NHWC input (permuted from the operand's layout) with the OIHW kernel,
  permuted back to the result's layout. An input dilation with unit window strides is a
  transposed convolution (HEAD's isTransposedConv): `ttir.conv_transpose2d`.
* 1-D, and 2-D with one spatial dim of extent 1 in input, kernel and output and not padded:
  `ttir.conv1d` on (N, L, C) between reshapes and permutes.
* batch_group_count G > 1: G sliced convolutions, concatenated.
* negative padding: the padding clamped to 0 and the output cropped (HEAD's form), or, along a
  dim with a window stride, the input cropped (the output crop is exact only at stride 1).
* 3-D: `ttir.conv3d` in the output's layout, the kernel in OIDHW.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from ttopt.dialects.stablehlo_attrs import ConvDimensionNumbers
from ttopt.ir.attributes import DenseArrayAttr, IntegerAttr
from ttopt.ir.properties import props
from ttopt.ir.types import ScalarType
from ttopt.ir.values import OpResult
from ttopt.lowering.stablehlo_handlers import Unsupported, lowers
from ttopt.lowering.stablehlo_ops.building import element, i32_array, reshape_always, shape_of, tensor

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation
    from ttopt.ir.values import Value
    from ttopt.lowering.stablehlo_to_ttir import Lowering

I32, I64, SI32 = ScalarType("i32"), ScalarType("i64"), ScalarType("si32")


def _i32s(values: Any) -> DenseArrayAttr:
    return DenseArrayAttr("i32", tuple(int(v) for v in values))


@dataclass(frozen=True)
class _Conv:
    """One convolution to lower: its layouts and window (a 1-D one gains a trailing size-1 dim)."""

    d: ConvDimensionNumbers
    strides: tuple[int, ...]
    pad: tuple[int, ...]  # (low, high) per spatial dim
    lhs: tuple[int, ...]
    rhs: tuple[int, ...]
    feature_groups: int

    @property
    def transposed(self) -> bool:
        """HEAD's isTransposedConv: an input dilation > 1 with unit window strides."""
        return any(v > 1 for v in self.lhs) and all(v == 1 for v in self.strides)

    def with_trailing_dim(self, rank: int) -> _Conv:
        """The same convolution with a size-1 spatial dim appended at position `rank` of each operand."""
        d = self.d.model_copy(update={
            "input_spatial_dimensions": (*self.d.input_spatial_dimensions, rank),
            "kernel_spatial_dimensions": (*self.d.kernel_spatial_dimensions, rank),
            "output_spatial_dimensions": (*self.d.output_spatial_dimensions, rank),
        })  # fmt: skip
        return replace(self, d=d, strides=(*self.strides, 1), pad=(*self.pad, 0, 0), lhs=(*self.lhs, 1), rhs=(*self.rhs, 1))


@lowers("stablehlo.convolution")
def convolution(low: Lowering, op: Operation) -> list[Value]:
    """conv1d / conv2d / conv_transpose2d / conv3d, as HEAD's patterns choose (see the module doc)."""
    p = props(op)
    d: ConvDimensionNumbers = p.dimension_numbers
    n = len(d.input_spatial_dimensions)
    if p.window_reversal is not None and "true" in p.window_reversal.text:
        raise Unsupported("window reversal")
    if n not in (1, 2, 3):
        raise Unsupported(f"{n} spatial dimensions (TTIR has 1-, 2- and 3-D convolutions)")
    conv = _Conv(d, tuple(p.window_strides or (1,) * n), tuple(p.padding or (0,) * (2 * n)), tuple(p.lhs_dilation or (1,) * n),
                 tuple(p.rhs_dilation or (1,) * n), int(p.feature_group_count))  # fmt: skip
    if any(v != 1 for v in conv.lhs) and not conv.transposed:
        raise Unsupported("lhs_dilation with window strides (not a transposed convolution)")
    out = op.results[0].type.resolve()
    if all(v >= 0 for v in conv.pad):
        return [_grouped(low, op, conv, out)]
    negative = [i for i in range(n) if conv.pad[2 * i] < 0 or conv.pad[2 * i + 1] < 0]
    if any(conv.strides[i] != 1 for i in negative):
        # A negative padding drops input elements; cropping the output instead (HEAD's form) is
        # only exact at stride 1, so a strided dim crops the input.
        x = op.operands[0]
        xs = list(shape_of(x))
        begins, ends = [0] * len(xs), list(xs)
        for i in negative:
            dim = d.input_spatial_dimensions[i]
            begins[dim], ends[dim] = -min(conv.pad[2 * i], 0), xs[dim] + min(conv.pad[2 * i + 1], 0)
        cropped = tuple(e - b for b, e in zip(begins, ends))
        x = low.emit("slice_static", [x], tensor(cropped, element(x), x.type.resolve()), begins=i32_array(begins), ends=i32_array(ends),
                     step=i32_array([1] * len(xs)))  # fmt: skip
        return [_grouped(low, op, replace(conv, pad=tuple(max(v, 0) for v in conv.pad)), out, x)]
    # HEAD's negative-padding pattern: convolve with the padding clamped to 0, then crop the edges.
    inner = list(out.shape)
    begins, ends = [0] * len(inner), list(inner)
    for i, dim in enumerate(d.output_spatial_dimensions):
        lo, hi = min(conv.pad[2 * i], 0), min(conv.pad[2 * i + 1], 0)
        inner[dim] -= lo + hi
        begins[dim], ends[dim] = -lo, inner[dim] + hi
    y = _grouped(low, op, replace(conv, pad=tuple(max(v, 0) for v in conv.pad)), out.with_shape(tuple(inner)))
    return [low.emit("slice_static", [y], out, begins=i32_array(begins), ends=i32_array(ends), step=i32_array([1] * len(inner)))]


def _grouped(low: Lowering, op: Operation, conv: _Conv, out: Any, x: Value | None = None) -> Value:
    """The convolution of `op`'s operands; a batch_group_count G > 1 as HEAD's sliceForBatchGroups
    splits it: G input slices along the batch dim and G kernel slices along its output features,
    one convolution each, concatenated along the output features. `x` stands for the input when
    given (a cropped one)."""
    x, w = x if x is not None else op.operands[0], op.operands[1]
    groups = int(props(op).batch_group_count)
    if groups == 1:
        return _single(low, conv, x, w, out, route_1d=True)
    if len(conv.d.input_spatial_dimensions) == 3:
        raise Unsupported("a 3-D convolution with batch_group_count > 1")
    d = conv.d
    pieces = [(_slice(low, x, d.input_batch_dimension, i, groups), _slice(low, w, d.kernel_output_feature_dimension, i, groups))
              for i in range(groups)]  # fmt: skip
    shape = list(out.shape)
    shape[d.output_feature_dimension] //= groups
    part = out.with_shape(tuple(shape))
    # A 2-D slice stays a conv2d (HEAD routes only ungrouped 2-D convolutions to conv1d); a 1-D
    # slice becomes a 2-D convolution of its own, which may.
    route = len(d.input_spatial_dimensions) == 1
    ys = [_single(low, conv, xi, wi, part, route_1d=route) for xi, wi in pieces]
    return low.emit("concat", ys, out, dim=IntegerAttr(d.output_feature_dimension, SI32))


def _slice(low: Lowering, v: Value, dim: int, i: int, groups: int) -> Value:
    """The `i`-th of `groups` equal slices of `v` along `dim`."""
    shape = shape_of(v)
    size = shape[dim] // groups
    begins, ends = [0] * len(shape), list(shape)
    begins[dim], ends[dim] = i * size, (i + 1) * size
    sliced = shape[:dim] + (size,) + shape[dim + 1 :]
    return low.emit("slice_static", [v], tensor(sliced, element(v), v.type.resolve()), begins=i32_array(begins),
                    ends=i32_array(ends), step=i32_array([1] * len(shape)))  # fmt: skip


def _single(low: Lowering, conv: _Conv, x: Value, w: Value, out: Any, route_1d: bool) -> Value:
    """One convolution (batch_group_count 1) of `x` by `w` into `out`."""
    n = len(conv.d.input_spatial_dimensions)
    if n == 3:
        return _conv3d(low, conv, x, w, out)
    if n == 1:
        # HEAD's Legalize1DConvolutionPattern: a 2-D convolution with a trailing size-1 dim.
        wide = conv.with_trailing_dim(len(shape_of(x)))
        x2 = reshape_always(low, x, (*shape_of(x), 1))
        w2 = reshape_always(low, w, (*shape_of(w), 1))
        y = _single(low, wide, x2, w2, out.with_shape((*out.shape, 1)), route_1d=True)
        return reshape_always(low, y, tuple(out.shape))
    if route_1d and not conv.transposed:
        narrow = _as_conv1d(low, conv, x, w, out)
        if narrow is not None:
            return narrow
    return _conv2d(low, conv, x, w, out)


def _as_conv1d(low: Lowering, conv: _Conv, x: Value, w: Value, out: Any) -> Value | None:
    """A 2-D convolution of which exactly one spatial dim has extent 1 in input, kernel and output
    (a framework's conv1d) as `ttir.conv1d` on (N, L, C), as HEAD's tryEmitDegenerate2dAsConv1d;
    None for a genuine 2-D one. HEAD does not look at the size-1 dim's padding and so drops it
    (the window may read a padding zero instead of the element); such a convolution stays 2-D here."""
    d = conv.d
    xs, ws = shape_of(x), shape_of(w)
    flat = [i for i in range(2) if xs[d.input_spatial_dimensions[i]] == 1 and ws[d.kernel_spatial_dimensions[i]] == 1
            and out.shape[d.output_spatial_dimensions[i]] == 1 and conv.pad[2 * i] == conv.pad[2 * i + 1] == 0]  # fmt: skip
    if len(flat) != 1:
        return None
    deg = flat[0]
    real = 1 - deg
    order = (d.input_batch_dimension, d.input_spatial_dimensions[real], d.input_feature_dimension, d.input_spatial_dimensions[deg])
    xp = low.permute(x, list(order))
    xn = reshape_always(low, xp, shape_of(xp)[:3])
    korder = (d.kernel_output_feature_dimension, d.kernel_input_feature_dimension, d.kernel_spatial_dimensions[real],
              d.kernel_spatial_dimensions[deg])  # fmt: skip
    wp = low.permute(w, list(korder))
    wn = reshape_always(low, wp, shape_of(wp)[:3])
    nlc = (out.shape[d.output_batch_dimension], out.shape[d.output_spatial_dimensions[real]], out.shape[d.output_feature_dimension])
    y = low.emit("conv1d", [xn, wn], out.with_shape(nlc), stride=IntegerAttr(conv.strides[real], I32),
                 padding=_i32s(conv.pad[2 * real : 2 * real + 2]), dilation=IntegerAttr(conv.rhs[real], I32),
                 groups=IntegerAttr(conv.feature_groups, I32), batch_dim=IntegerAttr(0, I64), length_dim=IntegerAttr(1, I64),
                 channel_dim=IntegerAttr(2, I64))  # fmt: skip
    y = reshape_always(low, y, (*nlc, 1))
    nlcd = (d.output_batch_dimension, d.output_spatial_dimensions[real], d.output_feature_dimension, d.output_spatial_dimensions[deg])
    return low.permute(y, [nlcd.index(i) for i in range(4)])


def _conv2d(low: Lowering, conv: _Conv, x: Value, w: Value, out: Any) -> Value:
    """`ttir.conv2d` (or conv_transpose2d) on NHWC between permutes."""
    d = conv.d
    x = low.permute(x, [d.input_batch_dimension, *d.input_spatial_dimensions, d.input_feature_dimension])
    order = [d.output_batch_dimension, *d.output_spatial_dimensions, d.output_feature_dimension]
    nhwc = out.with_shape(tuple(out.shape[i] for i in order))
    pad = list(conv.pad)
    dilation = _i32s(conv.rhs)
    if conv.transposed:
        y = _conv_transpose2d(low, conv, x, w, nhwc, pad, dilation)
    else:
        w = low.permute(w, [d.kernel_output_feature_dimension, d.kernel_input_feature_dimension, *d.kernel_spatial_dimensions])
        y = low.emit("conv2d", [x, w], nhwc, stride=_i32s(conv.strides), padding=_i32s((pad[0], pad[2], pad[1], pad[3])),
                     dilation=dilation, groups=IntegerAttr(conv.feature_groups, I32))  # fmt: skip
    return low.permute(y, [order.index(i) for i in range(4)])


def _conv_transpose2d(low: Lowering, conv: _Conv, x: Value, weight: Value, nhwc: Any, pad: list[int],
                      dilation: DenseArrayAttr) -> Value:  # fmt: skip
    """A transposed convolution (input dilation) as HEAD writes it: `ttir.conv_transpose2d` with the
    input dilation as its stride, the kernel in IOHW (a `reverse` of it dropped: TTNN flips the
    kernel itself), PyTorch's padding `(k - 1) * dilation - low` and output padding `high - low`."""
    d = conv.d
    src = weight.op if isinstance(weight, OpResult) else None
    if src is not None and src.name == "ttir.reverse":
        weight = src.operands[0]
    kshape = shape_of(weight)
    w = low.permute(weight, [d.kernel_input_feature_dimension, d.kernel_output_feature_dimension, *d.kernel_spatial_dimensions])
    groups = conv.feature_groups
    if groups > 1:
        # (C/G, O, KH, KW) -> (C/G, G, O/G, KH, KW) -> (G, C/G, O/G, KH, KW) -> (C, O/G, KH, KW)
        cg, o, kh, kw = shape_of(w)
        w = low.reshape(low.permute(low.reshape(w, (cg, groups, o // groups, kh, kw)), [1, 0, 2, 3, 4]),
                        (cg * groups, o // groups, kh, kw))  # fmt: skip
    dil = list(dilation.values)
    kh, kw = (kshape[i] for i in d.kernel_spatial_dimensions)
    top, left = (kh - 1) * dil[0] - pad[0], (kw - 1) * dil[1] - pad[2]
    return low.emit("conv_transpose2d", [x, w], nhwc, stride=_i32s(conv.lhs), padding=_i32s((top, left, top, left)),
                    output_padding=_i32s((pad[1] - pad[0], pad[3] - pad[2])), dilation=dilation,
                    groups=IntegerAttr(groups, I32))  # fmt: skip


def _conv3d(low: Lowering, conv: _Conv, x: Value, w: Value, out: Any) -> Value:
    """`ttir.conv3d` in the output's layout (the input permuted to it), the kernel in OIDHW, the
    layout dims as attributes, as HEAD writes it; HEAD's conv3d takes no dilation and only
    symmetric padding."""
    d = conv.d
    if any(v != 1 for v in conv.rhs) or any(v != 1 for v in conv.lhs):
        raise Unsupported("a dilated 3-D convolution (ttir.conv3d has no dilation)")
    pad = list(conv.pad)
    if any(pad[2 * i] != pad[2 * i + 1] for i in range(3)):
        raise Unsupported("asymmetric padding of a 3-D convolution (ttir.conv3d pads symmetrically)")
    in_layout = [0] * 5
    in_layout[d.input_batch_dimension], in_layout[d.input_feature_dimension] = -1, -2
    out_layout = [0] * 5
    out_layout[d.output_batch_dimension], out_layout[d.output_feature_dimension] = -1, -2
    for i, (a, b) in enumerate(zip(d.input_spatial_dimensions, d.output_spatial_dimensions)):
        in_layout[a], out_layout[b] = i + 1, i + 1
    x = low.permute(x, [in_layout.index(v) for v in out_layout])
    w = low.permute(w, [d.kernel_output_feature_dimension, d.kernel_input_feature_dimension,
                                     *d.kernel_spatial_dimensions])  # fmt: skip
    depth, height, width = d.output_spatial_dimensions
    return low.emit("conv3d", [x, w], out, stride=_i32s(conv.strides),
                    padding=_i32s(pad[0::2]), groups=IntegerAttr(conv.feature_groups, I32),
                    batch_dim=IntegerAttr(d.output_batch_dimension, I64), depth_dim=IntegerAttr(depth, I64),
                    height_dim=IntegerAttr(height, I64), width_dim=IntegerAttr(width, I64),
                    channel_dim=IntegerAttr(d.output_feature_dimension, I64))  # fmt: skip
