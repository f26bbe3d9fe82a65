"""Successor-and-order SAT encoding for ring and line targets.

The general encoding (sat.py) has a variable per (target, global) pair: for a ring of n targets
into n globals that is the position ("permutation") encoding, n^2 variables whose support
clauses have length deg(g). CDCL solvers do badly on it: no 64-node cubic Hamiltonian ring was
decided in 10 s. Walk targets are encoded instead by *which links the walk uses*, as in the
SAT literature on Hamiltonian cycles (successor variables with ordering for subtour
elimination, e.g. Zhou, "In pursuit of an efficient SAT encoding for the Hamiltonian cycle
problem", CP 2020):

- a[u,v]: the walk steps from global u to its neighbour v (only over links that exist, with
  enough channels in STRICT mode), c[v]: v is on the walk, s[v] / e[v]: v hosts the walk's first
  / last target;
- exactly n globals are on the walk (pysat cardinality encoding); a global on the walk has one
  successor and one predecessor, except that a line's start has no predecessor and its end no
  successor; off-walk globals have neither;
- order in unary: y[v,k] = "position of v >= k" with y[v,k+1] -> y[v,k]; a step u->v makes
  pos(v) = pos(u) + 1, except the ring's closing step into the start, which needs pos(u) = n-1.
  Positions are bounded by n-1, so a cycle that avoids the start would need unbounded positions:
  this is what rules out sub-walks;
- the target at walk position i may only land on its domain: pos(v) = i -> v in dom(walk[i]).

Unit propagation now does what the native walk's degree-2 forcing does (a global with two
links on the walk must use both), so conflicts are local. With no constraint telling targets
apart, symmetric answers are cut: a ring filling every allowed global starts on a fixed global of
least degree and is oriented so its second node has the lower index; other rings and lines are
only oriented (second node below closing node / start below end).
"""

from __future__ import annotations

from dataclasses import dataclass

from ttopt.topology.index import ConstraintIndex, GraphIndex, bits_list
from ttopt.topology.result import ConnectionValidationMode


@dataclass
class WalkEncoding:
    """The CNF and what is needed to read a model back into an assignment."""

    clauses: list[list[int]]
    step: dict[tuple[int, int], int]  # (u, v) -> a[u,v]
    start: dict[int, int]  # v -> s[v]
    kind: str
    order: list[int]  # target indices in walk order

    def decode(self, true: set[int], n_targets: int) -> list[int]:
        """Global index per target from the set of true variables of a model."""
        succ = {u: v for (u, v), x in self.step.items() if x in true}
        head = next(v for v, x in self.start.items() if x in true)
        assignment = [-1] * n_targets
        for u in self.order:
            assignment[u] = head
            head = succ.get(head, -1)
        return assignment


def _symmetric(t: GraphIndex, ci: ConstraintIndex, dom: list[int], strict: bool) -> bool:
    """True if every walk of the target is as good as its rotations and reflections."""
    if any(ci.preferred) or len(set(dom)) != 1:
        return False
    return not strict or len({c for u in range(t.n) for c in t.ch[u].values()}) <= 1


def encode_walk(t: GraphIndex, g: GraphIndex, ci: ConstraintIndex, dom: list[int], kind: str,
                order: list[int], mode: ConnectionValidationMode) -> WalkEncoding | None:
    """The successor-and-order CNF for a path/cycle target, or None if this encoding does not
    apply (a STRICT walk whose links need different channel counts)."""
    from pysat.card import CardEnc, EncType
    from pysat.formula import IDPool

    strict = mode is ConnectionValidationMode.STRICT
    n = len(order)
    cycle = kind == "cycle"
    needs = {t.ch[order[i]][order[(i + 1) % n]] for i in range(n if cycle else n - 1)}
    if strict and len(needs) > 1:
        return None
    need = needs.pop() if strict else 1
    allowed = 0
    for d in dom:
        allowed |= d
    glob = bits_list(allowed)
    adj = {v: [w for w in bits_list(g.adj_with(v, need) & allowed)] for v in glob}
    pool = IDPool()
    new = pool.id
    step = {(u, v): new(("a", u, v)) for u in glob for v in adj[u]}
    on = {v: new(("c", v)) for v in glob}
    start = {v: new(("s", v)) for v in glob}
    end = {} if cycle else {v: new(("e", v)) for v in glob}
    # y[v][k] = pos(v) >= k for k = 1..n-1; y[v][0] stands for "on the walk".
    y = {v: [on[v]] + [new(("y", v, k)) for k in range(1, n)] for v in glob}
    cl: list[list[int]] = []
    full = len(glob) == n
    if full:
        cl.extend([on[v]] for v in glob)
    else:
        cl.extend(CardEnc.equals(list(on.values()), n, vpool=pool, encoding=EncType.totalizer).clauses)
    for ends in (start, end):
        if ends:
            cl.extend(CardEnc.equals(list(ends.values()), 1, vpool=pool,
                                     encoding=EncType.seqcounter).clauses)
    for v in glob:
        yv, c, s = y[v], on[v], start[v]
        outs = [step[v, w] for w in adj[v]]
        ins = [step[w, v] for w in adj[v]]
        e = end.get(v)
        # One successor unless v ends a line, one predecessor unless v starts it; none off the walk.
        cl.append([-c] + ([e] if e else []) + outs)
        cl.append([-c] + ([s] if not cycle else []) + ins)
        for lits in (outs, ins):
            cl.extend(CardEnc.atmost(lits, 1, vpool=pool, encoding=EncType.pairwise
                                     if len(lits) <= 6 else EncType.seqcounter).clauses)
            cl.extend([-x, c] for x in lits)
        if e:
            cl.extend([-e, -x] for x in outs)
            cl.extend([-s, -x] for x in ins)
            cl.append([-e, c])
            cl.append([-e, yv[n - 1]])  # the end is at position n-1
        cl.append([-s, c])
        if n > 1:
            cl.append([-s, -yv[1]])  # the start is at position 0, every other walk node >= 1
            cl.append([s, -c, yv[1]])
        cl.extend([-yv[k + 1], yv[k]] for k in range(1, n - 1))
        cl.extend([-yv[k], c] for k in range(1, n))
        # Domains by position: pos(v) = i means v hosts order[i].
        for i, u in enumerate(order):
            if not dom[u] >> v & 1:
                cl.append([-yv[i]] + ([yv[i + 1]] if i + 1 < n else []))
        for w in adj[v]:
            x = step[v, w]
            yw = y[w]
            if cycle:
                # Closing step into the start: v is last; any other step into w counts up.
                cl.append([-x, -start[w], yv[n - 1]])
                cl.append([-x, start[w], yw[1]])
                guard = [start[w]]
            else:
                cl.append([-x, -start[w]])
                cl.append([-x, yw[1]])
                guard = []
            cl.extend([-x, -yv[k], yw[k + 1], *guard] for k in range(1, n - 1))
            cl.extend([-x, yv[k], -yw[k + 1], *guard] for k in range(1, n - 1))
            cl.append([-x, -yv[n - 1]] + guard)  # nothing follows position n-1 but the start
    first = None
    if _symmetric(t, ci, dom, strict):
        first = _break_symmetry(cl, glob, adj, step, start, end, on, cycle, full)
    elif dom[order[0]].bit_count() == 1:
        first = dom[order[0]].bit_length() - 1
    if first is not None:
        _bound_positions(cl, g, glob, y, first, n, cycle)
    return WalkEncoding(cl, step, start, kind, order)


def _bound_positions(cl: list[list[int]], g: GraphIndex, glob: list[int], y: dict[int, list[int]],
                     first: int, n: int, cycle: bool) -> None:
    """With the start on a known global, pos(v) >= dist(start, v), a ring also needs
    pos(v) <= n - dist(start, v) to get back, and on a bipartite graph pos(v) has the parity
    of v's colour relative to the start (the native walk's parity prune, as unit clauses)."""
    dist = g.distances_from(first)
    colour = g.component_colouring()
    parity = colour[first] >= 0
    for v in glob:
        yv, d = y[v], dist[v]
        if d < 0:
            cl.append([-yv[0]])
            continue
        if d >= n:
            cl.append([-yv[0]])
            continue
        if d >= 1:
            cl.append([-yv[0], yv[d]])
        if cycle and d >= 1 and n - d + 1 < n:
            cl.append([-yv[n - d + 1]])
        if parity and v != first:
            odd = colour[v] != colour[first]
            # pos(v) = i needs i % 2 == odd: forbid the other parity (y[v,i] and not y[v,i+1]).
            cl.extend([-yv[i]] + ([yv[i + 1]] if i + 1 < n else [])
                      for i in range(1, n) if (i % 2 == 1) != odd)


def _break_symmetry(cl: list[list[int]], glob: list[int], adj: dict[int, list[int]],
                    step: dict[tuple[int, int], int], start: dict[int, int], end: dict[int, int],
                    on: dict[int, int], cycle: bool, full: bool) -> int | None:
    """Keep one of each rotation/reflection class of walks (valid only for unconstrained targets);
    the global the walk must start on, when that is fixed."""
    if cycle:
        if full:
            # Every global is on the ring: some rotation starts it on the least-linked one.
            first = min(glob, key=lambda v: (len(adj[v]), v))
            cl.extend([start[v]] if v == first else [-start[v]] for v in glob)
            pivots = [first]
            fixed: int | None = first
        else:
            # Rotations: the start is the lowest-indexed global on the ring.
            cl.extend([-start[v], -on[w]] for v in glob for w in glob if w < v)
            pivots, fixed = glob, None
        # Reflection: the start's successor has a lower index than its predecessor.
        for v in pivots:
            nb = adj[v]
            cl.extend([-start[v], -step[v, hi], -step[lo, v]]
                      for i, lo in enumerate(nb) for hi in nb[i + 1:])
        return fixed
    # Reflection of a line: its start has a lower index than its end.
    cl.extend([-end[v], -start[w]] for v in glob for w in glob if w >= v)
    return None
