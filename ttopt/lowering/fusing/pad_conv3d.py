"""pad -> conv3d: the pad folded into the conv's `padding` (HEAD's PadConv3dFusionPattern).

Preconditions, as HEAD: the conv's input is a `ttir.pad` read only by the conv; the conv's
`padding_mode` is "zeros" and the pad value is 0; every dimension is padded symmetrically (low ==
high), and the batch and channel dimensions not at all. The pad's depth / height / width amounts
are added to the conv's (a single integer `padding` counts for all three). The conv keeps its
location and attributes, as HEAD rewrites it in place.

ttir-to-ttir-decomposition runs first here, so a conv3d that is not channel-last (HEAD's lit tests
write NCDHW) reads its pad through the permute to NDHWC: the pad's dimensions are then read through
that permutation, and the new conv reads the permute of the pad's input.

conv3d has no estimate in the cost model (0 us on both sides), so the gate compares the pad (and the
permute of the padded tensor) against the permute of the unpadded one: the fusion always saves the pad.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ttopt.dialects.ttir import inputs
from ttopt.ir.attributes import DenseArrayAttr, IntegerAttr
from ttopt.ir.properties import int_values
from ttopt.ir.types import TensorType
from ttopt.lowering.fusing.match import Builder, Candidate, Rejected, one_use, producer, shape

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation
    from ttopt.ir.values import Value

NAME = "pad_conv3d"
# The conv3d's layout dimensions and their channel-last defaults.
DIMS = {"batch_dim": 0, "depth_dim": 1, "height_dim": 2, "width_dim": 3, "channel_dim": 4}


def _dim(conv: Operation, name: str) -> int:
    v = getattr(conv.properties.get(name), "value", None)
    return v if isinstance(v, int) and not isinstance(v, bool) else DIMS[name]


def _triple(conv: Operation) -> tuple[int, int, int] | None:
    """The conv's (depth, height, width) padding: three integers, or one for all three."""
    attr = conv.properties.get("padding")
    a = attr.resolve() if attr is not None else None
    if isinstance(a, IntegerAttr) and not isinstance(a.value, bool):
        return (a.value,) * 3
    vals = int_values(a)
    return (vals[0], vals[1], vals[2]) if vals is not None and len(vals) == 3 else None


def match(conv: Operation) -> Candidate | Rejected | None:
    """A `ttir.conv3d` reading a zero, symmetric, spatial-only `ttir.pad` (directly or through the
    channel-last permute)."""
    x = inputs(conv)[0]
    perm = producer(x, "ttir.permute")
    pad = producer(inputs(perm)[0] if perm is not None else x, "ttir.pad")
    if pad is None:
        return None
    padded = pad.results[0]
    if not one_use(padded) or (perm is not None and not one_use(x)):
        return Rejected(NAME, conv, "the pad has other users")
    mode = getattr(conv.properties.get("padding_mode"), "value", "zeros")
    if mode != "zeros":
        return Rejected(NAME, conv, f'the conv pads in mode "{mode}", not "zeros"')
    if float(getattr(pad.properties.get("value"), "value", 0.0)) != 0.0:
        return Rejected(NAME, conv, "the pad value is not 0")
    rank = len(shape(padded))
    amounts = int_values(pad.properties.get("padding"))
    order = list(int_values(perm.properties.get("permutation")) or ()) if perm is not None else list(range(rank))
    current = _triple(conv)
    if amounts is None or len(amounts) != 2 * rank or sorted(order) != list(range(rank)) or current is None:
        return None
    # conv input dimension d is pad dimension order[d]
    low = [amounts[2 * order[d]] for d in range(rank)]
    high = [amounts[2 * order[d] + 1] for d in range(rank)]
    if low != high:
        return Rejected(NAME, conv, "the pad is not symmetric")
    if any(low[_dim(conv, n)] != 0 for n in ("batch_dim", "channel_dim")):
        return Rejected(NAME, conv, "the pad pads the batch or channel dimension")
    new = tuple(c + low[_dim(conv, n)] for c, n in zip(current, ("depth_dim", "height_dim", "width_dim")))

    def build(b: Builder) -> Value:
        src = inputs(pad)[0]
        if perm is not None:
            t = src.type.resolve()
            src = b.emit("permute", [src], TensorType(tuple(shape(src)[p] for p in order), t.element_type, t.encoding), **dict(perm.properties))
        out = b.emit("conv3d", [src, *inputs(conv)[1:]], conv.results[0].type, **{**conv.properties, "padding": DenseArrayAttr("i32", new)})
        b.ops[-1].attributes = dict(conv.attributes)
        return out

    return Candidate(NAME, conv, "ttir.conv3d", build, note=f"padding {list(new)}")
