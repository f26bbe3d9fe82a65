"""TTIR collectives -> TTNN, as tt-mlir HEAD's TTIRToTTNN converts them, with the folds and the
workarounds HEAD applies to them right after; shared by `convert-to-ttnn-ccl` (TTIR tensor types)
and `convert-ttir-to-ttnn` (TTNN layouts), which differ only in the `Emitter` they pass:

| TTIR | TTNN | attributes |
|---|---|---|
| `mesh_partition` | `ttnn.mesh_partition` | `dim`, `cluster_axis` |
| `all_reduce`, `all_reduce_async` | `ttnn.all_reduce`, `ttnn.all_reduce_async` | `reduce_type`, `cluster_axis` |
| `all_reduce` of max / min | `ttnn.all_gather` along a new leading dimension, then `ttnn.max` / `ttnn.min` over it (TTNN's all_reduce sums only) | `cluster_axis` |
| `all_gather` | `ttnn.all_gather` | `all_gather_dim`, `cluster_axis` |
| `reduce_scatter` | `ttnn.reduce_scatter` | `reduce_type`, `scatter_dim`, `cluster_axis`, `compute_config` |

HEAD's collectives take no device operand and leave `num_links`, `topology` and `sub_device_id`
unset. Folds (the TTNN ops' folders): `all_gather`, `reduce_scatter` and `all_reduce` over a
cluster axis of one device are their input (all_gather and reduce_scatter only when the shape does
not change). Workarounds (TTNNWorkarounds' decompositions): a rank-1 `all_gather` runs on `[1, n]`;
`all_reduce` and `reduce_scatter` below rank 4 run on the shape padded with leading 1s to rank 4
(the scatter dimension shifted); each between two `ttnn.reshape`s; `reduce_scatter` gets the
fp32-accumulating HiFi4 compute config.
"""

from __future__ import annotations

import re
from typing import Any, Protocol

from ttopt.dialects.ttir import inputs
from ttopt.ir.attributes import ArrayAttr, BoolAttr, DialectAttr, IntegerAttr
from ttopt.ir.types import ScalarType, TensorType

SI32 = ScalarType("si32")
I32 = ScalarType("i32")
MESH_SHAPE = re.compile(r"meshShape\s*=\s*(\d+(?:x\d+)*)")
# ReduceScatterConfigRewritePattern's config: HiFi4 with fp32 accumulation in the destination.
REDUCE_SCATTER_CONFIG = DialectAttr(
    "ttnn.device_compute_kernel_config", "math_fidelity = hifi4, math_approx_mode = false, fp32_dest_acc_en = true, packer_l1_acc = false"
)


class Emitter(Protocol):
    """Where a conversion writes the TTNN ops of one block, and the types it gives them."""

    module: Any
    block: Any

    def emit(self, name: str, operands: list[Any], result_type: Any, properties: dict[str, Any] | None = None,
             location: Any = None) -> Any: ...  # fmt: skip

    def layout_type(self, t: Any, op: Any, host: bool = False) -> Any: ...

    def get_device(self) -> Any: ...

    def reshape(self, v: Any, shape: tuple[int, ...], like: Any, loc: Any) -> Any: ...


def module_mesh(module: Any) -> tuple[int, int]:
    """The program's device mesh as (rows, cols): the module's `ttcore.meshes` (the sharding
    pipeline's, or the backend pipeline's mesh-shape), else the `meshShape` of its registered
    `ttcore.device` (what tt-mlir's lookupDevice reads), else (1, 1), a single device."""
    attr = module.op.attributes.get("ttcore.meshes")
    typed = getattr(attr.resolve(), "typed", None) if attr is not None else None
    meshes = getattr(typed, "meshes", ()) if typed is not None else ()
    if meshes:
        shape = [int(d) for d in meshes[0].shape]
    else:
        shape = _device_mesh(module)
    if not shape:
        return (1, 1)
    return (1, shape[0]) if len(shape) == 1 else (shape[0], shape[1])


def _device_mesh(module: Any) -> list[int]:
    """The `meshShape` of the module's `ttcore.device` symbol ([] without one, or unshaped)."""
    for op in module.op.walk():
        if op.name == "ttcore.device":
            attr = op.properties.get("device_attr") or op.attributes.get("device_attr")
            body = getattr(attr.resolve(), "body", "") if attr is not None else ""
            m = MESH_SHAPE.search(body or "")
            return [int(d) for d in m.group(1).split("x")] if m else []
    return []


def linear_to_coord(device: int, mesh: tuple[int, int]) -> tuple[int, int]:
    """A device's (row, col) on the mesh from its row-major linear id (tt-mlir's linearIdToCoord)."""
    return (device // mesh[1], device % mesh[1])


def one_input(op: Any) -> Any:
    """The op's single tensor operand (a ValueError otherwise)."""
    ins = inputs(op)
    if len(ins) != 1:
        raise ValueError(f"has {len(ins)} operands; it takes one")
    return ins[0]


def _require(op: Any, keys: tuple[str, ...]) -> dict[str, Any]:
    missing = [k for k in keys if k not in op.properties]
    if missing:
        raise ValueError(f"needs the attribute(s) {', '.join(missing)}")
    return {k: op.properties[k] for k in keys}


def _axis_size(em: Emitter, props: dict[str, Any]) -> int:
    """How many devices the op's cluster axis spans on the program's mesh."""
    axis = int(props["cluster_axis"].value)
    mesh = module_mesh(em.module)
    if not 0 <= axis < len(mesh):
        raise ValueError(f"has cluster_axis {axis}; the {'x'.join(map(str, mesh))} mesh has axes 0 and 1")
    return mesh[axis]


def _shape(v: Any) -> tuple[int, ...]:
    t = v.type.resolve() if hasattr(v.type, "resolve") else v.type
    return tuple(int(d) for d in t.shape)


def _sorted(props: dict[str, Any]) -> dict[str, Any]:
    return dict(sorted(props.items()))


def _padded(em: Emitter, op: Any, name: str, x: Any, rank: int, props: dict[str, Any], dim_key: str | None) -> Any:
    """`name` on `x` reshaped to `rank` (leading 1s), then reshaped back to the op's result shape."""
    out_shape = _shape(op.results[0])
    lead = rank - len(_shape(x))
    padded = em.reshape(x, (1,) * lead + _shape(x), op, op.location)
    if dim_key is not None:
        d = int(props[dim_key].value)
        props = {**props, dim_key: IntegerAttr((d + len(out_shape) if d < 0 else d) + lead, SI32)}
    t = op.results[0].type.resolve()
    y = em.emit(name, [padded], em.layout_type(TensorType((1,) * lead + out_shape, t.element_type), op), _sorted(props), op.location)
    return em.reshape(y, out_shape, op, op.location)


def _all_gather(em: Emitter, op: Any) -> Any:
    x = one_input(op)
    props = _require(op, ("all_gather_dim", "cluster_axis"))
    if _axis_size(em, props) == 1 and _shape(x) == _shape(op.results[0]):
        return x
    if len(_shape(x)) == 1:
        return _padded(em, op, "ttnn.all_gather", x, 2, props, "all_gather_dim")
    return em.emit("ttnn.all_gather", [x], em.layout_type(op.results[0].type, op), _sorted(props), op.location)


def _all_reduce(em: Emitter, op: Any) -> Any:
    x = one_input(op)
    props = _require(op, ("reduce_type", "cluster_axis"))
    if _axis_size(em, props) == 1:
        return x
    kind = props["reduce_type"].text.rsplit("<", 1)[-1].rstrip(">")
    if kind in ("max", "min"):
        return _gathered_reduction(em, op, x, props, kind)
    if len(_shape(x)) < 4:
        return _padded(em, op, "ttnn.all_reduce", x, 4, props, None)
    return em.emit("ttnn.all_reduce", [x], em.layout_type(op.results[0].type, op), _sorted(props), op.location)


def _gathered_reduction(em: Emitter, op: Any, x: Any, props: dict[str, Any], kind: str) -> Any:
    """A max / min all-reduce as TTNN can run it (its all_reduce sums only: HEAD's verifier and
    tt-metal): every device's tensor gathered along a new leading dimension, then reduced over it."""
    shape, n = _shape(x), _axis_size(em, props)
    t = op.results[0].type.resolve()
    stacked = em.reshape(x, (1, *shape), op, op.location)
    gathered = em.emit("ttnn.all_gather", [stacked], em.layout_type(TensorType((n, *shape), t.element_type), op),
                       _sorted({"all_gather_dim": IntegerAttr(0, SI32), "cluster_axis": props["cluster_axis"]}), op.location)  # fmt: skip
    return em.emit(f"ttnn.{kind}", [gathered], em.layout_type(op.results[0].type, op),
                   {"dim_arg": ArrayAttr((IntegerAttr(0, I32),)), "keep_dim": BoolAttr(False)}, op.location)  # fmt: skip


def _all_reduce_async(em: Emitter, op: Any) -> Any:
    x = one_input(op)
    props = _require(op, ("reduce_type", "cluster_axis"))
    _axis_size(em, props)
    return em.emit("ttnn.all_reduce_async", [x], em.layout_type(op.results[0].type, op), _sorted(props), op.location)


def _reduce_scatter(em: Emitter, op: Any) -> Any:
    x = one_input(op)
    props = _require(op, ("reduce_type", "scatter_dim", "cluster_axis"))
    if _axis_size(em, props) == 1 and _shape(x) == _shape(op.results[0]):
        return x
    props["compute_config"] = REDUCE_SCATTER_CONFIG
    if len(_shape(x)) < 4:
        return _padded(em, op, "ttnn.reduce_scatter", x, 4, props, "scatter_dim")
    return em.emit("ttnn.reduce_scatter", [x], em.layout_type(op.results[0].type, op), _sorted(props), op.location)


def _mesh_partition(em: Emitter, op: Any) -> Any:
    x = one_input(op)
    props = _require(op, ("dim", "cluster_axis"))
    return em.emit("ttnn.mesh_partition", [x], em.layout_type(op.results[0].type, op), _sorted(props), op.location)


COLLECTIVE_RULES = {
    "mesh_partition": _mesh_partition,
    "all_reduce": _all_reduce,
    "all_reduce_async": _all_reduce_async,
    "all_gather": _all_gather,
    "reduce_scatter": _reduce_scatter,
}
