"""The seed's ConsistencyChecker examples."""

from ttopt.topology import AdjacencyGraph, ConnectionValidationMode, MappingConstraints
from ttopt.topology.consistency import (
    check_forward_consistency,
    check_local_consistency,
    count_reachable_unused,
)

STRICT = ConnectionValidationMode.STRICT


def test_local_consistency_seed_example() -> None:
    # Target A -- B; global X -- Y, Z isolated.
    target = AdjacencyGraph({"A": ["B"]})
    global_ = AdjacencyGraph({"X": ["Y"], "Z": []})
    assert check_local_consistency(target, global_, {"A": "X"}, "B", "Y")
    assert not check_local_consistency(target, global_, {"A": "X"}, "B", "Z")


def test_local_consistency_strict_channels() -> None:
    target = AdjacencyGraph({"A": ["B", "B"]})
    global_ = AdjacencyGraph({"X": ["Y"]})
    assert check_local_consistency(target, global_, {"A": "X"}, "B", "Y")
    assert not check_local_consistency(target, global_, {"A": "X"}, "B", "Y", STRICT)


def test_forward_consistency_seed_example() -> None:
    # Seed: target A -- B -- C, global X -- Y, mapping A -> X: B's only candidate is Y.
    target = AdjacencyGraph({"A": ["B"], "B": ["C"]})
    global_ = AdjacencyGraph({"X": ["Y"]})
    # The seed's walk-through (no degree test): B has the viable candidate Y.
    assert check_forward_consistency(target, global_, {}, "A", "X", check_degree=False)
    # With the degree test (upstream's hard constraints): Y has 1 neighbour, B needs 2.
    assert not check_forward_consistency(target, global_, {}, "A", "X")
    # Once A -> X and B -> Y, C has no unused neighbour of Y left.
    assert not check_forward_consistency(target, global_, {"A": "X"}, "B", "Y",
                                         check_degree=False)


def test_forward_consistency_seed_example_solved() -> None:
    from ttopt.topology import solve_topology_mapping

    target = AdjacencyGraph({"A": ["B"], "B": ["C"]})
    r = solve_topology_mapping(target, AdjacencyGraph({"X": ["Y"]}))
    assert not r.success and r.proof == "size"
    assert "target graph is larger with 3 nodes, but global graph only has 2 nodes" in \
        r.error_message
    r = solve_topology_mapping(target, AdjacencyGraph({"X": ["Y"], "Y": ["Z"]}))
    assert r.success and r.target_to_global == {"A": "X", "B": "Y", "C": "Z"}


def test_forward_consistency_respects_constraints() -> None:
    target = AdjacencyGraph({"A": ["B"]})
    global_ = AdjacencyGraph({"X": ["Y"]})
    c = MappingConstraints()
    assert c.add_forbidden_constraint("B", "Y")
    assert not check_forward_consistency(target, global_, {}, "A", "X", c)


def test_count_reachable_unused_walks_unused_only() -> None:
    # Path 10-11-12-13 plus isolated 14 (upstream test graph); with 11 used, from 10 only 10.
    g = AdjacencyGraph({10: [11], 11: [12], 12: [13], 14: []})
    assert count_reachable_unused(g, 10, set()) == 4
    assert count_reachable_unused(g, 10, {11}) == 1
    assert count_reachable_unused(g, 12, {11}) == 2
    assert count_reachable_unused(g, 11, {11}) == 0
