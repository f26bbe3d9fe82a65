"""solve_topology_mapping: modes, constraints, warnings, limits, determinism, trace."""

import pytest

from ttopt.topology import (
    AdjacencyGraph,
    ConnectionValidationMode,
    MappingConstraints,
    Status,
    TraceRecorder,
    generate,
    solve_topology_mapping,
)

STRICT = ConnectionValidationMode.STRICT
RELAXED = ConnectionValidationMode.RELAXED
NONE = ConnectionValidationMode.NONE


def solve(t, g, c=None, mode=RELAXED, **kw):
    kw.setdefault("engine", "search")
    return solve_topology_mapping(t, g, c, mode, **kw)


def test_seed_local_consistency_example_solved() -> None:
    # A -- B onto X -- Y with Z isolated: B must land on Y, never Z.
    r = solve(AdjacencyGraph({"A": ["B"]}), AdjacencyGraph({"X": ["Y"], "Z": []}))
    assert r.success
    assert {r.target_to_global["A"], r.target_to_global["B"]} == {"X", "Y"}
    assert r.global_to_target == {g: t for t, g in r.target_to_global.items()}


def test_relaxed_warning_text_once_per_link() -> None:
    t = AdjacencyGraph({"A": ["B", "B", "B"]})
    g = AdjacencyGraph({"X": ["Y"]})
    r = solve(t, g)
    assert r.success and r.status is Status.MAPPED
    assert r.warnings == [
        "Relaxed mode: logical edge from node A to B requires 3 channels, but physical edge "
        "from X to Y only has 1 channels"]
    assert solve(t, g, mode=NONE).warnings == []
    r = solve(t, g, mode=STRICT)
    assert not r.success and r.proof == "channels"


def test_strict_picks_links_with_enough_channels() -> None:
    t = AdjacencyGraph({"A": ["B", "B"]})
    g = AdjacencyGraph({"x": ["y"], "y": ["z", "z"]})
    r = solve(t, g, mode=STRICT)
    assert r.success and set(r.target_to_global.values()) == {"y", "z"}


def test_relaxed_prefers_channel_fit() -> None:
    # The 4-channel link is an exact fit for a 4-channel target link; the search tries it first.
    t = AdjacencyGraph({0: [1, 1, 1, 1]})
    g = AdjacencyGraph({"a": ["b"], "b": ["c", "c", "c", "c"]})
    c = MappingConstraints()
    assert c.add_required_constraint(0, "b")
    r = solve(t, g, c)
    assert r.target_to_global == {0: "b", 1: "c"} and r.warnings == []


def test_preferred_is_soft_and_used() -> None:
    t, g = generate("line:2"), generate("line:4")
    c = MappingConstraints()
    assert c.add_preferred_constraint(0, 2)
    r = solve(t, g, c)
    assert r.target_to_global[0] == 2
    assert r.constraint_stats.preferred_satisfied == 1 and r.constraint_stats.preferred_total == 1
    c = MappingConstraints()
    assert c.add_preferred_constraint(0, 99)  # not a global node: reported, not ignored
    r = solve(t, g, c)
    assert r.status is Status.INVALID and "global node 99" in r.error_message


def test_required_forbidden_pinning_group() -> None:
    t, g = generate("mesh:2x2"), generate("mesh:3x3")
    c = MappingConstraints()
    assert c.add_required_constraint({0, 1}, {4, 5, 8})
    assert c.add_forbidden_constraint(3, {0, 1, 2})
    r = solve(t, g, c)
    assert r.success
    m = r.target_to_global
    assert m[0] in {4, 5, 8} and m[1] in {4, 5, 8} and m[3] not in {0, 1, 2}
    assert r.constraint_stats.required_satisfied == 2


def test_cardinality_in_search() -> None:
    t, g = generate("line:3"), generate("line:6")
    c = MappingConstraints()
    assert c.add_cardinality_constraint([(0, 5), (2, 5), (1, 0)], 1)
    r = solve(t, g, c)
    assert r.success
    m = r.target_to_global
    assert m[0] == 5 or m[2] == 5 or m[1] == 0


def test_unknown_target_node_in_constraint_is_invalid() -> None:
    c = MappingConstraints()
    assert c.add_required_constraint("nope", 1)
    r = solve(generate("line:2"), generate("line:3"), c)
    assert r.status is Status.INVALID
    assert "target node nope which is not in the target graph" in r.error_message


def test_exhaustive_unsat_and_limits() -> None:
    t, g = generate("torus:4x4"), generate("torus:8x4")
    r = solve(t, g)
    assert r.status is Status.UNSAT and r.proof == "exhausted-search"
    assert r.error_message.startswith("Failed to find mapping: target graph with 16 nodes")
    assert r.stats.backtracks > 0 and r.stats.prunings > 0
    r = solve(t, g, node_limit=5)
    assert r.status is Status.LIMIT and "node limit of 5" in r.error_message
    r = solve(t, g, timeout=1e-9)
    assert r.status in (Status.LIMIT, Status.UNSAT)


def test_deterministic() -> None:
    t, g = generate("mesh:3x3"), generate("torus:5x5")
    first = solve(t, g).target_to_global
    for _ in range(3):
        assert solve(t, g).target_to_global == first


def test_trace_records_search() -> None:
    tr = TraceRecorder()
    r = solve(generate("mesh:2x2"), generate("mesh:2x3"), trace=tr)
    assert r.success
    kinds = {e["kind"] for e in tr.events}
    assert {"select", "assign"} <= kinds
    first = tr.events[0]
    assert first["kind"] == "select" and first["depth"] == 0 and first["candidates"]
    tr = TraceRecorder(max_events=3)
    solve(generate("torus:4x4"), generate("torus:8x4"), trace=tr)
    assert len(tr.events) == 3 and tr.dropped > 0


def test_empty_and_disconnected_targets() -> None:
    assert solve(AdjacencyGraph({}), generate("line:2")).success
    two = AdjacencyGraph({0: [1], 2: [3], 4: []})
    r = solve(two, generate("mesh:2x3"))
    assert r.success and len(set(r.target_to_global.values())) == 5


def test_unknown_engine() -> None:
    r = solve_topology_mapping(generate("line:2"), generate("line:2"), engine="magic")
    assert r.status is Status.INVALID


@pytest.mark.parametrize("target,global_", [("mesh:8x4", "torus:8x4"), ("mesh:4x8", "torus:8x4"),
                                            ("mesh:3x3", "mesh:8x4"), ("torus:4x4", "torus:4x4")])
def test_meshes(target, global_) -> None:
    assert solve(generate(target), generate(global_)).success
