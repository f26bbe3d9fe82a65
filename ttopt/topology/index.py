"""GraphIndex and ConstraintIndex: the integer form every engine works on (seed: Phase 1).

Nodes become indices in canonical order; neighbourhoods and candidate sets become Python-int
bitsets (bit g set = global node g), so intersecting a domain with a neighbourhood is one `&`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ttopt.topology.constraints import MappingConstraints
from ttopt.topology.graph import AdjacencyGraph, node_sort_key
from ttopt.topology.result import ConnectionValidationMode


def iter_bits(x: int):
    """Yield the indices of the set bits of x in increasing order."""
    while x:
        low = x & -x
        yield low.bit_length() - 1
        x ^= low


def bits_list(x: int) -> list[int]:
    """Indices of the set bits of x, increasing."""
    out = []
    while x:
        low = x & -x
        out.append(low.bit_length() - 1)
        x ^= low
    return out


class GraphIndex:
    """An AdjacencyGraph as indices: neighbour lists, adjacency bitsets, degrees, channels."""

    def __init__(self, graph: AdjacencyGraph) -> None:
        self.graph = graph
        self.nodes = graph.get_nodes()
        self.pos = {n: i for i, n in enumerate(self.nodes)}
        self.n = len(self.nodes)
        self.nbrs: list[tuple[int, ...]] = []
        self.ch: list[dict[int, int]] = []
        for u in self.nodes:
            row = {self.pos[v]: graph.channels(u, v) for v in graph.get_neighbors(u)}
            self.ch.append(row)
            self.nbrs.append(tuple(sorted(row)))
        self.adj: list[int] = [sum(1 << j for j in nb) for nb in self.nbrs]
        self.deg = [len(nb) for nb in self.nbrs]
        self.all = (1 << self.n) - 1
        self.max_ch = max((c for row in self.ch for c in row.values()), default=0)
        self._adj_ch: dict[tuple[int, int], int] = {}

    def adj_with(self, i: int, channels: int) -> int:
        """Neighbours of i over links with at least `channels` channels (bitset)."""
        if channels <= 1:
            return self.adj[i]
        key = (i, channels)
        got = self._adj_ch.get(key)
        if got is None:
            got = sum(1 << j for j, c in self.ch[i].items() if c >= channels)
            self._adj_ch[key] = got
        return got

    def components(self) -> list[int]:
        """Connected components as bitsets, ordered by their lowest node."""
        seen = 0
        comps = []
        for s in range(self.n):
            if seen >> s & 1:
                continue
            comp = self.flood(1 << s, self.all)
            seen |= comp
            comps.append(comp)
        return comps

    def flood(self, start: int, allowed: int) -> int:
        """Nodes reachable from bitset `start` through nodes of `allowed` (start included)."""
        reach = start
        frontier = start
        adj = self.adj
        while frontier:
            nxt = 0
            while frontier:
                low = frontier & -frontier
                nxt |= adj[low.bit_length() - 1]
                frontier ^= low
            frontier = nxt & allowed & ~reach
            reach |= frontier
        return reach

    def component_colouring(self) -> list[int]:
        """Colour 0/1 per node of bipartite components, -1 for nodes of non-bipartite ones."""
        colour = [-1] * self.n
        for comp in self.components():
            nodes = bits_list(comp)
            colour[nodes[0]] = 0
            stack = [nodes[0]]
            ok = True
            while stack and ok:
                u = stack.pop()
                for v in self.nbrs[u]:
                    if colour[v] < 0:
                        colour[v] = colour[u] ^ 1
                        stack.append(v)
                    elif colour[v] == colour[u]:
                        ok = False
                        break
            if not ok:
                for v in nodes:
                    colour[v] = -1
        return colour

    def two_colouring(self) -> list[int] | None:
        """Colour 0/1 per node if the whole graph is bipartite, else None."""
        colour = self.component_colouring()
        return None if any(c < 0 for c in colour) else colour

    def distances_from(self, s: int) -> list[int]:
        """BFS distance from s to every node (-1 = unreachable)."""
        dist = [-1] * self.n
        dist[s] = 0
        frontier = [s]
        while frontier:
            nxt = []
            for u in frontier:
                for v in self.nbrs[u]:
                    if dist[v] < 0:
                        dist[v] = dist[u] + 1
                        nxt.append(v)
            frontier = nxt
        return dist


@dataclass
class ConstraintIndex:
    """Constraints as per-target bitsets over global indices."""

    domains: list[int]  # allowed globals per target (required minus forbidden)
    preferred: list[int]
    restricted: list[bool]  # target had a required set
    groups: list[tuple[list[int], int]] = field(default_factory=list)
    cardinality: list[tuple[list[tuple[int, int]], int]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # inputs that are not graph nodes
    notes: list[str] = field(default_factory=list)  # reason per target when its set is empty


def index_constraints(
    target: GraphIndex, global_: GraphIndex, constraints: MappingConstraints | None
) -> ConstraintIndex:
    """Translate MappingConstraints into bitsets; unknown nodes are reported, not ignored."""
    nt = target.n
    full = global_.all
    ci = ConstraintIndex([full] * nt, [0] * nt, [False] * nt)
    if constraints is None:
        return ci
    unknown_t = [t for t in constraints.mentioned_targets() if t not in target.pos]
    for t in sorted(unknown_t, key=node_sort_key):
        ci.errors.append(f"constraint refers to target node {t} which is not in the target graph")

    def gbits(nodes) -> int:
        out = 0
        for g in nodes:
            j = global_.pos.get(g)
            if j is None:
                ci.errors.append(
                    f"constraint refers to global node {g} which is not in the global graph")
            else:
                out |= 1 << j
        return out

    for i, t in enumerate(target.nodes):
        if constraints.is_restricted(t):
            ci.restricted[i] = True
            # Fail closed (upstream failed open when all allowed globals were unknown, §3.9).
            ci.domains[i] = gbits(sorted(constraints.get_valid_mappings(t), key=node_sort_key))
        forbidden = [g for tt, g in constraints.get_forbidden_pairs() if tt == t]
        ci.domains[i] &= ~gbits(forbidden) & full
        ci.preferred[i] = gbits(sorted(constraints.get_preferred_mappings(t), key=node_sort_key))
    for targets, pool in constraints.get_pinning_groups():
        idx = sorted(target.pos[t] for t in targets if t in target.pos)
        ci.groups.append((idx, gbits(sorted(pool, key=node_sort_key))))
    for c in constraints.get_cardinality_constraints():
        pairs = [(target.pos[t], global_.pos[g]) for t, g in c.pairs
                 if t in target.pos and g in global_.pos]
        ci.cardinality.append((pairs, c.min_count))
    ci.errors = sorted(set(ci.errors))
    return ci


def required_channels(target: GraphIndex, mode: ConnectionValidationMode, u: int, v: int) -> int:
    """Channels a global link must carry for target link u-v (1 unless STRICT)."""
    return target.ch[u][v] if mode is ConnectionValidationMode.STRICT else 1
