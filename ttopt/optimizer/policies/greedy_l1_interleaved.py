"""GreedyL1InterleavedPolicy (seed 002 §2.3, reference §2.12).

Ops are visited in Scheduler order. Each op (the *base*) keeps an OpMemSpec {in L1?, required L1}
(default: DRAM, 0) and decides which of its *candidates* output L1 interleaved:

* the base itself, if it is an L1 candidate with exactly one use (its L1 usage: output, required 0);
* every operand producer currently in L1 (its output size and the required L1 of its subtree).

`greedy_config` searches subsets of the candidates (each L1 or DRAM) and, per subset, orders of the
L1 operands: an order is legal when, running the operands in that order, the L1 already allocated
by earlier operands plus the next operand's required L1 stays within the usable L1. The subset with
the largest total output L1 (within the usable L1, i.e. the moment the base runs) that has a legal
order wins (first such subset in mask order); its order is the one with the smallest peak (first
in permutation order). DRAM operands run first. The base's required L1 is then the max over its
operands of (L1 allocated before it + its required L1), and all L1 operands + its own output.

Finally the schedule is a DFS from the function's return (then any op not reached, in IR order):
each op's operands in its precedence (other producers first, then DRAM operands, then the L1 ones
in the chosen order), then the op. Upstream packs all L1 ops into one pseudo-chain (no reshards,
no spills); so does ttopt (`InterleavedGraph.decisions`), after `repair` checked every op with the
op model.

**The bound.** Exhaustive search (upstream's algorithm) runs while an op has at most
`MAX_EXHAUSTIVE_CANDIDATES` (6) candidates: every subset, and every order of its k L1 operands,
at most sum_k C(6, k) k! = 1957 order evaluations (`MAX_ORDER_EVALUATIONS`). Past that, `greedy_by_size`: candidates are added largest output first when the set
still fits, each set checked with one order, the L1 operands sorted by (required - output)
descending, which is an optimal order (exchange argument: swapping adjacent operands a, b never
lowers the peak when req_a - out_a >= req_b - out_b). That costs at most n order evaluations, so
no op ever evaluates more than max(1957, n) orders, n = its candidate count. Upstream asserts
n <= 64 and is exponential up to there.

Deviations from upstream: deterministic candidate order (operand order, then the base; upstream
iterates a pointer-keyed DenseMap and sorts orders by pointer); an order whose peak equals the
usable L1 exactly is legal (upstream needs it strictly below); ops whose result is returned stay in
DRAM (upstream may leave a function result in L1).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import permutations
from math import comb, factorial
from typing import Any, ClassVar, Hashable

from ttopt.optimizer.policies import FunctionContext, LayoutDecisions, register_policy
from ttopt.optimizer.policies.interleaved import InterleavedGraph, PlacementTable, report_repairs
from ttopt.optimizer.scheduler import Scheduler

MAX_EXHAUSTIVE_CANDIDATES = 6
# Orders the exhaustive search may evaluate: sum over subsets of k candidates of k! (all operands).
MAX_ORDER_EVALUATIONS = sum(comb(MAX_EXHAUSTIVE_CANDIDATES, k) * factorial(k) for k in range(MAX_EXHAUSTIVE_CANDIDATES + 1))


@dataclass(frozen=True, slots=True)
class L1Usage:
    """A candidate's output L1 and the L1 its subtree needs while it runs (upstream `L1Usage`)."""

    output: int
    required: int


@dataclass
class OpMemSpec:
    """Upstream `OpMemSpec`: where the op's output goes and the L1 its subtree needs."""

    in_l1: bool = False
    required: int = 0


@dataclass
class GreedyPolicyChoice:
    """What `greedy_config` decided for one base op."""

    base_op: Hashable
    in_l1: dict[Hashable, bool] = field(default_factory=dict)  # every candidate: L1 (True) or DRAM
    precedence: list[Hashable] = field(default_factory=list)  # candidate operands: DRAM first, then L1 order
    l1_usage: int = 0  # total output L1 of the chosen subset
    peak: int = 0  # max over the order (and the base's own moment)
    exhaustive: bool = True
    orders_evaluated: int = 0


def order_peak(order: list[Hashable], usages: dict[Hashable, L1Usage], usable: int) -> int | None:
    """Peak L1 running `order` (each operand's required L1 on top of the outputs before it), or
    None when some step exceeds `usable`."""
    prefix = peak = 0
    for op in order:
        u = usages[op]
        need = prefix + u.required
        if need > usable:
            return None
        peak = max(peak, need)
        prefix += u.output
    return peak


def greedy_config(base_op: Hashable, usages: dict[Hashable, L1Usage], usable: int) -> GreedyPolicyChoice:
    """Choose the L1 subset and order of `usages`' candidates for `base_op` (module docstring).
    Candidates are tried in `usages`' order; `base_op` may be one of them."""
    cands = list(usages)
    if len(cands) > MAX_EXHAUSTIVE_CANDIDATES:
        return greedy_by_size(base_op, usages, usable)
    best = GreedyPolicyChoice(base_op, {c: False for c in cands}, [c for c in cands if c != base_op])
    evaluated = 0
    for mask in range(1 << len(cands)):
        chosen = [c for i, c in enumerate(cands) if mask >> i & 1]
        total = sum(usages[c].output for c in chosen)
        if total <= best.l1_usage or total > usable:
            continue
        l1_operands = [c for c in chosen if c != base_op]
        best_order, best_peak = None, None
        for order in permutations(l1_operands):
            evaluated += 1
            peak = order_peak(list(order), usages, usable)
            if peak is not None and (best_peak is None or peak < best_peak):
                best_order, best_peak = list(order), peak
        if best_order is None or best_peak is None:  # set together
            continue
        dram = [c for c in cands if c != base_op and c not in chosen]
        best = GreedyPolicyChoice(
            base_op, {c: c in chosen for c in cands}, dram + best_order, total, max(best_peak, total), True, 0
        )  # fmt: skip
    best.orders_evaluated = evaluated
    return best


def optimal_order(operands: list[Hashable], usages: dict[Hashable, L1Usage]) -> list[Hashable]:
    """An order with the smallest peak: required - output descending (stable)."""
    return sorted(operands, key=lambda c: -(usages[c].required - usages[c].output))


def greedy_by_size(base_op: Hashable, usages: dict[Hashable, L1Usage], usable: int) -> GreedyPolicyChoice:
    """Past the exhaustive bound: add candidates largest output first while the set still has a
    legal order (checked with `optimal_order`); at most one order evaluation per candidate."""
    cands = list(usages)
    chosen: list[Hashable] = []
    total = 0
    evaluated = 0
    order: list[Hashable] = []
    peak = 0
    for c in sorted(cands, key=lambda c: -usages[c].output):
        if total + usages[c].output > usable:
            continue
        trial = [x for x in cands if x in chosen or x == c]
        trial_order = optimal_order([x for x in trial if x != base_op], usages)
        evaluated += 1
        p = order_peak(trial_order, usages, usable)
        if p is None:
            continue
        chosen, order, total, peak = trial, trial_order, total + usages[c].output, p
    dram = [c for c in cands if c != base_op and c not in chosen]
    return GreedyPolicyChoice(base_op, {c: c in chosen for c in cands}, dram + order, total, max(peak, total), False, evaluated)


@register_policy
class GreedyL1InterleavedPolicy:
    """Per op, keep the operand producers (and the op) that fit in L1 interleaved; DFS schedule."""

    name: ClassVar[str] = "GreedyL1Interleaved"

    def __init__(self) -> None:
        self.specs: dict[Any, OpMemSpec] = {}
        self.precedence: dict[Any, list[Any]] = {}
        self.choices: dict[Any, GreedyPolicyChoice] = {}
        self.repairs: list[Any] = []

    def run(self, fn: FunctionContext) -> LayoutDecisions:
        """Decide L1/DRAM per op, build the precedence schedule, check it with the op model."""
        g = InterleavedGraph(fn)
        usable = g.usable_l1
        self.specs = {op: OpMemSpec() for op in fn.ops}
        self.precedence, self.choices = {}, {}
        scheduler = Scheduler(fn.ops)
        while scheduler.has_unscheduled_ops():
            for op in scheduler.get_schedulable_ops():
                scheduler.schedule_op(op)
                self._visit(g, op, usable)
        schedule = self.schedule(g, fn)
        in_l1 = {op for op, s in self.specs.items() if s.in_l1}
        self.repairs = g.repair(schedule, in_l1)
        report_repairs(fn, self.repairs)
        if fn.trace is not None:
            self._trace(fn, g, schedule, in_l1)
        return g.decisions(schedule, in_l1)

    def _visit(self, g: InterleavedGraph, op: Any, usable: int) -> None:
        producers = g.producers(op)
        usages: dict[Any, L1Usage] = {}
        for p in producers:
            s = self.specs[p]
            if s.in_l1:
                usages[p] = L1Usage(g.l1_bytes(p), s.required)
        if g.l1_candidate(op) and g.use_count(op) == 1:
            usages[op] = L1Usage(g.l1_bytes(op), 0)
        choice = greedy_config(op, usages, usable)
        self.choices[op] = choice
        for c, in_l1 in choice.in_l1.items():
            self.specs[c].in_l1 = in_l1
        l1_order = [p for p in choice.precedence if self.specs[p].in_l1]
        others = [p for p in producers if not self.specs[p].in_l1]
        self.precedence[op] = others + l1_order
        prefix = required = 0
        for p in self.precedence[op]:
            required = max(required, prefix + self.specs[p].required)
            if self.specs[p].in_l1:
                prefix += g.l1_bytes(p)
        own = g.l1_bytes(op) if self.specs[op].in_l1 else 0
        self.specs[op].required = max(required, prefix + own)

    def schedule(self, g: InterleavedGraph, fn: FunctionContext) -> list[Any]:
        """DFS post-order from the return's operands (then unreached ops in IR order): each op's
        other dependencies first, then its precedence, then the op (iterative: no recursion limit)."""
        roots: list[Any] = []
        if g.terminator is not None:
            roots = [p for p in g.producers(g.terminator) if p in self.specs]
        roots += fn.ops
        visited: set[Any] = set()
        order: list[Any] = []

        def children(op: Any) -> list[Any]:
            prec = self.precedence.get(op, [])
            rest = sorted((d for d in g.deps[op] if d not in prec), key=g.index.__getitem__)
            return rest + prec

        for root in roots:
            if root in visited:
                continue
            visited.add(root)
            stack = [(root, iter(children(root)))]
            while stack:
                node, it = stack[-1]
                for c in it:
                    if c not in visited:
                        visited.add(c)
                        stack.append((c, iter(children(c))))
                        break
                else:
                    stack.pop()
                    order.append(node)
        return order

    def _trace(self, fn: FunctionContext, g: InterleavedGraph, schedule: list[Any], in_l1: set[Any]) -> None:
        assert fn.trace is not None  # run() traces only when there is a trace
        name = lambda op: fn.labels.get(op, op.name)  # noqa: E731
        t = PlacementTable(
            f"GreedyL1Interleaved (usable L1 {g.usable_l1} B/core; sizes in B/core)",
            ("op", "candidates out/req", "L1", "precedence", "required", "search"),
        )
        for op in schedule:
            c = self.choices.get(op)
            if c is None:
                continue
            cands = "\n".join(f"{name(x)} {g.l1_bytes(x)}/{self.specs[x].required if x != op else 0}" for x in c.in_l1)
            l1 = ", ".join(name(x) for x, v in c.in_l1.items() if v and x in in_l1)
            how = f"exhaustive, {c.orders_evaluated} orders" if c.exhaustive else f"greedy by size, {c.orders_evaluated} orders"
            t.rows.append((name(op), cands or "-", l1 or "-", ", ".join(name(x) for x in self.precedence.get(op, [])) or "-",
                           str(self.specs[op].required), how if c.in_l1 else "-"))  # fmt: skip
        t.render(fn.trace)
        fn.trace.print("[bold]schedule[/bold]: " + ", ".join(name(o) for o in schedule))
