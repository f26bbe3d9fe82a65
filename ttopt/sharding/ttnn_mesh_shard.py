"""TTIR `mesh_shard` -> `ttnn.distribute_tensor` / `ttnn.aggregate_tensor`, as tt-mlir HEAD's
MeshShardOpConversionPattern converts it, on the function's one device:

* `full_to_shard` is `ttnn.distribute_tensor(input, device)` with a `#ttnn.mesh_mapper_config`: one
  placement per mesh axis (`<shard, d : i32>` for the tensor dimension the axis shards, else
  `<replicate, -1 : i32>`; all replicate for `replicate`) and the mesh as `mesh_shape_override`.
* `shard_to_full` is `ttnn.aggregate_tensor(input, device)` with a `#ttnn.mesh_composer_config`:
  the dimension each mesh axis concatenates (an unsharded axis takes the last tensor dimension no
  other axis uses, over a sub-mesh of 1) and the sub-mesh shape; `replicate` reads device 0 (`[0]`
  over `[1]`).
* A `devices` or identity mesh_shard whose shard shape has volume 1 is its input (the TTIR folder).
* HEAD has no `identity` shard type: a pre-sharded argument is retyped to its local shape and read
  as it is, and a pre-sharded result is returned as the local value (ShardyToTTIR's presharded
  path). ttopt's convert-to-ttir writes those as `identity` mesh_shards; they lower that way.

An argument read only by mesh_shards stays on the host (row-major system memory), as HEAD's
TTNNLayout leaves it; convert-ttir-to-ttnn gives the other inputs and the results their host
layouts and the transfers around them (lowering/ttnn_mesh_layouts.py).
"""

from __future__ import annotations

from math import prod
from typing import Any

from ttopt.dialects.ttir import inputs
from ttopt.ir.attributes import DialectAttr
from ttopt.ir.properties import int_values
from ttopt.ir.values import BlockArgument
from ttopt.sharding.ttnn_collectives import Emitter, module_mesh


def _enum(attr: Any) -> str:
    """The case of a `#ttcore.shard_type<...>` / `#ttcore.shard_direction<...>` attribute."""
    a = attr.resolve() if hasattr(attr, "resolve") else attr
    text = str(getattr(a, "body", None) or getattr(a, "text", "") or a.print())
    return text.rsplit("<", 1)[-1].rstrip(">").strip()


def _ui32s(values: Any) -> str:
    return ", ".join(f"{int(v)} : ui32" for v in values)


def mapper_config(kind: str, dims: list[int], mesh: tuple[int, int]) -> DialectAttr:
    """The `#ttnn.mesh_mapper_config` of a full_to_shard mesh_shard on `mesh`."""
    if kind == "replicate":
        placements = ["<replicate, -1 : i32>"] * len(mesh)
    else:
        placements = [f"<shard, {d} : i32>" if d >= 0 else f"<replicate, {d} : i32>" for d in dims]
    return DialectAttr("ttnn.mesh_mapper_config", f"placements = [{', '.join(placements)}], mesh_shape_override = [{_ui32s(mesh)}]")


def composer_config(kind: str, dims: list[int], rank: int, mesh: tuple[int, int]) -> DialectAttr:
    """The `#ttnn.mesh_composer_config` of a shard_to_full mesh_shard on `mesh` (a rank-`rank` input)."""
    composer: list[int] = []
    sub_mesh: list[int] = []
    if kind == "replicate":
        composer, sub_mesh = [0], [1]
    else:
        for axis, d in enumerate(dims):
            if d >= 0:
                composer.append(d)
                sub_mesh.append(mesh[axis] if axis < len(mesh) else 1)
            else:
                free = [x for x in range(rank - 1, -1, -1) if x not in dims and x not in composer]
                composer.append(free[0] if free else -1)
                sub_mesh.append(1)
    body = f"dims = [{', '.join(f'{d} : i32' for d in composer)}], mesh_shape_override = [{_ui32s(sub_mesh)}]"
    return DialectAttr("ttnn.mesh_composer_config", body)


def _mesh_shard(lw: Emitter, op: Any) -> Any:
    ins = inputs(op)
    if len(ins) != 1:
        raise ValueError(f"has {len(ins)} operands; it takes one")
    x = ins[0]
    missing = [k for k in ("shard_type", "shard_direction", "shard_shape", "shard_dims") if k not in op.properties]
    if missing:
        raise ValueError(f"needs the attribute(s) {', '.join(missing)}")
    kind = _enum(op.properties["shard_type"])
    direction = _enum(op.properties["shard_direction"])
    shape = [int(v) for v in int_values(op.properties["shard_shape"]) or ()]
    dims = [int(v) for v in int_values(op.properties["shard_dims"]) or ()]
    if kind != "replicate" and prod(shape) == 1:
        return x
    if kind == "identity":
        return _presharded(lw, op, x, direction)
    if kind not in ("replicate", "devices"):
        raise ValueError(f"has shard_type {kind}; HEAD lowers replicate and devices mesh_shards only")
    mesh = module_mesh(lw.module)
    device = lw.get_device()
    if direction == "full_to_shard":
        if isinstance(x, BlockArgument) and x.block is lw.block and all(u.name == "ttir.mesh_shard" for u in x.users):
            x.type = lw.layout_type(x.type, op, host=True)
        return lw.emit("ttnn.distribute_tensor", [x, device], lw.layout_type(op.results[0].type, op),
                       {"mapper_config": mapper_config(kind, dims, mesh)}, op.location)  # fmt: skip
    if direction != "shard_to_full":
        raise ValueError(f"has shard_direction {direction}; expected full_to_shard or shard_to_full")
    rank = len(x.type.resolve().shape)
    returned = any(u.name == "func.return" for u in op.results[0].users)
    return lw.emit("ttnn.aggregate_tensor", [x, device], lw.layout_type(op.results[0].type, op, host=returned),
                   {"composer_config": composer_config(kind, dims, rank, mesh)}, op.location)  # fmt: skip


def _presharded(lw: Emitter, op: Any, x: Any, direction: str) -> Any:
    """An identity mesh_shard: a pre-sharded argument retyped to its local shape, or a pre-sharded
    result returned as its local value."""
    if direction == "full_to_shard":
        if not (isinstance(x, BlockArgument) and x.block is lw.block and all(u is op for u in x.users)):
            raise ValueError("is an identity full_to_shard of a value other than a function argument read only by it; "
                             "HEAD has no identity mesh_shard (a pre-sharded argument is retyped to its local shape)")  # fmt: skip
        x.type = lw.layout_type(op.results[0].type, op)
        return x
    if not all(u.name == "func.return" for u in op.results[0].users):
        raise ValueError("is an identity shard_to_full read by other ops than the function's return; HEAD has no "
                         "identity mesh_shard (a pre-sharded result is returned as its local value)")  # fmt: skip
    return x


MESH_SHARD_RULES = {"mesh_shard": _mesh_shard}
