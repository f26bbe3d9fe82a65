"""MappingValidator: final checks of a complete mapping and RELAXED warnings (seed "Stage 4").

Runs on node ids (not indices), independently of the engine that produced the mapping, so a bug
in an engine shows up as a validation error instead of a wrong answer. Order as upstream §3.7:
channel counts, completeness, injectivity, edges, hard constraints.
"""

from __future__ import annotations

from collections.abc import Hashable

from ttopt.topology.constraints import MappingConstraints
from ttopt.topology.graph import AdjacencyGraph
from ttopt.topology.result import ConnectionValidationMode, ConstraintStats

Node = Hashable

RELAXED_WARNING = ("Relaxed mode: logical edge from node {} to {} requires {} channels, but "
                   "physical edge from {} to {} only has {} channels")
STRICT_ERROR = ("Strict mode validation failed: logical edge from node {} to {} requires {} "
                "channels, but physical edge from {} to {} only has {} channels")


def validate_mapping(
    target: AdjacencyGraph,
    global_: AdjacencyGraph,
    mapping: dict[Node, Node],
    constraints: MappingConstraints | None = None,
    mode: ConnectionValidationMode = ConnectionValidationMode.RELAXED,
) -> tuple[list[str], list[str]]:
    """(errors, warnings) for a complete mapping; no errors means it is a valid answer."""
    errors: list[str] = []
    warnings: list[str] = []
    # One message per undirected link (upstream emitted each shortfall twice, once per direction).
    for u, v, need in target.edges():
        if u not in mapping or v not in mapping:
            continue
        a, b = mapping[u], mapping[v]
        have = global_.channels(a, b)
        if have == 0 or have >= need or mode is ConnectionValidationMode.NONE:
            continue
        if mode is ConnectionValidationMode.STRICT:
            errors.append(STRICT_ERROR.format(u, v, need, a, b, have))
        else:
            warnings.append(RELAXED_WARNING.format(u, v, need, a, b, have))
    missing = [t for t in target.get_nodes() if t not in mapping]
    if missing:
        errors.append(f"Mapping validation failed: {len(missing)} target node(s) are not mapped "
                      f"to any global node: {', '.join(map(str, missing))}")
    seen: dict[Node, Node] = {}
    for t in target.get_nodes():
        if t not in mapping:
            continue
        g = mapping[t]
        if g not in global_:
            errors.append(f"target node {t} is mapped to {g}, which is not a global node")
        elif g in seen:
            errors.append(f"target nodes {seen[g]} and {t} map to the same global node {g}")
        seen[g] = t
    for u, v, _ in target.edges():
        if u in mapping and v in mapping and not global_.channels(mapping[u], mapping[v]):
            errors.append(f"target nodes {u} and {v} are connected but global nodes "
                          f"{mapping[u]} and {mapping[v]} are not adjacent. This violates graph "
                          f"isomorphism requirements.")
    if constraints is not None:
        for t, g in mapping.items():
            if not constraints.is_valid_mapping(t, g):
                errors.append(f"target node {t} mapped to {g} violates a required/forbidden "
                              f"constraint")
        for c in constraints.get_cardinality_constraints():
            hit = sum(1 for t, g in c.pairs if mapping.get(t) == g)
            if hit < c.min_count:
                errors.append(f"cardinality constraint needs {c.min_count} of its pairs, the "
                              f"mapping satisfies {hit}")
    return errors, warnings


def constraint_stats(mapping: dict[Node, Node],
                     constraints: MappingConstraints | None) -> ConstraintStats:
    """Required/preferred satisfaction counts (preferred_total = targets with a preference)."""
    cs = ConstraintStats()
    if constraints is None:
        return cs
    for t, g in mapping.items():
        if constraints.is_restricted(t) and g in constraints.get_valid_mappings(t):
            cs.required_satisfied += 1
        pref = constraints.get_preferred_mappings(t)
        if pref:
            cs.preferred_total += 1
            cs.preferred_satisfied += g in pref
    return cs
