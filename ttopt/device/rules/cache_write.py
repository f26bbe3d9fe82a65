"""The in-place KV-cache writes (`ttnn.fill_cache`, `paged_fill_cache`, `update_cache`,
`paged_update_cache`): their cost.

They have no result: each copies its input (operand 1) into the cache (operand 0), so it is costed
as a data-movement stream of the input's tiles, read in the input's layout and written in the
cache's. The page table and indices they also read are a few pages and are not counted.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ttopt.device.layout_info import layout_info, tensor_tiles
from ttopt.device.rules.common import value_layout

if TYPE_CHECKING:
    from ttopt.device.cost_model import CostModel, OpCost

CACHE_WRITES = frozenset({"ttnn.fill_cache", "ttnn.paged_fill_cache", "ttnn.update_cache", "ttnn.paged_update_cache"})



def cache_write_cost(model: CostModel, op: Any) -> OpCost:
    """Estimated ns of one cache write: its input's tiles streamed into the cache's layout."""
    if len(op.operands) < 2:
        raise ValueError(f"{op.name} needs a cache and an input")
    cache, x = op.operands[0], op.operands[1]
    shape = tuple(int(d) for d in x.type.resolve().shape)
    src, dst = (layout_info(value_layout(v, "a cache operand")) for v in (x, cache))
    return model._stream("data_movement", tensor_tiles(shape), [shape], (src,), shape, dst)
