"""Exact plan for small functions: a mixed-integer program over a `CostGraph`, solved by HiGHS.

Variables: `x[u,k]` (binary) = free node u takes candidate k; for every node whose estimate depends
on a decision, `y[v,t]` (continuous in [0, 1]) over the joint tuples t of its own candidate and its
free producers' candidates, tied to the x's by marginals (for each member u and candidate k,
sum of y[v,t] with t_u = k equals x[u,k]); with binary x that forces y to the tuple the x's select.
Objective: sum of each tuple's estimate (op + its conversions). L1, at every position: the tuple's own
peak (plus producers it converts but that stay live) + every other open tensor's L1 <= budget.

The answer is optimal for the same model the beam search uses (`CostGraph.choice`), within the time
limit; otherwise the best plan found and the solver's bound. Only the HiGHS banner needs care: the
library prints it on stdout at construction, where ttopt writes MLIR, so the descriptor is muted then.
"""

from __future__ import annotations

import itertools
import math
import os
import sys
from dataclasses import dataclass
from typing import Any

from ttopt.optimizer.policies.cost_graph import CostGraph


@dataclass(slots=True)
class ExactResult:
    """A plan from the MIP: candidate per node, its estimate, the solver's bound and status."""

    assignment: list[int]
    ns: float
    bound: float
    gap: float
    status: str
    optimal: bool
    variables: int
    rows: int


def _highs() -> Any:
    import highspy

    sys.stdout.flush()
    saved, null = os.dup(1), os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    try:
        h = highspy.Highs()
    finally:
        os.dup2(saved, 1)
        os.close(saved)
        os.close(null)
    h.setOptionValue("output_flag", False)
    return h


class _Program:
    """Columns and rows in the compressed form HiGHS takes."""

    def __init__(self) -> None:
        self.cost: list[float] = []
        self.upper: list[float] = []
        self.integer: list[int] = []
        self.rows: list[tuple[float, float, list[int], list[float]]] = []

    def col(self, cost: float, integer: bool) -> int:
        self.cost.append(cost)
        self.upper.append(1.0)
        if integer:
            self.integer.append(len(self.cost) - 1)
        return len(self.cost) - 1

    def row(self, lo: float, hi: float, idx: list[int], val: list[float]) -> None:
        self.rows.append((lo, hi, idx, val))


def _scope(graph: CostGraph, v: Any) -> list[int]:
    """The free nodes `v`'s estimate depends on: its free producers, then itself when free."""
    nodes = graph.nodes
    scope: list[int] = []
    for p in v.producers:
        if p is not None and nodes[p].free and p not in scope:
            scope.append(p)
    if v.free:
        scope.append(v.pos)
    return scope


def _combinations(graph: CostGraph, scope: list[int]) -> int:
    """How many joint tuples `scope` has (before the infeasible ones are dropped)."""
    return math.prod(len(graph.nodes[u].cands) for u in scope)


def _tuples(graph: CostGraph, v: Any) -> tuple[list[int], list[tuple[tuple[int, ...], Any, int]]]:
    """(scope, [(candidate per scope member, choice, L1 own + converted live producers)])."""
    nodes = graph.nodes
    scope = _scope(graph, v)
    out = []
    for combo in itertools.product(*(range(len(nodes[u].cands)) for u in scope)):
        chosen = dict(zip(scope, combo)).__getitem__
        ins = graph.producer_layouts(v, chosen)
        k = chosen(v.pos) if v.free else 0
        ch = graph.choice(v, k, ins)
        if ch is None:
            continue
        prod = sum(nodes[p].l1[chosen(p) if nodes[p].free else 0] for p in v.distinct)
        live_producers = prod - graph.others_excluded(v, ch, chosen)
        out.append((combo, ch, max(ch.peak, ch.conversion_l1) + live_producers))
    return scope, out


def solve_exact(graph: CostGraph, time_limit: float = 10.0, max_tuples: int = 200_000) -> ExactResult | None:
    """The optimal plan of `graph` (None when the program is too large or has no feasible plan)."""
    nodes = graph.nodes
    # The tuples of a node grow as the product of its producers' candidates (a concat of nine
    # convs has 6^10 of them), so the size is bounded before any is estimated.
    if sum(_combinations(graph, _scope(graph, v)) for v in nodes) > max_tuples:
        return None
    prog = _Program()
    x: dict[tuple[int, int], int] = {}
    for node in nodes:
        if node.free:
            for k in range(len(node.cands)):
                x[(node.pos, k)] = prog.col(0.0, True)
            prog.row(1.0, 1.0, [x[(node.pos, k)] for k in range(len(node.cands))], [1.0] * len(node.cands))
    constant = 0.0
    own: list[tuple[list[int], list[float], float]] = []  # per node: y columns, L1 own per column, constant own
    for v in nodes:
        scope, tuples = _tuples(graph, v)
        if not tuples:
            return None
        if not scope:
            constant += tuples[0][1].ns
            own.append(([], [], float(tuples[0][2])))
            continue
        ys = [prog.col(ch.ns, False) for _, ch, _ in tuples]
        prog.row(1.0, 1.0, ys, [1.0] * len(ys))
        for m, u in enumerate(scope):
            for k in range(len(nodes[u].cands)):
                idx = [y for y, (combo, _, _) in zip(ys, tuples) if combo[m] == k]
                prog.row(0.0, 0.0, idx + [x[(u, k)]], [1.0] * len(idx) + [-1.0])
        own.append((ys, [float(b) for _, _, b in tuples], 0.0))
    _l1_rows(graph, prog, x, own)
    return _solve(graph, prog, x, constant, time_limit)


def _l1_rows(graph: CostGraph, prog: _Program, x: dict[tuple[int, int], int], own: list) -> None:
    """One budget row per position whose worst case could exceed the budget."""
    nodes = graph.nodes
    budget = float(graph.budget)
    active: set[int] = set()
    ending: dict[int, list[int]] = {}
    for v in nodes:
        for u in ending.pop(v.pos, ()):
            active.discard(u)
        producers = {p for p in v.producers if p is not None}
        ys, ys_bytes, const_own = own[v.pos]
        idx, val = list(ys), list(ys_bytes)
        const = const_own
        worst = max(ys_bytes, default=0.0) + const_own
        for u in active:
            if u in producers:
                continue
            un = nodes[u]
            if un.free:
                for k, b in enumerate(un.l1):
                    if b:
                        idx.append(x[(u, k)])
                        val.append(float(b))
                worst += max(un.l1)
            else:
                const += un.l1[0]
                worst += un.l1[0]
        if worst > budget:
            prog.row(-float("inf"), budget - const, idx, val)
        if v.last_use > v.pos and max(v.l1) > 0:
            active.add(v.pos)
            ending.setdefault(v.last_use, []).append(v.pos)


def _solve(graph: CostGraph, prog: _Program, x: dict[tuple[int, int], int], constant: float,
           time_limit: float) -> ExactResult | None:  # fmt: skip
    import numpy as np

    h = _highs()
    h.setOptionValue("time_limit", float(time_limit))
    h.setOptionValue("threads", 1)
    h.setOptionValue("random_seed", 0)
    n = len(prog.cost)
    h.addVars(n, np.zeros(n), np.array(prog.upper))
    h.changeColsCost(n, np.arange(n, dtype=np.int32), np.array(prog.cost))
    if prog.integer:
        idx = np.array(prog.integer, dtype=np.int32)
        h.changeColsIntegrality(len(idx), idx, np.ones(len(idx), dtype=np.uint8))
    lo = np.array([r[0] for r in prog.rows], dtype=float)
    hi = np.array([r[1] for r in prog.rows], dtype=float)
    starts = np.cumsum([0] + [len(r[2]) for r in prog.rows[:-1]]).astype(np.int32)
    index = np.array([i for r in prog.rows for i in r[2]], dtype=np.int32)
    value = np.array([v for r in prog.rows for v in r[3]], dtype=float)
    h.addRows(len(prog.rows), lo, hi, len(index), starts, index, value)
    h.run()
    status = h.modelStatusToString(h.getModelStatus())
    info = h.getInfo()
    if info.primal_solution_status == 0:  # no feasible point
        return None
    sol = h.getSolution().col_value
    assignment = [0] * len(graph.nodes)
    for (u, k), c in x.items():
        if sol[c] > 0.5:
            assignment[u] = k
    ns = info.objective_function_value + constant
    bound = (info.mip_dual_bound if prog.integer else info.objective_function_value) + constant
    gap = max(0.0, (ns - bound) / ns) if ns > 0 else 0.0
    return ExactResult(assignment, ns, bound, gap, status, status == "Optimal", n, len(prog.rows))
