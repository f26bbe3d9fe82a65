"""Verifiers of the TTNN convolutions (HEAD's Conv2dOp, Conv3dOp and PrepareConv2dWeightsOp::verify,
with lib/Dialect/TTNN/Utils/VerificationUtils.cpp), with HEAD's messages.

`ttnn.conv2d` reads a flattened (1, 1, N*H*W, C) input and writes a flattened output; its weight is
(O, C/G, KH, KW), or already prepared (1, 1, KH*KW*C/G, O: a prepare_conv2d_weights or
ttcore.load_cached result, or dims 0 and 1 both 1), its bias (1, 1, 1, O). `ttnn.conv3d` reads
NDHWC with a raw 5-D (O, C/G, kD, kH, kW) or prepared 2-D (kD*kH*kW*C/G, O) weight and a (1, O) bias."""

from __future__ import annotations

from typing import Any

from ttopt.dialects.verify_common import int_attr, ints_attr, shape, str_attr, tensor_type, tensors


def _text(values: tuple[int, ...]) -> str:
    return "(" + ", ".join(str(v) for v in values) + ")"


def _operands(op: Any) -> tuple[Any, Any, Any | None]:
    """input, weight, bias (None without one): the op's tensor operands, the device left out."""
    ts = tensors(op.operands)
    return ts[0], ts[1], (ts[2] if len(ts) > 2 else None)


def _conv2d_params(op: Any) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]] | None:
    """getAndVerifyConv2dParams: kernel, stride, padding (2 or 4 values), dilation."""
    kernel, stride, padding, dilation = (ints_attr(op, n) for n in ("kernel_size", "stride", "padding", "dilation"))
    if kernel is None or stride is None or padding is None or dilation is None:
        return None
    if len(kernel) != 2:
        raise ValueError(f"Kernel size attribute must have two values, got: {len(kernel)}")
    if len(stride) != 2:
        raise ValueError(f"Stride attribute must have two values, got: {len(stride)}")
    if not all(v >= 1 for v in stride):
        raise ValueError(f"Stride attribute values must be greater than 0, got: {_text(stride)}")
    if len(padding) not in (2, 4):
        raise ValueError(f"Padding attribute must have two or four values, got: {len(padding)}")
    if not all(v >= 0 for v in padding):
        raise ValueError(f"Padding attribute values must be greater than or equal to 0, got: {_text(padding)}")
    if len(dilation) != 2:
        raise ValueError(f"Dilation attribute must have two values, got: {len(dilation)}")
    if not all(v >= 1 for v in dilation):
        raise ValueError(f"Dilation attribute values must be greater than 0, got: {_text(dilation)}")
    return kernel, stride, padding, dilation


def _prepared(weight: Any, w: tuple[int, ...]) -> bool:
    owner = getattr(weight, "owner", None)
    name = getattr(owner, "name", None)
    return name in ("ttnn.prepare_conv2d_weights", "ttcore.load_cached") or (w[0] == 1 and w[1] == 1)


def verify_conv2d(op: Any) -> None:
    """HEAD's Conv2dOp::verify."""
    x_v, w_v, b_v = _operands(op)
    x, w = shape(x_v), shape(w_v)
    b = shape(b_v) if b_v is not None else None
    out = shape(op.results[0]) if op.results else None
    if x is None or w is None or out is None or (b_v is not None and b is None):
        return
    if len(x) != 4:
        raise ValueError("Input must be a 4D tensor")
    if len(w) != 4:
        raise ValueError("Weight must be a 4D tensor")
    if b is not None and len(b) != 4:
        raise ValueError("Bias must be a 4D tensor")
    if len(out) != 4:
        raise ValueError("Output must be a 4D tensor")
    params = _conv2d_params(op)
    names = ("in_channels", "out_channels", "batch_size", "input_height", "input_width", "groups")
    values = [int_attr(op, n) for n in names]
    if params is None or any(v is None for v in values):
        return
    kernel, stride, padding, dilation = params
    in_ch, out_ch, batch, height, width, groups = (v or 0 for v in values)
    if groups == 0:
        return  # HEAD divides by it unchecked; the TTIR verifier rejects a zero group count first
    if not _prepared(w_v, w):
        if w[0] != out_ch:
            raise ValueError(
                f"Expected output channels attribute ({out_ch}) to match the output channels in the weight tensor ({w[0]})."
            )
        if w[1] != int(in_ch / groups):
            raise ValueError(
                f"Expected input channels / groups attribute ({in_ch}/{groups}) = {int(in_ch / groups)} to match the "
                f"number of input channels per group in the weight tensor ({w[1]})."
            )
        if w[2] != kernel[0]:
            raise ValueError(f"Expected kernel height attribute ({kernel[0]}) to match the kernel height in the weight tensor ({w[2]}).")
        if w[3] != kernel[1]:
            raise ValueError(f"Expected kernel width attribute ({kernel[1]}) to match the kernel width in the weight tensor ({w[3]}).")
    flat = batch * height * width
    if flat != x[2]:
        raise ValueError(
            f"The input tensor's flattened dimension ({x[2]}) does not match the product of batch_size_attr * "
            f"input_height_attr * input_width_attr ({batch} * {height} * {width} = {flat})."
        )
    in_channels, per_group, w_out = x[3], int(in_ch / groups), out_ch
    if in_channels % groups:
        raise ValueError(
            f"The number of input channels from the input tensor ({in_channels}) is not divisible by the number of groups ({groups})."
        )
    if w_out % groups:
        raise ValueError(
            f"The number of output channels from the weight tensor ({w_out}) is not divisible by the number of groups ({groups})."
        )
    if in_channels // groups != per_group:
        raise ValueError(
            f"The number of input channels per group ({in_channels}) must match the number of input channels in the "
            f"weight tensor ({per_group})."
        )
    if b is not None and b[3] != w_out:
        raise ValueError(
            f"The number of output channels from the weight tensor ({w_out}) must match the number of output channels "
            f"in the bias tensor ({b[3]})."
        )
    pad_v, pad_h = (2 * padding[0], 2 * padding[1]) if len(padding) == 2 else (padding[0] + padding[1], padding[2] + padding[3])
    padded = (height + pad_v, width + pad_h)
    effective = (dilation[0] * (kernel[0] - 1) + 1, dilation[1] * (kernel[1] - 1) + 1)
    if padded[0] < effective[0] or padded[1] < effective[1]:
        raise ValueError(
            f"The effective kernel size ({effective[0]}, {effective[1]}) cannot be greater than the padded input size per "
            f"channel ({padded[0]}, {padded[1]})."
        )
    h_out = (padded[0] - effective[0]) // stride[0] + 1
    w_out_size = (padded[1] - effective[1]) // stride[1] + 1
    if h_out * w_out_size * batch != out[2]:
        raise ValueError(
            f"The output tensor's flattened dimension ({out[2]}) does not match the product of batch_size * "
            f"output_height * output_width ({batch} * {h_out} * {w_out_size} = {batch * h_out * w_out_size})."
        )
    if out[3] != w_out:
        raise ValueError(
            f"The number of output channels from the output tensor ({out[3]}) must match the number of output channels "
            f"in the weight tensor ({w_out}). "
        )


def _conv3d_params(op: Any) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], int] | None:
    """getAndVerifyConv3dParams: kernel, stride, padding (3 values each), padding mode, groups."""
    kernel, stride, padding = (ints_attr(op, n) for n in ("kernel_size", "stride", "padding"))
    groups = int_attr(op, "groups")
    if kernel is None or stride is None or padding is None or groups is None:
        return None
    if len(kernel) != 3:
        raise ValueError(f"kernel_size must have 3 values, got: {len(kernel)}")
    if not all(v >= 1 for v in kernel):
        raise ValueError(f"kernel_size values must be >= 1, got: {_text(kernel)}")
    if len(stride) != 3:
        raise ValueError(f"stride must have 3 values, got: {len(stride)}")
    if not all(v >= 1 for v in stride):
        raise ValueError(f"stride values must be > 0, got: {_text(stride)}")
    if len(padding) != 3:
        raise ValueError(f"padding must have 3 values, got: {len(padding)}")
    if not all(v >= 0 for v in padding):
        raise ValueError(f"padding values must be >= 0, got: {_text(padding)}")
    mode = str_attr(op, "padding_mode")
    if mode is not None and mode not in ("zeros", "replicate"):
        raise ValueError(f"padding_mode must be 'zeros' or 'replicate', got: {mode}")
    if groups < 1:
        raise ValueError(f"groups must be >= 1, got: {groups}")
    return kernel, stride, padding, groups


def verify_conv3d(op: Any) -> None:
    """HEAD's Conv3dOp::verify."""
    x_v, w_v, b_v = _operands(op)
    tx, tw = tensor_type(x_v), tensor_type(w_v)
    out_t = tensor_type(op.results[0]) if op.results else None
    if tx is None or tw is None or out_t is None or tx.shape is None or tw.shape is None or out_t.shape is None:
        return
    if len(tx.shape) != 5:
        raise ValueError("input must be a 5D tensor [N, D, H, W, C]")
    if len(tw.shape) not in (5, 2):
        raise ValueError("weight must be either a 5D tensor [O, C/G, kD, kH, kW] (raw) or a 2D tensor [kD*kH*kW*C/G, O] (prepared)")
    b_t = tensor_type(b_v) if b_v is not None else None
    if b_t is not None and b_t.shape is not None and len(b_t.shape) != 2:
        raise ValueError("bias must be a 2D tensor [1, O]")
    if len(out_t.shape) != 5:
        raise ValueError("result must be a 5D tensor [N, D_out, H_out, W_out, O]")
    params = _conv3d_params(op)
    w, out = shape(w_v), shape(op.results[0])
    b = shape(b_v) if b_v is not None else None
    names = ("in_channels", "out_channels", "batch_size", "input_depth", "input_height", "input_width")
    values = [int_attr(op, n) for n in names]
    if params is None or w is None or out is None or (b_v is not None and b is None) or any(v is None for v in values):
        return
    kernel, stride, padding, groups = params
    in_ch, out_ch, batch, depth, height, width = (v or 0 for v in values)
    kdims: tuple[int, ...]
    if len(w) == 5:
        w_out, flattened, kdims = w[0], w[1] * w[2] * w[3] * w[4], (w[2], w[3], w[4])
    else:
        w_out, flattened, kdims = out_ch, w[0], kernel
    if in_ch % groups:
        raise ValueError(f"in_channels ({in_ch}) must be divisible by groups ({groups})")
    if w_out % groups:
        raise ValueError(f"out_channels ({w_out}) must be divisible by groups ({groups})")
    if len(w) == 2:
        want = (in_ch // groups) * kernel[0] * kernel[1] * kernel[2]
        if want != flattened:
            raise ValueError(f"weight flattened dimension ({flattened}) must equal kD*kH*kW*C_in/groups ({want})")
    elif kdims != kernel:
        raise ValueError(f"weight kernel dimensions {_text(kdims)} must match kernel_size {_text(kernel)}")
    if b is not None:
        if b[1] != w_out:
            raise ValueError(f"bias output channels ({b[1]}) must match weight output channels ({w_out})")
        if b[0] != 1:
            raise ValueError(f"bias first dimension must be 1, got {b[0]}")
    d_out, h_out, w_out_size = ((n + 2 * p - k) // s + 1 for n, p, k, s in zip((depth, height, width), padding, kernel, stride))
    if out[0] != batch:
        raise ValueError(f"output batch size ({out[0]}) must match input batch size ({batch})")
    if out[1] != d_out:
        raise ValueError(f"output depth ({out[1]}) does not match calculated depth ({d_out})")
    if out[2] != h_out:
        raise ValueError(f"output height ({out[2]}) does not match calculated height ({h_out})")
    if out[3] != w_out_size:
        raise ValueError(f"output width ({out[3]}) does not match calculated width ({w_out_size})")
    if out[4] != w_out:
        raise ValueError(f"output channels ({out[4]}) must match weight output channels ({w_out})")


def verify_prepare_conv2d_weights(op: Any) -> None:
    """HEAD's PrepareConv2dWeightsOp::verify: an OIHW 4-D weight agreeing with the attributes."""
    w = shape(op.operands[0])
    if w is None:
        return
    if len(w) != 4:
        raise ValueError("Weight must be a 4D tensor")
    if str_attr(op, "weights_format") != "OIHW":
        raise ValueError("Only `OIHW` weights format is currently supported")
    out_ch, in_ch, groups = int_attr(op, "out_channels"), int_attr(op, "in_channels"), int_attr(op, "groups")
    kernel = ints_attr(op, "kernel_size")
    if out_ch is None or in_ch is None or not groups or kernel is None:
        return
    if w[0] != out_ch:
        raise ValueError(f"Expected output channels attribute ({out_ch}) to match the first dimension of the weight tensor ({w[0]})")
    if w[1] != int(in_ch / groups):
        # HEAD prints weight[1] / groups as the weight's count; its tests check that text.
        raise ValueError(
            f"Expected input channels attribute ({in_ch}) to match the number of input channels per group ({int(w[1] / groups)})"
        )
    if len(kernel) != 2:
        raise ValueError("Expected kernel size attribute to be a 2D tensor")
    if w[2] != kernel[0]:
        raise ValueError(f"Expected kernel height attribute ({kernel[0]}) to match the third dimension of the weight tensor ({w[2]})")
    if w[3] != kernel[1]:
        raise ValueError(f"Expected kernel width attribute ({kernel[1]}) to match the fourth dimension of the weight tensor ({w[3]})")
    stride, dilation, padding = ints_attr(op, "stride"), ints_attr(op, "dilation"), ints_attr(op, "padding")
    if stride is not None and len(stride) != 2:
        raise ValueError("Expected stride attribute to be a 2D tensor")
    if dilation is not None and len(dilation) != 2:
        raise ValueError("Expected dilation attribute to be a 2D tensor")
    if padding is not None and len(padding) not in (2, 4):
        raise ValueError("Expected padding attribute to be a 2D tensor")


VERIFIERS = {
    "ttnn.conv2d": verify_conv2d,
    "ttnn.conv3d": verify_conv3d,
    "ttnn.prepare_conv2d_weights": verify_prepare_conv2d_weights,
}
