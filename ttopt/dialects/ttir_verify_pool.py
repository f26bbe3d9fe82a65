"""Pooling verifiers, as HEAD's verifyPooling2dOp (avg_pool2d, max_pool2d, max_pool2d_with_indices)
and GlobalAvgPool2dOp::verify: 4-D NHWC operands (or the flattened (1, 1, N*H*W, C) form its
`flattened_compat_info` describes), positive kernel / stride / dilation, non-negative padding
(top, left, bottom, right), a window that fits the padded input, and the output size floor or ceil
mode gives. The messages are HEAD's.
"""

from __future__ import annotations

from math import ceil
from typing import Any

from ttopt.dialects.ttir_verify_conv import flat_info, pair_or_quad
from ttopt.dialects.verify_common import bool_attr, result_shape, shape


def pool2d(op: Any) -> None:
    """HEAD's verifyPooling2dOp."""
    x = shape(op.operands[0]) if op.operands else None
    out = result_shape(op)
    if x is None or out is None:
        return
    if len(x) != 4:
        raise ValueError("input must be a 4D tensor")
    if len(out) != 4:
        raise ValueError("output must be a 4D tensor")
    flat = flat_info(op)
    if flat is not None and x[2] != flat.rows:
        raise ValueError(f"the input tensor's flattened dimension ({x[2]}) does not match the product of batch_size * input_height * "
                         f"input_width from FlattenedCompatInfo ({flat.batch_size} * {flat.input_height} * {flat.input_width} = {flat.rows})")  # fmt: skip
    n, h, w, c = (flat.batch_size, flat.input_height, flat.input_width, x[3]) if flat is not None else x
    kernel = pair_or_quad(op, "kernel", (2,), 1, " attribute")
    stride = pair_or_quad(op, "stride", (2,), 1, " attribute")
    dilation = pair_or_quad(op, "dilation", (2,), 1, " attribute")
    top, left, bottom, right = pair_or_quad(op, "padding", (2, 4), 0, " attribute")
    if min(kernel) <= 0:
        raise ValueError("kernel size attribute values must be > 0")
    if min(stride) <= 0:
        raise ValueError("stride attribute values must be > 0")
    if min(dilation) <= 0:
        raise ValueError("dilation attribute values must be > 0")
    if min(top, left, bottom, right) < 0:
        raise ValueError("padding attribute values must be >= 0")
    ph, pw = h + top + bottom, w + left + right
    eh, ew = dilation[0] * (kernel[0] - 1) + 1, dilation[1] * (kernel[1] - 1) + 1
    if ph < eh or pw < ew:
        raise ValueError(f"effective kernel size ({eh}, {ew}) cannot be greater than the padded input size per channel ({ph}, {pw})")
    if bool_attr(op, "ceil_mode"):
        oh, ow = ceil((ph - eh) / stride[0]) + 1, ceil((pw - ew) / stride[1]) + 1
        # A last window that starts in the bottom / right padding is dropped.
        oh -= (oh - 1) * stride[0] >= h + top
        ow -= (ow - 1) * stride[1] >= w + left
    else:
        oh, ow = (ph - eh) // stride[0] + 1, (pw - ew) // stride[1] + 1
    channels = f"number of output channels from the output tensor ({out[3]}) must match the number of input channels ({c})"
    if flat is not None:
        if out[3] != c:
            raise ValueError(channels)
        if oh * ow * n != out[2]:
            raise ValueError(f"output tensor's flattened dimension ({out[2]}) does not match the product of batch_size * output_height * "
                             f"output_width ({n} * {oh} * {ow} = {n * oh * ow})")  # fmt: skip
        return
    if n != out[0]:
        raise ValueError(f"batch size from the input tensor ({n}) must match the first dimension of the output tensor ({out[0]})")
    if out[3] != c:
        raise ValueError(channels)
    if (out[1], out[2]) != (oh, ow):
        raise ValueError(f"output tensor height and width dimension ({out[1]}, {out[2]}) do not match the expected dimensions ({oh}, {ow})")


def max_pool2d_with_indices(op: Any) -> None:
    """HEAD's MaxPool2dWithIndicesOp::verify: the pooling's, then indices like the values, integer."""
    pool2d(op)
    if len(op.results) < 2:
        return
    values, indices = (r.type.resolve() for r in op.results[:2])
    if getattr(values, "shape", None) != getattr(indices, "shape", None):
        raise ValueError("Pooled values and indices must have the same shape")
    element = getattr(getattr(indices, "element_type", None), "resolve", lambda: None)()
    if element is None or not getattr(element, "text", "").lstrip("su").startswith("i"):
        raise ValueError("Indices result must have integer element type")


def global_avg_pool2d(op: Any) -> None:
    """HEAD's GlobalAvgPool2dOp::verify: the two dimensions before the last reduced to 1."""
    x = shape(op.operands[0]) if op.operands else None
    out = result_shape(op)
    if x is None or out is None:
        return
    rank = len(x)
    if rank < 2:
        raise ValueError("input tensor must have at least 2 dimensions for global average pooling over 2 spatial dimensions")
    if len(out) != rank:
        raise ValueError("output tensor must have the same rank as input tensor")
    if x[0] != out[0]:
        raise ValueError("batch dimension must remain the same between input and output")
    # HEAD reads dimension rank - 3 even for rank 2 (out of range there): a rank-2 output reads as not reduced.
    if out[rank - 2] != 1 or rank < 3 or out[rank - 3] != 1:
        raise ValueError("spatial dimensions must be reduced to 1")
    if x[-1] != out[-1]:
        raise ValueError("channel dimension must remain the same between input and output")
