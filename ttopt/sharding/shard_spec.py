"""What a `ttir.mesh_shard` needs for one tensor (its shard type, shard_shape and shard_dims) from
an sdy sharding on the tt mesh, and a function's signature refreshed from its entry block and
return once arguments and results take local types: shared by the Shardy conversion
(convert_ttir.py) and the GSPMD one (gspmd_to_ttir.py)."""

from __future__ import annotations

from dataclasses import dataclass
from math import prod
from typing import TYPE_CHECKING, Any

from ttopt.ir.attributes import TypeAttr
from ttopt.ir.types import FunctionType
from ttopt.sharding.diagnostics import fail, op_label
from ttopt.sharding.func_attrs import func_type

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.ir.operation import Operation
    from ttopt.sharding.mesh import Mesh


@dataclass(frozen=True)
class ShardSpec:
    """What a `mesh_shard` needs for one tensor: type, shard_shape, shard_dims."""

    kind: str  # devices | replicate | maximal | identity
    shape: tuple[int, ...]
    dims: tuple[int, ...]


def shard_spec(module: Module, op: Operation, mesh: Mesh, s: Any, what: str) -> ShardSpec:
    """ref §4.3: shard_shape per tensor dim, shard_dims per tt mesh axis."""
    if not mesh.shape:
        return ShardSpec("maximal" if mesh.attr.device_ids else "replicate", (1,), (-1,))
    shape = []
    axis_dim: dict[str, int] = {}
    for d, ds in enumerate(s.dim_shardings):
        if not ds.is_closed:
            raise fail(module, op, f"{op_label(op)} {what} {s.op_text()} has an open dimension; run close-shardings "
                       "before convert-to-ttir")
        n = 1
        for r in ds.axes:
            if r.sub_axis is not None:
                raise fail(module, op, f"{op_label(op)} {what} {s.op_text()} uses the sub-axis {r.print_body()}; "
                           "mesh_shard supports whole mesh axes only")
            n *= mesh.size(r.name)
            axis_dim[r.name] = d
        shape.append(n)
    if prod(shape) == 1:
        return ShardSpec("replicate", (1,), (-1,))
    dims = [axis_dim.get(a, -1) if mesh.size(a) > 1 else -1 for a in mesh.axis_names]
    if len(dims) == 1:
        dims = [-1, *dims]
    return ShardSpec("devices", tuple(shape), tuple(dims))


def refresh_function_type(func: Operation) -> None:
    """Argument and result types follow the entry block and the return (pre-sharded arguments and
    results take their local types)."""
    entry = func.regions[0].blocks[0]
    ret = entry.ops[-1] if entry.ops else None
    old = func_type(func)
    results = tuple(v.type for v in ret.operands) if ret is not None and ret.name == "func.return" else tuple(old.results)
    ins = tuple(a.type for a in entry.args)
    if tuple(old.inputs) != ins or tuple(old.results) != results:
        func.properties["function_type"] = TypeAttr(FunctionType(ins, results))
