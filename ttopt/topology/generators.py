"""Hard instances for tests and bench: Hamiltonian rings and lines into sparse graphs.

Every generator is seeded (`random.Random(seed)`), so the same arguments give the same graph on
every run and platform. Node labels are shuffled, so the planted cycle is not the index order the
solver breaks ties by. Each `HardInstance` says whether a mapping exists *by construction*, and a
satisfiable one carries a witness mapping (the planted walk) that tests validate.

Families (all targets are `ring:N` / `line:N` over every global node, i.e. Hamiltonian):
- `planted_cubic`: a random Hamiltonian cycle plus a random perfect matching on the cycle's nodes
  (3-regular), optionally with a fraction of nodes left out of the matching (degree 2);
- `bipartite_cubic`: the same with matching links only between even and odd cycle positions, so
  the graph is bipartite and an odd ring cannot map (the parity argument);
- `bridged_cubic`: two planted cubic halves joined by one link, a bridge: no Hamiltonian cycle
  (a cycle crosses any cut an even number of times), but a Hamiltonian path through the bridge;
- `forced_cubic`: a planted cubic graph where the three neighbours of one node are cut down to
  degree 2 through it, so a Hamiltonian cycle would need all three links at that node;
- `near_mesh`: an R x C mesh minus random links that avoid a planted (serpentine) Hamiltonian
  cycle; `bridged_mesh` removes all but one link across a column cut instead (no cycle).
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from dataclasses import dataclass

from ttopt.topology.graph import AdjacencyGraph
from ttopt.topology.sources import line, ring

Node = Hashable
Edge = tuple[int, int]

MATCHING_ATTEMPTS = 10_000  # random matchings tried before giving up (a conflict is rare)


@dataclass(frozen=True)
class HardInstance:
    """One generated instance: family, size, the graphs, the known answer and a witness."""

    family: str
    name: str
    target: AdjacencyGraph
    global_: AdjacencyGraph
    expect: bool  # a mapping exists (known by construction)
    witness: dict[Node, Node] | None = None  # target -> global, for satisfiable instances


def _key(u: int, v: int) -> Edge:
    return (u, v) if u < v else (v, u)


def _cycle_edges(cycle: list[int]) -> set[Edge]:
    return {_key(cycle[i], cycle[(i + 1) % len(cycle)]) for i in range(len(cycle))}


def _matching(rng: random.Random, left: list[int], right: list[int] | None,
              taken: set[Edge]) -> list[Edge]:
    """A random perfect matching (of `left` alone, or between `left` and `right`) that avoids
    the links in `taken` (so the result stays a simple graph)."""
    for _ in range(MATCHING_ATTEMPTS):
        if right is None:
            nodes = list(left)
            rng.shuffle(nodes)
            pairs = [_key(nodes[i], nodes[i + 1]) for i in range(0, len(nodes) - 1, 2)]
        else:
            other = list(right)
            rng.shuffle(other)
            pairs = [_key(a, b) for a, b in zip(left, other)]
        if not any(p in taken for p in pairs):
            return pairs
    raise ValueError("no matching avoiding the planted cycle found; use more nodes")


def _planted(rng: random.Random, n: int, degree2: float, bipartite: bool = False,
             keep_out: int = 0) -> tuple[list[int], set[Edge]]:
    """(planted Hamiltonian cycle over 0..n-1, edge set): the cycle plus a random matching over
    all but round(degree2 * n) (+ keep_out) nodes, which keep degree 2."""
    cycle = list(range(n))
    rng.shuffle(cycle)
    edges = _cycle_edges(cycle)
    positions = list(range(n))
    rng.shuffle(positions)
    out = min(n, round(degree2 * n) + keep_out)
    if bipartite:
        # Keep the matched nodes balanced between even and odd cycle positions.
        even = [p for p in positions if p % 2 == 0]
        odd = [p for p in positions if p % 2 == 1]
        k = len(even) - (out + 1) // 2
        left = [cycle[p] for p in even[:k]]
        right = [cycle[p] for p in odd[:k]]
        edges |= set(_matching(rng, left, right, edges))
    else:
        matched = positions[out:]
        if len(matched) % 2:
            matched = matched[1:]
        edges |= set(_matching(rng, [cycle[p] for p in matched], None, edges))
    return cycle, edges


def _graph(edges: set[Edge], n: int) -> AdjacencyGraph:
    return AdjacencyGraph.from_edges(sorted(edges), range(n))


def _walk_witness(walk: list[int]) -> dict[Node, Node]:
    return {i: g for i, g in enumerate(walk)}


def planted_cubic(n: int, seed: int, degree2: float = 0.0) -> tuple[AdjacencyGraph, list[int]]:
    """A random graph of max degree 3 on n nodes with a planted Hamiltonian cycle (returned)."""
    if n < 8:
        raise ValueError("planted cubic graphs need at least 8 nodes")
    cycle, edges = _planted(random.Random(seed), n, degree2)
    return _graph(edges, n), cycle


def bipartite_cubic(n: int, seed: int, degree2: float = 0.0) -> tuple[AdjacencyGraph, list[int]]:
    """A bipartite planted cubic graph (n even): matching links join opposite cycle parities."""
    if n < 8 or n % 2:
        raise ValueError("bipartite cubic graphs need an even number of nodes, at least 8")
    cycle, edges = _planted(random.Random(seed), n, degree2, bipartite=True)
    return _graph(edges, n), cycle


def bridged_cubic(n: int, seed: int, degree2: float = 0.0) -> tuple[AdjacencyGraph, list[int]]:
    """Two planted halves joined by one bridge: (graph, a Hamiltonian path through the bridge)."""
    if n < 10:
        raise ValueError("bridged cubic graphs need at least 10 nodes")
    rng = random.Random(seed)
    a = n // 2
    if a % 2 == 0:
        a -= 1  # each half leaves one node out of its matching for the bridge: odd halves
    b = n - a
    cyc_a, e_a = _planted(rng, a, degree2, keep_out=1)
    cyc_b, e_b = _planted(rng, b, degree2, keep_out=1)
    deg_a = _degrees(e_a, a)
    deg_b = _degrees(e_b, b)
    x = next(v for v in cyc_a if deg_a[v] == 2)
    y = next(v for v in cyc_b if deg_b[v] == 2)
    edges = e_a | {_key(u + a, v + a) for u, v in e_b} | {_key(x, y + a)}
    # Hamiltonian path: around half A ending at x, over the bridge, around half B from y.
    i = cyc_a.index(x)
    walk_a = cyc_a[i + 1:] + cyc_a[:i + 1]
    j = cyc_b.index(y)
    walk_b = [v + a for v in cyc_b[j:] + cyc_b[:j]]
    return _graph(edges, n), walk_a + walk_b


def forced_cubic(n: int, seed: int) -> AdjacencyGraph:
    """A planted cubic graph whose node v has all three neighbours cut to degree 2 through v:
    a Hamiltonian cycle would have to use three links at v, so there is none."""
    rng = random.Random(seed)
    cycle, edges = _planted(rng, n, 0.0)
    deg = _degrees(edges, n)
    v = next(u for u in cycle if deg[u] == 3)
    for u in sorted(w for e in edges if v in e for w in e if w != v):
        # Cut u's link to a node that still has degree 3 when there is one, so no node drops
        # to degree 1 (the degree proof alone would then decide the instance).
        other = sorted((e for e in edges if u in e and v not in e),
                       key=lambda e: (-_degree(edges, e[0] + e[1] - u), e))
        for e in other[:len(other) - 1]:
            edges.discard(e)
    return _graph(edges, n)


def _degrees(edges: set[Edge], n: int) -> list[int]:
    deg = [0] * n
    for u, v in edges:
        deg[u] += 1
        deg[v] += 1
    return deg


def _degree(edges: set[Edge], u: int) -> int:
    return sum(1 for e in edges if u in e)


def serpentine(rows: int, cols: int) -> list[int]:
    """A Hamiltonian cycle of the rows x cols mesh (rows even, cols >= 2), row-major ids."""
    if rows % 2 or cols < 2:
        raise ValueError("the serpentine cycle needs an even number of rows and 2+ columns")
    walk: list[int] = []
    for r in range(rows):
        cs = range(1, cols) if r % 2 == 0 else range(cols - 1, 0, -1)
        walk.extend(r * cols + c for c in cs)
    walk.extend(r * cols for r in range(rows - 1, -1, -1))  # back up column 0
    return walk


def _mesh_edges(rows: int, cols: int) -> set[Edge]:
    out = set()
    for r in range(rows):
        for c in range(cols):
            u = r * cols + c
            if c + 1 < cols:
                out.add((u, u + 1))
            if r + 1 < rows:
                out.add((u, u + cols))
    return out


def near_mesh(rows: int, cols: int, removed: int, seed: int) -> tuple[AdjacencyGraph, list[int]]:
    """The mesh minus `removed` random links off a planted Hamiltonian cycle (returned).

    The planted cycle is the serpentine under a random grid symmetry (flips), so removed links
    land differently relative to it on each seed."""
    rng = random.Random(seed)
    flip_r, flip_c = rng.random() < 0.5, rng.random() < 0.5

    def place(u: int) -> int:
        r, c = divmod(u, cols)
        return (rows - 1 - r if flip_r else r) * cols + (cols - 1 - c if flip_c else c)

    cycle = [place(u) for u in serpentine(rows, cols)]
    edges = _mesh_edges(rows, cols)
    spare = sorted(edges - _cycle_edges(cycle))
    rng.shuffle(spare)
    for e in spare[:removed]:
        edges.discard(e)
    return AdjacencyGraph.from_edges(sorted(edges), range(rows * cols), shape=(rows, cols)), cycle


def bridged_mesh(rows: int, cols: int, removed: int, seed: int) -> AdjacencyGraph:
    """The mesh with all links across a random column cut removed but one, plus `removed`
    random links elsewhere: the kept cut link is a bridge, so there is no Hamiltonian cycle."""
    rng = random.Random(seed)
    cut = rng.randrange(1, cols - 1) if cols > 2 else 0
    keep = rng.randrange(rows)
    edges = _mesh_edges(rows, cols)
    for r in range(rows):
        if r != keep:
            edges.discard((r * cols + cut, r * cols + cut + 1))
    others = sorted(edges)
    rng.shuffle(others)
    for e in others[:removed]:
        u, v = e
        # Keep degrees >= 2 so the degree proof alone does not decide it.
        if _degree(edges, u) > 2 and _degree(edges, v) > 2 and e != (keep * cols + cut,
                                                                     keep * cols + cut + 1):
            edges.discard(e)
    return AdjacencyGraph.from_edges(sorted(edges), range(rows * cols), shape=(rows, cols))


FAMILIES = ("cubic-ring", "cubic-line", "cubic-deg2-ring", "mesh-ring", "cubic-unsat",
            "mesh-unsat")


def family(name: str, n: int, count: int, seed: int = 0) -> list[HardInstance]:
    """`count` instances of family `name` with about n global nodes (seeds seed..seed+count-1)."""
    out = []
    for k in range(seed, seed + count):
        s = k * 1_000_003 + n  # distinct streams per size
        if name == "cubic-ring":
            g, cyc = planted_cubic(n, s)
            out.append(HardInstance(name, f"ring:{n} on cubic({n}, seed {k})", ring(n), g, True,
                                    _walk_witness(cyc)))
        elif name == "cubic-deg2-ring":
            g, cyc = planted_cubic(n, s, degree2=0.1)
            out.append(HardInstance(name, f"ring:{n} on cubic+deg2({n}, seed {k})", ring(n), g,
                                    True, _walk_witness(cyc)))
        elif name == "cubic-line":
            if k % 2:
                g, walk = bridged_cubic(n, s)
                label = "bridged cubic"
            else:
                g, cyc = planted_cubic(n, s, degree2=0.05)
                walk, label = cyc, "cubic+deg2"
            out.append(HardInstance(name, f"line:{n} on {label}({n}, seed {k})", line(n), g,
                                    True, _walk_witness(walk)))
        elif name == "mesh-ring":
            rows, cols = _grid(n)
            g, cyc = near_mesh(rows, cols, max(1, n // 16), s)
            out.append(HardInstance(name, f"ring:{n} on mesh {rows}x{cols} -{max(1, n // 16)} "
                                          f"(seed {k})", ring(n), g, True, _walk_witness(cyc)))
        elif name == "cubic-unsat":
            which = k % 3
            if which == 0:
                g, _ = bridged_cubic(n, s)
                out.append(HardInstance(name, f"ring:{n} on bridged cubic({n}, seed {k})",
                                        ring(n), g, False))
            elif which == 1:
                out.append(HardInstance(name, f"ring:{n} on forced cubic({n}, seed {k})",
                                        ring(n), forced_cubic(n, s), False))
            else:
                g, _ = bipartite_cubic(n, s)
                out.append(HardInstance(name, f"ring:{n - 1} on bipartite cubic({n}, seed {k})",
                                        ring(n - 1), g, False))
        elif name == "mesh-unsat":
            rows, cols = _grid(n)
            if k % 2 == 0:
                g = bridged_mesh(rows, cols, max(1, n // 16), s)
                out.append(HardInstance(name, f"ring:{n} on bridged mesh {rows}x{cols} "
                                              f"(seed {k})", ring(n), g, False))
            else:
                g, _ = near_mesh(rows, cols, max(1, n // 16), s)
                out.append(HardInstance(name, f"ring:{n - 1} on mesh {rows}x{cols} "
                                              f"-{max(1, n // 16)} (seed {k})", ring(n - 1), g,
                                        False))
        else:
            raise ValueError(f"unknown family {name!r} (expected one of {FAMILIES})")
    return out


def _grid(n: int) -> tuple[int, int]:
    """An even-rows grid of n nodes, as square as possible (n = 32 -> 8x4, 128 -> 16x8)."""
    for cols in range(int(n ** 0.5), 1, -1):
        if n % cols == 0 and (n // cols) % 2 == 0:
            return n // cols, cols
    raise ValueError(f"no even-rows grid with {n} nodes")
