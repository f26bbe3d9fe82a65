"""L1 reservation timeline and schedule-range validation (seed 002 §4.1.3/§4.1.5, reference §2.9).

A reservation says "the output of `source` stays in L1 from schedule position `start` to `end`
(its last user), `bytes` per core". `ScheduleValidator.validate_range` re-validates every scheduled op
in a range with the op model, as `validateScheduleRangeWithReservation` does upstream:

* ops of a completed chain with their resolved config and resolved input layouts (in-chain producer
  outputs, the reshard target when the edge has one);
* other ops with the config the rewrite will give them (their first legal config) and the layouts
  their operands will have, where the outputs of producers kept in L1 (`residents`, updated as
  merges apply) replace the DRAM layouts;
* additional L1 = the active reservations at that position + the candidate's bytes.

Deviation (documented in docs/optimizer.md): a reservation is not added for the op that produces it
or for ops that read it, because the op model already counts an op's L1 inputs and its output in
its peak; upstream adds it there too (double counting).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ttopt.device import OpConfig, layout_info
from ttopt.device.layout_info import INTERLEAVED, L1, make_layout
from ttopt.device.tensor import element_dtype
from ttopt.dialects.errors import AttrError
from ttopt.ir.types import TensorType
from ttopt.optimizer.chain import L1ChainConfig, L1ChainState

REDUCTION_OPS = frozenset({"ttnn.sum", "ttnn.mean", "ttnn.min", "ttnn.max"})
SKIPPED_OPS = frozenset({"ttnn.to_layout", "ttnn.to_memory_config"})  # conversions accept any input


@dataclass(frozen=True, slots=True)
class L1Reservation:
    """The output of `source` stays in L1 over schedule positions [start, end], `bytes` per core."""

    source: Any
    start: int
    end: int
    bytes: int


@dataclass
class L1ReservationTimeline:
    """Reservations over a schedule; `active(pos)` sums the ones covering a position.

    A Fenwick tree over positions holds the sum (add and query in O(log n)); the reservations of an
    excluded source are subtracted one by one (a source has few). A linear scan per query made
    DFSharding quadratic: 16 s of 25 at 20k ops, 500 s at 100k."""

    reservations: list[L1Reservation] = field(default_factory=list)
    _tree: list[int] = field(default_factory=lambda: [0] * 65, repr=False)
    _by_source: dict[Any, list[L1Reservation]] = field(default_factory=dict, repr=False)

    def add(self, r: L1Reservation) -> None:
        need = max(r.start, r.end + 1, -1) + 2
        if need >= len(self._tree):
            self._grow(need)
        self.reservations.append(r)
        self._by_source.setdefault(r.source, []).append(r)
        self._update(r.start, r.bytes)
        self._update(r.end + 1, -r.bytes)

    def active(self, pos: int, exclude: tuple[Any, ...] | frozenset = ()) -> int:
        """Bytes per core reserved at `pos`, not counting reservations whose source is in `exclude`."""
        total = self._prefix(pos)
        for src in exclude:
            for r in self._by_source.get(src, ()):
                if r.start <= pos <= r.end:
                    total -= r.bytes
        return total

    # Positions start at -1 (block arguments, live before the first op): tree index = position + 2.
    def _update(self, pos: int, delta: int) -> None:
        i = max(pos, -1) + 2
        while i < len(self._tree):
            self._tree[i] += delta
            i += i & -i

    def _prefix(self, pos: int) -> int:
        if pos < -1:
            return 0
        i = min(pos + 2, len(self._tree) - 1)
        total = 0
        while i > 0:
            total += self._tree[i]
            i -= i & -i
        return total

    def _grow(self, need: int) -> None:
        """Rebuild the tree with room for position `need` (doubling)."""
        size = len(self._tree)
        while size <= need:
            size *= 2
        deltas: dict[int, int] = {}
        for r in self.reservations:
            deltas[r.start] = deltas.get(r.start, 0) + r.bytes
            deltas[r.end + 1] = deltas.get(r.end + 1, 0) - r.bytes
        self._tree = [0] * size
        for p, d in deltas.items():
            j = max(p, -1) + 2
            while j < size:
                self._tree[j] += d
                j += j & -j


def per_core_bytes(layout: Any) -> int:
    """L1 bytes per core of a layout (0 for DRAM)."""
    return layout_info(layout).per_core_bytes if layout is not None else 0


def l1_interleaved_layout(value: Any, worker_grid: tuple[int, int]) -> Any:
    """`value`'s tensor in L1 interleaved (tiled), or None."""
    t = value.type.resolve()
    dt = element_dtype(t) if isinstance(t, TensorType) else None
    if dt is None:
        return None
    try:
        return make_layout(tuple(t.shape), dt, True, L1, INTERLEAVED, None, worker_grid)
    except (AttrError, ValueError, TypeError):
        return None


def producer_of(value: Any) -> Any:
    return getattr(value, "op", None)


class ScheduleValidator:
    """Validates scheduled ops with reservations and L1-resident producer layouts (see module doc)."""

    def __init__(self, fn: Any, chains: list[L1ChainConfig], schedule: list[Any]) -> None:
        self.fn = fn
        self.analyses = fn.analyses
        self.model = fn.analyses.model
        self.schedule = schedule
        self.pos = {op: i for i, op in enumerate(schedule)}
        self.timeline = L1ReservationTimeline()
        self.residents: dict[Any, Any] = {}  # producer op -> layout its output keeps in L1
        self.extra_configs: dict[Any, OpConfig] = {}  # configs decided outside chains (reshape, conv users)
        self.chain_of: dict[Any, L1ChainConfig] = {}
        self.reshard_of: dict[tuple[Any, int], Any] = {}
        self.chains = chains
        self.refresh()

    def refresh(self) -> None:
        """Re-read the completed chains (after a concat or reshape chain was completed)."""
        self.chain_of.clear()
        self.reshard_of.clear()
        for c in self.chains:
            if c.state is not L1ChainState.COMPLETED:
                continue
            for op in c.ops:
                self.chain_of[op] = c
            for e, entry in c.mem_reconfig_entry_map.items():
                self.reshard_of[(e.consumer, e.operand_index)] = entry

    # -- layouts --------------------------------------------------------------------------------
    def config(self, op: Any) -> OpConfig | None:
        """The config `op` will run with: its chain's, else its default (first legal) config."""
        if op in self.extra_configs:
            return self.extra_configs[op]
        c = self.chain_of.get(op)
        if c is not None:
            for s in c.op_l1_mem_specs:
                if s.op is op:
                    return s.config
        info = self.analyses.legal.get(op)
        return info.default_config() if info is not None else None

    def output_layout(self, op: Any) -> Any:
        cfg = self.config(op)
        out = getattr(cfg, "output", None) if cfg is not None else None
        return out if out is not None and hasattr(out, "buffer_type") else None

    def input_layouts(self, op: Any, overrides: dict[Any, Any] | None = None) -> list[Any] | None:
        """Layouts of `op`'s tensor operands at run time; `overrides`: producer -> layout (tentative)."""
        out = []
        chain = self.chain_of.get(op)
        for i, v in enumerate(op.operands):
            t = v.type.resolve()
            if not isinstance(t, TensorType):
                continue
            p = producer_of(v)
            entry = self.reshard_of.get((op, i))
            lay = None
            if entry is not None:
                sel = entry.selected_layouts()
                lay = sel[0] if sel else None
            if lay is None and overrides and p in overrides:
                lay = overrides[p]
            if lay is None and p is not None and p in self.residents:
                lay = self.residents[p]
            if lay is None and chain is not None and p is not None and self.chain_of.get(p) is chain:
                lay = self.output_layout(p)
            if lay is None and chain is not None and i == 0 and op is chain.first_op:
                lay = chain.resolved_first_op_input_layout
            if lay is None:
                lay = self.analyses.effective_layout(v)
            if lay is None:
                return None
            out.append(lay)
        return out

    # -- validation -----------------------------------------------------------------------------
    def validate_op(self, op: Any, extra: int = 0, overrides: dict[Any, Any] | None = None,
                    extra_sources: tuple[Any, ...] = ()) -> tuple[bool, str]:  # fmt: skip
        """Validate one scheduled op with the active reservations (+ `extra` unless it reads one of
        `extra_sources`, whose bytes its own peak counts)."""
        if op.name in SKIPPED_OPS or op not in self.pos:
            return True, ""
        cfg = self.config(op)
        if cfg is None:
            return True, ""  # not modelled (no legal configs): the rewrite leaves it alone
        ins = self.input_layouts(op, overrides)
        if ins is None:
            return True, ""
        readers = {producer_of(v) for v in op.operands}
        if op.name in REDUCTION_OPS:
            for v in op.operands:
                p = producer_of(v)
                lay = (overrides or {}).get(p) or self.residents.get(p)
                if lay is not None and lay.is_sharded:
                    return False, f"{self.label(op)} is a reduction with a sharded L1 input (tt-metal #34951)"
        pos = self.pos[op]
        exclude = frozenset(readers | {op})
        add = self.timeline.active(pos, exclude)
        if not any(s in readers or s is op for s in extra_sources):
            add += extra
        r = self.model.validate(op, ins, cfg, add)
        if not r.ok:
            return False, f"{self.label(op)} at position {pos}: {r.reason}"
        return True, ""

    def validate_range(self, start: int, end: int, extra: int = 0, overrides: dict[Any, Any] | None = None,
                       extra_sources: tuple[Any, ...] = ()) -> tuple[bool, str]:  # fmt: skip
        """validateScheduleRangeWithReservation over positions [start, end]."""
        for p in range(max(start, 0), min(end, len(self.schedule) - 1) + 1):
            ok, why = self.validate_op(self.schedule[p], extra, overrides, extra_sources)
            if not ok:
                return False, why
        return True, ""

    def last_user_pos(self, op: Any) -> int | None:
        """Schedule position of the last user of `op`'s results (None if a user is unscheduled, e.g. return)."""
        last = -1
        for r in op.results:
            for u in r.users:
                p = self.pos.get(u)
                if p is None:
                    return None
                last = max(last, p)
        return last

    def reserve(self, source: Any, layout: Any) -> L1Reservation | None:
        """Keep `source`'s output in L1 with `layout` until its last user."""
        end = self.last_user_pos(source)
        if end is None:
            return None
        r = L1Reservation(source, self.pos[source], end, per_core_bytes(layout))
        self.timeline.add(r)
        self.residents[source] = layout
        return r

    def label(self, op: Any) -> str:
        return self.fn.labels.get(op, getattr(op, "name", "?"))
