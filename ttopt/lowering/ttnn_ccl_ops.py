"""TTIR -> TTNN for the collectives and distributed ops, as tt-mlir HEAD's TTIRToTTNN converts them
in the same conversion as the compute ops, with the folds and the workarounds HEAD applies to them
right after:

| TTIR | TTNN | attributes |
|---|---|---|
| `mesh_partition` | `ttnn.mesh_partition` | `dim`, `cluster_axis` |
| `all_reduce`, `all_reduce_async` | `ttnn.all_reduce`, `ttnn.all_reduce_async` | `reduce_type`, `cluster_axis` |
| `all_gather` | `ttnn.all_gather` | `all_gather_dim`, `cluster_axis` |
| `reduce_scatter` | `ttnn.reduce_scatter` | `reduce_type`, `scatter_dim`, `cluster_axis`, `compute_config` |
| `distributed_rms_norm` | `ttnn.distributed_rms_norm` (input, weight?, residual?, device) | `cluster_axis`, `epsilon` |

HEAD's collectives take no device operand and leave `num_links`, `topology` and `sub_device_id`
unset. Folds (the TTNN ops' folders): `all_gather`, `reduce_scatter` and `all_reduce` over a
cluster axis of one device are their input (all_gather and reduce_scatter only when the shape does
not change). Workarounds (TTNNWorkarounds' decompositions): a rank-1 `all_gather` runs on `[1, n]`;
`all_reduce` and `reduce_scatter` below rank 4 run on the shape padded with leading 1s to rank 4
(the scatter dimension shifted); each between two `ttnn.reshape`s; `reduce_scatter` gets the
fp32-accumulating HiFi4 compute config. `distributed_rms_norm` gets the function's device and no
stats buffer or semaphore (HEAD allocates those later).

`CCL_RULES` also holds the mesh_shard (ttnn_mesh_shard.py), point-to-point (collective_permute,
all_to_all: ttnn_point_to_point.py) and mixture-of-experts (ttnn_moe_ops.py) conversions, so the
multi-device part of the conversion is one table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ttopt.dialects.ttir import inputs
from ttopt.ir.attributes import DenseArrayAttr, DialectAttr, IntegerAttr
from ttopt.ir.properties import int_values
from ttopt.ir.types import ScalarType, TensorType
from ttopt.lowering.ttcore_device import module_mesh
from ttopt.lowering.ttnn_mesh_shard import MESH_SHARD_RULES
from ttopt.lowering.ttnn_moe_ops import MOE_MULTI_RESULT, MOE_RULES
from ttopt.lowering.ttnn_point_to_point import POINT_TO_POINT_RULES

if TYPE_CHECKING:
    from ttopt.lowering.ttir_to_ttnn import _Lowering

SI32 = ScalarType("si32")
# ReduceScatterConfigRewritePattern's config: HiFi4 with fp32 accumulation in the destination.
REDUCE_SCATTER_CONFIG = DialectAttr(
    "ttnn.device_compute_kernel_config", "math_fidelity = hifi4, math_approx_mode = false, fp32_dest_acc_en = true, packer_l1_acc = false"
)


def _one_input(op: Any) -> Any:
    ins = inputs(op)
    if len(ins) != 1:
        raise ValueError(f"has {len(ins)} operands; it takes one")
    return ins[0]


def _require(op: Any, keys: tuple[str, ...]) -> dict[str, Any]:
    missing = [k for k in keys if k not in op.properties]
    if missing:
        raise ValueError(f"needs the attribute(s) {', '.join(missing)}")
    return {k: op.properties[k] for k in keys}


def _axis_size(lw: _Lowering, op: Any, props: dict[str, Any]) -> int:
    """How many devices the op's cluster axis spans on the program's mesh."""
    axis = int(props["cluster_axis"].value)
    mesh = module_mesh(lw.module)
    if not 0 <= axis < len(mesh):
        raise ValueError(f"has cluster_axis {axis}; the {'x'.join(map(str, mesh))} mesh has axes 0 and 1")
    return mesh[axis]


def _shape(v: Any) -> tuple[int, ...]:
    t = v.type.resolve() if hasattr(v.type, "resolve") else v.type
    return tuple(int(d) for d in t.shape)


def _padded(lw: _Lowering, op: Any, name: str, x: Any, rank: int, props: dict[str, Any], dim_key: str | None) -> Any:
    """`name` on `x` reshaped to `rank` (leading 1s), then reshaped back to the op's result shape."""
    out_shape = _shape(op.results[0])
    lead = rank - len(_shape(x))
    x4 = lw.reshape(x, (1,) * lead + _shape(x), op, op.location)
    if dim_key is not None:
        d = int(props[dim_key].value)
        props = {**props, dim_key: IntegerAttr((d + len(out_shape) if d < 0 else d) + lead, SI32)}
    t = op.results[0].type.resolve()
    y = lw.emit(name, [x4], lw.layout_type(TensorType((1,) * lead + out_shape, t.element_type), op), _sorted(props), op.location)
    return lw.reshape(y, out_shape, op, op.location)


def _sorted(props: dict[str, Any]) -> dict[str, Any]:
    return dict(sorted(props.items()))


def _all_gather(lw: _Lowering, op: Any) -> Any:
    x = _one_input(op)
    props = _require(op, ("all_gather_dim", "cluster_axis"))
    if _axis_size(lw, op, props) == 1 and _shape(x) == _shape(op.results[0]):
        return x
    if len(_shape(x)) == 1:
        return _padded(lw, op, "ttnn.all_gather", x, 2, props, "all_gather_dim")
    return lw.emit("ttnn.all_gather", [x], lw.layout_type(op.results[0].type, op), _sorted(props), op.location)


def _all_reduce(lw: _Lowering, op: Any) -> Any:
    x = _one_input(op)
    props = _require(op, ("reduce_type", "cluster_axis"))
    if _axis_size(lw, op, props) == 1:
        return x
    if len(_shape(x)) < 4:
        return _padded(lw, op, "ttnn.all_reduce", x, 4, props, None)
    return lw.emit("ttnn.all_reduce", [x], lw.layout_type(op.results[0].type, op), _sorted(props), op.location)


def _all_reduce_async(lw: _Lowering, op: Any) -> Any:
    x = _one_input(op)
    props = _require(op, ("reduce_type", "cluster_axis"))
    _axis_size(lw, op, props)
    return lw.emit("ttnn.all_reduce_async", [x], lw.layout_type(op.results[0].type, op), _sorted(props), op.location)


def _reduce_scatter(lw: _Lowering, op: Any) -> Any:
    x = _one_input(op)
    props = _require(op, ("reduce_type", "scatter_dim", "cluster_axis"))
    if _axis_size(lw, op, props) == 1 and _shape(x) == _shape(op.results[0]):
        return x
    props["compute_config"] = REDUCE_SCATTER_CONFIG
    if len(_shape(x)) < 4:
        return _padded(lw, op, "ttnn.reduce_scatter", x, 4, props, "scatter_dim")
    return lw.emit("ttnn.reduce_scatter", [x], lw.layout_type(op.results[0].type, op), _sorted(props), op.location)


def _mesh_partition(lw: _Lowering, op: Any) -> Any:
    x = _one_input(op)
    props = _require(op, ("dim", "cluster_axis"))
    return lw.emit("ttnn.mesh_partition", [x], lw.layout_type(op.results[0].type, op), _sorted(props), op.location)


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
    "mesh_partition": _mesh_partition,
    "all_reduce": _all_reduce,
    "all_reduce_async": _all_reduce_async,
    "all_gather": _all_gather,
    "reduce_scatter": _reduce_scatter,
    "distributed_rms_norm": _distributed_rms_norm,
    **MESH_SHARD_RULES,
    **POINT_TO_POINT_RULES,
    **MOE_RULES,
}
CCL_MULTI_RESULT = MOE_MULTI_RESULT
