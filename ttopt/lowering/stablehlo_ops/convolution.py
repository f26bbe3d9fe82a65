"""`stablehlo.convolution` -> TTIR, as tt-mlir HEAD's StableHLO-to-TTIR patterns lower it.

* 2-D: `ttir.conv2d` on the NHWC input (permuted from the operand's layout) with the OIHW kernel,
  permuted back to the result's layout. An input dilation with unit window strides is a
  transposed convolution (HEAD's isTransposedConv): `ttir.conv_transpose2d`.
* 3-D: `ttir.conv3d` in the output's layout, the kernel in OIDHW.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ttopt.ir.attributes import DenseArrayAttr, IntegerAttr
from ttopt.ir.properties import props
from ttopt.ir.types import ScalarType
from ttopt.ir.values import OpResult
from ttopt.lowering.stablehlo_handlers import Unsupported, lowers
from ttopt.lowering.stablehlo_ops.pad_slices import shape_of

if TYPE_CHECKING:
    from ttopt.dialects.stablehlo_attrs import ConvDimensionNumbers
    from ttopt.ir.operation import Operation
    from ttopt.ir.values import Value
    from ttopt.lowering.stablehlo_to_ttir import Lowering

I32, I64 = ScalarType("i32"), ScalarType("i64")


def _i32s(values: Any) -> DenseArrayAttr:
    return DenseArrayAttr("i32", tuple(int(v) for v in values))


@lowers("stablehlo.convolution")
def convolution(low: Lowering, op: Operation) -> list[Value]:
    """A 2-D convolution as conv2d / conv_transpose2d, a 3-D one as conv3d."""
    p = props(op)
    d: ConvDimensionNumbers = p.dimension_numbers
    spatial = len(d.input_spatial_dimensions)
    if p.window_reversal is not None and "true" in p.window_reversal.text:
        raise Unsupported("window reversal")
    if spatial == 3:
        return [_conv3d(low, op)]
    if spatial != 2:
        raise Unsupported(f"{spatial} spatial dimensions (ttir.conv2d needs 2, ttir.conv3d 3)")
    lhs = list(p.lhs_dilation or (1, 1))
    # HEAD's isTransposedConv: an input dilation > 1 with unit window strides
    transposed = any(v > 1 for v in lhs) and all(v == 1 for v in p.window_strides or (1, 1))
    if any(v != 1 for v in lhs) and not transposed:
        raise Unsupported("lhs_dilation with window strides (not a transposed convolution)")
    if p.batch_group_count != 1:
        raise Unsupported("batch_group_count > 1")
    pad = list(p.padding or (0, 0, 0, 0))
    if any(v < 0 for v in pad):
        raise Unsupported("negative padding")
    x = low.permute(op.operands[0], [d.input_batch_dimension, *d.input_spatial_dimensions, d.input_feature_dimension])
    out = op.results[0].type.resolve()
    order = [d.output_batch_dimension, *d.output_spatial_dimensions, d.output_feature_dimension]
    nhwc = out.with_shape(tuple(out.shape[i] for i in order))
    dilation = _i32s(p.rhs_dilation or (1, 1))
    if transposed:
        y = _conv_transpose2d(low, op, x, nhwc, lhs, pad, dilation)
    else:
        w = low.permute(op.operands[1], [d.kernel_output_feature_dimension, d.kernel_input_feature_dimension,
                                         *d.kernel_spatial_dimensions])  # fmt: skip
        y = low.emit("conv2d", [x, w], nhwc, stride=_i32s(p.window_strides or (1, 1)),
                     padding=_i32s((pad[0], pad[2], pad[1], pad[3])), dilation=dilation,
                     groups=IntegerAttr(p.feature_group_count, I32))  # fmt: skip
    back = [order.index(i) for i in range(4)]
    return [low.permute(y, back)]


def _conv_transpose2d(low: Lowering, op: Operation, x: Value, nhwc: Any, lhs: list[int], pad: list[int],
                      dilation: DenseArrayAttr) -> Value:  # fmt: skip
    """A transposed convolution (input dilation) as HEAD writes it: `ttir.conv_transpose2d` with the
    input dilation as its stride, the kernel in IOHW (a `reverse` of it dropped: TTNN flips the
    kernel itself), PyTorch's padding `(k - 1) * dilation - low` and output padding `high - low`."""
    p = props(op)
    d: ConvDimensionNumbers = p.dimension_numbers
    weight = op.operands[1]
    src = weight.op if isinstance(weight, OpResult) else None
    if src is not None and src.name == "ttir.reverse":
        weight = src.operands[0]
    kshape = shape_of(weight)
    w = low.permute(weight, [d.kernel_input_feature_dimension, d.kernel_output_feature_dimension, *d.kernel_spatial_dimensions])
    groups = int(p.feature_group_count)
    if groups > 1:
        # (C/G, O, KH, KW) -> (C/G, G, O/G, KH, KW) -> (G, C/G, O/G, KH, KW) -> (C, O/G, KH, KW)
        cg, o, kh, kw = shape_of(w)
        w = low.reshape(low.permute(low.reshape(w, (cg, groups, o // groups, kh, kw)), [1, 0, 2, 3, 4]),
                        (cg * groups, o // groups, kh, kw))  # fmt: skip
    dil = list(dilation.values)
    kh, kw = (kshape[i] for i in d.kernel_spatial_dimensions)
    top, left = (kh - 1) * dil[0] - pad[0], (kw - 1) * dil[1] - pad[2]
    return low.emit("conv_transpose2d", [x, w], nhwc, stride=_i32s(lhs), padding=_i32s((top, left, top, left)),
                    output_padding=_i32s((pad[1] - pad[0], pad[3] - pad[2])), dilation=dilation,
                    groups=IntegerAttr(groups, I32))  # fmt: skip


def _conv3d(low: Lowering, op: Operation) -> Value:
    """`ttir.conv3d` in the output's layout (the input permuted to it), the kernel in OIDHW, the
    layout dims as attributes, as HEAD writes it; HEAD's conv3d takes no dilation and only
    symmetric padding."""
    p = props(op)
    d: ConvDimensionNumbers = p.dimension_numbers
    if p.batch_group_count != 1:
        raise Unsupported("a 3-D convolution with batch_group_count > 1")
    if any(v != 1 for v in p.rhs_dilation or ()) or any(v != 1 for v in p.lhs_dilation or ()):
        raise Unsupported("a dilated 3-D convolution (ttir.conv3d has no dilation)")
    pad = list(p.padding or (0,) * 6)
    if any(pad[2 * i] != pad[2 * i + 1] for i in range(3)):
        raise Unsupported("asymmetric padding of a 3-D convolution (ttir.conv3d pads symmetrically)")
    in_layout = [0] * 5
    in_layout[d.input_batch_dimension], in_layout[d.input_feature_dimension] = -1, -2
    out_layout = [0] * 5
    out_layout[d.output_batch_dimension], out_layout[d.output_feature_dimension] = -1, -2
    for i, (a, b) in enumerate(zip(d.input_spatial_dimensions, d.output_spatial_dimensions)):
        in_layout[a], out_layout[b] = i + 1, i + 1
    x = low.permute(op.operands[0], [in_layout.index(v) for v in out_layout])
    w = low.permute(op.operands[1], [d.kernel_output_feature_dimension, d.kernel_input_feature_dimension,
                                     *d.kernel_spatial_dimensions])  # fmt: skip
    depth, height, width = d.output_spatial_dimensions
    return low.emit("conv3d", [x, w], op.results[0].type, stride=_i32s(p.window_strides or (1, 1, 1)),
                    padding=_i32s(pad[0::2]), groups=IntegerAttr(p.feature_group_count, I32),
                    batch_dim=IntegerAttr(d.output_batch_dimension, I64), depth_dim=IntegerAttr(depth, I64),
                    height_dim=IntegerAttr(height, I64), width_dim=IntegerAttr(width, I64),
                    channel_dim=IntegerAttr(d.output_feature_dimension, I64))  # fmt: skip
