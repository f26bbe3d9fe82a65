"""TTIR -> TTNN for the collective and distributed ops a tensor-parallel model holds in its body
(tt-mlir's TTIRToTTNN patterns, as HEAD converts them in the same conversion as the compute ops):

| TTIR | TTNN | attributes |
|---|---|---|
| `mesh_partition` | `ttnn.mesh_partition` | `dim`, `cluster_axis` |
| `all_reduce` | `ttnn.all_reduce` | `reduce_type`, `cluster_axis` |
| `all_gather` | `ttnn.all_gather` | `all_gather_dim`, `cluster_axis` |
| `reduce_scatter` | `ttnn.reduce_scatter` | `reduce_type`, `scatter_dim`, `cluster_axis` |
| `distributed_rms_norm` | `ttnn.distributed_rms_norm` (input, weight?, residual?, device) | `cluster_axis`, `epsilon` |

HEAD's collectives take no device operand and leave `num_links`, `topology` and `sub_device_id`
unset; `distributed_rms_norm` gets the function's device and no stats buffer or semaphore (HEAD
allocates those later). A module the sharding pipeline produced has these ops converted already
by `convert-to-ttnn-ccl`; this covers the ones it does not reach (functions nested in a
`ttcore.device_module`, as tt-mlir's model files are).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ttopt.dialects.ttir import inputs
from ttopt.ir.attributes import DenseArrayAttr
from ttopt.ir.properties import int_values

if TYPE_CHECKING:
    from ttopt.lowering.ttir_to_ttnn import _Lowering


def _collective(name: str, keys: tuple[str, ...]) -> Any:
    """TTIR collective -> the TTNN op `name` on its one input, copying the required attributes."""

    def rule(lw: _Lowering, op: Any) -> Any:
        ins = inputs(op)
        if len(ins) != 1:
            raise ValueError(f"has {len(ins)} operands; {name} takes one")
        missing = [k for k in keys if k not in op.properties]
        if missing:
            raise ValueError(f"needs the attribute(s) {', '.join(missing)}")
        properties = {k: op.properties[k] for k in keys}
        return lw.emit(name, ins, lw.layout_type(op.results[0].type, op), properties, op.location)

    return rule


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
    "mesh_partition": _collective("ttnn.mesh_partition", ("dim", "cluster_axis")),
    "all_reduce": _collective("ttnn.all_reduce", ("reduce_type", "cluster_axis")),
    "all_gather": _collective("ttnn.all_gather", ("all_gather_dim", "cluster_axis")),
    "reduce_scatter": _collective("ttnn.reduce_scatter", ("reduce_type", "scatter_dim", "cluster_axis")),
    "distributed_rms_norm": _distributed_rms_norm,
}
