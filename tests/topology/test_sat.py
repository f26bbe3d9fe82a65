"""The optional SAT backend (skipped when python-sat is absent)."""

import pytest

from ttopt.topology import (
    ConnectionValidationMode,
    MappingConstraints,
    Status,
    generate,
    load_graph,
    solve_topology_mapping,
)
from ttopt.topology import sat as sat_module
from ttopt.topology import solve as solve_module

pysat = pytest.importorskip("pysat")


@pytest.mark.parametrize("target,global_,ok", [
    ("ring:8", "mesh:2x4", True), ("mesh:3x3", "torus:4x4", True),
    ("torus:4x4", "torus:8x4", False), ("line:16", "mesh:4x4", True),
])
def test_sat_engine(target, global_, ok) -> None:
    r = solve_topology_mapping(generate(target), generate(global_), engine="sat")
    assert r.success is ok, r.error_message
    assert r.stats.engine == "sat"
    if not ok:
        assert r.status is Status.UNSAT and r.proof == "sat-unsat"


def test_sat_constraints_and_strict() -> None:
    c = MappingConstraints()
    assert c.add_required_constraint(0, 5)
    assert c.add_forbidden_constraint(1, 4)
    assert c.add_cardinality_constraint([(2, 7), (2, 1)], 1)
    r = solve_topology_mapping(generate("line:3"), generate("mesh:2x4"), c, engine="sat")
    m = r.target_to_global
    assert r.success and m[0] == 5 and m[1] != 4 and m[2] in (7, 1)
    g = load_graph("mesh:2x4@2", ["0-1"])
    r = solve_topology_mapping(generate("ring:4@2"), g, None, ConnectionValidationMode.STRICT,
                               engine="sat")
    assert r.success


def test_auto_is_a_portfolio_the_first_definitive_answer_wins(monkeypatch) -> None:
    # With a 1-node native slice, SAT (which proves this one quickly) answers first ...
    monkeypatch.setattr(solve_module, "PORTFOLIO_NODES", 1)
    r = solve_topology_mapping(generate("torus:4x4"), generate("torus:8x4"), engine="auto")
    assert r.status is Status.UNSAT and r.stats.engine == "sat"
    # ... and with generous native slices and a 1-conflict SAT slice, the native search does.
    monkeypatch.setattr(solve_module, "PORTFOLIO_NODES", 10**6)
    monkeypatch.setattr(solve_module, "PORTFOLIO_CONFLICTS", 1)
    r = solve_topology_mapping(generate("ring:16"), generate("torus:4x4"), engine="auto")
    assert r.status is Status.MAPPED and r.stats.engine == "path"


def test_missing_pysat_degrades(monkeypatch) -> None:
    monkeypatch.setattr(solve_module, "sat_available", lambda: False)
    r = solve_topology_mapping(generate("ring:8"), generate("mesh:2x4"), engine="sat")
    assert r.status is Status.INVALID and "python-sat" in r.error_message
    monkeypatch.setattr(solve_module, "PORTFOLIO_NODES", 1)
    r = solve_topology_mapping(generate("torus:4x4"), generate("torus:8x4"), engine="auto")
    assert r.status is Status.UNSAT and r.stats.engine == "search"
    assert sat_module.sat_available()


def test_readme_pinned_degraded_mesh_is_truly_unsatisfiable() -> None:
    # README: mesh:8x4 into torus:8x4 without link 9-13 with 0 pinned to 5 exits 1 on purpose.
    nx = pytest.importorskip("networkx")
    from networkx.algorithms.isomorphism import GraphMatcher

    from ttopt.topology import load_graph

    t, g = generate("mesh:8x4"), load_graph("torus:8x4", ["9-13"])
    c = MappingConstraints()
    c.add_required_constraint(0, 5)
    for engine in ("search", "sat", "auto"):
        assert solve_topology_mapping(t, g, c, engine=engine).status is Status.UNSAT, engine
    host, pattern = nx.Graph(), nx.Graph()
    host.add_edges_from((u, v) for u, v, _ in g.edges())
    pattern.add_edges_from((u, v) for u, v, _ in t.edges())
    placements = [{p: h for h, p in m.items()} for m in GraphMatcher(host, pattern).subgraph_monomorphisms_iter()]
    assert len(placements) == 16 and {m[0] for m in placements} == set(range(8, 16))
    assert solve_topology_mapping(t, g, engine="auto").status is Status.MAPPED


def test_walk_targets_use_the_successor_encoding_and_honour_positions() -> None:
    # A ring with one target pinned mid-walk: the order encoding places it by position.
    from ttopt.topology.index import GraphIndex, index_constraints
    from ttopt.topology.paths import detect_path_or_cycle
    from ttopt.topology.propagate import initial_domains
    from ttopt.topology.sat_walk import encode_walk

    c = MappingConstraints()
    assert c.add_required_constraint(5, 10)
    t, g = generate("ring:12"), generate("mesh:4x4")
    r = solve_topology_mapping(t, g, c, engine="sat")
    assert r.success and r.target_to_global[5] == 10 and r.stats.engine == "sat"
    ti, gi = GraphIndex(t), GraphIndex(g)
    ci = index_constraints(ti, gi, c)
    dom, _, _ = initial_domains(ti, gi, ci, ConnectionValidationMode.RELAXED)
    kind, order = detect_path_or_cycle(ti)
    enc = encode_walk(ti, gi, ci, dom, kind, order, ConnectionValidationMode.RELAXED)
    assert enc is not None and enc.kind == "cycle"
    # Only links of the global graph get a step variable (both directions).
    assert len(enc.step) == 2 * len(g.edges())


def test_walk_encoding_refuses_mixed_strict_channels() -> None:
    from ttopt.topology import AdjacencyGraph
    from ttopt.topology.index import GraphIndex, index_constraints
    from ttopt.topology.paths import detect_path_or_cycle
    from ttopt.topology.sat_walk import encode_walk

    t = AdjacencyGraph.from_edges([(0, 1, 2), (1, 2, 1), (2, 3, 1)])
    g = load_graph("mesh:2x4@2", [])
    ti, gi = GraphIndex(t), GraphIndex(g)
    ci = index_constraints(ti, gi, None)
    kind, order = detect_path_or_cycle(ti)
    strict = ConnectionValidationMode.STRICT
    assert encode_walk(ti, gi, ci, [gi.all] * ti.n, kind, order, strict) is None
    # The general encoding takes over and still honours the 2-channel link.
    r = solve_topology_mapping(t, g, None, strict, engine="sat")
    assert r.success


@pytest.mark.parametrize("kind", ["ring", "line"])
def test_sat_decides_64_node_hamiltonian_walks(kind) -> None:
    # The position encoding decided no 64-node planted cubic ring in 10 s; the successor
    # encoding needs a few hundred conflicts. The timeout is a safety net, not a measurement.
    from ttopt.topology.generators import family

    inst = family(f"cubic-{kind}", 64, 1)[0]
    r = solve_topology_mapping(inst.target, inst.global_, engine="sat", timeout=120)
    assert r.status is Status.MAPPED and r.stats.engine == "sat"


def test_bipartite_parity_from_a_pinned_start() -> None:
    # line:3 with its ends pinned to neighbours of a bipartite mesh: the ends are 2 steps apart
    # on the line but 1 on the mesh, so no mapping (parity clauses of the order encoding).
    c = MappingConstraints()
    assert c.add_required_constraint(0, 0)
    assert c.add_required_constraint(2, 1)
    r = solve_topology_mapping(generate("line:3"), generate("mesh:2x4"), c, engine="sat")
    assert r.status is Status.UNSAT
