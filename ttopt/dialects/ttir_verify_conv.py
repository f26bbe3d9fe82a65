"""`ttir.conv2d`'s verifier, as HEAD's Conv2dOp::verify (lib/Dialect/TTIR/Utils/VerificationUtils.cpp):
4-D operands, positive stride and dilation, non-negative padding, channels that divide into the
groups and agree with the weight and bias, a kernel that fits the padded input, and the output
size the parameters give. Its messages are HEAD's; the lowering and the op model divide by these
numbers, so what passes here is what they can take.

Layout: the input and output read through `batch_dim` / `height_dim` / `width_dim` / `channel_dim`
(default NHWC), or, with `flattened_compat_info`, the flattened (1, 1, N*H*W, C) form; the weight is
(O, C/G, KH, KW), the bias (1, 1, 1, O) read at the channel dim.
"""

from __future__ import annotations

from typing import Any

from ttopt.dialects.verify_common import shape
from ttopt.ir.attributes import IntegerAttr
from ttopt.ir.properties import int_values

DIMS = ("batch_dim", "height_dim", "width_dim", "channel_dim")


def pair_or_quad(op: Any, name: str, sizes: tuple[int, ...], default: int, suffix: str = "", label: str = "") -> tuple[int, ...]:
    """An integer, pair or quadruple attribute read as HEAD's getPairOfInteger /
    getQuadrupleOfInteger read it (a pair of a quadruple repeats: (a, b, a, b)); HEAD's error names
    the attribute (`for stride`, or with `suffix` " attribute", `for stride attribute`)."""
    a = op.get_attr(name)
    label = label or name
    if a is None:
        return (default,) * max(sizes)
    r = a.resolve()
    if isinstance(r, IntegerAttr) and isinstance(r.value, int):
        return (r.value,) * max(sizes)
    values = int_values(r)
    if values is None:
        raise ValueError(f"Unexpected attribute type for {label}{suffix}")
    if len(values) not in sizes:
        want = "Expected integer or pair of integers, got" if max(sizes) == 2 else "Expected integer, pair, or tuple of size 4, but got"
        raise ValueError(f"{want} tuple of size {len(values)} for {label}{suffix}")
    return values * 2 if len(values) == 2 and max(sizes) == 4 else values


def flat_info(op: Any) -> Any:
    """The op's `flattened_compat_info` (N, H, W of its flattened 1x1x(N*H*W)xC form), or None;
    an unreadable one is the verifier's error."""
    if op.get_attr("flattened_compat_info") is None:
        return None
    from ttopt.dialects.errors import AttrError
    from ttopt.dialects.ttir_attrs import flattened_compat_info  # typed TTIR attributes load on first use

    try:
        return flattened_compat_info(op)
    except AttrError as e:
        raise ValueError(f"attribute 'flattened_compat_info' is invalid: {e.message}") from None


def _dim(op: Any, name: str, default: int) -> int:
    a = op.get_attr(name)
    v = getattr(a.resolve(), "value", None) if a is not None else None
    return v if isinstance(v, int) and not isinstance(v, bool) else default


def conv2d(op: Any) -> None:
    """Raise ValueError with HEAD's message when the conv2d's shapes and parameters disagree."""
    operands = [shape(v) for v in op.operands]
    out = shape(op.results[0]) if op.results else None
    if len(operands) < 2 or out is None or any(s is None for s in operands):
        return
    x, w, *rest = operands
    bias = rest[0] if rest else None
    assert x is not None and w is not None
    if len(x) != 4:
        raise ValueError("input must be a 4D tensor")
    if len(w) != 4:
        raise ValueError("weight must be a 4D tensor")
    if bias is not None and len(bias) != 4:
        raise ValueError("bias must be a 4D tensor")
    if len(out) != 4:
        raise ValueError("output must be a 4D tensor")
    stride = pair_or_quad(op, "stride", (2,), 1)
    top, left, bottom, right = pair_or_quad(op, "padding", (2, 4), 0)
    dilation = pair_or_quad(op, "dilation", (2,), 1)
    groups = _dim(op, "groups", 1)
    if min(stride) <= 0:
        raise ValueError("Stride attribute values must be > 0.")
    if min(dilation) <= 0:
        raise ValueError("Dilation attribute values must be > 0.")
    if min(top, left, bottom, right) < 0:
        raise ValueError("Padding attribute values must be >= 0.")
    if groups <= 0:
        raise ValueError(f"groups must be positive, got {groups}")
    b, h, wd, c = (_dim(op, n, i) for i, n in enumerate(DIMS))
    if any(not 0 <= d < 4 for d in (b, h, wd, c)):
        return  # the layout dimensions' own error comes from the channel-last decomposition
    info = op.get_attr("flattened_compat_info")
    if info is not None:
        flat = flat_info(op)
        if flat is None:
            return
        n, ih, iw, ic = flat.batch_size, flat.input_height, flat.input_width, x[c]
    else:
        n, ih, iw, ic = x[b], x[h], x[wd], x[c]
    oc, icg, kh, kw = w
    if ic % groups:
        raise ValueError(f"The number of input channels from the input tensor ({ic}) is not divisible by the number of groups ({groups}).")
    if oc % groups:
        raise ValueError(f"The number of output channels from the weight tensor ({oc}) is not divisible by the number of groups ({groups}).")
    if ic // groups != icg:
        raise ValueError(f"The number of input channels per group ({ic}) must match the number of input channels in the weight tensor ({icg}).")
    if bias is not None and bias[c] != oc:
        raise ValueError(f"The number of output channels from the weight tensor ({oc}) must match the number of output channels in the bias tensor ({bias[c]}).")
    ph, pw = ih + top + bottom, iw + left + right
    eh, ew = dilation[0] * (kh - 1) + 1, dilation[1] * (kw - 1) + 1
    if ph < eh or pw < ew:
        raise ValueError(f"The effective kernel size ({eh}, {ew}) cannot be greater than the padded input size per channel ({ph}, {pw}).")
    oh, ow = (ph - eh) // stride[0] + 1, (pw - ew) // stride[1] + 1
    channels = (f"The number of output channels from the output tensor ({out[c]}) must match the number of output channels in the weight "
                f"tensor ({oc}). ")  # fmt: skip
    if info is not None:
        if oh * ow * n != out[2]:
            raise ValueError(f"The output tensor's flattened dimension ({out[2]}) does not match the product of batch_size * output_height * "
                             f"output_width ({n} * {oh} * {ow} = {n * oh * ow}).")  # fmt: skip
        if out[c] != oc:
            raise ValueError(channels)
        return
    if n != out[b]:
        raise ValueError(f"Batch size from the input tensor ({n}) must match the first dimension of the output tensor ({out[b]})")
    if out[c] != oc:
        raise ValueError(channels)
    if (out[h], out[wd]) != (oh, ow):
        raise ValueError(f"The output tensor height and width dimension ({out[h]}, {out[wd]}) do not match the expected dimensions ({oh}, {ow}).")


def conv_transpose2d(op: Any) -> None:
    """Raise ValueError with HEAD's message (ConvTranspose2dOp::verify) when the transposed conv's
    shapes and parameters disagree; the weight is (C, O/G, KH, KW)."""
    shapes = [shape(v) for v in op.operands]
    out = shape(op.results[0]) if op.results else None
    if len(shapes) < 2 or out is None or any(s is None for s in shapes):
        return
    x, w, *rest = shapes
    bias = rest[0] if rest else None
    assert x is not None and w is not None
    flat = flat_info(op)
    if flat is not None and len(x) > 2 and x[2] != flat.rows:
        raise ValueError(f"The input tensor's flattened dimension ({x[2]}) does not match the product of batch_size * input_height * "
                         f"input_width from FlattenedCompatInfo ({flat.batch_size} * {flat.input_height} * {flat.input_width} = {flat.rows}).")  # fmt: skip
    for what, s in (("Input", x), ("Output", out), ("Weight", w), ("Bias", bias)):
        if s is not None and len(s) != 4:
            raise ValueError(f"{what} must be a 4D tensor")
    n_in, n_out = (flat.batch_size, flat.batch_size) if flat is not None else (x[0], out[0])
    if n_in != n_out:
        raise ValueError("Batch size of input and output tensors must match")
    stride = pair_or_quad(op, "stride", (2,), 1)
    if min(stride) < 1:
        raise ValueError("Stride values must be greater than 0")
    top, left, bottom, right = pair_or_quad(op, "padding", (2, 4), 0)
    if min(top, left, bottom, right) < 0:
        raise ValueError("Padding values must be greater or equal than 0")
    out_pad = pair_or_quad(op, "output_padding", (2,), 0, label="output padding")
    if min(out_pad) < 0:
        raise ValueError("Output padding values must be greater or equal than 0")
    dilation = pair_or_quad(op, "dilation", (2,), 1)
    if min(dilation) < 1:
        raise ValueError("Dilation values must be greater than 0")
    _, h, wd, c = (_dim(op, n, i) for i, n in enumerate(DIMS))
    if any(not 0 <= d < 4 for d in (h, wd, c)):
        return
    ic, oc, groups = x[c], out[c], _dim(op, "groups", 1)
    if groups <= 0:
        raise ValueError(f"groups must be positive, got {groups}")
    if ic % groups:
        raise ValueError(f"Number of input channels from input tensor must be divisible by the number of groups. Got {ic} input channels and {groups} groups.")
    if oc % groups:
        raise ValueError(f"Number of output channels from output tensor must be divisible by the number of groups. Got {oc} output channels and {groups} groups.")
    if ic != w[0]:
        raise ValueError(f"Number of input channels from input tensor must match the first dimension of the weight tensor. Got {ic} input channels and {w[0]} in the weight tensor.")
    if oc // groups != w[1]:
        raise ValueError(f"Number of output channels per group must match the second dimension of the weight tensor. Got {oc // groups} output channels per group and {w[1]} in the weight tensor.")
    if bias is not None and bias[c] != oc:
        raise ValueError(f"Mismatch in bias tensor dimensions. Bias tensor has {bias[c]} channels, but the output tensor has {oc} channels.")
    hin, win = (flat.input_height, flat.input_width) if flat is not None else (x[h], x[wd])
    eh = (hin - 1) * stride[0] - (top + bottom) + dilation[0] * (w[2] - 1) + out_pad[0] + 1
    ew = (win - 1) * stride[1] - (left + right) + dilation[1] * (w[3] - 1) + out_pad[1] + 1
    if eh < 0 or ew < 0:
        raise ValueError(f"Given input size per channel: ({hin} x {win}). Calculated output size per channel: ({eh} x {ew}). Output size is too small")
    if flat is None and (out[h], out[wd]) != (eh, ew):
        raise ValueError(f"Mismatch between expected output size per channel and got output tensor dimensions. Expected: ({eh} x {ew}), "
                         f"got: ({out[h]} x {out[wd]}).")  # fmt: skip
    if flat is not None and n_in * eh * ew != out[2]:
        raise ValueError(f"Mismatch between expected flattened NHW dim size. Expected: {n_in * eh * ew}, got: {out[2]}.")
