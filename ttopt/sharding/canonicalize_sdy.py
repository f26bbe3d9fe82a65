"""Shardy's canonicalization patterns (ref §2.13), as rules of the `canonicalize` pass.

Importing this module registers these patterns with the `canonicalize` pass (each matches the op
names it rewrites; ttopt/passes/patterns.py):

* `sdy-noop-collective`: an sdy collective that moves no axis (empty axis lists, or only size-1
  axes), or a collective_permute whose out_sharding is its operand's sharding, is its operand;
* `sdy-reshard-of-reshard`: `reshard(reshard(x, a), b)` reads `x` directly;
* `sdy-noop-reshard`: a reshard to the sharding its operand already has is its operand;
* `sdy-all-slice-of-all-gather`: `all_slice(all_gather(x))` over the same axes is `x`;
* `sdy-dead-collective`: an unused sdy collective is removed (Shardy ops are not marked pure);
* `sdy-unused-manual-input`: a manual_computation operand its body never reads is dropped;
* `sdy-inline-trivial-manual-computation` (Shardy's RedundantManualComputationPattern): a
  manual_computation whose manual axes multiply to 1 is inlined (so a 1x1 single-chip graph ends
  as plain StableHLO).
"""

from __future__ import annotations

from math import prod
from typing import TYPE_CHECKING, Any

from ttopt.ir.values import BlockArgument, OpResult, replace_all_uses
from ttopt.passes.patterns import Pattern, pattern_set, register_canonicalizations
from ttopt.sharding.func_attrs import SDY_SHARDING
from ttopt.sharding.ir_views import str_value
from ttopt.sharding.sdy_ir import per_value_attr

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation
    from ttopt.ir.values import Value

SDY_COLLECTIVES = frozenset({
    "sdy.all_gather", "sdy.all_slice", "sdy.all_to_all", "sdy.reduce_scatter", "sdy.all_reduce", "sdy.collective_permute",
})
_AXES_PROP = {
    "sdy.all_gather": "gathering_axes", "sdy.all_slice": "slicing_axes", "sdy.reduce_scatter": "reduce_scatter_axes",
    "sdy.all_reduce": "reduction_axes", "sdy.all_to_all": "params",
}


def _typed(attr: Any) -> Any:
    try:
        return attr.resolve().typed
    except ValueError:  # AttrError: a malformed body is left for the passes to report
        return None


def _mesh_axes(op: Operation, name: str | None = None) -> dict[str, int] | None:
    """Axis sizes of the module's mesh `name` (or its only mesh), found from `op`."""
    top = op
    while top.parent_op is not None:
        top = top.parent_op
    found = None
    for o in top.regions[0].blocks[0].ops if top.regions and top.regions[0].blocks else ():
        if o.name == "sdy.mesh" and (name is None or str_value(o.properties["sym_name"]) == name):
            if found is not None and name is None:
                return None
            found = o
    if found is None:
        return None
    m = _typed(found.properties["mesh"])
    return dict(zip(m.axis_names, m.shape)) if m is not None else None


def _replace(op: Operation, values: list[Value]) -> list[Operation]:
    users = [u for r in op.results for u in r.users]
    for r, v in zip(op.results, values):
        r.replace_all_uses_with(v)
    producers = [v.op for v in op.operands if hasattr(v, "op")]
    op.erase()
    return users + producers


def value_sharding(v: Value) -> Any:
    """The sharding a value is known to have (its producer's attribute), or None."""
    if isinstance(v, OpResult):
        owner = v.op
        if owner.name in SDY_COLLECTIVES:
            return _typed(owner.properties["out_sharding"])
        if owner.name in ("sdy.reshard", "sdy.sharding_constraint"):
            return _typed(owner.properties["sharding"])
        a = owner.attributes.get(SDY_SHARDING)
        per = _typed(a) if a is not None else None
        return per.shardings[v.index] if per is not None and v.index < len(per.shardings) else None
    if not isinstance(v, BlockArgument):
        return None
    block = v.block
    parent = block.parent.parent if block is not None and block.parent is not None else None
    if parent is not None and parent.name == "sdy.manual_computation":
        ins = _typed(parent.properties["in_shardings"])
        return ins.shardings[v.index] if ins is not None and v.index < len(ins.shardings) else None
    return None


def _axis_refs(op: Operation) -> list[Any] | None:
    key = _AXES_PROP.get(op.name)
    if key is None:
        return []
    m = _typed(op.properties[key])
    if m is None:
        return None
    if hasattr(m, "lists"):
        return [r for refs in m.lists for r in refs]
    if hasattr(m, "params"):
        return [r for p in m.params for r in p.axes]
    return list(m.axes)


def _noop_collective(op: Operation) -> list[Operation] | None:
    if op.name not in SDY_COLLECTIVES:
        return None
    v = op.operands[0]
    if op.name == "sdy.collective_permute":
        src, out = value_sharding(v), _typed(op.properties["out_sharding"])
        if src is None or out is None or src != out:
            return None
        return _replace(op, [v])
    refs = _axis_refs(op)
    if refs is None:
        return None
    if refs:
        out = _typed(op.properties["out_sharding"])
        sizes = _mesh_axes(op, out.mesh_name if out is not None else None)
        if sizes is None or any(r.sub_axis is not None or sizes.get(r.name, 0) != 1 for r in refs):
            return None
    return _replace(op, [v])


def _reshard_of_reshard(op: Operation) -> list[Operation] | None:
    if op.name != "sdy.reshard":
        return None
    inner = getattr(op.operands[0], "op", None)
    if inner is None or inner.name != "sdy.reshard":
        return None
    op.set_operand(0, inner.operands[0])
    return [op, inner]


def _noop_reshard(op: Operation) -> list[Operation] | None:
    if op.name != "sdy.reshard":
        return None
    src = value_sharding(op.operands[0])
    if src is None or src != _typed(op.properties["sharding"]):
        return None
    return _replace(op, [op.operands[0]])


def _slice_of_gather(op: Operation) -> list[Operation] | None:
    if op.name != "sdy.all_slice":
        return None
    g = getattr(op.operands[0], "op", None)
    if g is None or g.name != "sdy.all_gather":
        return None
    a, b = _typed(op.properties["slicing_axes"]), _typed(g.properties["gathering_axes"])
    if a is None or b is None or a.lists != b.lists:
        return None
    x = g.operands[0]
    if x.type != op.results[0].type:
        return None
    return _replace(op, [x])


def _dead_collective(op: Operation) -> list[Operation] | None:
    if op.name not in SDY_COLLECTIVES or any(r.uses for r in op.results):
        return None
    return _replace(op, [])


def _unused_manual_input(op: Operation) -> list[Operation] | None:
    if op.name != "sdy.manual_computation":
        return None
    block = op.regions[0].blocks[0]
    dead = [i for i, a in enumerate(block.args) if not a.uses]
    if not dead:
        return None
    ins = _typed(op.properties["in_shardings"])
    if ins is None or len(ins.shardings) != len(block.args):
        return None
    dead_set = set(dead)
    keep = [i for i in range(len(block.args)) if i not in dead_set]
    producers = [v.op for v in (op.operands[i] for i in dead) if isinstance(v, OpResult)]
    op.set_operands([op.operands[i] for i in keep])
    block.args = [block.args[i] for i in keep]
    for k, a in enumerate(block.args):
        a.index = k
    op.properties["in_shardings"] = per_value_attr([ins.shardings[i] for i in keep])
    return [op, *producers]


def _inline_trivial_manual(op: Operation) -> list[Operation] | None:
    if op.name != "sdy.manual_computation":
        return None
    axes = _typed(op.properties["manual_axes"])
    if axes is None:
        return None
    if axes.names:
        ins = _typed(op.properties["in_shardings"])
        first = ins.shardings[0].mesh_name if ins is not None and ins.shardings else None
        sizes = _mesh_axes(op, first)
        if sizes is None or any(a not in sizes for a in axes.names) or prod(sizes[a] for a in axes.names) != 1:
            return None
    block = op.regions[0].blocks[0]
    if len(op.regions[0].blocks) != 1 or any(a.type != v.type for a, v in zip(block.args, op.operands)):
        return None
    ret = block.ops[-1]
    if any(v.type != r.type for v, r in zip(ret.operands, op.results)):
        return None
    replace_all_uses(zip(block.args, op.operands))
    parent = op.parent
    assert parent is not None, "a pattern matches ops that are in a block"
    at = parent.index(op)
    moved = block.ops[:-1]
    for inner in moved:
        parent.insert(at, inner)
        at += 1
    block.ops = [ret]
    results = list(ret.operands)
    ret.drop_all_references()
    users = [u for r in op.results for u in r.users]
    for r, v in zip(op.results, results):
        r.replace_all_uses_with(v)
    op.erase()
    return users + moved


_MANUAL = frozenset({"sdy.manual_computation"})
_RESHARD = frozenset({"sdy.reshard"})

SDY_PATTERNS = pattern_set(
    Pattern("sdy-noop-collective", _noop_collective, SDY_COLLECTIVES),
    Pattern("sdy-reshard-of-reshard", _reshard_of_reshard, _RESHARD),
    Pattern("sdy-noop-reshard", _noop_reshard, _RESHARD),
    Pattern("sdy-all-slice-of-all-gather", _slice_of_gather, frozenset({"sdy.all_slice"})),
    Pattern("sdy-dead-collective", _dead_collective, SDY_COLLECTIVES),
    Pattern("sdy-unused-manual-input", _unused_manual_input, _MANUAL),
    Pattern("sdy-inline-trivial-manual-computation", _inline_trivial_manual, _MANUAL, reads_bodies=True),
)
register_canonicalizations("sdy", SDY_PATTERNS)
