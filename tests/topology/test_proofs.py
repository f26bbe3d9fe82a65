"""Impossibility proofs: each one decides its instance with no search."""

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


def solve(t, g, c=None, mode=ConnectionValidationMode.RELAXED):
    return solve_topology_mapping(t, g, c, mode, engine="search")


@pytest.mark.parametrize("target,global_,remove,proof,text", [
    ("mesh:9x4", "mesh:8x4", [], "size", "target graph is larger with 36 nodes"),
    ("torus:8x4", "mesh:8x4", [], "edges", "target graph has 64 links, but global graph only has 52"),
    ("ring:31", "mesh:8x4", [], "bipartite-parity", "a ring of 31 nodes"),
    ("ring:127", "torus:16x8", [], "bipartite-parity", "global graph is bipartite"),
    ("mesh:8x4", "mesh:8x4", ["9-10"], "edges", "52 links"),
    ("torus:8x4", "torus:8x4", ["0-1"], "edges", "64 links"),
])
def test_generator_proofs(target, global_, remove, proof, text) -> None:
    r = solve(generate(target), load_graph(global_, remove))
    assert r.status is Status.UNSAT and r.proof == proof, r.error_message
    assert text in r.error_message
    assert r.stats.nodes_explored == 0 and r.stats.engine == "proof"


def test_degree_sequence() -> None:
    star = AdjacencyGraph({0: [1, 2, 3, 4]})
    r = solve(star, generate("mesh:2x4"))  # needs a degree-4 node, the 2x4 mesh has max 3
    assert r.proof == "degree-sequence"
    assert "1 target nodes have degree >= 4, but only 0 global nodes do" in r.error_message


def test_components() -> None:
    two_lines = AdjacencyGraph({0: [1], 1: [2], 3: [4], 4: [5]})
    parts = AdjacencyGraph({"a": ["b"], "b": ["c"], "x": ["y"], "y": ["z"], "p": ["q"],
                            "q": ["r"], "r": ["s"]})
    assert solve(two_lines, parts).success
    big = AdjacencyGraph({i: [i + 1] for i in range(4)})
    small = AdjacencyGraph({"a": ["b"], "b": ["c"], "c": ["d"], "x": ["y"], "y": ["z"], "z": ["w"]})
    r = solve(big, small)
    assert r.proof == "components" and "largest target component has 5 nodes" in r.error_message
    three = AdjacencyGraph({0: [1], 1: [2], 3: [4], 4: [5], 6: [7], 7: [8]})
    nine = AdjacencyGraph({"a": ["b"], "b": ["c"], "c": ["d"], "d": ["e"], "f": ["g"],
                           "g": ["h"], "h": ["i"], "i": ["j"]})
    r = solve(three, nine)  # 3+3+3 into 5+5: nine nodes but not packable
    assert r.proof == "components"


def test_bipartite_classes() -> None:
    star = AdjacencyGraph({0: [1, 2, 3]})  # classes 1 and 3
    cycle = generate("ring:6")  # classes 3 and 3, max degree 2 -> degree proof first
    r = solve(star, cycle)
    assert r.proof == "degree-sequence"
    k13 = AdjacencyGraph({0: [1, 2, 3], 4: [1, 2]})  # classes {0,4} and {1,2,3}
    k33_minus = AdjacencyGraph({"a": ["x", "y", "z"], "b": ["x", "y"], "c": []})
    assert solve(k13, k33_minus).success
    # Called directly (the cheaper proofs would fire first on such a small instance): a star
    # with 3 leaves has a colour class of 3, a 4-cycle has classes of 2.
    from ttopt.topology.index import GraphIndex, index_constraints
    from ttopt.topology.proofs import prove_bipartite

    ti = GraphIndex(AdjacencyGraph({0: [1, 2, 3]}))
    gi = GraphIndex(AdjacencyGraph({"a": ["b"], "b": ["c"], "c": ["d"], "d": ["a"]}))
    got = prove_bipartite(ti, gi, index_constraints(ti, gi, None), None)
    assert got is not None and got[0] == "bipartite-classes"


def test_strict_channels() -> None:
    r = solve(generate("ring:4@2"), generate("mesh:2x4"), mode=ConnectionValidationMode.STRICT)
    assert r.proof == "channels"
    assert r.error_message.startswith("Strict mode: target graph edge from node 0 to 1 requires 2 "
                                      "channels")
    assert solve(generate("ring:4@2"), generate("mesh:2x4")).success  # RELAXED


def test_pin_conflict_distance_parity() -> None:
    t, g = generate("ring:8"), generate("mesh:2x4")
    c = MappingConstraints()
    assert c.add_required_constraint({0, 1}, 3)
    r = solve(t, g, c)
    assert r.proof == "pin-conflict" and r.error_message.startswith("Pre-assignment conflict")
    c = MappingConstraints()
    assert c.add_required_constraint(0, 0) and c.add_required_constraint(1, 7)
    r = solve(t, g, c)
    assert r.proof == "pin-distance"
    c = MappingConstraints()
    assert c.add_required_constraint(0, 0) and c.add_required_constraint(2, 1)
    r = solve(t, g, c)
    assert r.proof == "pin-parity"
    assert "bipartite parity" in r.error_message
