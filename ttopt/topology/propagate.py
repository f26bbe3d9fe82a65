"""Domain propagation over bitsets: degree, channels, neighbourhood support, all-different.

This replaces the seed's per-candidate `check_hard_constraints` scans (upstream notes §0.7: that
rescan dominated large instances) with domains that only shrink:

- degree: t can only land on g with deg(g) >= deg(t) (seed: "Degree sufficient");
- channels (STRICT): g's channel counts must dominate t's, largest to largest;
- neighbourhood support (AC-3 style, the seed's forward check made global): for every target link
  t-u, every g in D(t) needs some neighbour in D(u);
- all-different: a fixed target (singleton domain) removes its global from every other domain,
  and the unfixed targets need at least as many distinct globals as there are of them
  (pigeonhole).

`Propagator.run` is used once before search with unlimited support revisions and then after every
assignment with revisions limited to small domains (large domains almost never lose support and
a revision costs one OR per candidate).
"""

from __future__ import annotations

from ttopt.topology.index import ConstraintIndex, GraphIndex, bits_list
from ttopt.topology.result import ConnectionValidationMode

Failure = tuple[str, str]


class Propagator:
    """Shrinks a list of domain bitsets to a fixpoint, or reports the target that ran dry."""

    def __init__(self, t: GraphIndex, g: GraphIndex, mode: ConnectionValidationMode) -> None:
        self.t, self.g, self.mode = t, g, mode
        strict = mode is ConnectionValidationMode.STRICT
        # Per target: list of (neighbour, required channels) - channels only matter in STRICT.
        self.links: list[list[tuple[int, int]]] = [
            [(w, t.ch[u][w] if strict else 1) for w in t.nbrs[u]] for u in range(t.n)
        ]
        self.failed_target = -1
        self.revisions = 0

    def support(self, dom: int, channels: int) -> int:
        """Union of the neighbourhoods (over links with enough channels) of the globals in dom."""
        out = 0
        g = self.g
        if channels <= 1:
            adj = g.adj
            while dom:
                low = dom & -dom
                out |= adj[low.bit_length() - 1]
                dom ^= low
        else:
            while dom:
                low = dom & -dom
                out |= g.adj_with(low.bit_length() - 1, channels)
                dom ^= low
        return out

    def run(self, dom: list[int], queue: list[int], fixed: int, limit: int) -> int:
        """Propagate changes of the targets in `queue`; returns the new fixed-set or -1 on wipe-out.

        `dom` is modified in place. `fixed` is the bitset of targets already treated as assigned
        (their global removed from every other domain). `limit`: revise neighbours of a target
        only while its domain has at most this many candidates.
        """
        nt = self.t.n
        links = self.links
        used = 0
        x = fixed
        while x:
            low = x & -x
            used |= dom[low.bit_length() - 1]
            x ^= low
        inq = 0
        for u in queue:
            inq |= 1 << u
        pending = 0  # globals fixed since the last all-different sweep
        while True:
            while queue:
                u = queue.pop()
                inq &= ~(1 << u)
                du = dom[u]
                if not du:
                    self.failed_target = u
                    return -1
                single = du & (du - 1) == 0
                if single and not fixed >> u & 1:
                    if used & du:  # two targets on one global
                        self.failed_target = u
                        return -1
                    used |= du
                    pending |= du
                    fixed |= 1 << u
                if not single and du.bit_count() > limit:
                    continue
                sup_cache: dict[int, int] = {}
                for w, c in links[u]:
                    sup = sup_cache.get(c)
                    if sup is None:
                        sup = self.support(du, c)
                        sup_cache[c] = sup
                        self.revisions += 1
                    dw = dom[w]
                    nw = dw & sup
                    if nw != dw:
                        dom[w] = nw
                        if not nw:
                            self.failed_target = w
                            return -1
                        if not inq >> w & 1:
                            inq |= 1 << w
                            queue.append(w)
            if not pending:
                break
            # All-different, batched: one sweep removes every newly fixed global from the
            # unfixed domains (a sweep per fixed target made propagation quadratic on meshes).
            keep = ~pending
            for w in range(nt):
                if dom[w] & pending and not fixed >> w & 1:
                    nw = dom[w] & keep
                    dom[w] = nw
                    if not nw:
                        self.failed_target = w
                        return -1
                    if not inq >> w & 1:
                        inq |= 1 << w
                        queue.append(w)
            pending = 0
        # Pigeonhole (all-different): the unfixed targets need enough distinct globals.
        free_union = 0
        free_count = 0
        for w in range(nt):
            if not fixed >> w & 1:
                free_union |= dom[w]
                free_count += 1
        if free_union.bit_count() < free_count:
            self.failed_target = -2
            return -1
        return fixed


def _channel_profile(chs: dict[int, int]) -> list[int]:
    return sorted(chs.values(), reverse=True)


def initial_domains(
    t: GraphIndex, g: GraphIndex, ci: ConstraintIndex, mode: ConnectionValidationMode
) -> tuple[list[int], int, Failure | None]:
    """Domains after constraints, degree, channel and full support propagation.

    Returns (domains, fixed bitset, failure); failure names the first target that ran dry and why.
    """
    dom = list(ci.domains)
    tn = t.nodes
    for u in range(t.n):
        if not dom[u]:
            why = "required/forbidden constraints leave no global node"
            if ci.restricted[u] and not ci.domains[u]:
                why = "its required global nodes are forbidden or not in the global graph"
            return dom, 0, ("constraint", f"target node {tn[u]} has no candidate: {why}")
    by_degree: dict[int, int] = {}
    for u in range(t.n):
        d = t.deg[u]
        if d not in by_degree:
            by_degree[d] = sum(1 << j for j in range(g.n) if g.deg[j] >= d)
        nd = dom[u] & by_degree[d]
        if not nd:
            return dom, 0, ("degree",
                            f"target node {tn[u]} has degree {t.deg[u]}, but none of its allowed "
                            f"global nodes has that many neighbours")
        dom[u] = nd
    if mode is ConnectionValidationMode.STRICT:
        gprof = [_channel_profile(g.ch[j]) for j in range(g.n)]
        for u in range(t.n):
            need = _channel_profile(t.ch[u])
            if not need or need[0] <= 1:
                continue
            ok = 0
            for j in bits_list(dom[u]):
                have = gprof[j]
                if len(have) >= len(need) and all(h >= r for h, r in zip(have, need)):
                    ok |= 1 << j
            if not ok:
                return dom, 0, ("channels",
                                f"Strict mode: target node {tn[u]} needs links with {need} "
                                f"channels, but no allowed global node has enough channels")
            dom[u] = ok
    prop = Propagator(t, g, mode)
    fixed = prop.run(dom, list(range(t.n - 1, -1, -1)), 0, 1 << 30)
    if fixed < 0:
        return dom, 0, describe_wipeout(t, prop.failed_target)
    return dom, fixed, None


def describe_wipeout(t: GraphIndex, failed: int) -> Failure:
    """A user-facing reason for a propagation failure before search."""
    if failed == -2:
        return ("pigeonhole", "all-different: the target nodes need more distinct global nodes "
                              "than their candidate sets contain together")
    return ("propagation",
            f"target node {t.nodes[failed]} has no candidate left after neighbourhood-support "
            f"and all-different propagation (its neighbours' candidates have no common link)")
