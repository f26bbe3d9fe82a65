"""Sharding groups (`sdy.sharding_group %x group_id=N`): values that must end with one sharding.

As Shardy's import (`sdy-sharding-group-import`): groups that share a value are one group, and
members are read in IR order. Propagation ties each group's members with an identity rule, so a
sharding any member gets reaches every other member, across barriers, functions and data-flow
edges (Shardy's "shard as").

Before propagating, as Shardy's syncGroupMemberShardings: a group whose members carry different
shardings (fully open replicated ones aside) gets a warning, and each member an open
`sdy.sharding_constraint` right after it that takes its place in the group and in its uses, so
the members keep their shardings and the group ties only the open constraints.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from ttopt.ir.values import BlockArgument, OpResult, Value

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.ir.operation import Operation


def sharding_groups(module: Module, singletons: bool = False) -> list[list[Value]]:
    """The module's sharding groups, merged where they share a value, each member once, in IR
    order of their first member (groups of one member only with `singletons`)."""
    parent: dict[int, int] = {}

    def find(g: int) -> int:
        while parent.setdefault(g, g) != g:
            parent[g] = parent[parent[g]]
            g = parent[g]
        return g

    members: list[tuple[int, Value]] = []
    first_group: dict[int, int] = {}
    for op in module.walk():
        if op.name != "sdy.sharding_group" or not op.operands:
            continue
        gid = int(getattr(op.properties.get("group_id"), "value", 0))
        v = op.operands[0]
        find(gid)
        seen = first_group.get(id(v))
        if seen is None:
            first_group[id(v)] = gid
            members.append((gid, v))
        else:
            parent[find(gid)] = find(seen)
    groups: dict[int, list[Value]] = {}
    for gid, v in members:
        groups.setdefault(find(gid), []).append(v)
    return [vs for vs in groups.values() if singletons or len(vs) > 1]


def split_conflicting_groups(module: Module) -> int:
    """Shardy's syncGroupMemberShardings for groups whose members disagree (see the module
    docstring); returns how many groups were split."""
    from ttopt.dialects.sdy_attrs import TensorShardingAttr
    from ttopt.ir import rewriter
    from ttopt.sharding.diagnostics import warn
    from ttopt.sharding.factors import get_sharding_attr

    split = 0
    for gid, members in enumerate(sharding_groups(module, singletons=True)):
        common = None
        conflict = False
        for v in members:
            attr = get_sharding_attr(v)
            if attr is None or _fully_open_replicated(attr):
                continue
            if common is None:
                common = attr
            elif _key(attr) != _key(common):
                conflict = True
                break
        if not conflict or common is None:
            continue
        split += 1
        warn(module, _owner(members[0]),
             f"The initial operand shardings on the sharding groups of groupID: {gid} do not match. Inserting an open "
             "sharding constraint to all constrained values. This can be caused when shardings from different values "
             "are grouped (e.g. from jax.shard_alike) but have separate inconsistent sharding constraints on them.")  # fmt: skip
        rank = len(common.dim_shardings)
        open_attr = TensorShardingAttr.fully_replicated(common.mesh, rank, closed=False).to_attr()
        for v in members:
            if isinstance(v, OpResult):
                c = rewriter.create("sdy.sharding_constraint", [v], [v.type], {"sharding": open_attr}, after=v.op)
            else:
                block = cast(BlockArgument, v).block
                if block is None:
                    continue
                c = rewriter.create("sdy.sharding_constraint", [v], [v.type], {"sharding": open_attr})
                block.insert(0, c)
            v.replace_all_uses_with(c.results[0], except_in=c)
    return split


def _fully_open_replicated(attr: Any) -> bool:
    return all(not d.axes and not d.is_closed for d in attr.dim_shardings) and not attr.replicated and not attr.unreduced


def _key(attr: Any) -> str:
    return attr.op_text()


def _owner(v: Value) -> Operation | None:
    if isinstance(v, OpResult):
        return v.op
    block = getattr(v, "block", None)
    region = block.parent if block is not None else None
    return region.parent if region is not None else None
