"""Property tests: every mapping is valid, and "no mapping" is never wrong (checked vs VF2)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ttopt.topology import (
    AdjacencyGraph,
    ConnectionValidationMode,
    MappingConstraints,
    Status,
    solve_topology_mapping,
)

nx = pytest.importorskip("networkx")
from networkx.algorithms.isomorphism import GraphMatcher  # noqa: E402

from ttopt.testing.examples import examples

MODES = list(ConnectionValidationMode)


@st.composite
def graphs(draw, max_nodes: int, p_max: float = 0.7) -> AdjacencyGraph:
    n = draw(st.integers(1, max_nodes))
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    chosen = draw(st.lists(st.sampled_from(pairs), unique=True, max_size=len(pairs))) if pairs \
        else []
    edges = [(u, v, draw(st.integers(1, 3))) for u, v in chosen]
    return AdjacencyGraph.from_edges(edges, range(n))


@st.composite
def instances(draw):
    t = draw(graphs(6))
    g = draw(graphs(8))
    mode = draw(st.sampled_from(MODES))
    c = MappingConstraints()
    tn, gn = t.get_nodes(), g.get_nodes()
    for _ in range(draw(st.integers(0, 3))):
        kind = draw(st.sampled_from(["pin", "set", "forbid", "prefer", "group"]))
        a = draw(st.sampled_from(tn))
        b = draw(st.sampled_from(gn))
        if kind == "pin":
            c.add_required_constraint(a, b)
        elif kind == "set":
            c.add_required_constraint(a, set(draw(st.lists(st.sampled_from(gn), min_size=1))))
        elif kind == "forbid":
            c.add_forbidden_constraint(a, b)
        elif kind == "prefer":
            c.add_preferred_constraint(a, b)
        else:
            c.add_required_constraint(set(draw(st.lists(st.sampled_from(tn), min_size=1))),
                                      set(draw(st.lists(st.sampled_from(gn), min_size=1))))
    return t, g, c, mode


def is_valid(t, g, c, mode, m) -> bool:
    if sorted(m, key=str) != sorted(t.get_nodes(), key=str):
        return False
    if len(set(m.values())) != len(m):
        return False
    if not all(c.is_valid_mapping(a, b) for a, b in m.items()):
        return False
    for u, v, need in t.edges():
        have = g.channels(m[u], m[v])
        if have == 0 or (mode is ConnectionValidationMode.STRICT and have < need):
            return False
    return True


def exists(t, g, c, mode) -> bool:
    """Brute force via networkx VF2 monomorphisms, filtered by the constraints."""
    if len(t) > len(g):
        return False
    gt, gg = nx.Graph(), nx.Graph()
    gt.add_nodes_from(t.get_nodes())
    gg.add_nodes_from(g.get_nodes())
    gt.add_edges_from((u, v) for u, v, _ in t.edges())
    gg.add_edges_from((u, v) for u, v, _ in g.edges())
    for mono in GraphMatcher(gg, gt).subgraph_monomorphisms_iter():
        m = {tt: gl for gl, tt in mono.items()}
        if is_valid(t, g, c, mode, m):
            return True
    return False


@settings(max_examples=examples(250), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(instances())
def test_mapping_valid_and_complete(inst) -> None:
    t, g, c, mode = inst
    r = solve_topology_mapping(t, g, c, mode, engine="search", timeout=None)
    assert r.status in (Status.MAPPED, Status.UNSAT)
    if r.success:
        assert is_valid(t, g, c, mode, r.target_to_global)
        assert r.global_to_target == {b: a for a, b in r.target_to_global.items()}
    assert r.success == exists(t, g, c, mode), (r.status, r.proof, r.error_message)


@st.composite
def path_instances(draw):
    n = draw(st.integers(3, 7))
    kind = draw(st.sampled_from(["line", "ring"]))
    edges = [(i, i + 1) for i in range(n - 1)] + ([(n - 1, 0)] if kind == "ring" else [])
    t = AdjacencyGraph.from_edges(edges)
    g = draw(graphs(8, 0.9))
    c = MappingConstraints()
    if draw(st.booleans()):
        c.add_required_constraint(draw(st.sampled_from(t.get_nodes())),
                                  draw(st.sampled_from(g.get_nodes())))
    return t, g, c, draw(st.sampled_from(MODES))


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(path_instances())
def test_path_engine_valid_and_complete(inst) -> None:
    t, g, c, mode = inst
    r = solve_topology_mapping(t, g, c, mode, engine="search", timeout=None)
    if r.success:
        assert is_valid(t, g, c, mode, r.target_to_global)
    assert r.success == exists(t, g, c, mode), (r.status, r.proof, r.error_message)


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(instances())
def test_sat_agrees_with_search(inst) -> None:
    pytest.importorskip("pysat")
    t, g, c, mode = inst
    a = solve_topology_mapping(t, g, c, mode, engine="search", timeout=None)
    b = solve_topology_mapping(t, g, c, mode, engine="sat", timeout=None)
    assert a.success == b.success
    if b.success:
        assert is_valid(t, g, c, mode, b.target_to_global)


@st.composite
def hamiltonian_instances(draw):
    """Small generated hard-family graphs (planted cubic, degree-2 sprinkles, links removed)
    with ring/line targets over every node or all but one."""
    from ttopt.topology.generators import planted_cubic

    n = draw(st.sampled_from([8, 10, 12]))
    g, _ = planted_cubic(n, draw(st.integers(0, 10**6)), degree2=draw(st.sampled_from([0, 0.25])))
    edges = g.edges()
    drop = set(draw(st.lists(st.integers(0, len(edges) - 1), max_size=3)))
    g = AdjacencyGraph.from_edges([e for i, e in enumerate(edges) if i not in drop], range(n))
    m = n - draw(st.integers(0, 1))
    kind = draw(st.sampled_from(["line", "ring"]))
    tedges = [(i, i + 1) for i in range(m - 1)] + ([(m - 1, 0)] if kind == "ring" else [])
    return AdjacencyGraph.from_edges(tedges), g


@pytest.mark.parametrize("engine", ["search", "sat", "auto"])
@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(inst=hamiltonian_instances())
def test_every_engine_agrees_with_vf2_on_hamiltonian_instances(engine, inst) -> None:
    # Rotation, block and forcing proofs, the DFS and SAT each decide these; VF2 is the oracle.
    if engine == "sat":
        pytest.importorskip("pysat")
    t, g = inst
    c = MappingConstraints()
    r = solve_topology_mapping(t, g, c, ConnectionValidationMode.RELAXED, engine=engine,
                               timeout=None)
    assert r.status in (Status.MAPPED, Status.UNSAT)
    if r.success:
        assert is_valid(t, g, c, ConnectionValidationMode.RELAXED, r.target_to_global)
    assert r.success == exists(t, g, c, ConnectionValidationMode.RELAXED), (r.proof, engine)


@pytest.mark.parametrize("engine", ["sat", "auto"])
@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(inst=path_instances())
def test_sat_and_auto_agree_with_vf2_on_paths(engine, inst) -> None:
    if engine == "sat":
        pytest.importorskip("pysat")
    t, g, c, mode = inst
    r = solve_topology_mapping(t, g, c, mode, engine=engine, timeout=None)
    if r.success:
        assert is_valid(t, g, c, mode, r.target_to_global)
    assert r.success == exists(t, g, c, mode), (r.status, r.proof, r.error_message)
