"""`ttnn-greedy-l1-spill-management`: keep the L1 tensors of already-laid-out TTNN within the budget
by spilling the one used farthest ahead to DRAM (tt-mlir's TTNNGreedyL1SpillManagement).

Per forward function, the ops with a tensor result (but ttnn.empty) and the in-place cache and
adamw ops are visited in IR order; uses by other ops do not keep a value alive, as in tt-mlir.
At each op the values whose last use came before it die; the op is validated by the op model with, as additional L1, every live buffer it
does not read (`L1Tracker.additional_l1`: a view shares its source's buffer, counted once). Then:

* it fits: an L1 result becomes live (a zero-copy view of a live source joins that source's
  buffer instead);
* out of memory: live values are evicted farthest last use first, the op re-validated after each,
  until it fits; when nothing is left to evict its results are demoted to DRAM interleaved;
* the op model rejects the op as it is laid out: its results are demoted to DRAM interleaved;
* the op model cannot judge it: every live value is spilled right before it.

A `ttnn.to_tensor_spec` is left alone (it is decomposed later; its reader counts its L1 result).

An eviction inserts `ttnn.to_memory_config` to DRAM interleaved right after the value's producer
(located `<producer>_spill`) and makes every use read it; a consumer already visited gets a
`ttnn.to_memory_config` back to the value's L1 layout in front of it (`<consumer>_reshard`), as
does a later consumer the op model rejects with the DRAM input. Returned values follow, and so
does the function's type.

The budget is the device's usable L1 per core: `ttnn.tensor_l1_usage_cap` of the module times the
unreserved L1, minus the const-eval reservation. Where tt-mlir asks tt-metal's allocator (the
default `use-mock-allocator-state`) or simulates addresses (fragmentation, a circular-buffer
cushion), ttopt compares each op's L1 peak plus the other live buffers with the budget: the same
sum tt-mlir's scalar tracker starts from.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ttopt.device.layout_info import layout_info
from ttopt.device.op_model import OpModel, Status
from ttopt.dialects.ttnn_layout import TTNNLayoutAttr
from ttopt.ir.rewriter import insert_after, insert_before
from ttopt.ir.types import TensorType
from ttopt.optimizer.analyses import current_layout, forward_functions
from ttopt.optimizer.chain import SpillLocation
from ttopt.optimizer.l1_spill_tracker import L1Tracker
from ttopt.optimizer.l1_spill_views import is_aliasing_view
from ttopt.optimizer.memory_move import conversion_ops
from ttopt.optimizer.rewrite import LayoutAliaser, spill_layout, update_function_type
from ttopt.passes.base import Pass, option
from ttopt.passes.registry import register_pass

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.passes.context import PassContext

PASS_NAME = "ttnn-greedy-l1-spill-management"
# In-place ops without a tensor result whose reads still keep their operands alive (tt-mlir's
# isSinkOp); every other op without a tensor result, and ttnn.empty, is not in the schedule.
SINK_OPS = frozenset({"ttnn.fill_cache", "ttnn.paged_fill_cache", "ttnn.paged_update_cache", "ttnn.adamw"})
TO_TENSOR_SPEC = "ttnn.to_tensor_spec"


@dataclass
class SpillEvent:
    """One decision of the sweep, for stats and the decision trace."""

    kind: str  # spill | reshard | demote | evict_all
    op: str
    position: int
    freed: int = 0


@dataclass
class SpillReport:
    """What the sweep did to one function."""

    function: str
    budget: int
    events: list[SpillEvent] = field(default_factory=list)

    def count(self, kind: str) -> int:
        """Events of one kind."""
        return sum(1 for e in self.events if e.kind == kind)


def scheduled(op: Any) -> bool:
    """Whether the sweep visits `op`: its first result is a tensor (not ttnn.empty's), or it is a sink."""
    if op.name in SINK_OPS:
        return True
    return bool(op.results) and op.name != "ttnn.empty" and isinstance(op.results[0].type.resolve(), TensorType)


def _tensor_layout(v: Any) -> TTNNLayoutAttr | None:
    t = v.type.resolve()
    return current_layout(t) if isinstance(t, TensorType) else None


def _is_l1(v: Any) -> bool:
    lay = _tensor_layout(v)
    return lay is not None and lay.is_l1


def _label(op: Any) -> str:
    name = None
    if op.location is not None:
        try:
            name = op.location.name
        except Exception:  # noqa: BLE001  (a malformed location only loses the name)
            name = None
    return name or op.name.split(".", 1)[-1]


class SpillSweep:
    """The sweep over one function's block (see the module docstring)."""

    def __init__(self, func: Any, model: OpModel, aliaser: LayoutAliaser) -> None:
        self.func = func
        self.model = model
        self.aliaser = aliaser
        self.worker_grid = model.device.worker_grid
        self.block = func.regions[0].blocks[0]
        self.schedule = [op for op in self.block.ops if scheduled(op)]
        self.position = {id(op): i for i, op in enumerate(self.schedule)}
        self.last_use: dict[int, int] = {}
        self.dies_after: dict[int, list[Any]] = {}
        for i, op in enumerate(self.schedule):
            for r in op.results:
                if not isinstance(r.type.resolve(), TensorType):
                    continue
                last = max([i, *(self.position.get(id(u), i) for u in r.uses)])
                self.last_use[id(r)] = last
                self.dies_after.setdefault(last, []).append(r)
        self.tracker = L1Tracker()
        self.report = SpillReport(getattr(func.properties.get("sym_name"), "value", "?"), model.usable_l1)
        self.touched_return = False

    # -- the sweep ---------------------------------------------------------------------------------
    def run(self) -> SpillReport:
        """Visit every op; returns what was spilled, resharded and demoted."""
        for pos, op in enumerate(self.schedule):
            for v in self.dies_after.get(pos - 1, ()):
                self.tracker.remove(v)
            self._visit(pos, op)
        if self.touched_return:
            update_function_type(self.func)
        return self.report

    def _visit(self, pos: int, op: Any) -> None:
        results = [r for r in op.results if isinstance(r.type.resolve(), TensorType)]
        if not results:
            return  # a sink (cache update, ...): it only keeps its operands alive
        has_l1 = any(_is_l1(r) for r in results)
        if op.name == TO_TENSOR_SPEC:
            # Decomposed later into conversion ops (nothing to validate yet); an L1 result is read at
            # once by the next op, whose own validation counts it as an input.
            return
        if not has_l1 and not len(self.tracker):
            return
        res = self._validate(op)
        if res.status is Status.NOT_IMPLEMENTED:
            self._evict_all(pos, op)
            return
        if res.status is Status.ILLEGAL:
            self._demote(pos, op)
            return
        if res.status is Status.OUT_OF_MEMORY:
            self._evict_until(pos, op, lambda: self._validate(op).ok)
            if not self._validate(op).ok:
                self._demote(pos, op)
                return
        if has_l1:
            self._place(op, results)

    def _validate(self, op: Any) -> Any:
        return self.model.validate_current(op, self.tracker.additional_l1(op.operands))

    def _place(self, op: Any, results: list[Any]) -> None:
        if len(results) == 1 and is_aliasing_view(op) and self.tracker.add_view(results[0], op.operands[0]):
            return
        for r in results:
            lay = _tensor_layout(r)
            if lay is not None and lay.is_l1:
                self.tracker.add(r, layout_info(lay).per_core_bytes)

    # -- evictions ---------------------------------------------------------------------------------
    def _evict_until(self, pos: int, op: Any, fits: Any) -> None:
        while not fits():
            victim = self.tracker.farthest_victim(self.last_use)
            if victim is None:
                return
            self._spill(victim, pos)

    def _spill(self, victim: Any, pos: int) -> None:
        """Spill `victim` to DRAM right after its producer; every use reads the spill."""
        freed = self.tracker.remove(victim)
        producer = victim.op
        original = _tensor_layout(victim)
        target = spill_layout(victim, SpillLocation.DRAM, self.worker_grid)
        if original is None or target is None:
            return
        ops = conversion_ops(victim, original, target, self.aliaser.tensor_type, f"{_label(producer)}_spill", self.worker_grid)
        anchor = producer
        for new in ops:
            insert_after(anchor, new)
            anchor = new
        spilled = ops[-1].results[0]
        victim.replace_all_uses_with(spilled, except_in=ops[0])
        self.report.events.append(SpillEvent("spill", _label(producer), pos, freed))
        for consumer in list(spilled.users):
            self._restore_for(consumer, spilled, original, pos)

    def _restore_for(self, consumer: Any, spilled: Any, original: TTNNLayoutAttr, pos: int) -> None:
        """A consumer already visited keeps reading the L1 layout it was validated with; a later one
        reads DRAM unless the op model rejects that."""
        if consumer.name == "func.return":
            self.touched_return = True
            return
        at = self.position.get(id(consumer))
        if at is None:
            return
        if at >= pos:
            probe = self.model.validate_current(consumer)
            if probe.status is not Status.ILLEGAL:
                return
        dram = _tensor_layout(spilled)
        if dram is None:
            return
        ops = conversion_ops(spilled, dram, original, self.aliaser.tensor_type, f"{_label(consumer)}_reshard", self.worker_grid)
        for new in ops:
            insert_before(consumer, new)
        for i, v in enumerate(consumer.operands):
            if v is spilled:
                consumer.set_operand(i, ops[-1].results[0])
        self.report.events.append(SpillEvent("reshard", _label(consumer), pos))

    def _evict_all(self, pos: int, trigger: Any) -> None:
        """Spill every live value right before `trigger`; earlier uses keep reading L1."""
        for victim in self.tracker.live():
            original = _tensor_layout(victim)
            target = spill_layout(victim, SpillLocation.DRAM, self.worker_grid)
            if original is None or target is None:
                continue
            later = [u for u in victim.users if u.name == "func.return" or self.position.get(id(u), -1) >= pos]
            if not later:
                continue
            ops = conversion_ops(victim, original, target, self.aliaser.tensor_type, f"{_label(victim.op)}_spill", self.worker_grid)
            for new in ops:
                insert_before(trigger, new)
            spilled = ops[-1].results[0]
            for u in later:
                for i, v in enumerate(u.operands):
                    if v is victim:
                        u.set_operand(i, spilled)
                self.touched_return |= u.name == "func.return"
            self.report.events.append(SpillEvent("evict_all", _label(victim.op), pos, self.tracker.size_of(victim)))
        for victim in self.tracker.live():
            self.tracker.remove(victim)

    def _demote(self, pos: int, op: Any) -> None:
        """The op's L1 results become DRAM interleaved in place."""
        for r in op.results:
            if not _is_l1(r):
                continue
            target = spill_layout(r, SpillLocation.DRAM, self.worker_grid)
            if target is None:
                continue
            r.type = self.aliaser.tensor_type(r.type.resolve(), target)
            self.touched_return |= any(u.name == "func.return" for u in r.uses)
        self.model.invalidate(op)
        for u in {id(x): x for r in op.results for x in r.uses}.values():
            self.model.invalidate(u)
        self.report.events.append(SpillEvent("demote", _label(op), pos))


def manage_l1_spills(module: Any, model: OpModel) -> list[SpillReport]:
    """Run the sweep on every forward function of `module` with one block; one report each."""
    aliaser = LayoutAliaser(module)
    reports = []
    for func in forward_functions(module):
        if len(func.regions[0].blocks) != 1:
            continue
        reports.append(SpillSweep(func, model, aliaser).run())
    return reports


def write_decision_trace(directory: str, reports: list[SpillReport]) -> None:
    """Merge each function's spill decisions into `<directory>/<function>.json` (key `spill_management`)."""
    os.makedirs(directory, exist_ok=True)
    for r in reports:
        path = os.path.join(directory, f"{r.function}.json")
        data: dict[str, Any] = {}
        if os.path.exists(path):
            try:
                with open(path, encoding="utf-8") as f:
                    loaded = json.load(f)
                data = loaded if isinstance(loaded, dict) else {}
            except (OSError, ValueError):
                data = {}
        data["spill_management"] = {
            "l1_budget_per_core": r.budget,
            "events": [{"kind": e.kind, "op": e.op, "position": e.position, "freed_bytes": e.freed} for e in r.events],
        }
        with open(path, "w", encoding="utf-8") as f:
            json.dump(data, f, indent=2, sort_keys=True)
            f.write("\n")


@register_pass
@dataclass
class TTNNGreedyL1SpillManagement(Pass):
    """Farthest-last-use eviction of L1 tensors to DRAM to keep every op within the L1 budget."""

    name = PASS_NAME
    summary = "Keep laid-out TTNN within the L1 budget: spill the live L1 tensor used farthest ahead to DRAM (tt-mlir's TTNNGreedyL1SpillManagement)"

    enable_decision_trace: bool = option(False, "Write the spill decisions of each forward function to <decision-trace-dir>/<function>.json")
    decision_trace_dir: str = option("ttrt-artifacts/decision_trace", "Directory of the decision trace JSON files")
    use_mock_allocator_state: bool = option(True, "tt-mlir: ask tt-metal's allocator instead of its scalar tracker; ttopt has no allocator and uses the op model's L1 peaks either way")

    def run(self, module: Module, ctx: PassContext) -> None:
        from ttopt.device import DeviceError, load_device, op_model
        from ttopt.ir.diagnostics import Diagnostic, op_position

        try:
            device = load_device(getattr(ctx, "device", None) or None, module)
        except DeviceError as e:
            raise Diagnostic(f"{PASS_NAME}: {e.message}", e.pos or op_position(module.source, module.op)) from None
        reports = manage_l1_spills(module, op_model(device))
        stats = ctx.stats.setdefault(self.name, {})
        for kind in ("spill", "reshard", "demote", "evict_all"):
            stats[kind] = stats.get(kind, 0) + sum(r.count(kind) for r in reports)
        if self.enable_decision_trace:
            try:
                write_decision_trace(self.decision_trace_dir, reports)
            except OSError as e:
                raise Diagnostic(f"{PASS_NAME}: cannot write the decision trace to '{self.decision_trace_dir}': {e.strerror}") from None
