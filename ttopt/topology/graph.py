"""AdjacencyGraph: an undirected multigraph given as node -> neighbour list (seed: Public API).

Semantics (seed "AdjacencyGraph", upstream notes §2.1, with the recommended fixes):
- a repeated neighbour entry is one more channel on that link;
- self-loops are dropped (they never constrain a mapping);
- adjacency is symmetrised: a link listed on one side only exists on both sides, and the channel
  count of a link is the max of the two directions (upstream kept directions separate, which made
  edge checks order dependent);
- a node that appears only inside a neighbour list is a node too (upstream silently dropped it);
- node order is sorted (ints before strings), which is the index order and therefore every
  tie-break of the solver; this is what makes results deterministic.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from typing import Any

Node = Hashable


def node_sort_key(node: Node) -> tuple[int, Any]:
    """Total order over mixed node ids: ints (by value) before everything else (by str)."""
    if isinstance(node, bool):
        return (1, str(node))
    if isinstance(node, int):
        return (0, node)
    return (1, str(node))


class AdjacencyGraph:
    """An undirected multigraph with per-link channel counts and optional per-node traits."""

    __slots__ = ("_nodes", "_adj", "_traits", "shape", "wrap")

    def __init__(
        self,
        adjacency: Mapping[Node, Iterable[Node]] | None = None,
        traits: Mapping[Node, Mapping[str, Any]] | None = None,
        *,
        shape: tuple[int, int] | None = None,
        wrap: tuple[bool, bool] = (False, False),
    ) -> None:
        adj: dict[Node, dict[Node, int]] = {}
        for u, nbrs in (adjacency or {}).items():
            adj.setdefault(u, {})
            counts: dict[Node, int] = {}
            for v in nbrs:
                if v == u:
                    continue  # self-loop: dropped (seed: "self-loops ignored")
                counts[v] = counts.get(v, 0) + 1
            for v, c in counts.items():
                adj.setdefault(v, {})
                # Symmetrise with max(): a link described as 2 channels on one side and 1 on the
                # other is a 2-channel link (upstream test helper semantics, notes §2.1).
                adj[u][v] = max(adj[u].get(v, 0), c)
                adj[v][u] = max(adj[v].get(u, 0), c)
        self._nodes: tuple[Node, ...] = tuple(sorted(adj, key=node_sort_key))
        self._adj = adj
        self._traits: dict[Node, dict[str, Any]] = {}
        for n, t in (traits or {}).items():
            if n not in adj:
                raise ValueError(f"traits given for unknown node {n!r}")
            self._traits[n] = dict(t)
        # Grid metadata: lets the CLI draw a picture of mesh/torus-shaped graphs (rows, cols).
        self.shape = shape
        self.wrap = wrap

    @classmethod
    def from_edges(
        cls,
        edges: Iterable[tuple[Node, Node] | tuple[Node, Node, int]],
        nodes: Iterable[Node] = (),
        **kwargs: Any,
    ) -> AdjacencyGraph:
        """Build from (u, v) or (u, v, channels) triples; `nodes` adds isolated nodes."""
        adjacency: dict[Node, list[Node]] = {n: [] for n in nodes}
        for e in edges:
            u, v = e[0], e[1]
            c = e[2] if len(e) > 2 else 1  # type: ignore[misc]
            adjacency.setdefault(u, []).extend([v] * c)
            adjacency.setdefault(v, [])
        return cls(adjacency, **kwargs)

    # --- queries -------------------------------------------------------------------------------
    def get_nodes(self) -> list[Node]:
        """All nodes in the canonical (sorted) order."""
        return list(self._nodes)

    nodes = get_nodes

    def __len__(self) -> int:
        return len(self._nodes)

    def __contains__(self, node: object) -> bool:
        return node in self._adj

    def get_neighbors(self, node: Node) -> list[Node]:
        """Distinct neighbours in canonical order (unknown node: empty list)."""
        return sorted(self._adj.get(node, {}), key=node_sort_key)

    neighbors = get_neighbors

    def channels(self, u: Node, v: Node) -> int:
        """Number of channels on link u-v (0 if there is no link)."""
        return self._adj.get(u, {}).get(v, 0)

    def degree(self, node: Node) -> int:
        """Number of distinct neighbours (multi-edges count once, as in the seed)."""
        return len(self._adj.get(node, {}))

    def edges(self) -> list[tuple[Node, Node, int]]:
        """Each undirected link once as (u, v, channels) with u before v in node order."""
        pos = {n: i for i, n in enumerate(self._nodes)}
        out = []
        for u in self._nodes:
            for v, c in self._adj[u].items():
                if pos[u] < pos[v]:
                    out.append((u, v, c))
        out.sort(key=lambda e: (pos[e[0]], pos[e[1]]))
        return out

    def num_edges(self) -> int:
        """Number of distinct undirected links."""
        return sum(len(a) for a in self._adj.values()) // 2

    def traits(self, node: Node) -> dict[str, Any]:
        """Traits of a node (empty dict if none)."""
        return dict(self._traits.get(node, {}))

    def trait_map(self, name: str) -> dict[Node, Any]:
        """node -> value of trait `name`, for nodes that have it."""
        return {n: t[name] for n, t in self._traits.items() if name in t}

    def get_adjacency_map(self) -> dict[Node, list[Node]]:
        """node -> neighbour list with repeats for channels (the seed's input format)."""
        return {
            u: [v for v in self.get_neighbors(u) for _ in range(self._adj[u][v])]
            for u in self._nodes
        }

    def find_node(self, text: str) -> Node | None:
        """The node whose printed form is `text` (for CLI pins), or None."""
        for n in self._nodes:
            if str(n) == text:
                return n
        return None

    def without_links(self, links: Iterable[tuple[Node, Node]]) -> AdjacencyGraph:
        """A copy with the given links removed entirely (degraded hardware)."""
        drop = {frozenset(link) for link in links}
        adjacency = {
            u: [v for v in nbrs if frozenset((u, v)) not in drop]
            for u, nbrs in self.get_adjacency_map().items()
        }
        return AdjacencyGraph(adjacency, self._traits, shape=self.shape, wrap=self.wrap)

    def __repr__(self) -> str:
        return f"AdjacencyGraph(nodes={len(self)}, edges={self.num_edges()})"
