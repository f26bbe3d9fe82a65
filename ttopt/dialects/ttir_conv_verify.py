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

from ttopt.ir.attributes import IntegerAttr
from ttopt.ir.properties import int_values
from ttopt.ir.types import static_shape

DIMS = ("batch_dim", "height_dim", "width_dim", "channel_dim")


def _tuple(op: Any, name: str, sizes: tuple[int, ...], default: int) -> tuple[int, ...]:
    """An integer, pair or quadruple attribute read as HEAD's getPairOfInteger /
    getQuadrupleOfInteger read it (a pair of a quadruple repeats: (a, b, a, b))."""
    a = op.get_attr(name)
    if a is None:
        return (default,) * max(sizes)
    r = a.resolve()
    if isinstance(r, IntegerAttr) and isinstance(r.value, int):
        return (r.value,) * max(sizes)
    values = int_values(r)
    if values is None:
        raise ValueError(f"Unexpected attribute type for {name}")
    if len(values) not in sizes:
        want = "Expected integer or pair of integers, got" if max(sizes) == 2 else "Expected integer, pair, or tuple of size 4, but got"
        raise ValueError(f"{want} tuple of size {len(values)} for {name}")
    return values * 2 if len(values) == 2 and max(sizes) == 4 else values


def _dim(op: Any, name: str, default: int) -> int:
    a = op.get_attr(name)
    v = getattr(a.resolve(), "value", None) if a is not None else None
    return v if isinstance(v, int) and not isinstance(v, bool) else default


def conv2d(op: Any) -> None:
    """Raise ValueError with HEAD's message when the conv2d's shapes and parameters disagree."""
    operands = [static_shape(v.type) for v in op.operands]
    out = static_shape(op.results[0].type) if op.results else None
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
    stride = _tuple(op, "stride", (1, 2), 1)
    top, left, bottom, right = _tuple(op, "padding", (1, 2, 4), 0)
    dilation = _tuple(op, "dilation", (1, 2), 1)
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
        from ttopt.dialects.ttir_attrs import flattened_compat_info  # typed TTIR attributes load on first use

        flat = flattened_compat_info(op)
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
