"""solve_topology_mapping: the entry point (seed: "Algorithm Flow").

Stages:
1. index graphs and constraints; constraints naming unknown nodes are an INVALID result;
2. impossibility proofs (proofs.py), then full propagation (propagate.py); either can decide UNSAT
   with a named reason before any search;
3. engine: the path/cycle fast path (paths.py) when the target is one path or cycle, otherwise the
   general search (search.py); or the SAT backend (sat.py);
4. validation of the mapping on node ids (validate.py) and the result.

Engine choice (`engine=`):
- "search": the native engine only, to the time/node limits;
- "sat": the SAT backend after proofs and propagation (needs python-sat);
- "auto" (default): a portfolio. With python-sat importable, the native engine and SAT take turns
  in slices that grow PORTFOLIO_GROWTH-fold each round (native: a fresh run with PORTFOLIO_NODES x
  4^k search nodes; SAT: PORTFOLIO_CONFLICTS x 4^k more conflicts on one solver that keeps what it
  learned, about a quarter of native's time), and the
  first definitive answer wins — a mapping, or a proof (exhausted native search, or SAT UNSAT) that
  there is none. So `auto` stays within a small factor of the faster engine on an instance, and
  the budgets are counts, not seconds, so
  which engine answers is the same on every run. Without python-sat the native engine runs alone.
  Instances decided by proofs or propagation never reach an engine.
"""

from __future__ import annotations

import time
from collections.abc import Hashable

from ttopt.topology.constraints import MappingConstraints
from ttopt.topology.graph import AdjacencyGraph
from ttopt.topology.index import GraphIndex, index_constraints
from ttopt.topology.paths import PathEngine, detect_path_or_cycle
from ttopt.topology.proofs import run_proofs
from ttopt.topology.propagate import initial_domains
from ttopt.topology.result import (
    ConnectionValidationMode,
    MappingResult,
    SolverStatistics,
    Status,
)
from ttopt.topology.sat import SatEngine, sat_available
from ttopt.topology.search import LimitReached, Limits, SearchEngine, TraceRecorder
from ttopt.topology.validate import constraint_stats, validate_mapping

Node = Hashable

ENGINES = ("auto", "search", "sat")
PORTFOLIO_NODES = 2_000  # native search nodes in the first slice of `auto`
# SAT conflicts in the first slice: one conflict costs about as much time as 10 native nodes
# (measured on 128-node Hamiltonian rings), so SAT gets a quarter of native's time each round.
PORTFOLIO_CONFLICTS = 50
PORTFOLIO_GROWTH = 4  # slices grow 4x a round: a fresh native run re-does at most 1/3 of its work
DEFAULT_TIMEOUT = 10.0  # seconds


def _portfolio(native, native_name: str, sat: SatEngine, dom: list[int], fixed: int, limits: Limits,
               stats) -> tuple[list[int] | None, bool]:  # fmt: skip
    """Native search and SAT in doubling slices until one decides: (assignment, exhausted)."""
    started = False
    try:
        k = 0
        native_done = False
        while True:
            if not native_done:
                stats.engine = native_name
                cap = stats.nodes_explored + PORTFOLIO_NODES * PORTFOLIO_GROWTH**k
                if limits.node_limit is not None and cap >= limits.node_limit:
                    cap, native_done = limits.node_limit, True  # the user's cap: the last native slice
                try:
                    assignment = native(Limits(limits.deadline, cap)).solve(dom, fixed)
                    return assignment, assignment is None
                except LimitReached:
                    if limits.deadline is not None and time.perf_counter() >= limits.deadline:
                        raise
            stats.engine = "sat"
            if not started:
                # Encoded only now: most instances end in the first native slice, and the
                # encoding alone costs more than that slice on large graphs.
                started = True
                if not sat.start(dom, fixed):
                    return None, True
            decided, assignment = sat.step(PORTFOLIO_CONFLICTS * PORTFOLIO_GROWTH**k)
            if decided:
                return assignment, assignment is None
            limits.check(stats.nodes_explored)
            k += 1
    finally:
        sat.close()


def solve_topology_mapping(
    target: AdjacencyGraph,
    global_: AdjacencyGraph,
    constraints: MappingConstraints | None = None,
    mode: ConnectionValidationMode = ConnectionValidationMode.RELAXED,
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
    node_limit: int | None = None,
    engine: str = "auto",
    trace: TraceRecorder | None = None,
) -> MappingResult:
    """Map `target` injectively into `global_` so every target link lands on a global link."""
    start = time.perf_counter()
    stats = SolverStatistics()
    result = MappingResult(stats=stats)

    def finish(status: Status, message: str = "", proof: str | None = None) -> MappingResult:
        result.status = status
        result.success = status is Status.MAPPED
        result.error_message = message
        result.proof = proof
        stats.elapsed_ms = (time.perf_counter() - start) * 1000.0
        if trace is not None and not result.success:
            trace.event("result", 0, status=status.value, reason=message)
        return result

    if engine not in ENGINES:
        return finish(Status.INVALID, f"unknown engine {engine!r} (expected one of {ENGINES})")
    if engine == "sat" and not sat_available():
        return finish(Status.INVALID, "the SAT engine needs python-sat: pip install 'ttopt[sat]'")
    ti, gi = GraphIndex(target), GraphIndex(global_)
    ci = index_constraints(ti, gi, constraints)
    if ci.errors:
        return finish(Status.INVALID, "; ".join(ci.errors))
    if ti.n == 0:
        return finish(Status.MAPPED)
    stats.engine = "proof"
    proof = run_proofs(ti, gi, ci, mode)
    if proof is not None:
        return finish(Status.UNSAT, proof[1], proof[0])
    dom, fixed, failure = initial_domains(ti, gi, ci, mode)
    if failure is not None:
        return finish(Status.UNSAT, failure[1], failure[0])

    deadline = None if timeout is None else start + timeout
    limits = Limits(deadline, node_limit)
    # Cardinality constraints tie distant targets together; only the general search checks them.
    walk = None if ci.cardinality else detect_path_or_cycle(ti)

    def native(lim: Limits):
        if walk is not None:
            return PathEngine(ti, gi, ci, mode, lim, stats, walk[0], walk[1], trace)
        return SearchEngine(ti, gi, ci, mode, lim, stats, trace)

    assignment = None
    exhausted = False
    limit_message = ""
    if engine == "auto" and sat_available():
        try:
            name = "path" if walk is not None else "search"
            assignment, exhausted = _portfolio(native, name, SatEngine(ti, gi, ci, mode, limits, stats), dom, fixed, limits, stats)
        except LimitReached as exc:
            limit_message = str(exc)
            if trace is not None:
                trace.event("limit", 0, engine=stats.engine, reason=limit_message)
    else:
        eng = SatEngine(ti, gi, ci, mode, limits, stats) if engine == "sat" else native(limits)
        stats.engine = eng.name
        try:
            assignment = eng.solve(dom, fixed)
            exhausted = assignment is None
        except LimitReached as exc:
            limit_message = str(exc)
            if trace is not None:
                trace.event("limit", 0, engine=eng.name, reason=limit_message)
    if assignment is None:
        if exhausted:
            return finish(
                Status.UNSAT,
                f"Failed to find mapping: target graph with {ti.n} nodes cannot be placed in "
                f"global graph with {gi.n} nodes under given constraints (exhaustive "
                f"{stats.engine} explored {stats.nodes_explored} nodes)",
                "exhausted-search" if stats.engine != "sat" else "sat-unsat")
        what = f"{timeout:g} s" if timeout is not None else "limit"
        return finish(Status.LIMIT,
                      f"gave up: {limit_message or 'limit reached'} ({what}, "
                      f"{stats.nodes_explored} nodes explored); no mapping found and none ruled "
                      f"out")

    mapping = {ti.nodes[u]: gi.nodes[c] for u, c in enumerate(assignment)}
    errors, warnings = validate_mapping(target, global_, mapping, constraints, mode)
    result.target_to_global = mapping
    result.global_to_target = {g: t for t, g in mapping.items()}
    result.warnings = warnings
    result.constraint_stats = constraint_stats(mapping, constraints)
    if errors:  # an engine bug: never report an invalid mapping as a success
        return finish(Status.INVALID, "internal error, invalid mapping: " + "; ".join(errors))
    return finish(Status.MAPPED)
