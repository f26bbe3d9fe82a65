"""`ttnn.moe_gpt` (the fused GPT-OSS mixture-of-experts step): its cost.

No op-model family places it (HEAD's workaround fixes its layouts). Module estimates cost it as
what bounds it in decode: every operand read once in its layout (the expert weights dominate) and
its largest result (the tilized activations) written, streamed as data movement over the weights'
tiles. The expert matmuls' compute, which overlaps those reads, is not added.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ttopt.device.layout_info import layout_info, tensor_tiles
from ttopt.device.rules.common import value_layout
from ttopt.ir.types import TensorType

if TYPE_CHECKING:
    from ttopt.device.cost_model import CostModel, OpCost

MOE_GPT = "ttnn.moe_gpt"



def _shape(v: Any) -> tuple[int, ...]:
    return tuple(int(d) for d in v.type.resolve().shape)


def moe_gpt_cost(model: CostModel, op: Any) -> OpCost:
    """Estimated ns of one `ttnn.moe_gpt`: its operands read and its largest result written."""
    ins = [v for v in op.operands if isinstance(v.type.resolve(), TensorType)]
    if len(ins) != 6 or not op.results:
        raise ValueError("ttnn.moe_gpt needs six tensor operands and its results")
    out = max(op.results, key=lambda r: tensor_tiles(_shape(r)))
    shapes = [_shape(v) for v in ins]
    work = tensor_tiles(shapes[4]) + tensor_tiles(shapes[5])
    return model._stream("data_movement", work, shapes, tuple(layout_info(value_layout(v, "a ttnn.moe_gpt tensor")) for v in ins), _shape(out), layout_info(value_layout(out, "a ttnn.moe_gpt tensor")))
