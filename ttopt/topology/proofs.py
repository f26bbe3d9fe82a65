"""Cheap impossibility proofs run before any search (DECISIONS "Topology solver", notes §8.3).

Each proof is a necessary condition for a (non-induced) subgraph monomorphism that costs at most
a few BFS passes. When one fails, the instance is reported UNSAT with the proof's name and a
sentence a user can act on, and no search runs. Order: cheapest and most explanatory first.
"""

from __future__ import annotations

from collections.abc import Callable

from ttopt.topology.index import ConstraintIndex, GraphIndex, bits_list
from ttopt.topology.result import ConnectionValidationMode

Proof = tuple[str, str]  # (name, message)


def prove_size(t: GraphIndex, g: GraphIndex, ci: ConstraintIndex, mode) -> Proof | None:
    """More target nodes than global nodes (upstream wording: "larger" / "only has")."""
    if t.n > g.n:
        return ("size", f"target graph is larger with {t.n} nodes, but global graph only has "
                        f"{g.n} nodes")
    return None


def prove_edges(t: GraphIndex, g: GraphIndex, ci: ConstraintIndex, mode) -> Proof | None:
    """More target links than global links."""
    et, eg = sum(t.deg) // 2, sum(g.deg) // 2
    if et > eg:
        return ("edges", f"target graph has {et} links, but global graph only has {eg} links")
    return None


def prove_channels(t: GraphIndex, g: GraphIndex, ci: ConstraintIndex, mode) -> Proof | None:
    """STRICT: a target link needs more channels than any global link has."""
    if mode is not ConnectionValidationMode.STRICT:
        return None
    for u in range(t.n):
        for v, c in sorted(t.ch[u].items()):
            if u < v and c > g.max_ch:
                return ("channels",
                        f"Strict mode: target graph edge from node {t.nodes[u]} to "
                        f"{t.nodes[v]} requires {c} channels, but no physical link has more than "
                        f"{g.max_ch} channels")
    return None


def prove_degree_sequence(t: GraphIndex, g: GraphIndex, ci: ConstraintIndex,
                          mode) -> Proof | None:
    """For every k: #targets of degree >= k must not exceed #globals of degree >= k."""
    top = max(t.deg, default=0)
    for k in range(top, 0, -1):
        nt = sum(1 for d in t.deg if d >= k)
        ng = sum(1 for d in g.deg if d >= k)
        if nt > ng:
            return ("degree-sequence",
                    f"degree sequence: {nt} target nodes have degree >= {k}, but only {ng} "
                    f"global nodes do")
    return None


def _fits(sizes: list[int], bins: list[int]) -> bool:
    """Exact bin packing of component sizes (sorted desc) into bins; small inputs only."""
    if not sizes:
        return True
    first, rest = sizes[0], sizes[1:]
    tried = set()
    for i, cap in enumerate(bins):
        if cap >= first and cap not in tried:
            tried.add(cap)
            bins[i] -= first
            ok = _fits(rest, bins)
            bins[i] += first
            if ok:
                return True
    return False


def prove_components(t: GraphIndex, g: GraphIndex, ci: ConstraintIndex, mode) -> Proof | None:
    """Target components must pack into global components (exact for <= 12 components)."""
    tsz = sorted((c.bit_count() for c in t.components()), reverse=True)
    gsz = sorted((c.bit_count() for c in g.components()), reverse=True)
    if not tsz:
        return None
    if tsz[0] > gsz[0]:
        return ("components", f"the largest target component has {tsz[0]} nodes, but the "
                              f"largest global component only has {gsz[0]} nodes")
    if len(tsz) <= 12 and len(gsz) <= 64 and not _fits(tsz, list(gsz)):
        return ("components", f"target components of sizes {tsz} do not fit into global "
                              f"components of sizes {gsz}")
    return None


def prove_bipartite(t: GraphIndex, g: GraphIndex, ci: ConstraintIndex, mode) -> Proof | None:
    """Bipartite parity: an odd cycle cannot map into a bipartite graph; class sizes must fit."""
    # A connected target component lands inside one global component; colour classes map onto
    # colour classes (possibly swapped) when that global component is bipartite.
    gcc = g.component_colouring()
    gcomps: list[tuple[int, tuple[int, int] | None]] = []  # (size, colour class sizes if bipartite)
    for comp in g.components():
        nodes = bits_list(comp)
        if gcc[nodes[0]] < 0:
            gcomps.append((len(nodes), None))
        else:
            a = sum(1 for v in nodes if gcc[v] == 0)
            gcomps.append((len(nodes), (a, len(nodes) - a)))
    tcc = t.component_colouring()
    for comp in t.components():
        nodes = bits_list(comp)
        if tcc[nodes[0]] < 0:
            if not any(size >= len(nodes) and cls is None for size, cls in gcomps):
                return ("bipartite-parity",
                        f"bipartite parity: the target graph contains an odd cycle "
                        f"({_odd_cycle_hint(t, nodes)}), but the global graph is bipartite")
            continue
        a = sum(1 for v in nodes if tcc[v] == 0)
        b = len(nodes) - a
        if not any(size >= len(nodes) and (cls is None or (a <= cls[0] and b <= cls[1]) or
                                           (a <= cls[1] and b <= cls[0]))
                   for size, cls in gcomps):
            return ("bipartite-classes",
                    f"bipartite parity: a target component has colour classes of {max(a, b)} and "
                    f"{min(a, b)} nodes, which no bipartite global component can hold")
    return None


def _odd_cycle_hint(t: GraphIndex, nodes: list[int]) -> str:
    """Describe the odd cycle (ring length when the component is a single cycle)."""
    if all(t.deg[v] == 2 for v in nodes):
        return f"a ring of {len(nodes)} nodes"
    return f"a component of {len(nodes)} nodes containing target node {t.nodes[nodes[0]]}"


def prove_pins(t: GraphIndex, g: GraphIndex, ci: ConstraintIndex, mode) -> Proof | None:
    """Pinned targets: distinct globals, and pinned pairs no farther apart than in the target."""
    pins = [(u, d.bit_length() - 1) for u, d in enumerate(ci.domains) if d and d & (d - 1) == 0]
    seen: dict[int, int] = {}
    for u, a in pins:
        if a in seen:
            return ("pin-conflict",
                    f"Pre-assignment conflict: target nodes {t.nodes[seen[a]]} and {t.nodes[u]} "
                    f"are both pinned to global node {g.nodes[a]}. Multiple target nodes cannot "
                    f"map to the same global node.")
        seen[a] = u
    if len(pins) < 2 or len(pins) > 64:
        return None
    gcol = g.component_colouring()
    tcol = t.component_colouring()
    for i, (u, a) in enumerate(pins):
        dt = t.distances_from(u)
        dg = g.distances_from(a)
        for v, b in pins[i + 1:]:
            if dt[v] < 0:
                continue  # different target components: no distance constraint
            if dg[b] < 0 or dg[b] > dt[v]:
                far = "unreachable" if dg[b] < 0 else f"{dg[b]} links apart"
                return ("pin-distance",
                        f"target nodes {t.nodes[u]} and {t.nodes[v]} are {dt[v]} links apart but "
                        f"are pinned to global nodes {g.nodes[a]} and {g.nodes[b]}, which are "
                        f"{far}")
            if min(gcol[a], tcol[u]) >= 0 and (gcol[a] ^ gcol[b]) != (tcol[u] ^ tcol[v]):
                return ("pin-parity",
                        f"bipartite parity: target nodes {t.nodes[u]} and {t.nodes[v]} are an "
                        f"{'odd' if tcol[u] ^ tcol[v] else 'even'} number of links apart, but "
                        f"their pins {g.nodes[a]} and {g.nodes[b]} are an "
                        f"{'odd' if gcol[a] ^ gcol[b] else 'even'} number of links apart in the "
                        f"bipartite global graph")
    return None


PROOFS: list[tuple[str, Callable]] = [
    ("size", prove_size),
    ("edges", prove_edges),
    ("channels", prove_channels),
    ("degree-sequence", prove_degree_sequence),
    ("components", prove_components),
    ("bipartite", prove_bipartite),
    ("pins", prove_pins),
]


def run_proofs(t: GraphIndex, g: GraphIndex, ci: ConstraintIndex,
               mode: ConnectionValidationMode) -> Proof | None:
    """The first impossibility proof that applies, or None if none does."""
    for _, proof in PROOFS:
        got = proof(t, g, ci, mode)
        if got is not None:
            return got
    return None
