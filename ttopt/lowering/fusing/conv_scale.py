"""conv * scale -> the conv with its weight (and bias) scaled (HEAD's ConvWithMultiply, for
`ttir.conv2d` and `ttir.conv_transpose2d`), and a batch norm of a conv folded into the conv (HEAD's
BatchNormDecomposition, then ConvWithMultiply and ConvAddBias on what it leaves). Both run only
under ttir-fusing's `ttnn-enable-conv2d-with-multiply-pattern`, which the backend pipeline turns on
from optimization-level=1, as tt-mlir does.

Preconditions, as HEAD:

* the conv has one use, the multiply (or the batch norm), directly or through the permute a
  channels-first conv is decomposed into (then the permute follows the new conv); the multiply's
  result is the conv's (no wider broadcast, no other element type); a grouped conv_transpose2d,
  whose weight holds a group's output channels, does not fold;
* the scale is const-evaluable (every function argument its def chain reaches is a parameter or
  constant argument, `ttcore.argument_type`) and does not depend on the conv;
* the scale (through one broadcast: its input) has the conv result's rank and is 1 in every
  dimension but the channel dimension, which is the conv's output channels.

The scale is reshaped so its channel moves to the weight's output-feature dimension (0 for conv2d's
OIHW weight, 1 for conv_transpose2d's IOHW), broadcast to the weight's shape when it came through a
broadcast, and multiplies the weight; a bias is multiplied by the scale. These ops read only
constants, so const-eval computes them once: the run keeps one conv.

A batch norm `(x - mean) / sqrt(var + eps) * scale + offset` of a conv becomes
`alpha = scale / sqrt(var + eps)`, `beta = offset - alpha * mean` (reshaped to the conv's channel
dimension when 1-D) and the conv with its weight scaled by alpha and `beta` (plus a scaled bias)
as its bias. Its statistics must share one shape, 1-D or 4-D (one value per channel), and its dimension must
be the conv's channel dimension (through the permute, where there is one); HEAD decomposes a batch
norm along another dimension but then fuses nothing, ttopt keeps it. The new conv keeps the old
one's location and attributes, as HEAD rewrites it in place.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ttopt.dialects.ttir import inputs
from ttopt.ir.attributes import DenseArrayAttr
from ttopt.ir.types import TensorType
from ttopt.lowering.fusing.conv import (
    channel_dim,
    conv_behind,
    conv_with,
    in_conv_layout,
    kernel_out_dim,
    per_channel_operand,
    per_channel_reason,
    read_order,
)
from ttopt.lowering.fusing.match import Builder, Candidate, Rejected, f32_attr, i32_array, shape

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation
    from ttopt.ir.values import Value

NAME = "conv_scale"
BATCH_NORM = "conv_batch_norm"
# HEAD's ConvWithMultiply and BatchNormDecomposition fold into these (not conv3d).
CONVS = ("ttir.conv2d", "ttir.conv_transpose2d")
GROUPED = "a grouped conv_transpose2d's weight holds a group's output channels"


def grouped_deconv(conv: Operation) -> bool:
    """A grouped conv_transpose2d: its weight's output-feature dim holds one group's channels."""
    w, out = shape(inputs(conv)[1]), shape(conv.results[0])
    return w[kernel_out_dim(conv)] != out[channel_dim(conv)]


def const_evaluable(v: Value, conv: Operation) -> bool:
    """Every argument `v`'s def chain reaches is a parameter / constant argument, and the chain
    does not pass through `conv`."""
    from ttopt.lowering.const_eval import const_args, reached_arguments

    args = reached_arguments(v, avoid=conv)
    if args is None:
        return False
    if not args:
        return True  # created constants only
    region = conv.parent.parent if conv.parent is not None else None
    func = region.parent if region is not None else None
    return func is not None and args <= const_args(func)


def _scaled_weight(b: Builder, conv: Operation, scale: Value, broadcast: bool) -> Value:
    """The conv's weight times the per-channel `scale` (in the conv's layout), its channel moved to
    the weight's output-feature dim."""
    w = inputs(conv)[1]
    wt = w.type.resolve()
    s = list(shape(scale))
    c, k = channel_dim(conv), kernel_out_dim(conv)
    s[c], s[k] = s[k], s[c]
    st = scale.type.resolve()
    r = b.emit("reshape", [scale], TensorType(tuple(s), st.element_type, st.encoding), shape=i32_array(s))
    if broadcast:
        dims = DenseArrayAttr("i64", tuple(wd if rd == 1 else 1 for wd, rd in zip(shape(w), s)))
        r = b.emit("broadcast", [r], TensorType(tuple(shape(w)), st.element_type, wt.encoding), broadcast_dimensions=dims)
    return b.emit("multiply", [w, r], wt)


def match(mul: Operation) -> Candidate | Rejected | None:
    """A `ttir.multiply` of a single-use conv (or its permute) and a const-evaluable per-channel scale."""
    lhs, rhs = inputs(mul)[:2]
    reason = ""
    for conv_v, raw in ((lhs, rhs), (rhs, lhs)):
        found = conv_behind(conv_v, CONVS)
        if found is None:
            continue
        if isinstance(found, str):
            reason = found
            continue
        conv, perm = found
        if grouped_deconv(conv):
            reason = GROUPED
            continue
        if mul.results[0].type.resolve() != conv_v.type.resolve():
            reason = "the multiply's result is not the conv's (a wider broadcast or another element type)"
            continue
        read = per_channel_operand(conv, perm, raw, "scale")
        if isinstance(read, str):
            reason = read
            continue
        if not const_evaluable(raw, conv):
            reason = "the scale is not computed from parameters and constants only"
            continue
        return _candidate(mul, conv, perm, *read)
    return Rejected(NAME, mul, reason) if reason else None


def _candidate(mul: Operation, conv: Operation, perm: Operation | None, scale: Value, broadcast: bool) -> Candidate:
    ins = inputs(conv)

    def build(b: Builder) -> Value:
        per = in_conv_layout(b, conv, scale)
        weight = _scaled_weight(b, conv, per, broadcast)
        bias = b.emit("multiply", [ins[2], per], ins[2].type) if len(ins) > 2 else None
        return conv_with(b, conv, perm, weight, bias)

    return Candidate(NAME, mul, conv.name, build, note="weight scaled in const-eval", cost_checked=False)


def match_batch_norm(bn: Operation) -> Candidate | Rejected | None:
    """A `ttir.batch_norm_inference` of a single-use conv (or its permute) with const-evaluable
    per-channel statistics."""
    x = inputs(bn)[0]
    found = conv_behind(x, CONVS)
    if found is None:
        return None
    if isinstance(found, str):
        return Rejected(BATCH_NORM, bn, found)
    conv, perm = found
    if grouped_deconv(conv):
        return Rejected(BATCH_NORM, bn, GROUPED)
    stats = inputs(bn)[1:5]
    order = read_order(perm, len(shape(x)))
    if len(stats) != 4 or order is None or len({shape(v) for v in stats}) != 1 or len(shape(stats[0])) not in (1, 4):
        return Rejected(BATCH_NORM, bn, "the statistics must share one shape, 1-D or 4-D")
    dim = int(getattr(bn.properties.get("dimension"), "value", 1))
    c = channel_dim(conv)
    if not 0 <= dim < len(order) or order[dim] != c:
        return Rejected(BATCH_NORM, bn, f"normalizes dimension {dim}, not the conv's channels")
    channels = shape(conv.results[0])[c]
    s0 = shape(stats[0])
    if len(s0) == 1:
        why = f"statistics {list(s0)} are not one value per channel ({channels})" if s0[0] != channels else ""
    else:
        why = per_channel_reason(conv, order, stats[0])
    if why:
        return Rejected(BATCH_NORM, bn, why)
    if not all(const_evaluable(v, conv) for v in stats):
        return Rejected(BATCH_NORM, bn, "the statistics are not computed from parameters and constants only")
    eps = float(getattr(bn.properties.get("epsilon"), "value", 1e-5))

    def build(b: Builder) -> Value:
        scale, offset, mean, var = stats
        vt = var.type.resolve()
        eps_t = TensorType((1,), vt.element_type, vt.encoding)
        full = b.emit("full", [], eps_t, shape=DenseArrayAttr("i32", (1,)), fill_value=f32_attr(eps))
        std = b.emit("sqrt", [b.emit("add", [var, full], var.type)], var.type)
        alpha = b.emit("div", [scale, std], scale.type)
        beta = b.emit("subtract", [offset, b.emit("multiply", [mean, alpha], mean.type)], offset.type)
        alpha4, beta4 = in_conv_layout(b, conv, alpha), in_conv_layout(b, conv, beta)
        ins = inputs(conv)
        weight = _scaled_weight(b, conv, alpha4, broadcast=False)
        bias = beta4
        if len(ins) > 2:
            bias = b.emit("add", [b.emit("multiply", [ins[2], alpha4], ins[2].type), beta4], ins[2].type)
        return conv_with(b, conv, perm, weight, bias)

    return Candidate(BATCH_NORM, bn, conv.name, build, note="batch norm folded into the weight and bias in const-eval", cost_checked=False)
