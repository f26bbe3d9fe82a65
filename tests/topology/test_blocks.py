"""Block and degree-2 forcing proofs (blocks.py) and rotation-extension (rotation.py)."""

import random

import pytest

from ttopt.topology import Status, solve_topology_mapping
from ttopt.topology.blocks import biconnected_blocks, cycle_hosts, hamiltonian_cycle_conflict
from ttopt.topology.generators import bridged_cubic, forced_cubic, planted_cubic
from ttopt.topology.index import GraphIndex
from ttopt.topology.rotation import RotationSearch
from ttopt.topology.sources import generate, line, ring

nx = pytest.importorskip("networkx")
from networkx.algorithms.isomorphism import GraphMatcher  # noqa: E402


def random_graph(rng: random.Random, n: int, p: float):
    g = nx.gnp_random_graph(n, p, seed=rng.randrange(10**9))
    from ttopt.topology import AdjacencyGraph
    return AdjacencyGraph.from_edges(list(g.edges()), range(n)), g


@pytest.mark.parametrize("seed", range(30))
def test_blocks_match_networkx(seed: int) -> None:
    rng = random.Random(seed)
    ours, theirs = random_graph(rng, rng.randrange(2, 14), rng.choice([0.15, 0.3, 0.5]))
    gi = GraphIndex(ours)
    got = sorted(sorted(gi.nodes[v] for v in range(gi.n) if b >> v & 1)
                 for b in biconnected_blocks(gi.adj, gi.all))
    want = sorted(sorted(c) for c in nx.biconnected_components(theirs))
    assert got == want


@pytest.mark.parametrize("seed", range(40))
def test_forcing_never_rules_out_an_existing_hamiltonian_cycle(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randrange(4, 10)
    ours, theirs = random_graph(rng, n, rng.choice([0.3, 0.45, 0.6]))
    gi = GraphIndex(ours)
    exists = next(GraphMatcher(theirs, nx.cycle_graph(n)).subgraph_monomorphisms_iter(),
                  None) is not None
    if hamiltonian_cycle_conflict(gi.adj, gi.all) is not None:
        assert not exists
    if exists:
        assert cycle_hosts(gi.adj, gi.all, n) == gi.all


def test_structural_proofs_decide_the_unsat_families_without_search() -> None:
    for g in (bridged_cubic(64, 1)[0], forced_cubic(64, 1)):
        r = solve_topology_mapping(ring(64), g, engine="search")
        assert r.status is Status.UNSAT and r.stats.nodes_explored == 0
    gi = GraphIndex(forced_cubic(32, 2))
    assert hamiltonian_cycle_conflict(gi.adj, gi.all) is not None
    gi = GraphIndex(planted_cubic(32, 2)[0])
    assert hamiltonian_cycle_conflict(gi.adj, gi.all) is None


@pytest.mark.parametrize("n,cycle", [(64, True), (128, True), (128, False)])
def test_rotation_finds_planted_walks_deterministically(n: int, cycle: bool) -> None:
    g, _ = planted_cubic(n, 11, degree2=0.1)
    gi = GraphIndex(g)
    walks = [RotationSearch(gi.adj, gi.all, n, cycle, list(range(n))).run(100_000)
             for _ in range(2)]
    assert walks[0] == walks[1]
    walk, steps = walks[0]
    assert walk is not None and 0 < steps <= 100_000
    assert sorted(walk) == list(range(n))
    pairs = list(zip(walk, walk[1:])) + ([(walk[-1], walk[0])] if cycle else [])
    assert all(gi.adj[a] >> b & 1 for a, b in pairs)


def test_rotation_gives_up_within_its_budget() -> None:
    gi = GraphIndex(bridged_cubic(32, 0)[0])
    walk, steps = RotationSearch(gi.adj, gi.all, 32, True, list(range(32))).run(500)
    assert walk is None and steps == 500


def test_rotated_answers_are_stated_canonically() -> None:
    # The ring's answer starts at the DFS's first start and runs towards the lower index, so a
    # rotation answer reads like the DFS answer it replaces (stable CLI pictures).
    r = solve_topology_mapping(generate("ring:8"), generate("mesh:2x4"), engine="search")
    assert [r.target_to_global[i] for i in range(8)] == [0, 1, 2, 3, 7, 6, 5, 4]
    r = solve_topology_mapping(line(128), planted_cubic(128, 3)[0], engine="search")
    assert r.success and r.stats.nodes_explored < 2000
