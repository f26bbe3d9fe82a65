"""Ops that run on one device (Shardy's processSingleDeviceOperation).

An op with a result sharded on a maximal mesh (`sdy.mesh @d0 = <[], device_ids=[0]>`) runs on
that device alone: every tensor operand is resharded to `<@d0, []>` — first to replicated on
the global mesh (the module's first mesh with axes) unless it is replicated there already —
every tensor result is resharded back after the op, to replicated on the global mesh and then
to its own sharding unless that is single-device or replicated, and the op's results get the
single-device sharding (a token result: replicated on the global mesh).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ttopt.sharding.factors import Sharding, diag, from_attr, get_sharding_attr, rank_of, set_op_result_shardings, to_attr

if TYPE_CHECKING:
    from ttopt.dialects.sdy_attrs import MeshAttr, TensorShardingAttr


def _mesh(ref: Any, meshes: dict[str, MeshAttr]) -> Any:
    return meshes.get(ref) if isinstance(ref, str) else ref


def _single_device_mesh(attr: TensorShardingAttr | None, meshes: dict[str, MeshAttr]) -> Any:
    if attr is None:
        return None
    mesh = _mesh(attr.mesh, meshes)
    return attr.mesh if mesh is not None and mesh.is_maximal else None


def is_single_device_op(op: Any, meshes: dict[str, MeshAttr]) -> bool:
    """Has the op a result sharded on a maximal mesh?"""
    return any(_single_device_mesh(get_sharding_attr(r), meshes) is not None for r in op.results)


def _ranked(v: Any) -> bool:
    return getattr(v.type.resolve(), "shape", None) is not None


def process_single_device_op(op: Any, module: Any, meshes: dict[str, MeshAttr], reshard: Any) -> None:
    """Reshard a single-device op's operands onto its device and its results back;
    `reshard(value, sharding, before)` creates one `sdy.reshard` and returns its result."""
    outs = [get_sharding_attr(r) for r in op.results]
    names = [_single_device_mesh(a, meshes) for a in outs]
    single = next(n for n in names if n is not None)
    devices = {_mesh(n, meshes).device_ids[0] for n in names if n is not None}
    if len(devices) > 1:
        raise diag(module, op, "has conflicting single-device result shardings")
    global_mesh = next((name for name, m in meshes.items() if not m.is_maximal and m.axes), None)
    if global_mesh is None:
        return
    on_device = Sharding(single, [], [])
    for i, v in enumerate(list(op.operands)):
        if not _ranked(v):
            continue
        cur = get_sharding_attr(v)
        cur_sh = from_attr(cur, meshes) if cur is not None else Sharding.replicated_closed(global_mesh, rank_of(v))
        if cur_sh.mesh == single and not any(cur_sh.dims):
            continue
        x = v
        if not (cur_sh.mesh == global_mesh and cur_sh.is_replicated()):
            x = reshard(x, Sharding.replicated_closed(global_mesh, rank_of(v)), op)
        op.set_operand(i, reshard(x, on_device, op))
    anchor = op
    for j, r in enumerate(op.results):
        if not _ranked(r):
            continue
        users = list(r.uses)
        replicated = Sharding.replicated_closed(global_mesh, rank_of(r))
        own = outs[j] if names[j] is None else None
        nxt = anchor.parent.ops[anchor.parent.index(anchor) + 1]
        x = reshard(r, replicated, nxt)
        anchor = x.op
        target = from_attr(own, meshes) if own is not None else None
        if target is not None and not (target.mesh == global_mesh and target.is_replicated() and all(target.closed)):
            nxt = anchor.parent.ops[anchor.parent.index(anchor) + 1]
            x = reshard(x, target, nxt, keep_open=True)
            anchor = x.op
        for u in users:
            for k, operand in enumerate(u.operands):
                if operand is r:
                    u.set_operand(k, x)
    shardings = [on_device if _ranked(r) else Sharding.replicated_closed(global_mesh, 0) for r in op.results]
    set_op_result_shardings(op, [to_attr(s, meshes) for s in shardings])
