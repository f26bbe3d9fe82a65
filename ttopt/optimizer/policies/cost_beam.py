"""Beam search over a `CostGraph` in schedule order (the scalable half of the cost-based policy).

A state is a partial plan: the candidate of every node so far, its estimated ns, and the L1 per core
of the tensors still live. Two states whose still-live decisions (the open tensors' candidates) are
equal have the same future, so only the cheaper is kept (dynamic programming on the frontier, as
Viterbi); the `width` cheapest states survive each step (tt-mlir's greedy optimizer keeps a beam the
same way). On chains `width >= candidates` makes it exact. Every transition checks the op's L1 peak
plus the other live tensors against the budget, so every plan it returns fits.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ttopt.optimizer.policies.cost_graph import CostGraph


@dataclass(slots=True)
class _State:
    cost: float
    live: int
    open: dict[int, int]  # free open node -> candidate
    trail: Any  # (node, candidate, parent trail) or None


@dataclass(slots=True)
class BeamResult:
    """The best plan found: candidate per node, its estimate, and how the search went."""

    assignment: list[int]
    ns: float
    width: int
    max_states: int
    over_budget: list[int]  # nodes placed although no candidate fit (the input already overflows)


def beam_search(graph: CostGraph, width: int = 8) -> BeamResult:
    """The cheapest plan the beam finds (see module docstring)."""
    nodes = graph.nodes
    budget = graph.budget
    states: list[_State] = [_State(0.0, 0, {}, None)]
    over: list[int] = []
    max_states = 1
    for v in nodes:
        closing = {p for p in v.producers if p is not None and nodes[p].last_use == v.pos}
        stays = v.last_use > v.pos
        best: dict[tuple, _State] = {}
        for relax in (False, True):
            for s in states:
                chosen = s.open.__getitem__
                ins = graph.producer_layouts(v, chosen)
                freed = sum(nodes[p].l1[s.open[p] if nodes[p].free else 0] for p in closing)
                for k in range(len(v.cands)):
                    if relax and k:
                        break
                    ch = graph.choice(v, k, ins)
                    if ch is None:
                        continue
                    others = s.live - graph.others_excluded(v, ch, chosen)
                    if not relax and (ch.peak + others > budget or ch.conversion_l1 + others > budget):
                        continue
                    live = s.live - freed + (v.l1[k] if stays else 0)
                    if closing or (v.free and stays):
                        opened = {p: c for p, c in s.open.items() if p not in closing}
                        if v.free and stays:
                            opened[v.pos] = k
                    else:
                        opened = s.open
                    key = tuple(sorted(opened.items()))
                    cost = s.cost + ch.ns
                    cur = best.get(key)
                    if cur is None or cost < cur.cost:
                        best[key] = _State(cost, live, opened, (v.pos, k, s.trail))
            if best:
                break
            over.append(v.pos)
        max_states = max(max_states, len(best))
        states = sorted(best.values(), key=lambda st: (st.cost, tuple(sorted(st.open.items()))))[:width]
    final = states[0]
    assignment = [0] * len(nodes)
    t = final.trail
    while t is not None:
        assignment[t[0]] = t[1]
        t = t[2]
    return BeamResult(assignment, final.cost, width, max_states, over)
