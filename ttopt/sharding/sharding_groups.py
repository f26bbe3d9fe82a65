"""Sharding groups (`sdy.sharding_group %x group_id=N`): values that must end with one sharding.

As Shardy's import (`sdy-sharding-group-import`): groups that share a value are one group, and
members are read in IR order. Propagation ties each group's members with an identity rule, so a
sharding any member gets reaches every other member, across barriers, functions and data-flow
edges (Shardy's "shard as").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ttopt.ir.values import Value

if TYPE_CHECKING:
    from ttopt.ir.module import Module


def sharding_groups(module: Module) -> list[list[Value]]:
    """The module's sharding groups, merged where they share a value, each member once, in IR order."""
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
    return [vs for vs in groups.values() if len(vs) > 1]
