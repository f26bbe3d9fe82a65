"""BFInterleavedPolicy (seed 002 §2.3, reference §2.12): breadth-first list scheduling.

At each step, among the schedulable ops (Scheduler order), pick the one with the smallest change
in L1 in use: the L1-interleaved output it allocates (if it is an L1 candidate and the output fits
next to everything in L1 now, its operands included, since they are alive while it runs) minus the
L1 freed by operands whose last unscheduled user it is. Ties: the first in Scheduler order.
Schedule it; place its output in L1 when it fits and the op model accepts the op with its current
input layouts, the L1-interleaved output and everything else in L1 as `additional_l1`; then free
every L1 tensor whose users are now all scheduled. Reference counts are per distinct user, so a
fork's output stays allocated until its last consumer runs.

Difference from upstream: upstream computes the change as an unsigned 64-bit `alloc - free`, so an
op that frees more than it allocates wraps to a huge value and is picked *last* instead of first.
ttopt uses signed arithmetic: freeing L1 is preferred, which is what the heuristic means. Like the
greedy policy, ops whose result is returned stay in DRAM, and `repair` checks the final schedule.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from ttopt.device import layout_info
from ttopt.optimizer.policies import FunctionContext, LayoutDecisions, register_policy
from ttopt.optimizer.policies.interleaved import InterleavedGraph, PlacementTable, report_repairs
from ttopt.optimizer.scheduler import Scheduler


@dataclass
class BFStep:
    """One scheduling step: the op, its score, where its output went, what was freed after it."""

    op: Any
    change: int  # allocated - freed, as scored (signed)
    in_l1: bool
    freed: list[Any] = field(default_factory=list)
    l1_in_use: int = 0  # after the step
    note: str = ""


@register_policy
class BFInterleavedPolicy:
    """Breadth-first list scheduling with L1-interleaved outputs where they fit."""

    name: ClassVar[str] = "BFInterleaved"

    def __init__(self) -> None:
        self.steps: list[BFStep] = []
        self.repairs: list[Any] = []

    def run(self, fn: FunctionContext) -> LayoutDecisions:
        """Schedule, place, check with the op model; return the decisions."""
        g = InterleavedGraph(fn)
        usable = g.usable_l1
        scheduler = Scheduler(fn.ops)
        remaining = {op: len(g.users[op]) for op in fn.ops}
        allocated: dict[Any, int] = {}  # op -> per-core bytes of its output in L1
        in_l1: set[Any] = set()
        in_use = 0
        self.steps = []
        while scheduler.has_unscheduled_ops():
            best, best_change = None, 0
            for op in scheduler.get_schedulable_ops():
                freed = sum(allocated[p] for p in g.deps[op] if p in allocated and remaining[p] == 1)
                size = g.l1_bytes(op)
                alloc = size if g.l1_candidate(op) and in_use + size <= usable else 0
                change = alloc - freed
                if best is None or change < best_change:
                    best, best_change = op, change
            op = best
            scheduler.schedule_op(op)
            placed, note = False, ""
            size = g.l1_bytes(op)
            if g.l1_candidate(op) and in_use + size <= usable:
                cfg = g.configs[op].l1
                assert cfg is not None  # an L1 candidate has an L1 config
                ins = g.input_layouts(op, in_l1)
                own = sum(allocated[p] for p in g.deps[op] if p in allocated)
                r = g.model.validate(op, ins, cfg, in_use - own) if ins is not None else None
                placed = r is not None and r.ok and r.output_info is not None and r.output_info.uid == layout_info(cfg.layout).uid
                if not placed:
                    note = r.reason if r is not None else "an operand has no layout"
            freed_ops = []
            for p in g.deps[op]:
                remaining[p] -= 1
                if remaining[p] == 0 and p in allocated:
                    in_use -= allocated.pop(p)
                    freed_ops.append(p)
            if placed:
                allocated[op] = size
                in_l1.add(op)
                in_use += size
            freed_ops.sort(key=g.index.__getitem__)
            self.steps.append(BFStep(op, best_change, placed, freed_ops, in_use, note))
        schedule = [s.op for s in self.steps]
        self.repairs = g.repair(schedule, in_l1)
        report_repairs(fn, self.repairs)
        if fn.trace is not None:
            self._trace(fn, g)
        return g.decisions(schedule, in_l1)

    def _trace(self, fn: FunctionContext, g: InterleavedGraph) -> None:
        name = lambda op: fn.labels.get(op, op.name)  # noqa: E731
        t = PlacementTable(
            f"BFInterleaved (usable L1 {g.usable_l1} B/core; sizes in B/core)",
            ("step", "op", "change", "output", "freed", "L1 in use", "note"),
        )
        for i, s in enumerate(self.steps):
            out = f"L1 ({g.l1_bytes(s.op)})" if s.in_l1 else "DRAM"
            t.rows.append((str(i), name(s.op), f"{s.change:+d}", out, ", ".join(name(p) for p in s.freed) or "-",
                           str(s.l1_in_use), s.note))  # fmt: skip
        t.render(fn.trace)
