"""Optional SAT backend (python-sat, extra `sat`) for instances the search finds hard.

Encoding (upstream notes §3.8): one Boolean x[t,g] per pair that survived propagation;
exactly-one per target, at-most-one per global (sequential counters); edge preservation via
*support clauses* x[t,g] -> OR_{g' in N(g) ∩ D(t')} x[t',g'] for each target neighbour t'
(O(E * domain) clauses instead of pairwise conflicts; STRICT keeps only links with enough
channels); cardinality via at-least-k. Preferences are a phase hint (preferred literals are tried
true first), not an optimisation objective.

Rings and lines use the successor-and-order encoding of sat_walk.py instead. The solver is
CaDiCaL 1.9.5, run in conflict-budget slices (it honours the budget per conflict, Glucose 4 only
at restarts) so the time limit is enforced. python-sat
is imported lazily so ttopt works without it; `sat_available()` tells callers whether it is there.
"""

from __future__ import annotations

import importlib.util
import time

from ttopt.topology.index import ConstraintIndex, GraphIndex, bits_list
from ttopt.topology.paths import detect_path_or_cycle
from ttopt.topology.result import ConnectionValidationMode, SolverStatistics
from ttopt.topology.sat_walk import encode_walk
from ttopt.topology.search import LimitReached, Limits

SAT_SOLVER = "cadical195"
SAT_CONFLICT_SLICE = 500


def sat_available() -> bool:
    """True if python-sat can be imported."""
    # find_spec, not import: deciding the plan must not pay for loading the solver library.
    try:
        return importlib.util.find_spec("pysat") is not None
    except (ImportError, ValueError):
        return False


class SatEngine:
    """Encodes the propagated domains as CNF and asks a SAT solver."""

    name = "sat"

    def __init__(self, t: GraphIndex, g: GraphIndex, ci: ConstraintIndex,
                 mode: ConnectionValidationMode, limits: Limits, stats: SolverStatistics,
                 trace=None) -> None:
        self.t, self.g, self.ci, self.mode = t, g, ci, mode
        self.limits, self.stats = limits, stats

    def solve(self, dom: list[int], fixed: int) -> list[int] | None:
        """A full assignment (global index per target) or None if the CNF is unsatisfiable."""
        if not self.start(dom, fixed):
            return None
        try:
            while True:
                decided, assignment = self.step(SAT_CONFLICT_SLICE)
                if decided:
                    return assignment
                # The time limit is checked between slices: the solver runs in C.
                if self.limits.deadline is not None and time.perf_counter() >= self.limits.deadline:
                    raise LimitReached("time limit reached (SAT solver interrupted)")
        finally:
            self.close()

    def start(self, dom: list[int], fixed: int) -> bool:
        """Encode and load the solver; False when the encoding is already unsatisfiable."""
        from pysat.card import CardEnc, EncType
        from pysat.formula import IDPool

        t, g = self.t, self.g
        self.walk = None
        walk = None if self.ci.cardinality else detect_path_or_cycle(t)
        if walk is not None:
            allowed = 0
            for d in dom:
                allowed |= d
            if allowed.bit_count() < t.n:
                return False
            self.walk = encode_walk(t, g, self.ci, dom, walk[0], walk[1], self.mode)
        if self.walk is not None:
            self._load(self.walk.clauses, [])
            return True
        strict = self.mode is ConnectionValidationMode.STRICT
        pool = IDPool()
        var: list[dict[int, int]] = []
        for u in range(t.n):
            var.append({c: pool.id(("x", u, c)) for c in bits_list(dom[u])})
        clauses: list[list[int]] = []
        for u in range(t.n):
            lits = list(var[u].values())
            clauses.append(lits)
            if len(lits) > 1:
                clauses.extend(CardEnc.atmost(lits, 1, vpool=pool, encoding=EncType.seqcounter)
                               .clauses)
        by_global: dict[int, list[int]] = {}
        for u in range(t.n):
            for c, x in var[u].items():
                by_global.setdefault(c, []).append(x)
        for c in sorted(by_global):
            lits = by_global[c]
            if len(lits) > 1:
                clauses.extend(CardEnc.atmost(lits, 1, vpool=pool, encoding=EncType.seqcounter)
                               .clauses)
        for u in range(t.n):
            for w in t.nbrs[u]:
                need = t.ch[u][w] if strict else 1
                vw = var[w]
                for c, x in var[u].items():
                    sup = g.adj_with(c, need)
                    clauses.append([-x] + [vw[h] for h in bits_list(sup) if h in vw])
        for pairs, k in self.ci.cardinality:
            lits = [var[u][c] for u, c in pairs if c in var[u]]
            if len(lits) < k:
                return False
            clauses.extend(CardEnc.atleast(lits, k, vpool=pool, encoding=EncType.seqcounter)
                           .clauses)
        self.var = var
        self._load(clauses, [var[u][c] for u in range(t.n) for c in bits_list(self.ci.preferred[u])
                             if c in var[u]])
        return True

    def _load(self, clauses: list[list[int]], phases: list[int]) -> None:
        from pysat.solvers import Solver

        if self.limits.deadline is not None and self.limits.deadline - time.perf_counter() <= 0:
            raise LimitReached("time limit reached")
        self.solver = Solver(name=SAT_SOLVER, bootstrap_with=clauses)
        if phases:
            self.solver.set_phases(phases)
        self._counted = (0, 0)

    def step(self, conflicts: int) -> tuple[bool, list[int] | None]:
        """Search for up to `conflicts` more conflicts (the solver keeps what it learned):
        (True, assignment | None when unsatisfiable) once decided, else (False, None)."""
        solver = self.solver
        solver.conf_budget(conflicts)
        ok = solver.solve_limited()
        st = solver.accum_stats() or {}
        decisions, confl = int(st.get("decisions", 0)), int(st.get("conflicts", 0))
        self.stats.nodes_explored += decisions - self._counted[0]
        self.stats.backtracks += confl - self._counted[1]
        self._counted = (decisions, confl)
        if ok is None:
            return False, None
        if not ok:
            return True, None
        model = {x for x in solver.get_model() if x > 0}
        if self.walk is not None:
            return True, self.walk.decode(model, self.t.n)
        return True, [next(c for c, x in self.var[u].items() if x in model) for u in range(self.t.n)]

    def close(self) -> None:
        """Free the solver."""
        solver = getattr(self, "solver", None)
        if solver is not None:
            solver.delete()
            self.solver = None
