"""TTIR -> TTNN for the multi-device ops, as tt-mlir HEAD's TTIRToTTNN converts them in the same
conversion as the compute ops: one table of

* the collectives, `mesh_partition` and `all_reduce_async`, with HEAD's folds and workarounds
  (sharding/ttnn_collectives.py);
* `mesh_shard` -> `ttnn.distribute_tensor` / `ttnn.aggregate_tensor` (sharding/ttnn_mesh_shard.py);
* `collective_permute`, `all_to_all` -> `ttnn.point_to_point` exchanges (sharding/ttnn_point_to_point.py);
* the mixture-of-experts collectives (ttnn_moe_ops.py);
* the row-major host / DRAM layouts HEAD gives mesh_shard and mesh_partition, with the transfers
  around them (ttnn_mesh_layouts.py);
* `distributed_rms_norm` -> the fused `ttnn.distributed_rms_norm` or its decomposition, as HEAD's
  TTNN decomposition leaves it (ttnn_distributed_rms_norm.py);
* `distributed_layer_norm` -> its decomposition (per-device statistics, their all_gather, the
  normalization), as HEAD's TTNN decomposition always leaves it (ttnn_distributed_layer_norm.py).

The first three are shared with `convert-to-ttnn-ccl`, which converts them on TTIR tensor types.
"""

from __future__ import annotations

from ttopt.lowering.ttnn_distributed_layer_norm import lower_distributed_layer_norm
from ttopt.lowering.ttnn_distributed_rms_norm import lower_distributed_rms_norm
from ttopt.lowering.ttnn_mesh_layouts import MESH_LAYOUT_RULES
from ttopt.lowering.ttnn_moe_ops import MOE_MULTI_RESULT, MOE_RULES
from ttopt.sharding.ttnn_collectives import COLLECTIVE_RULES
from ttopt.sharding.ttnn_mesh_shard import MESH_SHARD_RULES
from ttopt.sharding.ttnn_point_to_point import POINT_TO_POINT_RULES

CCL_RULES = {
    **COLLECTIVE_RULES,
    **MESH_SHARD_RULES,
    **POINT_TO_POINT_RULES,
    **MOE_RULES,
    "distributed_rms_norm": lower_distributed_rms_norm,
    "distributed_layer_norm": lower_distributed_layer_norm,
    **MESH_LAYOUT_RULES,
}
CCL_MULTI_RESULT = MOE_MULTI_RESULT
