"""The conv weight and bias preparations (`ttnn.prepare_conv2d_weights` / `_bias`,
`ttnn.prepare_conv_transpose2d_weights` / `_bias`): their cost.

No op-model family places them: they run once, in a const-eval function when the weight is a
parameter. Module estimates cost each as a data-movement stream of its result's tiles, reading the
weight in its layout (host, row-major) and writing the prepared tensor in its own (DRAM tiles).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ttopt.device.layout_info import layout_info, tensor_tiles
from ttopt.device.rules.common import value_layout

if TYPE_CHECKING:
    from ttopt.device.cost_model import CostModel, OpCost

WEIGHT_PREPARATIONS = frozenset({"ttnn.prepare_conv2d_weights", "ttnn.prepare_conv2d_bias",
                                 "ttnn.prepare_conv_transpose2d_weights", "ttnn.prepare_conv_transpose2d_bias"})  # fmt: skip



def preparation_cost(model: CostModel, op: Any) -> OpCost:
    """Estimated ns of one weight preparation: the weight streamed into the prepared layout."""
    if not op.operands or len(op.results) != 1:
        raise ValueError(f"{op.name} needs a weight and one result")
    w, out = op.operands[0], op.results[0]
    shape = tuple(int(d) for d in w.type.resolve().shape)
    out_shape = tuple(int(d) for d in out.type.resolve().shape)
    src, dst = (layout_info(value_layout(v, "a weight preparation tensor")) for v in (w, out))
    return model._stream("data_movement", tensor_tiles(out_shape), [shape], (src,), out_shape, dst)
