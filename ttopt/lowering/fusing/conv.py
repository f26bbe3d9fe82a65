"""conv + add(bias) -> the conv with that bias operand (HEAD's ConvAddBias, for `ttir.conv2d`,
`ttir.conv_transpose2d` and `ttir.conv3d`, in the layout their `channel_dim` names: last by default).

Preconditions, as HEAD: one add operand is a single-use conv; the other, through one broadcast, has
the conv result's rank and is 1 in every dimension but the channel dimension, which is the conv's
output channels. A conv that already has a bias gets the sum of both. The conv keeps its location
and attributes, as HEAD sets the bias in place.

HEAD fuses before it decomposes a channels-first conv; ttir-to-ttir-decomposition runs first here,
so the conv may be read through the permute back to channels first: the bias is then reshaped to
the conv's channel dimension and the permute follows the new conv. The helpers that read a conv
through that permute serve the conv-scale folds too (conv_scale.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ttopt.dialects.ttir import inputs
from ttopt.ir.properties import int_values
from ttopt.lowering.fusing.match import Builder, Candidate, Rejected, one_use, producer, shape

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation
    from ttopt.ir.values import Value

NAME = "conv_bias"
CONVS = ("ttir.conv2d", "ttir.conv_transpose2d", "ttir.conv3d")


def channel_dim(conv: Operation) -> int:
    """The conv output's channel dimension (`channel_dim`, else the last)."""
    rank = len(shape(conv.results[0]))
    attr = conv.properties.get("channel_dim")
    return int(getattr(attr.resolve() if attr is not None else None, "value", rank - 1)) % rank


def match(add: Operation) -> Candidate | Rejected | None:
    """A `ttir.add` of a conv (or its permute) and a per-channel bias."""
    lhs, rhs = inputs(add)[:2]
    reason = ""
    for conv_v, raw in ((lhs, rhs), (rhs, lhs)):
        found = conv_behind(conv_v)
        if found is None:
            continue
        if isinstance(found, str):
            reason = found
            continue
        conv, perm = found
        read = per_channel_operand(conv, perm, raw, "bias")
        if isinstance(read, str):
            reason = read
            continue
        return _candidate(add, conv, perm, read[0])
    return Rejected(NAME, add, reason) if reason else None


def _candidate(add: Operation, conv: Operation, perm: Operation | None, bias: Value) -> Candidate:
    ins = inputs(conv)

    def build(b: Builder) -> Value:
        total = in_conv_layout(b, conv, bias)
        if len(ins) > 2:
            total = b.emit("add", [ins[2], total], total.type)
        return conv_with(b, conv, perm, ins[1], total)

    return Candidate(NAME, add, conv.name, build, note="added to its bias" if len(ins) > 2 else "")


def kernel_out_dim(conv: Operation) -> int:
    """The weight's output-feature dimension (OIHW: 0; conv_transpose2d's IOHW: 1)."""
    return 1 if conv.name == "ttir.conv_transpose2d" else 0


def conv_behind(v: Value, convs: tuple[str, ...] = CONVS) -> tuple[Operation, Operation | None] | str | None:
    """The conv `v` reads, directly or through the permute a channels-first conv is decomposed into
    (ttir-to-ttir-decomposition runs before ttir-fusing here; tt-mlir fuses before and after it);
    why it cannot fold, or None when there is no conv."""
    perm = producer(v, "ttir.permute")
    conv_v = inputs(perm)[0] if perm is not None else v
    conv = producer(conv_v, *convs)
    if conv is None:
        return None
    if not one_use(v) or not one_use(conv_v):
        return "the conv has other users"
    return conv, perm


def read_order(perm: Operation | None, rank: int) -> list[int] | None:
    """The permutation from the conv's output to what the pattern reads (identity without one)."""
    if perm is None:
        return list(range(rank))
    order = list(int_values(perm.properties.get("permutation")) or ())
    return order if len(order) == rank else None


def per_channel_reason(conv: Operation, order: list[int], v: Value, what: str = "scale") -> str:
    """Why `v`, in the read layout, is not one value per output channel of `conv` (empty when it is)."""
    out = shape(conv.results[0])
    c = channel_dim(conv)
    s = shape(v)
    if len(s) != len(out):
        return f"{what} {list(s)} has not the conv output's rank {len(out)}"
    if any(d != (out[c] if order[i] == c else 1) for i, d in enumerate(s)):
        return f"{what} {list(s)} is not one value per output channel ({out[c]})"
    return ""


def per_channel_operand(conv: Operation, perm: Operation | None, raw: Value, what: str) -> tuple[Value, bool] | str:
    """`raw` (through one broadcast: its input, and whether there was one) when it is one value per
    output channel of `conv` as read through `perm`; else why not."""
    bcast = producer(raw, "ttir.broadcast")
    v = inputs(bcast)[0] if bcast is not None else raw
    order = read_order(perm, len(shape(conv.results[0])))
    why = "the permute has no readable permutation" if order is None else per_channel_reason(conv, order, v, what)
    return why or (v, bcast is not None)


def in_conv_layout(b: Builder, conv: Operation, v: Value) -> Value:
    """A per-channel `v` (1-D, or 1 but in one dim) reshaped to the conv output's per-channel shape."""
    per = [1] * len(shape(conv.results[0]))
    per[channel_dim(conv)] = shape(conv.results[0])[channel_dim(conv)]
    return b.reshape(v, tuple(per))


def conv_with(b: Builder, conv: Operation, perm: Operation | None, weight: Value, bias: Value | None) -> Value:
    """The conv on the new weight and bias, keeping its location and attributes (as HEAD rewrites it
    in place: overrides naming it still apply), then the permute it was read through."""
    ops = [inputs(conv)[0], weight] + ([bias] if bias is not None else [])
    out = b.emit(conv.name[5:], ops, conv.results[0].type, **dict(conv.properties))
    new = b.ops[-1]
    new.location = conv.location
    new.attributes = dict(conv.attributes)
    if perm is None:
        return out
    return b.emit("permute", [out], perm.results[0].type, **dict(perm.properties))
