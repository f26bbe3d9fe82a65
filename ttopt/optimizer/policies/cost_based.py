"""CostBased: choose every op's config and every reshard to minimise the function's estimated time,
under the L1 budget over the schedule, with the same op model, cost model and rewrite
as the other policies.

1. `CostGraph`: candidates per op (legal configs, pruned to the cheapest few) and, per choice, the
   reads from producers (direct or through a reshard), estimated ns and L1.
2. Functions with at most `exact_max_ops` decisions: the exact MIP (cost_exact.py, HiGHS) within a
   time limit; larger ones, or when the MIP gives nothing: the beam search (cost_beam.py).
3. Never worse than the input: the plan's estimate is compared with the function as given (same
   cost model, over the same ops); a plan that does not beat it is dropped and the IR kept.

Decisions: `op_configs` for every decided op, one reshard edge per conversion (its target is the
layout the consumer config was found legal with); no schedule change, no spills (a producer read in
DRAM by a consumer is converted on that edge, which the estimate counts).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ttopt.optimizer.chain import Edge, MemReconfigEntry
from ttopt.optimizer.policies import FunctionContext, LayoutDecisions, register_policy
from ttopt.optimizer.policies.cost_beam import beam_search
from ttopt.optimizer.policies.cost_exact import solve_exact
from ttopt.optimizer.policies.cost_graph import CostGraph, Node

EPSILON_NS = 1e-6


@dataclass(slots=True)
class CostReport:
    """What `--stats` says about one function's plan."""

    method: str
    nodes: int
    decisions: int
    candidates: int
    input_ns: float
    plan_ns: float
    bound_ns: float | None
    gap: float | None
    kept_input: bool
    conversions: int
    beam_states: int = 0
    solver_status: str = ""
    over_budget: int = 0  # ops placed although nothing fit (the input itself overflows L1 there)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready (rounded) form."""
        d = {
            "method": self.method, "nodes": self.nodes, "decisions": self.decisions, "candidates": self.candidates,
            "input_ns": round(self.input_ns, 1), "plan_ns": round(self.plan_ns, 1), "kept_input": self.kept_input,
            "conversions": self.conversions,
        }  # fmt: skip
        if self.bound_ns is not None:
            d["bound_ns"] = round(self.bound_ns, 1)
            d["gap"] = round(self.gap or 0.0, 6)
            d["solver_status"] = self.solver_status
        if self.beam_states:
            d["beam_states"] = self.beam_states
        if self.over_budget:
            d["over_budget"] = self.over_budget
        return d


def input_cost(graph: CostGraph) -> float:
    """The estimate of the graph's ops as the IR has them now (what the plan must beat)."""
    from ttopt.optimizer.stats import op_estimate

    costs = graph.fn.current_costs
    if costs is not None:
        return sum(c.ns for node in graph.nodes if node.costed and (c := costs.get(node.op)) is not None)
    return sum(c.ns for node in graph.nodes if node.costed and (c := op_estimate(graph.cost, node.op)) is not None)


@register_policy
class CostBased:
    """Minimum estimated time: exact MIP on small functions, beam search on large ones."""

    name: ClassVar[str] = "CostBased"

    def __init__(self, exact_max_ops: int = 200, time_limit: float = 10.0, beam_width: int = 64,
                 max_candidates: int = 6, beam_candidates: int = 4) -> None:  # fmt: skip
        self.exact_max_ops = exact_max_ops
        self.time_limit = time_limit
        self.beam_width = beam_width
        self.max_candidates = max_candidates
        self.beam_candidates = beam_candidates
        self.last_report: CostReport | None = None

    def run(self, fn: FunctionContext) -> LayoutDecisions:
        """Decide configs and reshards for one function."""
        from ttopt.device import CostModel

        cost = fn.cost if fn.cost is not None else CostModel(fn.analyses.device)
        # The exact MIP affords more candidates per op than the beam, whose work grows with them
        # (on the bench models 4 lose nothing against 6; on small graphs 6 reach the optimum more often).
        decidable = sum(1 for op in fn.ops if (info := fn.analyses.legal.get(op)) is not None and not info.fixed)
        exact = 0 < decidable <= self.exact_max_ops
        graph = CostGraph(fn, cost, self.max_candidates if exact else self.beam_candidates)
        free = sum(n.free for n in graph.nodes)
        method, bound, gap, status, states, over = "beam", None, None, "", 0, 0
        assignment: list[int] | None = None
        plan_ns = 0.0
        if 0 < free <= self.exact_max_ops:
            ex = solve_exact(graph, self.time_limit)
            if ex is not None:
                method, assignment, plan_ns = "exact", ex.assignment, ex.ns
                bound, gap, status = ex.bound, ex.gap, ex.status
        if assignment is None:
            br = beam_search(graph, self.beam_width)
            assignment, plan_ns, states, over = br.assignment, br.ns, br.max_states, len(br.over_budget)
        before = input_cost(graph)
        kept = plan_ns >= before - EPSILON_NS * max(1.0, before)
        decisions = LayoutDecisions()
        conversions = 0
        if kept:
            decisions.keep_input = True
        else:
            conversions = self._decide(graph, assignment, decisions)
        self.last_report = CostReport(
            method, len(graph.nodes), free, sum(len(n.cands) for n in graph.nodes), before,
            before if kept else plan_ns, bound, gap, kept, conversions, states, status, over,
        )  # fmt: skip
        if fn.trace is not None:
            self._trace(fn, graph, assignment, kept)
        return decisions

    @staticmethod
    def _decide(graph: CostGraph, assignment: list[int], decisions: LayoutDecisions) -> int:
        chosen = assignment.__getitem__
        n = 0
        for node in graph.nodes:
            k = assignment[node.pos]
            cfg = node.cands[k]
            if cfg is not None:
                decisions.op_configs[node.op] = cfg
            ch = graph.choice(node, k, graph.producer_layouts(node, chosen))
            if ch is None:
                continue
            for j, target in ch.conversions:
                idx = node.operand_index[j]
                producer = getattr(node.op.operands[idx], "op", None)
                decisions.reshards[Edge(producer, node.op, idx)] = MemReconfigEntry({0: [target]}, 0)
                n += 1
        return n

    def _trace(self, fn: FunctionContext, graph: CostGraph, assignment: list[int], kept: bool) -> None:
        trace = fn.trace
        assert trace is not None
        r = self.last_report
        assert r is not None
        how = f"exact MIP ({r.solver_status}, bound {r.bound_ns:.1f} ns)" if r.method == "exact" else f"beam (width {self.beam_width})"
        trace.note(f"CostBased: {r.decisions} decisions over {r.nodes} ops, {how}")
        if kept:
            trace.note(f"CostBased: no plan beats the input ({r.input_ns:.1f} ns); the function is kept as given")
            return
        trace.note(f"CostBased: estimate {r.input_ns:.1f} ns -> {r.plan_ns:.1f} ns, {r.conversions} reshard(s)")
        chosen = assignment.__getitem__
        for node in graph.nodes:
            if not node.free:
                continue
            trace.note(self._explain(graph, node, assignment[node.pos], graph.producer_layouts(node, chosen)))

    @staticmethod
    def _explain(graph: CostGraph, node: Node, k: int, ins: tuple) -> str:
        """`name: chosen <layout> 12.3 ns (compute/dram/noc ...); runner-up <layout> 14.0 ns`."""
        from ttopt.optimizer.stats import layout_text

        label = graph.fn.labels.get(node.op, node.op.name)
        ch = graph.choice(node, k, ins)

        def terms(c: Any, kk: int) -> str:
            oc = graph.cost.op_cost(node.op, c.reads, node.outs[kk])
            conv = f", {len(c.conversions)} reshard(s) {c.ns - c.op_ns:.1f}" if c.conversions else ""
            return (f"{layout_text(node.outs[kk])} {c.ns:.1f} ns (compute {oc.compute_ns:.1f}, dram {oc.dram_ns:.1f}, "
                    f"noc {oc.noc_ns:.1f}{conv})")  # fmt: skip

        alts = [(c.ns, j, c) for j in range(len(node.cands)) if j != k for c in [graph.choice(node, j, ins)] if c is not None]
        text = f"{label}: {terms(ch, k)}" if ch is not None else f"{label}: candidate {k}"
        if alts:
            ns, j, c = min(alts, key=lambda e: (e[0], e[1]))
            text += f"; runner-up {terms(c, j)}"
        return text
