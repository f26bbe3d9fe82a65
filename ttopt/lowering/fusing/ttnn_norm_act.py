"""`act(rms_norm(x))` as one `ttnn.dit_rms_norm_unary_fused` with `activation = "silu" | "gelu" |
"relu"` (tt-mlir's TTNNRMSNormWithActivation, op-constraint gated).

The activation may read the norm through permutes and reshapes: an elementwise activation commutes
with them, so the fused op replaces the norm and the shape ops stay, now on the activated value.
The norm and every shape op between must have one reader (the chain is linear; the activation is
its only exit). The fused op keeps the norm's operands (input, weight, bias), epsilon, compute
config and result type.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ttopt.ir.attributes import DenseArrayAttr, StringAttr
from ttopt.lowering.fusing.match import one_use, producer
from ttopt.lowering.fusing.ttnn_build import Rejected, TTNNBuilder, TTNNCandidate

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation
    from ttopt.ir.values import Value

ACTIVATIONS = ("ttnn.silu", "ttnn.gelu", "ttnn.relu")
SHAPE_OPS = ("ttnn.permute", "ttnn.reshape")


def match(act: Operation) -> TTNNCandidate | Rejected | None:
    """An activation reached from an `rms_norm` through single-reader permutes and reshapes."""
    v = act.operands[0]
    while True:
        p = producer(v, *SHAPE_OPS)
        if p is None or not one_use(p.results[0]):
            break
        v = p.operands[0]
    norm = producer(v, "ttnn.rms_norm")
    if norm is None:
        return None
    if not one_use(norm.results[0]):
        return Rejected("rms_norm_activation", act, "the rms_norm result has other readers")
    kind = act.name.split(".", 1)[1]
    seg = norm.properties.get("operandSegmentSizes")
    counts = list(getattr(seg, "values", ()) or ()) if seg is not None else []
    if len(counts) != 3:
        counts = [1, 1 if len(norm.operands) > 1 else 0, 1 if len(norm.operands) > 2 else 0]

    def build(b: TTNNBuilder) -> Value:
        props: dict[str, Any] = {k: norm.properties[k] for k in ("epsilon", "compute_config") if k in norm.properties}
        props["activation"] = StringAttr(kind)
        props["operandSegmentSizes"] = DenseArrayAttr("i32", (*counts, 0))
        return b.emit("ttnn.dit_rms_norm_unary_fused", list(norm.operands), norm.results[0].type, props)

    return TTNNCandidate("rms_norm_activation", act, "ttnn.dit_rms_norm_unary_fused", [norm], build, extra={"replaces": norm})
