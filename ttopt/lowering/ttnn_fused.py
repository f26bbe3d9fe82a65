"""TTIR -> TTNN for the fused ops `ttir-fusing` makes that need more than a rename (tt-mlir's
TTIRToTTNN patterns):

| TTIR | TTNN |
|---|---|
| `scaled_dot_product_attention` with Sq > 1 | `ttnn.scaled_dot_product_attention`, same operands and attributes (`is_causal`, `scale`, `sliding_window_size`, operand segments); a [.., 1, Sk] mask is first repeated to [.., Sq, Sk], as the kernel cannot broadcast the query dimension |

The decode form (Sq == 1, `ttnn.scaled_dot_product_attention_decode` with permuted operands) is not
lowered: an error at the op.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ttopt.dialects.ttir import inputs
from ttopt.ir.attributes import DenseArrayAttr, DialectAttr
from ttopt.ir.properties import int_values
from ttopt.ir.types import TensorType

if TYPE_CHECKING:
    from ttopt.lowering.ttir_to_ttnn import _Lowering


def _sdpa(lw: _Lowering, op: Any) -> Any:
    seg = list(int_values(op.properties.get("operandSegmentSizes")) or ())
    ins = inputs(op)
    if len(seg) != 5 or sum(seg) != len(ins) or seg[:3] != [1, 1, 1]:
        raise ValueError("needs operandSegmentSizes (query, key, value, attention_mask, attention_sink) matching its operands")
    q = tuple(ins[0].type.resolve().shape)
    if len(q) != 4 or q[2] == 1:
        raise ValueError("with a query sequence of 1 lowers to ttnn.scaled_dot_product_attention_decode, which ttopt does not emit")
    operands = list(ins)
    if seg[3]:
        mask = operands[3]
        ms = tuple(mask.type.resolve().shape)
        if len(ms) == 4 and ms[2] == 1:
            full = (ms[0], ms[1], q[2], ms[3])
            rt = lw.layout_type(TensorType(full, mask.type.resolve().element_type), op)
            dims = "x".join(str(q[2] if i == 2 else 1) for i in range(4))
            operands[3] = lw.emit("ttnn.repeat", [mask], rt, {"repeat_dims": DialectAttr("ttnn.shape", dims)}, op.location)
    properties = {k: op.properties[k] for k in ("is_causal", "scale", "sliding_window_size") if k in op.properties}
    properties["operandSegmentSizes"] = DenseArrayAttr("i32", tuple(seg))
    return lw.emit("ttnn.scaled_dot_product_attention", operands, lw.layout_type(op.results[0].type, op), properties, op.location)


FUSED_RULES = {"scaled_dot_product_attention": _sdpa}
