"""Structural proofs for cycle targets: biconnected blocks and degree-2 forcing.

A simple cycle never crosses a cut vertex or a bridge, so it lies inside one biconnected block of
the global graph: globals outside every block with at least n nodes cannot host a ring of n.

For a Hamiltonian cycle (the ring uses every available global) each node uses exactly two of its
links. A node with two usable links forces both; a node with two forced links loses its others,
which can force more. A node left with fewer than two usable links, or three forced ones, or
forced links closing a cycle that misses nodes, proves that there is no such cycle.
"""

from __future__ import annotations

from ttopt.topology.index import bits_list


def biconnected_blocks(adj: list[int], allowed: int) -> list[int]:
    """Biconnected blocks (node bitsets) of the graph induced by `allowed`; a bridge is a
    two-node block, an isolated node is in none."""
    disc: dict[int, int] = {}
    low: dict[int, int] = {}
    out: list[int] = []
    edges: list[tuple[int, int]] = []
    clock = 0
    for root in bits_list(allowed):
        if root in disc:
            continue
        disc[root] = low[root] = clock
        clock += 1
        # Iterative DFS (a 10^4-node graph would overflow Python's recursion).
        stack = [(root, -1, iter(bits_list(adj[root] & allowed)))]
        while stack:
            u, parent, it = stack[-1]
            descended = False
            for v in it:
                if v not in disc:
                    disc[v] = low[v] = clock
                    clock += 1
                    edges.append((u, v))
                    stack.append((v, u, iter(bits_list(adj[v] & allowed))))
                    descended = True
                    break
                if v != parent and disc[v] < disc[u]:
                    low[u] = min(low[u], disc[v])
                    edges.append((u, v))
            if descended:
                continue
            stack.pop()
            if stack:
                p = stack[-1][0]
                low[p] = min(low[p], low[u])
                if low[u] >= disc[p]:  # p separates u's subtree: pop its block
                    block = 0
                    while True:
                        a, b = edges.pop()
                        block |= 1 << a | 1 << b
                        if (a, b) == (p, u):
                            break
                    out.append(block)
    return out


def cycle_hosts(adj: list[int], allowed: int, n: int) -> int:
    """The allowed globals that lie in a biconnected block of at least n nodes."""
    keep = 0
    for block in biconnected_blocks(adj, allowed):
        if block.bit_count() >= n:
            keep |= block
    return keep


def hamiltonian_cycle_conflict(adj: list[int], allowed: int) -> str | None:
    """Why no cycle through every node of `allowed` exists by degree-2 forcing, or None."""
    usable = {v: adj[v] & allowed for v in bits_list(allowed)}
    total = len(usable)
    forced = {v: 0 for v in usable}
    comp = {v: v for v in usable}  # union-find over forced links: a closed forced cycle is final

    def find(v: int) -> int:
        while comp[v] != v:
            comp[v] = comp[comp[v]]
            v = comp[v]
        return v

    size = {v: 1 for v in usable}
    todo = list(usable)
    while todo:
        v = todo.pop()
        links = usable[v]
        k = links.bit_count()
        if k < 2:
            return f"global {v} has fewer than two usable links"
        if k == 2 and forced[v] != links:
            for w in bits_list(links & ~forced[v]):
                if forced[w].bit_count() == 2:
                    return f"global {w} would need three cycle links"
                forced[v] |= 1 << w
                forced[w] |= 1 << v
                a, b = find(v), find(w)
                if a == b:
                    if size[a] < total:
                        return f"forced links close a cycle of {size[a]} of {total} nodes"
                else:
                    comp[a] = b
                    size[b] += size[a]
                todo.append(w)
        if forced[v].bit_count() == 2 and links != forced[v]:
            # Both cycle links of v are known: its other links are unusable on both ends.
            for w in bits_list(links & ~forced[v]):
                usable[w] &= ~(1 << v)
                todo.append(w)
            usable[v] = forced[v]
    return None
