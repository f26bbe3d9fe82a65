"""Beam search over a `CostGraph` in schedule order (the scalable half of the cost-based policy).

A state is a partial plan: its estimated ns, the L1 per core of the tensors still live, and the
candidates of the open free nodes (decided, read again later). Two states with equal open candidates
have the same future, so only the cheaper is kept (dynamic programming on the frontier, as Viterbi);
the `width` cheapest states survive each step (tt-mlir's greedy optimizer keeps a beam the same way).
On chains `width >= candidates` makes it exact. Every transition checks the op's L1 peak plus the
other live tensors against the budget, so every plan it returns fits.

Which nodes are open at a step does not depend on the state, so a state's key is a plain tuple of
candidate indices in the step's open order, sliced with `itemgetter`. States that give a node the
same producer candidates share one list of options (per candidate: ns, L1 needed, L1 change), and
nodes with the same read context (`CostGraph.read_context`: repeated blocks) share those lists, so a
step costs one dict lookup per state plus one per transition.
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import itemgetter
from typing import Any, Callable

from ttopt.optimizer.policies.cost_graph import CostGraph, Node

# A state: (ns, live L1 per core, key, trail); trail is (node, candidate, parent trail) or None.
_State = tuple[float, int, tuple[int, ...], Any]
_Option = tuple[int, float, int, int]  # (candidate, ns, L1 needed besides the live tensors, live L1 change)


@dataclass(slots=True)
class BeamResult:
    """The best plan found: candidate per node, its estimate, and how the search went."""

    assignment: list[int]
    ns: float
    width: int
    max_states: int
    over_budget: list[int]  # nodes placed although no candidate fit (the input already overflows)


def _picker(slots: list[int]) -> Callable[[tuple], tuple]:
    """A function taking these slots of a key, as a tuple."""
    if not slots:
        return lambda key: ()
    if len(slots) == 1:
        i = slots[0]
        return lambda key: (key[i],)
    return itemgetter(*slots)


def _options(graph: CostGraph, v: Node, free_producers: list[int], cands: tuple, closing: list[int]) -> list[_Option]:
    """Node `v`'s legal candidates when its free producers took `cands`."""
    nodes = graph.nodes
    picked = dict(zip(free_producers, cands))
    chosen = picked.__getitem__
    ins = graph.producer_layouts(v, chosen)
    freed = sum(nodes[p].l1[picked.get(p, 0)] for p in closing)
    stays = v.last_use > v.pos
    out = []
    for k in range(len(v.cands)):
        ch = graph.choice(v, k, ins)
        if ch is not None:
            need = max(ch.peak, ch.conversion_l1) - graph.others_excluded(v, ch, chosen)
            out.append((k, ch.ns, need, (v.l1[k] if stays else 0) - freed))
    return out


def beam_search(graph: CostGraph, width: int = 32) -> BeamResult:
    """The cheapest plan the beam finds (see module docstring)."""
    nodes = graph.nodes
    budget = graph.budget
    states: list[_State] = [(0.0, 0, (), None)]
    open_: list[int] = []  # positions of the open free nodes: the meaning of a key's entries
    over: list[int] = []
    max_states = 1
    shared: dict[tuple, list[_Option]] = {}
    order = itemgetter(0, 2)
    for v in nodes:
        pos = v.pos
        closing = sorted({p for p in v.producers if p is not None and nodes[p].last_use == pos})
        free_producers = [p for p in v.distinct if nodes[p].free]
        slot = {p: i for i, p in enumerate(open_)}
        group_of = _picker([slot[p] for p in free_producers])
        closing_free = {p for p in closing if nodes[p].free}
        opens = v.free and v.last_use > pos
        if closing_free:
            keep = [i for i, p in enumerate(open_) if p not in closing_free]
            base_of: Callable[[tuple], tuple] | None = _picker(keep)
            open_ = [open_[i] for i in keep]
        else:
            base_of = None
        if opens:
            open_.append(pos)
        context = graph.read_context(v)
        if not opens and base_of is None and not free_producers:
            # A node that reads no open decision and changes no key (most fixed ops): every state
            # gives it the same inputs and keeps its key, so with one option each state has one
            # successor and none merge (their keys differ). The order is still re-sorted: adding
            # the same ns can round two costs to a tie.
            ck = (context, ())
            opts = shared.get(ck)
            if opts is None:
                opts = shared[ck] = _options(graph, v, free_producers, (), closing)
            if len(opts) == 1:
                k, ns, need, delta = opts[0]
                limit = budget - need
                nxt: list[_State] = [(s[0] + ns, s[1] + delta, s[2], (pos, k, s[3])) for s in states if s[1] <= limit]
                if not nxt:
                    over.append(pos)  # no state fits: the relaxed pass places it over budget
                    nxt = [(s[0] + ns, s[1] + delta, s[2], (pos, k, s[3])) for s in states]
                max_states = max(max_states, len(nxt))
                states = sorted(nxt, key=order) if len(nxt) > 1 else nxt
                continue
        groups: dict[tuple, tuple[list[_Option], list[tuple[_State, tuple]]]] = {}
        for s in states:
            key = s[2]
            # States that chose the same candidates for v's producers give v the same inputs.
            gk = group_of(key)
            g = groups.get(gk)
            if g is None:
                ck = (context, gk)
                opts = shared.get(ck)
                if opts is None:
                    opts = shared[ck] = _options(graph, v, free_producers, gk, closing)
                g = groups[gk] = (opts, [])
            g[1].append((s, base_of(key) if base_of is not None else key))
        if opens and base_of is None:
            # Every (state, option) pair gets its own key (the state's key plus the option): no
            # two merge, so the successors are listed in the order the general loop meets them.
            nxt = []
            for relax in (False, True):
                for opts, group in groups.values():
                    for k, ns, need, delta in opts:
                        tail = (k,)
                        limit = budget - need
                        for s, base in group:
                            if relax or s[1] <= limit:
                                nxt.append((s[0] + ns, s[1] + delta, base + tail, (pos, k, s[3])))
                if nxt:
                    break
                over.append(pos)
            if not nxt:  # no candidate is legal with any state's inputs: keep the default, uncosted
                nxt = [(s[0], s[1], base + (0,), (pos, 0, s[3])) for _, group in groups.values() for s, base in group]
            max_states = max(max_states, len(nxt))
            states = sorted(nxt, key=order)[:width] if len(nxt) > 1 else nxt
            continue
        best: dict[tuple, _State] = {}
        for relax in (False, True):
            for opts, group in groups.values():
                for k, ns, need, delta in opts:
                    tail = (k,)
                    limit = budget - need
                    for s, base in group:
                        if not relax and s[1] > limit:
                            continue
                        key = base + tail if opens else base
                        cost = s[0] + ns
                        cur = best.get(key)
                        if cur is None or cost < cur[0]:
                            best[key] = (cost, s[1] + delta, key, (pos, k, s[3]))
            if best:
                break
            over.append(pos)  # no candidate fits: the relaxed pass places it over budget
        if not best:  # no candidate is legal with any state's inputs: keep the default, uncosted
            for s, base in (e for _, group in groups.values() for e in group):
                key = base + (0,) if opens else base
                if key not in best:
                    best[key] = (s[0], s[1], key, (pos, 0, s[3]))
        max_states = max(max_states, len(best))
        states = sorted(best.values(), key=order)[:width] if len(best) > 1 else list(best.values())
    final = states[0]
    assignment = [0] * len(nodes)
    t = final[3]
    while t is not None:
        assignment[t[0]] = t[1]
        t = t[2]
    return BeamResult(assignment, final[0], width, max_states, over)
