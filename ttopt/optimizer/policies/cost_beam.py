"""Beam search over a `CostGraph` in schedule order (the scalable half of the cost-based policy).

A state is a partial plan: the candidate of every node so far, its estimated ns, and the L1 per core
of the tensors still live. Two states whose still-live decisions (the open tensors' candidates) are
equal have the same future, so only the cheaper is kept (dynamic programming on the frontier, as
Viterbi); the `width` cheapest states survive each step (tt-mlir's greedy optimizer keeps a beam the
same way). On chains `width >= candidates` makes it exact. Every transition checks the op's L1 peak
plus the other live tensors against the budget, so every plan it returns fits.

Per step, states that give the node the same producer layouts share one evaluation of its
candidates, so a step costs one memo lookup per (distinct inputs, candidate), not per state.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ttopt.optimizer.policies.cost_graph import CostGraph


@dataclass(slots=True)
class _State:
    cost: float
    live: int
    key: tuple[tuple[int, int], ...]  # open free nodes and their candidates, by position: equal keys, same future
    trail: Any  # (node, candidate, parent trail) or None


@dataclass(slots=True)
class BeamResult:
    """The best plan found: candidate per node, its estimate, and how the search went."""

    assignment: list[int]
    ns: float
    width: int
    max_states: int
    over_budget: list[int]  # nodes placed although no candidate fit (the input already overflows)


def beam_search(graph: CostGraph, width: int = 32) -> BeamResult:
    """The cheapest plan the beam finds (see module docstring)."""
    nodes = graph.nodes
    budget = graph.budget
    states: list[_State] = [_State(0.0, 0, (), None)]
    over: list[int] = []
    max_states = 1
    for v in nodes:
        closing = sorted({p for p in v.producers if p is not None and nodes[p].last_use == v.pos})
        closing_free = frozenset(p for p in closing if nodes[p].free)
        stays = v.last_use > v.pos
        opens = v.free and stays
        free_producers = [p for p in v.distinct if nodes[p].free]
        groups: dict[tuple, tuple[list, list[tuple[_State, tuple]]]] = {}
        for s in states:
            chosen = dict(s.key).__getitem__
            # States that chose the same candidates for v's producers give v the same inputs.
            gk = tuple([chosen(p) for p in free_producers])
            g = groups.get(gk)
            if g is None:
                ins = graph.producer_layouts(v, chosen)
                freed = sum(nodes[p].l1[chosen(p) if nodes[p].free else 0] for p in closing)
                options = []
                for k in range(len(v.cands)):
                    ch = graph.choice(v, k, ins)
                    if ch is not None:
                        options.append((k, ch, graph.others_excluded(v, ch, chosen), freed))
                g = groups[gk] = (options, [])
            # Open nodes come before v in the schedule, so appending v keeps keys sorted.
            base = tuple(e for e in s.key if e[0] not in closing_free) if closing_free else s.key
            g[1].append((s, base))
        best: dict[tuple, _State] = {}
        for relax in (False, True):
            for options, group in groups.values():
                for k, ch, excluded, freed in options:
                    need = max(ch.peak, ch.conversion_l1) - excluded
                    add = v.l1[k] if stays else 0
                    ns = ch.ns
                    tail = ((v.pos, k),) if opens else ()
                    for s, base in group:
                        if not relax and need + s.live > budget:
                            continue
                        key = base + tail if opens else base
                        cost = s.cost + ns
                        cur = best.get(key)
                        if cur is None or cost < cur.cost:
                            best[key] = _State(cost, s.live - freed + add, key, (v.pos, k, s.trail))
            if best:
                break
            over.append(v.pos)  # no candidate fits: the relaxed pass places it over budget
        if not best:  # no candidate is legal with any state's inputs: keep the default, uncosted
            best = {s.key: _State(s.cost, s.live, s.key, (v.pos, 0, s.trail)) for s in states}
        max_states = max(max_states, len(best))
        states = sorted(best.values(), key=lambda st: (st.cost, st.key))[:width] if len(best) > 1 else list(best.values())
    final = states[0]
    assignment = [0] * len(nodes)
    t = final.trail
    while t is not None:
        assignment[t[0]] = t[1]
        t = t[2]
    return BeamResult(assignment, final.cost, width, max_states, over)
