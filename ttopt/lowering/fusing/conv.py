"""conv + add(bias) -> the conv with that bias operand (HEAD's ConvAddBias, for `ttir.conv2d` and
`ttir.conv_transpose2d`).

Preconditions, as HEAD: one add operand is a single-use conv; the other, through one broadcast, has
the conv result's rank and is 1 in every dimension but the channel dimension, which is the conv's
output channels. A conv that already has a bias gets the sum of both.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ttopt.dialects.ttir import inputs
from ttopt.lowering.fusing.match import Builder, Candidate, Rejected, one_use, producer, shape

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation
    from ttopt.ir.values import Value

NAME = "conv_bias"
CONVS = ("ttir.conv2d", "ttir.conv_transpose2d")


def _channel_dim(conv: Operation) -> int:
    if conv.name == "ttir.conv2d":
        return int(getattr(conv.properties.get("channel_dim"), "value", 3))
    return 3


def _bias_of(conv: Operation, raw: Value) -> Value | str:
    bias = inputs(b)[0] if (b := producer(raw, "ttir.broadcast")) is not None else raw
    out = shape(conv.results[0])
    bs = shape(bias)
    c = _channel_dim(conv)
    if len(bs) != len(out):
        return f"bias {list(bs)} has not the conv output's rank {len(out)}"
    if any(s != (out[c] if i == c else 1) for i, s in enumerate(bs)):
        return f"bias {list(bs)} is not one value per output channel ({out[c]})"
    return bias


def match(add: Operation) -> Candidate | Rejected | None:
    """A `ttir.add` of a conv and a per-channel bias."""
    lhs, rhs = inputs(add)[:2]
    reason = ""
    for conv_v, raw in ((lhs, rhs), (rhs, lhs)):
        conv = producer(conv_v, *CONVS)
        if conv is None:
            continue
        if not one_use(conv_v):
            reason = "the conv has other users"
            continue
        bias = _bias_of(conv, raw)
        if isinstance(bias, str):
            reason = bias
            continue
        return _candidate(add, conv, bias)
    return Rejected(NAME, add, reason) if reason else None


def _candidate(add: Operation, conv: Operation, bias: Value) -> Candidate:
    ins = inputs(conv)

    def build(b: Builder) -> Value:
        total = bias
        if len(ins) > 2:
            total = b.emit("add", [ins[2], bias], bias.type)
        return b.emit(conv.name[5:], [ins[0], ins[1], total], add.results[0].type, **dict(conv.properties))

    return Candidate(NAME, add, conv.name, build, note="added to its bias" if len(ins) > 2 else "")
