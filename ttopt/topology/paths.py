"""Path/cycle fast path (seed: "PathGraphDetector", "Fast Path Optimization"; upstream §3.10).

When the target is one simple path or one simple cycle (the fabric's line and ring meshes), the
mapping is a walk in the global graph, so we extend the walk one global node at a time instead of
running the general engine. The hard instances are Hamiltonian or near-full walks on grids, so the
extension is a DFS with strong pruning, checked for every candidate next node c:

- reachability (the pre-solver mapper's prune): the nodes still to place must fit in the part
  of the free graph reachable from c, walking through free nodes only;
- cycles: some free neighbour of the start must stay reachable (the walk has to come back);
- near-full fills (no spare global nodes): the free graph must be connected, and every free node
  needs two free-or-head(-or-start, for cycles) neighbours except at most one path end (dead ends);
- pinned positions ahead: the next pinned global must be within the remaining walk length, with
  matching parity when the global graph is bipartite;
- candidates ordered by preference, RELAXED channel fit, then Warnsdorff (fewest onward moves).

Symmetry: with no constraint telling the target nodes apart, a cycle can be rotated and reflected.
So the cycle starts on each global node in turn (lowest degree first) and a start that fails is
removed for good (every cycle through it was tried); reflections are cut by requiring the second
node's index to be below the closing node's. For paths, a failed start can no longer be an end.

The DFS is exhaustive, so returning None proves that no mapping exists.
"""

from __future__ import annotations

import sys

from ttopt.topology.blocks import cycle_hosts, hamiltonian_cycle_conflict
from ttopt.topology.index import ConstraintIndex, GraphIndex, bits_list
from ttopt.topology.result import ConnectionValidationMode, SolverStatistics
from ttopt.topology.rotation import RotationSearch
from ttopt.topology.search import (
    LIMIT_CHECK_EVERY,
    Limits,
    TraceRecorder,
    channel_score,
)

RESTART_BUDGET = 2_000  # search nodes for each start's first attempt, doubled every round
RESTART_MAX = 1 << 22
ROTATION_STEPS_PER_NODE = 8  # rotation steps per DFS node of budget before each DFS attempt  # from this budget on attempts are unbounded


class _Budget(Exception):
    """One start's attempt used up its node budget (internal to restarts)."""


SLACK_SCAN = 8  # scan for dead ends when at most this many reachable free nodes are spare


def detect_path_or_cycle(t: GraphIndex) -> tuple[str, list[int]] | None:
    """('path' | 'cycle', target indices in walk order) if the target is one path/cycle of >= 3."""
    n = t.n
    if n < 3 or any(d > 2 for d in t.deg) or len(t.components()) != 1:
        return None
    ends = [u for u in range(n) if t.deg[u] == 1]
    if len(ends) == 2:
        kind, start = "path", ends[0]
    elif not ends and all(d == 2 for d in t.deg):
        kind, start = "cycle", 0
    else:
        return None
    order = [start]
    prev, cur = -1, start
    while len(order) < n:
        nxt = [w for w in t.nbrs[cur] if w != prev]
        prev, cur = cur, nxt[0]
        order.append(cur)
    return kind, order


class PathEngine:
    """Walk-extension DFS for path and cycle targets."""

    name = "path"

    def __init__(self, t: GraphIndex, g: GraphIndex, ci: ConstraintIndex,
                 mode: ConnectionValidationMode, limits: Limits, stats: SolverStatistics,
                 kind: str, order: list[int], trace: TraceRecorder | None = None) -> None:
        self.t, self.g, self.ci, self.mode = t, g, ci, mode
        self.limits, self.stats, self.trace = limits, stats, trace
        self.kind, self.order = kind, list(order)

    # --- setup ---------------------------------------------------------------------------------
    def _orient(self, dom: list[int]) -> None:
        p = self.order
        size = [dom[u].bit_count() for u in range(self.t.n)]
        if self.kind == "path":
            if size[p[-1]] < size[p[0]]:
                p.reverse()
        else:
            # Start at the most constrained node; among equals at one with a preference, so the
            # preferred global is tried as the very first placement.
            pref = self.ci.preferred
            k = min(range(len(p)), key=lambda i: (size[p[i]], not pref[p[i]], p[i]))
            p[:] = p[k:] + p[:k]
        self.order = p

    def solve(self, dom: list[int], fixed: int) -> list[int] | None:
        """A full assignment (global index per target) or None if none exists."""
        t, g = self.t, self.g
        n = t.n
        if sys.getrecursionlimit() < n + 1100:
            sys.setrecursionlimit(n + 1100)
        self._orient(dom)
        p = self.order
        strict = self.mode is ConnectionValidationMode.STRICT
        cycle = self.kind == "cycle"
        self.req = [t.ch[p[i]].get(p[(i + 1) % n], 1) for i in range(n)]
        self.chan = [c if strict else 1 for c in self.req]
        self.D = [dom[u] for u in p]
        self.pref = [self.ci.preferred[u] for u in p]
        self.avail = 0
        for d in self.D:
            self.avail |= d
        self.symmetric = (
            all(d == self.D[0] for d in self.D) and not any(self.pref)
            and not self.ci.cardinality and (not strict or len(set(self.req)) == 1))
        self.anchors = [i for i, d in enumerate(self.D) if d & (d - 1) == 0]
        self.colour = g.component_colouring()
        # Colour classes of bipartite components: a walk alternates colours, so the positions
        # still to place need a fixed number of free nodes of each colour (parity budget).
        self.cmask = [0, 0]
        for v, col in enumerate(self.colour):
            if col >= 0:
                self.cmask[col] |= 1 << v
        self.bipartite = all(col >= 0 for col in self.colour)
        self.map = [-1] * n
        self.no_end = 0
        stats = self.stats
        if cycle and not self._cycle_structure_ok():
            return None
        starts = bits_list(self.D[0])
        if self.symmetric:
            deg_in = {c: (g.adj[c] & self.avail).bit_count() for c in starts}
            starts.sort(key=lambda c: (deg_in[c], c))
            if not cycle and self.avail.bit_count() == n:
                ones = [c for c in starts if deg_in[c] == 1]
                if ones:  # Hamiltonian path: a degree-1 node must be an end
                    starts = ones
        else:
            pref0 = self.pref[0]
            starts.sort(key=lambda c: (-(pref0 >> c & 1), g.deg[c], c))
        # Restarts over the start nodes with a doubling node budget per attempt: a DFS from a
        # bad start can thrash for a long time while another start succeeds at once (heavy
        # tails on near-full walks). A start whose attempt finishes within its budget is fully
        # exhausted; the budget is unbounded once only one start is left, so the search stays
        # complete and deterministic.
        budget = RESTART_BUDGET
        live = [s for s in starts]
        rotation = None
        # Rotation ignores RELAXED channel fit, which decides the answer (and its warnings)
        # when a target link wants more than one channel.
        if self.symmetric and not (self.mode is ConnectionValidationMode.RELAXED
                                   and max(self.req) > 1):
            chan = self.chan[0]
            rotation = RotationSearch([g.adj_with(v, chan) for v in range(g.n)], self.avail, n,
                                      cycle, list(starts))
        while live:
            unbounded = len(live) == 1 or budget >= RESTART_MAX
            nxt = []
            for s in live:
                if rotation is not None:
                    # A rotation step costs about a tenth of a DFS node: same time for both.
                    walk = self._rotate(rotation, budget * ROTATION_STEPS_PER_NODE)
                    if walk is not None:
                        walk = self._canonical(walk, starts)
                        out = [-1] * n
                        for i, u in enumerate(p):
                            out[u] = walk[i]
                            if self.trace is not None:
                                self.trace.event("select", i, target=t.nodes[u],
                                                 candidates=[g.nodes[walk[i]]])
                                self.trace.event("assign", i, target=t.nodes[u],
                                                 glob=g.nodes[walk[i]], reason="rotation")
                        return out
                if not (self.D[0] >> s & 1):
                    continue  # removed by symmetry after an earlier start failed
                self.start = s
                self.map[0] = s
                self.close = g.adj_with(s, self.chan[n - 1]) & self.D[n - 1] if cycle else 0
                if self.trace is not None:
                    self.trace.event("select", 0, target=t.nodes[p[0]], candidates=[g.nodes[s]])
                self.cap = float("inf") if unbounded else stats.nodes_explored + budget
                try:
                    found = self._extend(0, s, 1 << s)
                except _Budget:
                    nxt.append(s)
                    continue
                if found:
                    out = [-1] * n
                    for i, u in enumerate(p):
                        out[u] = self.map[i]
                    return out
                stats.backtracks += 1
                if self.symmetric:
                    if cycle:
                        # Every cycle through s was tried with s first: drop s everywhere.
                        keep = ~(1 << s)
                        self.D = [d & keep for d in self.D]
                        self.avail &= keep
                        if self.avail.bit_count() < n:
                            return None
                    else:
                        self.no_end |= 1 << s  # every path ending at s was tried reversed
            live = nxt
            budget *= 2
        return None

    def _cycle_structure_ok(self) -> bool:
        """Restrict the domains to globals in big enough biconnected blocks; False when a
        block or degree-2 forcing argument proves there is no cycle (blocks.py)."""
        g, n = self.g, len(self.order)
        # A link every position can use: any cycle of the target is a cycle over these links.
        chan = min(self.chan)
        adj = [g.adj_with(v, chan) for v in range(g.n)]
        hosts = cycle_hosts(adj, self.avail, n)
        if hosts != self.avail:
            self.D = [d & hosts for d in self.D]
            self.avail &= hosts
            self.anchors = [i for i, d in enumerate(self.D) if d & (d - 1) == 0]
            if self.avail.bit_count() < n or not all(self.D):
                self._note("no biconnected block of the global graph can hold the ring")
                return False
        if self.avail.bit_count() == n:
            why = hamiltonian_cycle_conflict(adj, self.avail)
            if why is not None:
                self._note(why)
                return False
        return True

    def _canonical(self, walk: list[int], starts: list[int]) -> list[int]:
        """The same walk as the DFS would state it: from its first start in the start order,
        and for a cycle in the direction whose second node is the lower index."""
        rank = {c: i for i, c in enumerate(starts)}
        worst = len(starts)
        if self.kind == "cycle":
            k = min(range(len(walk)), key=lambda i: (rank.get(walk[i], worst), walk[i]))
            walk = walk[k:] + walk[:k]
            if walk[1] > walk[-1]:
                walk = walk[:1] + walk[:0:-1]
        elif (rank.get(walk[-1], worst), walk[-1]) < (rank.get(walk[0], worst), walk[0]):
            walk = walk[::-1]
        return walk

    def _note(self, why: str) -> None:
        if self.trace is not None:
            self.trace.event("prune", 0, target=self.t.nodes[self.order[0]], reason=why)

    def _rotate(self, rotation: RotationSearch, steps: int) -> list[int] | None:
        """Rotation-extension for `steps` steps (each a search node), within the limits."""
        # A step is charged as 1/ROTATION_STEPS_PER_NODE of a node (its share of the time), so
        # a node budget (auto's first native slice) buys rotation that many more steps.
        stats = self.stats
        room = (self.limits.node_cap - stats.nodes_explored + 1) * ROTATION_STEPS_PER_NODE
        walk, used = rotation.run(max(int(min(steps, room)), 0))
        stats.nodes_explored += -(-used // ROTATION_STEPS_PER_NODE)
        self.limits.check(stats.nodes_explored)
        return walk

    # --- the walk ------------------------------------------------------------------------------
    def _extend(self, i: int, head: int, used: int) -> bool:
        n = len(self.order)
        if i == n - 1:
            return True
        stats = self.stats
        stats.nodes_explored += 1
        if stats.nodes_explored % LIMIT_CHECK_EVERY == 0 or \
                stats.nodes_explored > self.limits.node_cap:
            self.limits.check(stats.nodes_explored)
        if stats.nodes_explored > self.cap:
            raise _Budget
        g = self.g
        adj = g.adj
        j = i + 1
        cycle = self.kind == "cycle"
        cands = g.adj_with(head, self.chan[i]) & self.D[j] & ~used
        if j == n - 1:
            cands &= self.close if cycle else ~self.no_end
        if not cands:
            stats.prunings += 1
            return False
        free_base = self.avail & ~used
        rest = n - 1 - j  # positions after j
        pref = self.pref[j]
        relaxed = self.mode is ConnectionValidationMode.RELAXED
        keyed = []
        for c in bits_list(cands):
            k = 0
            if pref >> c & 1:
                k -= 1 << 20
            if relaxed:
                k -= channel_score(g.ch[head][c], self.req[i]) << 8
            k += (adj[c] & free_base).bit_count()  # Warnsdorff: fewest onward moves first
            keyed.append((k, c))
        keyed.sort()
        tr = self.trace
        if tr is not None:
            tr.event("select", j, target=self.t.nodes[self.order[j]],
                     candidates=[g.nodes[c] for _, c in keyed])
        for _, c in keyed:
            if i == 0 and cycle and self.symmetric:
                # Reflection symmetry: second node below the closing node.
                close = self.close & ~((1 << (c + 1)) - 1)
                if not close:
                    stats.prunings += 1
                    continue
                saved_close, self.close = self.close, close
            else:
                saved_close = None
            used2 = used | (1 << c)
            why = self._prune(j, c, used2, rest) if rest else None
            if why is None:
                self.map[j] = c
                if tr is not None:
                    tr.event("assign", j, target=self.t.nodes[self.order[j]], glob=g.nodes[c])
                if self._extend(j, c, used2):
                    return True
                stats.backtracks += 1
            else:
                stats.prunings += 1
                if tr is not None:
                    tr.event("prune", j, target=self.t.nodes[self.order[j]], glob=g.nodes[c],
                             reason=why)
            if saved_close is not None:
                self.close = saved_close
        return False

    def _prune(self, j: int, c: int, used: int, rest: int) -> str | None:
        """Why placing position j on c cannot be completed (None = keep it)."""
        g = self.g
        adj = g.adj
        free = self.avail & ~used
        reach = g.flood(adj[c] & free, free) if adj[c] & free else 0
        if reach.bit_count() < rest:
            return f"only {reach.bit_count()} free nodes reachable, {rest} needed"
        cycle = self.kind == "cycle"
        if cycle and not (reach & self.close):
            return "start no longer reachable"
        if self.bipartite:
            # Positions j+1..n-1 alternate colours starting with the opposite of c's colour.
            other = self.colour[c] ^ 1
            need_other = (rest + 1) // 2
            need_same = rest // 2
            if (reach & self.cmask[other]).bit_count() < need_other or \
                    (reach & self.cmask[other ^ 1]).bit_count() < need_same:
                return "parity: not enough free nodes of each colour"
        spare = reach.bit_count() - rest
        if spare <= SLACK_SCAN:
            # Near-full fill: a reachable free node with fewer than two free-or-head (or start,
            # for cycles) neighbours cannot be passed through, so it is skipped or is the path's
            # last node; skipped nodes must fit in the spare budget (per colour when bipartite).
            base = free | (1 << c)
            if cycle:
                base |= 1 << self.start
            low = [0, 0]
            ones = [0, 0]  # nodes with exactly one free-or-head neighbour: skipped, or the path's end
            x = reach
            colour = self.colour
            while x:
                bit = x & -x
                v = bit.bit_length() - 1
                x ^= bit
                k = (adj[v] & base).bit_count()
                if k < 2:
                    col = colour[v] if self.bipartite else 0
                    low[col] += 1
                    ones[col] += k
            if not cycle:
                # One such node may be the path's last node instead of a skipped one. In a
                # bipartite graph the last position's colour is fixed by parity, so only a node of
                # that colour can be the end (exempting the first one found was a false UNSAT).
                end_col = (self.colour[c] ^ (rest & 1)) if self.bipartite else 0
                if ones[end_col]:
                    low[end_col] -= 1
            if self.bipartite:
                other = self.colour[c] ^ 1
                budget = [0, 0]
                budget[other] = (reach & self.cmask[other]).bit_count() - (rest + 1) // 2
                budget[other ^ 1] = (reach & self.cmask[other ^ 1]).bit_count() - rest // 2
                if low[0] > budget[0] or low[1] > budget[1]:
                    return "dead ends exceed the spare nodes"
            elif low[0] > spare:
                return "dead ends exceed the spare nodes"
        for a in self.anchors:
            if a > j:
                target = self.D[a]
                why = self._reach_check(c, target, a - j, free | target)
                if why is not None:
                    return why
                break
        if cycle:
            # The walk must come back: a closing node within the remaining steps.
            return self._reach_check(c, self.close & free, rest, free)
        return None

    def _reach_check(self, c: int, targets: int, steps: int, allowed: int) -> str | None:
        """Some node of `targets` must be reachable from c in exactly `steps` moves: within
        `steps` through allowed nodes, and with matching parity in a bipartite global graph."""
        colour = self.colour
        t0 = targets.bit_length() - 1 if targets else -1
        if t0 < 0:
            return "closing node used up"
        if colour[c] >= 0 and colour[t0] >= 0 and (colour[c] ^ colour[t0]) != steps & 1 \
                and targets & (targets - 1) == 0:
            return f"parity: {self.g.nodes[t0]} cannot be reached in {steps} steps"
        adj = self.g.adj
        seen = frontier = 1 << c
        for _ in range(steps):
            nxt = 0
            while frontier:
                low = frontier & -frontier
                nxt |= adj[low.bit_length() - 1]
                frontier ^= low
            frontier = nxt & allowed & ~seen
            if frontier & targets:
                return None
            if not frontier:
                break
            seen |= frontier
        return f"target not reachable in {steps} steps"
