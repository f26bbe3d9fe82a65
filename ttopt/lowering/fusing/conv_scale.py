"""conv * scale -> the conv with its weight (and bias) scaled (HEAD's ConvWithMultiply, for
`ttir.conv2d` and `ttir.conv_transpose2d`), and a batch norm of a conv folded into the conv (HEAD's
BatchNormDecomposition, then ConvWithMultiply and ConvAddBias on what it leaves). Both run only
under ttir-fusing's `ttnn-enable-conv2d-with-multiply-pattern`, which the backend pipeline turns on
from optimization-level=1, as tt-mlir does.

Preconditions, as HEAD:

* the conv has one use, the multiply (or the batch norm);
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
as its bias. Its operands must be 1-D or 4-D and its dimension the conv's channel dimension, directly
or through the permute a channels-first conv is decomposed into (then with 1-D statistics); HEAD
decomposes a batch norm along another dimension but then fuses nothing, ttopt keeps it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ttopt.dialects.ttir import inputs
from ttopt.ir.attributes import DenseArrayAttr
from ttopt.ir.properties import int_values
from ttopt.ir.types import TensorType
from ttopt.lowering.fusing.conv import CONVS, _channel_dim
from ttopt.lowering.fusing.match import Builder, Candidate, Rejected, f32_attr, i32_array, one_use, producer, shape

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation
    from ttopt.ir.values import Value

NAME = "conv_scale"
BATCH_NORM = "conv_batch_norm"


def _kernel_out_dim(conv: Operation) -> int:
    return 1 if conv.name == "ttir.conv_transpose2d" else 0


def _const_args(func: Any) -> set[int]:
    from ttopt.lowering.const_eval import const_args

    return const_args(func)


def const_evaluable(v: Value, conv: Operation) -> bool:
    """Every argument `v`'s def chain reaches is a parameter / constant argument, and the chain
    does not pass through `conv`."""
    seen: set[int] = set()
    stack: list[Any] = [v]
    consts: set[int] | None = None
    while stack:
        x = stack.pop()
        if id(x) in seen:
            continue
        seen.add(id(x))
        op = getattr(x, "op", None)
        if op is conv:
            return False
        if op is not None:
            stack.extend(op.operands)
            continue
        if consts is None:
            block = getattr(x, "block", None)
            consts = _const_args(block.parent.parent) if block is not None else set()
        if x.index not in consts:
            return False
    return True


def _per_channel(conv: Operation, v: Value) -> str:
    """Why `v` is not one value per output channel of `conv` (empty when it is)."""
    out = shape(conv.results[0])
    c = _channel_dim(conv)
    s = shape(v)
    if len(s) != len(out):
        return f"scale {list(s)} has not the conv output's rank {len(out)}"
    if any(d != (out[c] if i == c else 1) for i, d in enumerate(s)):
        return f"scale {list(s)} is not one value per output channel ({out[c]})"
    return ""


def _scaled_weight(b: Builder, conv: Operation, scale: Value, broadcast: bool) -> Value:
    """The conv's weight times `scale` with its channel moved to the weight's output-feature dim."""
    w = inputs(conv)[1]
    wt = w.type.resolve()
    s = list(shape(scale))
    c, k = _channel_dim(conv), _kernel_out_dim(conv)
    s[c], s[k] = s[k], s[c]
    st = scale.type.resolve()
    r = b.emit("reshape", [scale], TensorType(tuple(s), st.element_type, st.encoding), shape=i32_array(s))
    if broadcast:
        dims = DenseArrayAttr("i64", tuple(wd // rd if rd == 1 else 1 for wd, rd in zip(shape(w), s)))
        r = b.emit("broadcast", [r], TensorType(tuple(shape(w)), st.element_type, wt.encoding), broadcast_dimensions=dims)
    return b.emit("multiply", [w, r], wt)


def _conv_with(b: Builder, conv: Operation, weight: Value, bias: Value | None, result: Any) -> Value:
    ops = [inputs(conv)[0], weight] + ([bias] if bias is not None else [])
    return b.emit(conv.name[5:], ops, result, **dict(conv.properties))


def match(mul: Operation) -> Candidate | Rejected | None:
    """A `ttir.multiply` of a single-use conv and a const-evaluable per-channel scale."""
    lhs, rhs = inputs(mul)[:2]
    reason = ""
    for conv_v, raw in ((lhs, rhs), (rhs, lhs)):
        conv = producer(conv_v, *CONVS)
        if conv is None:
            continue
        if not one_use(conv_v):
            reason = "the conv has other users"
            continue
        bcast = producer(raw, "ttir.broadcast")
        scale = inputs(bcast)[0] if bcast is not None else raw
        why = _per_channel(conv, scale)
        if why:
            reason = why
            continue
        if not const_evaluable(raw, conv):
            reason = "the scale is not computed from parameters and constants only"
            continue
        return _candidate(mul, conv, raw, scale, bcast is not None)
    return Rejected(NAME, mul, reason) if reason else None


def _candidate(mul: Operation, conv: Operation, raw: Value, scale: Value, broadcast: bool) -> Candidate:
    ins = inputs(conv)

    def build(b: Builder) -> Value:
        weight = _scaled_weight(b, conv, scale, broadcast)
        bias = b.emit("multiply", [ins[2], scale], ins[2].type) if len(ins) > 2 else None
        return _conv_with(b, conv, weight, bias, mul.results[0].type)

    return Candidate(NAME, mul, conv.name, build, note="weight scaled in const-eval", cost_checked=False)


def match_batch_norm(bn: Operation) -> Candidate | Rejected | None:
    """A `ttir.batch_norm_inference` of a single-use conv with const-evaluable statistics."""
    x = inputs(bn)[0]
    # A channels-first conv reaches ttir-fusing as permute(conv) (ttir-to-ttir-decomposition runs
    # first here; tt-mlir fuses before and after it): the batch norm folds through the permute.
    perm = producer(x, "ttir.permute")
    conv_v = inputs(perm)[0] if perm is not None else x
    conv = producer(conv_v, *CONVS)
    if conv is None:
        return None
    if not one_use(x) or not one_use(conv_v):
        return Rejected(BATCH_NORM, bn, "the conv has other users")
    stats = inputs(bn)[1:5]
    if len(stats) != 4 or any(len(shape(v)) not in (1, 4) for v in stats):
        return Rejected(BATCH_NORM, bn, "batch norm operands must be 1-D or 4-D")
    dim = int(getattr(bn.properties.get("dimension"), "value", 1))
    order = list(int_values(perm.properties.get("permutation")) or ()) if perm is not None else list(range(len(shape(x))))
    if len(order) != len(shape(x)):
        return Rejected(BATCH_NORM, bn, "the permute has no readable permutation")
    if order[dim] != _channel_dim(conv) or (perm is not None and any(len(shape(v)) == 4 for v in stats)):
        return Rejected(BATCH_NORM, bn, f"normalizes dimension {dim}, not the conv's channels ({_channel_dim(conv)})")
    dim = _channel_dim(conv)
    if not all(const_evaluable(v, conv) for v in stats):
        return Rejected(BATCH_NORM, bn, "the statistics are not computed from parameters and constants only")
    eps = float(getattr(bn.properties.get("epsilon"), "value", 1e-5))
    channels = shape(conv.results[0])[dim]

    def build(b: Builder) -> Value:
        scale, offset, mean, var = stats
        vt = var.type.resolve()
        eps_t = TensorType((1,), vt.element_type, vt.encoding)
        full = b.emit("full", [], eps_t, shape=DenseArrayAttr("i32", (1,)), fill_value=f32_attr(eps))
        std = b.emit("sqrt", [b.emit("add", [var, full], var.type)], var.type)
        alpha = b.emit("div", [scale, std], scale.type)
        beta = b.emit("subtract", [offset, b.emit("multiply", [mean, alpha], mean.type)], offset.type)
        per_channel = [1, 1, 1, 1]
        per_channel[dim] = channels

        def to4(v: Value) -> Value:
            if len(shape(v)) == 4:
                return v
            t = v.type.resolve()
            return b.emit("reshape", [v], TensorType(tuple(per_channel), t.element_type, t.encoding), shape=i32_array(per_channel))

        alpha4, beta4 = to4(alpha), to4(beta)
        ins = inputs(conv)
        weight = _scaled_weight(b, conv, alpha4, broadcast=False)
        bias = beta4
        if len(ins) > 2:
            bias = b.emit("add", [b.emit("multiply", [ins[2], alpha4], ins[2].type), beta4], ins[2].type)
        if perm is None:
            return _conv_with(b, conv, weight, bias, bn.results[0].type)
        folded = _conv_with(b, conv, weight, bias, conv.results[0].type)
        return b.emit("permute", [folded], bn.results[0].type, **dict(perm.properties))

    return Candidate(BATCH_NORM, bn, conv.name, build, note="batch norm folded into the weight and bias in const-eval", cost_checked=False)
