"""The seed's ConsistencyChecker on node ids (seed: "ConsistencyChecker").

The engines do not call these per candidate: propagate.py implements the same checks as domain
operations (local consistency = restricting an assigned target's neighbours to neighbours of its
global; forward consistency = wipe-out detection). These functions state the seed's contracts
directly, so they can be tested on the seed's worked examples and used to explain a placement.
"""

from __future__ import annotations

from collections.abc import Hashable

from ttopt.topology.constraints import MappingConstraints
from ttopt.topology.graph import AdjacencyGraph
from ttopt.topology.result import ConnectionValidationMode

Node = Hashable


def check_local_consistency(
    target: AdjacencyGraph, global_: AdjacencyGraph, mapping: dict[Node, Node], t: Node, g: Node,
    mode: ConnectionValidationMode = ConnectionValidationMode.RELAXED,
) -> bool:
    """t -> g keeps every mapped neighbour of t on a global neighbour of g (STRICT: channels)."""
    for n in target.get_neighbors(t):
        if n not in mapping:
            continue
        have = global_.channels(g, mapping[n])
        if have == 0:
            return False
        if mode is ConnectionValidationMode.STRICT and have < target.channels(t, n):
            return False
    return True


def check_forward_consistency(
    target: AdjacencyGraph, global_: AdjacencyGraph, mapping: dict[Node, Node], t: Node, g: Node,
    constraints: MappingConstraints | None = None,
    mode: ConnectionValidationMode = ConnectionValidationMode.RELAXED,
    check_degree: bool = True,
) -> bool:
    """After t -> g, every unassigned neighbour of t still has an unused viable global neighbour.

    The seed's walk-through (A-B-C onto X-Y) marks the degree check of B on Y as passing although
    deg(Y) = 1 < deg(B) = 2; `check_degree=False` reproduces that walk-through literally.
    """
    trial = dict(mapping)
    trial[t] = g
    used = set(trial.values())
    for v in target.get_neighbors(t):
        if v in trial:
            continue
        if not any(
            g2 not in used
            and (not check_degree or global_.degree(g2) >= target.degree(v))
            and (constraints is None or constraints.is_valid_mapping(v, g2))
            and check_local_consistency(target, global_, trial, v, g2, mode)
            for g2 in global_.get_neighbors(g)
        ):
            return False
    return True


def count_reachable_unused(global_: AdjacencyGraph, start: Node, used: set) -> int:
    """Unused global nodes reachable from `start` walking through unused nodes only (start counts)."""
    if start in used or start not in global_:
        return 0
    seen = {start}
    stack = [start]
    while stack:
        u = stack.pop()
        for v in global_.get_neighbors(u):
            if v not in seen and v not in used:
                seen.add(v)
                stack.append(v)
    return len(seen)
