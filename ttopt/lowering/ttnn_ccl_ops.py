"""TTIR -> TTNN for the multi-device ops, as tt-mlir HEAD's TTIRToTTNN converts them in the same
conversion as the compute ops: one table of

* the collectives, `mesh_partition` and `all_reduce_async`, with HEAD's folds and workarounds
  (sharding/ttnn_collectives.py);
* `mesh_shard` -> `ttnn.distribute_tensor` / `ttnn.aggregate_tensor` (sharding/ttnn_mesh_shard.py);
* `collective_permute`, `all_to_all` -> `ttnn.point_to_point` exchanges (sharding/ttnn_point_to_point.py);
* the mixture-of-experts collectives (ttnn_moe_ops.py);
* the row-major host / DRAM layouts HEAD gives mesh_shard and mesh_partition, with the transfers
  around them (ttnn_mesh_layouts.py);
* `distributed_rms_norm` -> `ttnn.distributed_rms_norm` (input, weight?, residual?, device) with
  `cluster_axis` and `epsilon`: the function's device and no stats buffer or semaphore (HEAD
  allocates those later).

The first three are shared with `convert-to-ttnn-ccl`, which converts them on TTIR tensor types.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ttopt.dialects.ttir import inputs
from ttopt.ir.attributes import DenseArrayAttr
from ttopt.ir.properties import int_values
from ttopt.lowering.ttnn_mesh_layouts import MESH_LAYOUT_RULES
from ttopt.lowering.ttnn_moe_ops import MOE_MULTI_RESULT, MOE_RULES
from ttopt.sharding.ttnn_collectives import COLLECTIVE_RULES
from ttopt.sharding.ttnn_mesh_shard import MESH_SHARD_RULES
from ttopt.sharding.ttnn_point_to_point import POINT_TO_POINT_RULES

if TYPE_CHECKING:
    from ttopt.lowering.ttir_to_ttnn import _Lowering


def _distributed_rms_norm(lw: _Lowering, op: Any) -> Any:
    ins = inputs(op)
    seg = list(int_values(op.properties.get("operandSegmentSizes")) or ())
    if len(seg) != 3 or seg[0] != 1 or sum(seg) != len(ins) or max(seg) > 1:
        raise ValueError("needs operandSegmentSizes (input, weight, residual) matching its operands")
    if "cluster_axis" not in op.properties:
        raise ValueError("needs the attribute cluster_axis")
    properties = {k: op.properties[k] for k in ("cluster_axis", "epsilon") if k in op.properties}
    properties["operandSegmentSizes"] = DenseArrayAttr("i32", (1, seg[1], seg[2], 0, 0, 1))
    return lw.emit("ttnn.distributed_rms_norm", [*ins, lw.get_device()], lw.layout_type(op.results[0].type, op),
                   properties, op.location)  # fmt: skip


CCL_RULES = {
    **COLLECTIVE_RULES,
    **MESH_SHARD_RULES,
    **POINT_TO_POINT_RULES,
    **MOE_RULES,
    "distributed_rms_norm": _distributed_rms_norm,
    **MESH_LAYOUT_RULES,
}
CCL_MULTI_RESULT = MOE_MULTI_RESULT
