"""The general backtracking engine (seed: "DFSSearchEngine", "SearchHeuristic", "DFS Search Flow").

Per search node:
1. select the unassigned target with the lowest integer cost (seed "Node Selection Cost"):
   `candidates * HARD - preferred * SOFT - (mapped_neighbours * 32 + degree) * RUNTIME`, ties to
   the lowest index. Candidates are the live domain, so this is MRV on domains that propagation
   keeps exact, not a rescan of all globals (upstream notes §0.7);
2. order its candidates by the seed's "Candidate Ordering" cost:
   `-preferred * SOFT - channel_score + degree_gap`, ties to the lowest global index;
3. for each candidate, assign and propagate (propagate.py): the seed's local consistency check is
   the neighbourhood restriction of the assigned target (its neighbours may only use neighbours of
   the chosen global), and its forward check is the wipe-out test on every domain, extended with
   all-different and pigeonhole reasoning. A wipe-out counts as a pruning.

No memoisation: node selection and candidate order are functions of the partial assignment, so a
single DFS reaches each partial assignment at most once and the seed's failed-state hash set can
only hit on hash collisions, where it would wrongly prune (upstream notes §0.4). Propagation gives
the pruning the memo was meant to give. See docs/topology.md.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from typing import Any

from ttopt.topology.index import ConstraintIndex, GraphIndex, bits_list
from ttopt.topology.propagate import Propagator
from ttopt.topology.result import ConnectionValidationMode, SolverStatistics

HARD_WEIGHT = 1_000_000  # hard constraints dominate (seed "Cost Weights")
SOFT_WEIGHT = 1_000  # soft constraints secondary
RUNTIME_WEIGHT = 1  # runtime optimisation minor
MAPPED_SCALE = 32  # mapped neighbours before target degree, both under SOFT_WEIGHT
SEARCH_SUPPORT_LIMIT = 16  # revise neighbours of a domain during search only up to this size
LIMIT_CHECK_EVERY = 256


class LimitReached(Exception):
    """Raised inside an engine when the time or node limit is hit."""


@dataclass
class Limits:
    """Wall-clock deadline (perf_counter seconds) and node cap; None = unlimited."""

    deadline: float | None = None
    node_limit: int | None = None

    @property
    def node_cap(self) -> float:
        """node_limit as a number engines can compare on every node."""
        return float("inf") if self.node_limit is None else self.node_limit

    def check(self, nodes: int) -> None:
        """Raise LimitReached if a limit is exceeded."""
        if self.node_limit is not None and nodes > self.node_limit:
            raise LimitReached(f"node limit of {self.node_limit} search nodes reached")
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise LimitReached("time limit reached")


@dataclass
class TraceRecorder:
    """Collects search events (select / prune / backtrack / solution) up to `max_events`."""

    max_events: int = 400
    events: list[dict[str, Any]] = field(default_factory=list)
    dropped: int = 0

    def event(self, kind: str, depth: int, **fields: Any) -> None:
        """Record one event; events beyond the cap are only counted."""
        if len(self.events) >= self.max_events:
            self.dropped += 1
            return
        self.events.append({"kind": kind, "depth": depth, **fields})


def channel_score(actual: int, required: int) -> int:
    """Seed "channel_match_score": exact 1000, spare decays, shortfall is a small penalty."""
    if actual >= required:
        return max(1, SOFT_WEIGHT // (1 + actual - required))
    return -max(1, SOFT_WEIGHT // (10 + required - actual))


class SearchEngine:
    """Backtracking over bitset domains with MRV selection and propagation after each choice."""

    name = "search"

    def __init__(self, t: GraphIndex, g: GraphIndex, ci: ConstraintIndex,
                 mode: ConnectionValidationMode, limits: Limits, stats: SolverStatistics,
                 trace: TraceRecorder | None = None) -> None:
        self.t, self.g, self.ci, self.mode = t, g, ci, mode
        self.limits, self.stats, self.trace = limits, stats, trace
        self.prop = Propagator(t, g, mode)
        self.tadj = t.adj
        self.all_targets = (1 << t.n) - 1

    def solve(self, dom: list[int], fixed: int) -> list[int] | None:
        """A full assignment (global index per target) or None if none exists."""
        need = self.t.n + 100
        if sys.getrecursionlimit() < need + 1000:
            sys.setrecursionlimit(need + 1000)
        found = self._dfs(list(dom), fixed, 0)
        if found is None:
            return None
        return [d.bit_length() - 1 for d in found]

    def _select(self, dom: list[int], fixed: int) -> int:
        t, pref = self.t, self.ci.preferred
        best, best_cost = -1, None
        for u in range(t.n):
            if fixed >> u & 1:
                continue
            du = dom[u]
            cost = du.bit_count() * HARD_WEIGHT
            if pref[u]:
                cost -= (du & pref[u]).bit_count() * SOFT_WEIGHT
            cost -= ((self.tadj[u] & fixed).bit_count() * MAPPED_SCALE
                     + min(t.deg[u], MAPPED_SCALE - 1)) * RUNTIME_WEIGHT
            if best_cost is None or cost < best_cost:
                best, best_cost = u, cost
        return best

    def _order(self, u: int, dom: list[int], fixed: int) -> list[int]:
        t, g = self.t, self.g
        pref = self.ci.preferred[u]
        relaxed = self.mode is ConnectionValidationMode.RELAXED
        mapped = [(w, dom[w].bit_length() - 1) for w in t.nbrs[u] if fixed >> w & 1]
        keyed = []
        for c in bits_list(dom[u]):
            cost = g.deg[c] - t.deg[u]
            if pref >> c & 1:
                cost -= SOFT_WEIGHT
            if relaxed:
                for w, gw in mapped:
                    actual = g.ch[c].get(gw, 0)
                    if actual:
                        cost -= channel_score(actual, t.ch[u][w])
            keyed.append((cost, c))
        keyed.sort()
        return [c for _, c in keyed]

    def _cardinality_ok(self, dom: list[int]) -> bool:
        for pairs, k in self.ci.cardinality:
            if sum(1 for u, c in pairs if dom[u] >> c & 1) < k:
                return False
        return True

    def _dfs(self, dom: list[int], fixed: int, depth: int) -> list[int] | None:
        if fixed == self.all_targets:
            return dom
        stats = self.stats
        stats.nodes_explored += 1
        if stats.nodes_explored % LIMIT_CHECK_EVERY == 0 or \
                stats.nodes_explored > self.limits.node_cap:
            self.limits.check(stats.nodes_explored)
        u = self._select(dom, fixed)
        cands = self._order(u, dom, fixed)
        tr = self.trace
        tn, gn = self.t.nodes, self.g.nodes
        if tr is not None:
            tr.event("select", depth, target=tn[u], candidates=[gn[c] for c in cands])
        for c in cands:
            nd = list(dom)
            nd[u] = 1 << c
            nf = self.prop.run(nd, [u], fixed, SEARCH_SUPPORT_LIMIT)
            if nf < 0 or (self.ci.cardinality and not self._cardinality_ok(nd)):
                stats.prunings += 1
                if tr is not None:
                    why = ("cardinality" if nf >= 0 else
                           "pigeonhole" if self.prop.failed_target == -2 else
                           f"wipes out {tn[self.prop.failed_target]}")
                    tr.event("prune", depth, target=tn[u], glob=gn[c], reason=why)
                continue
            if tr is not None:
                tr.event("assign", depth, target=tn[u], glob=gn[c])
            found = self._dfs(nd, nf, depth + 1)
            if found is not None:
                return found
            stats.backtracks += 1
            if tr is not None:
                tr.event("backtrack", depth, target=tn[u], glob=gn[c])
        return None
