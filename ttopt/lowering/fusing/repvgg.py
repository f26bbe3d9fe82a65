"""conv3x3(x) + conv1x1(x) -> one 3x3 conv on the summed weights and biases (HEAD's
RepVGGConvSumFusionPattern, the RepVGG re-parameterisation YOLOv9 uses).

Preconditions, as HEAD: both add operands are `ttir.conv2d`s read only by the add, on the same
input; one has a 3x3 kernel and padding 1 everywhere, the other a 1x1 kernel and padding 0
everywhere; their stride, dilation and groups are the same attributes. The 1x1 weight is padded
with zeros to 3x3 (location `<1x1 conv>_pad`) and added to the 3x3 weight (`<3x3 conv>_weight_add`);
the biases are added (`_bias_add`) when both convs have one, else the 1x1's bias is taken when only
it has one. The 3x3 conv keeps its location and attributes, as HEAD rewrites it in place.

ttir-to-ttir-decomposition runs first here, so channels-first convs are read through the permutes
around them: both convs must then read permutes of the same value by the same permutation and be
read through the same permutation, which follows the new conv.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ttopt.dialects.ttir import inputs
from ttopt.ir.attributes import DenseArrayAttr, IntegerAttr
from ttopt.ir.properties import int_values
from ttopt.ir.types import TensorType
from ttopt.lowering.fusing.conv import conv_behind, conv_with
from ttopt.lowering.fusing.match import Builder, Candidate, Rejected, f32_attr, producer, shape
from ttopt.lowering.ttnn_op_validation import suffixed_location

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation
    from ttopt.ir.values import Value

NAME = "repvgg_conv_sum"


def _text(op: Operation, name: str) -> str | None:
    a = op.properties.get(name)
    return a.resolve().print() if a is not None else None


def _padded_by(conv: Operation, amount: int) -> bool:
    a = conv.properties.get("padding")
    a = a.resolve() if a is not None else None
    if isinstance(a, IntegerAttr):
        return a.value == amount
    return isinstance(a, DenseArrayAttr) and all(v == amount for v in int_values(a) or (None,))


def _kernel(conv: Operation, k: int) -> bool:
    s = shape(inputs(conv)[1])
    return len(s) == 4 and s[2] == k and s[3] == k


def _pair(c1: Operation, c2: Operation) -> bool:
    """c1 is the 3x3 conv with padding 1, c2 the 1x1 with padding 0, both strided, dilated and grouped alike."""
    return (_kernel(c1, 3) and _kernel(c2, 1) and _padded_by(c1, 1) and _padded_by(c2, 0)
            and all(_text(c1, k) == _text(c2, k) for k in ("stride", "dilation", "groups")))  # fmt: skip


def _source(conv: Operation) -> tuple[Value, str | None]:
    """The conv's input, through the permute a channels-first conv is decomposed into (with its permutation)."""
    x = inputs(conv)[0]
    p = producer(x, "ttir.permute")
    return (inputs(p)[0], _text(p, "permutation")) if p is not None else (x, None)


def match(add: Operation) -> Candidate | Rejected | None:
    """add(conv2d 3x3, conv2d 1x1) of one input -> conv2d 3x3 on the padded-and-summed weights."""
    lhs, rhs = inputs(add)[:2]
    a, b = conv_behind(lhs, ("ttir.conv2d",)), conv_behind(rhs, ("ttir.conv2d",))
    if a is None or b is None:
        return None
    if isinstance(a, str) or isinstance(b, str):
        return Rejected(NAME, add, "a conv has other users")
    (ca, pa), (cb, pb) = a, b
    if (_text(pa, "permutation") if pa else None) != (_text(pb, "permutation") if pb else None):
        return Rejected(NAME, add, "the convs are read through different permutes")
    sa, sb = _source(ca), _source(cb)
    if sa[0] is not sb[0] or sa[1] != sb[1]:
        return Rejected(NAME, add, "the convs have different inputs")
    if _pair(ca, cb):
        big, small = ca, cb
    elif _pair(cb, ca):
        big, small = cb, ca
    else:
        return Rejected(NAME, add, "not a 3x3 conv with padding 1 and a 1x1 conv with padding 0 of one stride, dilation and groups")
    perm = pa

    def build(bld: Builder) -> Value:
        w1 = inputs(small)[1]
        t = w1.type.resolve()
        padded = bld.emit("pad", [w1], TensorType((*shape(w1)[:2], 3, 3), t.element_type, t.encoding),
                          padding=DenseArrayAttr("i32", (0, 0, 0, 0, 1, 1, 1, 1)), value=f32_attr(0.0))  # fmt: skip
        bld.ops[-1].location = suffixed_location(small.location, "_pad")
        w3 = inputs(big)[1]
        weight = bld.emit("add", [padded, w3], w3.type)
        bld.ops[-1].location = suffixed_location(big.location, "_weight_add")
        b3, b1 = inputs(big)[2:3], inputs(small)[2:3]
        bias = b3[0] if b3 else None
        if b3 and b1:
            bias = bld.emit("add", [b3[0], b1[0]], b3[0].type)
            bld.ops[-1].location = suffixed_location(big.location, "_bias_add")
        elif b1:
            bias = b1[0]
        return conv_with(bld, big, perm, weight, bias)

    return Candidate(NAME, add, "ttir.conv2d", build, note="1x1 weight padded into the 3x3")
