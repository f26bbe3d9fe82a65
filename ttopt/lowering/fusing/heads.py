"""`reshape(permute(x, [0, 2, 1, 3]))` merging heads -> `ttir.concatenate_heads` (HEAD's TTIR
ConcatenateHeadsUpdatePattern).

x is [B, H, S, D]; the reshape gives [B, S, H*D] (the op's own result) or [B*S, H*D] (the op's
[B, S, H*D] result, then the reshape to 2-D). The permute may have other readers: it then stays for
them, and the cost check counts it as kept.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ttopt.dialects.ttir import inputs
from ttopt.ir.properties import int_values
from ttopt.ir.types import TensorType
from ttopt.lowering.fusing.match import Builder, Candidate, producer, shape

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation
    from ttopt.ir.values import Value

NAME = "concatenate_heads"


def match(reshape: Operation) -> Candidate | None:
    """The reshape closing a head merge."""
    perm = producer(inputs(reshape)[0], "ttir.permute")
    if perm is None or list(int_values(perm.properties.get("permutation")) or ()) != [0, 2, 1, 3]:
        return None
    x = inputs(perm)[0]
    xs, out = shape(x), shape(reshape.results[0])
    if len(xs) != 4:
        return None
    b, h, s, d = xs
    if out == (b, s, h * d):
        three = None
    elif out == (b * s, h * d):
        three = (b, s, h * d)
    else:
        return None
    t = reshape.results[0].type.resolve()

    def build(bd: Builder) -> Value:
        if three is None:
            return bd.emit("concatenate_heads", [x], reshape.results[0].type)
        y = bd.emit("concatenate_heads", [x], TensorType(three, t.element_type, t.encoding))
        return bd.reshape(y, out)

    return Candidate(NAME, reshape, "ttir.concatenate_heads", build, note=f"{h} heads of {d}")
