"""Shardy (sdy) per-op verifiers: attribute bodies that parse, sharding counts and ranks that match
the op, and manual_computation local shapes consistent with the global ones (Shardy's
`verifiers.cc`, the subset ttopt's passes rely on). Failures are ValueErrors; the IR verifier
reports them at the op.
"""

from __future__ import annotations

from typing import Any

from ttopt.ir.operation import Operation
from ttopt.ir.types import TensorType
from ttopt.ir.values import Value


def _typed(op: Operation, name: str, kind: str) -> Any:
    """The typed model of property `name` (AttrError, a ValueError, when its body is malformed)."""
    from ttopt.dialects.errors import AttrError

    a = op.properties.get(name)
    if a is None:
        raise ValueError(f"requires property '{name}' ({kind})")
    a = a.resolve()
    try:
        model = a.typed
    except AttrError as e:
        raise ValueError(f"invalid {name}: {e.message}") from None
    if model is None or type(model).__name__ != kind:
        raise ValueError(f"property '{name}' must be a {kind}, got {a.text}")
    return model


def _rank(v: Any) -> int | None:
    t = v.type.resolve()
    return t.rank if isinstance(t, TensorType) and t.shape is not None else None


def _shape(v: Any) -> tuple[int | None, ...] | None:
    t = v.type.resolve()
    return tuple(t.shape) if isinstance(t, TensorType) and t.shape is not None else None


def _mesh(op: Operation) -> None:
    _typed(op, "mesh", "MeshAttr")


def _with_sharding(op: Operation) -> None:
    s = _typed(op, "sharding", "TensorShardingAttr")
    r = _rank(op.operands[0]) if op.operands else None
    mesh = _named_mesh(op, s.mesh) if isinstance(s.mesh, str) else s.mesh
    if mesh is not None and not mesh.axes and mesh.device_ids:
        # Shardy: a sharding on a maximal mesh (one device) has rank 0 whatever the operand's rank.
        if s.rank != 0:
            raise ValueError("a maximal sharding can only have a sharding with rank 0")
        return
    if r is not None and s.rank != r:
        raise ValueError(f"sharding {s.op_text()} has {s.rank} dimension shardings but the operand has rank {r}")


def _named_mesh(op: Operation, name: str) -> Any:
    """The MeshAttr of `sdy.mesh @name` in the enclosing module, or None (passes report unknown meshes)."""
    root = op
    while root.parent_op is not None:
        root = root.parent_op
    for top in root.regions[0].blocks[0].ops if root.regions and root.regions[0].blocks else ():
        sym = top.properties.get("sym_name")
        if top.name == "sdy.mesh" and getattr(sym, "value", None) == name:
            try:
                return top.properties["mesh"].resolve().typed
            except (KeyError, ValueError):
                return None
    return None


def _manual_split(sharding: Any, manual: set[str], meshes: dict[str, Any]) -> list[int] | None:
    """Per dimension, into how many pieces the manual axes split it (None: mesh or axes unknown)."""
    from ttopt.dialects.sdy_attrs import MeshAttr

    mesh = sharding.mesh
    if not isinstance(mesh, MeshAttr):
        if mesh not in meshes:
            meshes[mesh] = None
        mesh = meshes[mesh]
    if mesh is None:
        return None
    out = []
    for dim in sharding.dim_shardings:
        n = 1
        for ref in dim.axes:
            if ref.name in manual:
                if not mesh.has_axis(ref.name):
                    return None
                n *= ref.size(mesh)
        out.append(n)
    return out


def _manual_computation(op: Operation) -> None:
    ins = _typed(op, "in_shardings", "TensorShardingPerValueAttr").shardings
    outs = _typed(op, "out_shardings", "TensorShardingPerValueAttr").shardings
    manual = set(_typed(op, "manual_axes", "ManualAxesAttr").names)
    if len(ins) != len(op.operands):
        raise ValueError(f"has {len(ins)} in_shardings for {len(op.operands)} operand(s)")
    if len(outs) != len(op.results):
        raise ValueError(f"has {len(outs)} out_shardings for {len(op.results)} result(s)")
    if not op.regions or not op.regions[0].blocks:
        return
    block = op.regions[0].blocks[0]
    if len(block.args) != len(op.operands):
        raise ValueError(f"body has {len(block.args)} argument(s) for {len(op.operands)} operand(s)")
    ret = block.ops[-1] if block.ops else None
    locals_out = ret.operands if ret is not None and ret.name == "sdy.return" else None
    if locals_out is not None and len(locals_out) != len(op.results):
        raise ValueError(f"body returns {len(locals_out)} value(s) for {len(op.results)} result(s)")
    meshes: dict[str, Any] = {}
    pairs: list[tuple[str, int, Any, Value, Value, str]] = [
        ("in_shardings", i, s, op.operands[i], block.args[i], "body argument") for i, s in enumerate(ins)
    ]
    if locals_out is not None:
        pairs += [("out_shardings", j, s, op.results[j], locals_out[j], "returned value") for j, s in enumerate(outs)]
    for label, i, s, global_v, local_v, what in pairs:
        g, loc = _shape(global_v), _shape(local_v)
        if g is None:
            continue
        if s.rank != len(g):
            raise ValueError(f"{label}[{i}] {s.op_text()} has {s.rank} dimension shardings but {global_v.type.text} has rank {len(g)}")
        if isinstance(s.mesh, str) and s.mesh not in meshes:
            meshes[s.mesh] = _named_mesh(op, s.mesh)
        split = _manual_split(s, manual, meshes)
        if split is None or loc is None:
            continue
        if len(loc) != len(g):
            raise ValueError(f"{what} #{i} has type {local_v.type.text}, but the global type is {global_v.type.text}")
        for d, (gd, ld, n) in enumerate(zip(g, loc, split)):
            if gd is None or ld is None:
                continue
            if gd % n:
                raise ValueError(f"{label}[{i}]: dimension {d} of size {gd} is not divisible into {n} shards (manual axes)")
            if ld != gd // n:
                raise ValueError(f"{what} #{i} dimension {d} has local size {ld}, but {label}[{i}] {s.op_text()} "
                                 f"splits the global size {gd} into {n}: expected {gd // n}")


VERIFIERS = {
    "sdy.mesh": _mesh,
    "sdy.sharding_constraint": _with_sharding,
    "sdy.reshard": _with_sharding,
    "sdy.manual_computation": _manual_computation,
}
