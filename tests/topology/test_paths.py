"""The path/cycle fast path: detection, Hamiltonian walks, symmetry, pins, exhaustion."""

import pytest

from ttopt.topology import (
    AdjacencyGraph,
    ConnectionValidationMode,
    MappingConstraints,
    Status,
    generate,
    load_graph,
    solve_topology_mapping,
)
from ttopt.topology.index import GraphIndex
from ttopt.topology.paths import detect_path_or_cycle


def solve(t, g, c=None, mode=ConnectionValidationMode.RELAXED):
    return solve_topology_mapping(t, g, c, mode, engine="search")


def test_detect() -> None:
    assert detect_path_or_cycle(GraphIndex(generate("line:4"))) == ("path", [0, 1, 2, 3])
    assert detect_path_or_cycle(GraphIndex(generate("ring:4"))) == ("cycle", [0, 1, 2, 3])
    assert detect_path_or_cycle(GraphIndex(generate("line:2"))) is None
    assert detect_path_or_cycle(GraphIndex(generate("mesh:2x3"))) is None
    assert detect_path_or_cycle(GraphIndex(AdjacencyGraph({0: [1], 2: [3, 4]}))) is None


@pytest.mark.parametrize("target,global_,remove", [
    ("ring:32", "mesh:8x4", []), ("ring:32", "torus:8x4", []), ("line:32", "mesh:8x4", []),
    ("ring:128", "mesh:32x4", []), ("line:128", "mesh:32x4", []), ("ring:128", "mesh:16x8", []),
    ("ring:30", "mesh:8x4", []), ("ring:32", "torus:8x4", ["9-10"]),
    ("ring:32", "mesh:8x4", ["13-17"]), ("line:31", "mesh:8x4", []),
])
def test_hamiltonian_and_near_full(target, global_, remove) -> None:
    r = solve(generate(target), load_graph(global_, remove))
    assert r.success, r.error_message
    assert r.stats.engine == "path"


def test_exhaustive_path_unsat() -> None:
    # A ring of 8 cannot use the 2x4 mesh once a middle rung is gone... it still can (outer
    # cycle); removing an outer link kills every Hamiltonian cycle.
    r = solve(generate("ring:8"), load_graph("mesh:2x4", ["1-2"]))
    assert r.status is Status.UNSAT and r.proof in ("exhausted-search", "degree-sequence")
    r = solve(generate("ring:6"), AdjacencyGraph({i: [(i + 1) % 3] for i in range(3)} |
                                                 {i: [3 + (i + 1 - 3) % 3] for i in range(3, 6)}))
    assert not r.success


def test_pins_anchor_the_walk() -> None:
    c = MappingConstraints()
    assert c.add_required_constraint(0, 0) and c.add_required_constraint(127, 3)
    r = solve(generate("line:128"), generate("mesh:32x4"), c)
    assert r.success and r.target_to_global[0] == 0 and r.target_to_global[127] == 3
    c = MappingConstraints()
    assert c.add_required_constraint(0, 0) and c.add_required_constraint(64, 61)
    r = solve(generate("ring:128"), generate("mesh:32x4"), c)
    assert r.success and r.target_to_global[64] == 61


def test_cycle_respects_preferences_and_strict_channels() -> None:
    c = MappingConstraints()
    assert c.add_preferred_constraint(3, 5)
    r = solve(generate("ring:8"), generate("mesh:2x4"), c)
    assert r.success and r.target_to_global[3] == 5
    g = AdjacencyGraph({0: [1, 1], 1: [2, 2], 2: [3, 3], 3: [0, 0, 4], 4: [5], 5: [0]})
    r = solve(generate("ring:4@2"), g, mode=ConnectionValidationMode.STRICT)
    assert r.success and set(r.target_to_global.values()) == {0, 1, 2, 3}


def test_bipartite_dead_end_is_the_end_of_the_right_colour() -> None:
    # Regression: in a bipartite global graph the near-full dead-end scan took the
    # first degree-1 node it met as the path's end, although parity fixes the end's colour, and
    # reported a false UNSAT. Path 3-0-1-5-4 exists; node 2 must be skipped, 4 ends the walk.
    g = AdjacencyGraph.from_edges([(0, 1), (0, 3), (1, 2), (1, 5), (4, 5)], range(6))
    r = solve_topology_mapping(AdjacencyGraph.from_edges([(i, i + 1) for i in range(4)]), g,
                               MappingConstraints(), ConnectionValidationMode.RELAXED, engine="search", timeout=None)
    assert r.success, (r.status, r.proof)


def _all_graphs(n: int):
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    for mask in range(1, 1 << len(pairs)):
        yield [p for k, p in enumerate(pairs) if mask >> k & 1]


@pytest.mark.parametrize("kind,m", [("line", 4), ("line", 5), ("ring", 4), ("ring", 5)])
def test_path_engine_agrees_with_vf2_on_every_graph_of_five_nodes(kind: str, m: int) -> None:
    nx = pytest.importorskip("networkx")
    from networkx.algorithms.isomorphism import GraphMatcher

    target_edges = [(i, i + 1) for i in range(m - 1)] + ([(m - 1, 0)] if kind == "ring" else [])
    t = AdjacencyGraph.from_edges(target_edges)
    pattern = nx.Graph(target_edges)
    wrong = []
    for edges in _all_graphs(5):
        g = AdjacencyGraph.from_edges([(u, v, 1) for u, v in edges], range(5))
        r = solve_topology_mapping(t, g, MappingConstraints(), ConnectionValidationMode.RELAXED, engine="search", timeout=None)
        host = nx.Graph(edges)
        host.add_nodes_from(range(5))
        exists = next(GraphMatcher(host, pattern).subgraph_monomorphisms_iter(), None) is not None
        if r.success != exists:
            wrong.append(edges)
    assert not wrong, wrong[:5]
