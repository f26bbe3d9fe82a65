"""DFSharding 2.0 (seed 002 §4.1, reference §2.9): keep chain outputs in L1 where the schedule has room.

Order of application (reference §2.9, after the regular chains are solved; only Completed chains):
1. `set_concat_chain_preferences` (before solving): last-dim concat -> producer chains prefer
   height-sharded outputs, second-to-last -> width-sharded, other dims -> none; also the consumer
   chain when the concat's single user is its first op.
2. `resolve_concat_chains`: every concat operand is the single-use last op of a Completed chain, the
   concat validates with all those sharded inputs (output built from the first input's layout), and
   the N-way check passes (each input chain and every op up to the concat validated with the earlier
   inputs reserved, cumulatively) -> input chains spill NONE, concat chain Completed (spill DRAM).
3. `apply_reshape_reservations`: a reshape right after a DRAM-spilling chain's single-use last op
   makes that chain spill to L1 interleaved; the reshape's output then stays in L1 interleaved if
   every op up to its last user validates with it reserved (upstream adds a one-op Completed chain;
   here the reshape's L1-interleaved config goes to `extra_configs`, so chains stay sharded-only).
4. `apply_fork_reservations`: a DRAM-spilling chain whose last op has several users keeps its
   sharded output (then, failing that, L1 interleaved) if every user accepts it and produces its
   planned layout (reductions rejected; conv2d users retried with deallocate_activation=false;
   users with a reshard on that edge read through the reshard) and the fork span validates.
5. `apply_chain_merges` (one merge into each chain B, chains in index order): a 3-way merge when
   B's first op takes two chain outputs, else the largest valid simple A -> B merge on any operand
   (operand 0 only when the join op is unary or the source is a concat chain); a merge validates
   every scheduled op from the source's last op to the join with the source reserved, the join with
   the L1 input(s) producing its planned output, and the fragmentation check (the op after the join
   with all merged sources still reserved). Forking sources are rejected.

Every accepted/rejected candidate is reported on the trace and in `report` (stats).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from ttopt.device import OpConfig
from ttopt.device.layout_info import L1, make_layout
from ttopt.device.op_families import Family, family_of
from ttopt.device.tensor import element_dtype
from ttopt.dialects.errors import AttrError
from ttopt.dialects.ttnn_attrs import TensorMemoryLayout
from ttopt.ir.types import TensorType
from ttopt.optimizer.analyses import ranked_shape
from ttopt.optimizer.chain import L1ChainConfig, L1ChainState, SpillLocation
from ttopt.optimizer.l1_reservations import (
    REDUCTION_OPS,
    ScheduleValidator,
    l1_interleaved_layout,
    per_core_bytes,
    producer_of,
)


@dataclass
class MergeReport:
    """What DFSharding 2.0 decided (for --stats)."""

    spills_avoided: int = 0
    merges: list[dict[str, Any]] = field(default_factory=list)
    reservations: list[dict[str, Any]] = field(default_factory=list)
    rejected: list[dict[str, Any]] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {"spills_avoided": self.spills_avoided, "merges": self.merges, "reservations": self.reservations,
                "rejected": self.rejected}  # fmt: skip


def _users(op: Any) -> list[Any]:
    return [u for r in op.results for u in r.users]


def _tensor_rank(value: Any) -> int:
    t = value.type.resolve()
    return len(ranked_shape(t)) if isinstance(t, TensorType) else 0


def concat_dim(op: Any) -> int | None:
    a = op.get_attr("dim")
    v = getattr(a, "value", a)
    if v is None or not op.results:
        return None
    rank = _tensor_rank(op.results[0])
    try:
        d = int(v)
    except (TypeError, ValueError):
        return None
    return d + rank if d < 0 else d


def concat_input_layout(op: Any) -> TensorMemoryLayout | None:
    """Reference §2.9: last dim -> height sharded, second-to-last -> width sharded, else none."""
    d = concat_dim(op)
    rank = _tensor_rank(op.results[0]) if op.results else 0
    if d is None or rank < 2:
        return None
    if d == rank - 1:
        return TensorMemoryLayout.HEIGHT_SHARDED
    if d == rank - 2:
        return TensorMemoryLayout.WIDTH_SHARDED
    return None


def set_concat_chain_preferences(chains: list[L1ChainConfig]) -> None:
    """Step 1 (before solving)."""
    last_of = {c.last_op: c for c in chains if not c.is_empty() and not c.is_concat_chain}
    first_of = {c.first_op: c for c in chains if not c.is_empty() and not c.is_concat_chain}
    for c in chains:
        if not c.is_concat_chain:
            continue
        pref = concat_input_layout(c.first_op)
        if pref is None:
            continue
        for v in c.first_op.operands:
            src = last_of.get(producer_of(v))
            if src is not None:
                src.preferred_output_mem_layout = pref
        users = _users(c.first_op)
        if len(users) == 1 and users[0] in first_of:
            first_of[users[0]].preferred_output_mem_layout = pref


class ChainMerger:
    """Steps 2-5 on one function's solved chains."""

    def __init__(self, fn: Any, chains: list[L1ChainConfig], schedule: list[Any]) -> None:
        self.fn = fn
        self.chains = chains
        self.v = ScheduleValidator(fn, chains, schedule)
        self.trace = fn.trace
        self.report = MergeReport()
        self.wg = fn.analyses.device.worker_grid

    def run(self) -> MergeReport:
        self.resolve_concat_chains()
        self.apply_reshape_reservations()
        self.apply_fork_reservations()
        self.apply_chain_merges()
        return self.report

    # -- helpers ----------------------------------------------------------------------------------
    def say(self, text: str) -> None:
        if self.trace is not None:
            from rich.markup import escape

            self.trace.print(escape(text))

    def label(self, op: Any) -> str:
        return self.v.label(op)

    def decide(self, kind: str, what: str, ok: bool, why: str = "", **info: Any) -> None:
        self.say(f"{kind} {what}: {'accepted' if ok else 'rejected'}{(' (' + why + ')') if why else ''}")
        entry = {"kind": kind, "what": what, **info}
        if ok:
            (self.report.reservations if kind in ("reserve-fork", "reserve-reshape") else self.report.merges).append(entry)
        else:
            entry["reason"] = why
            self.report.rejected.append(entry)

    def completed_source(self, op: Any) -> L1ChainConfig | None:
        """The Completed chain whose last op is `op` and whose output goes to DRAM, else None."""
        c = self.v.chain_of.get(op)
        if c is None or c.state is not L1ChainState.COMPLETED or c.last_op is not op:
            return None
        if c.spill_location is not SpillLocation.DRAM:
            return None
        return c

    def keep(self, chain: L1ChainConfig, where: SpillLocation = SpillLocation.NONE) -> None:
        if chain.spill_location is SpillLocation.DRAM:
            self.report.spills_avoided += 1
        chain.spill_location = where

    def try_join(self, sources: list[Any], join: Any, join_cfg: OpConfig | None = None) -> tuple[bool, str, Any]:
        """Sources (last ops, kept in L1 with their sharded output) all feed `join`: validate every op
        from the first source to the join (cumulative reservations), the join producing its planned
        output, and the fragmentation check. Returns (ok, why, the join's output layout)."""
        v = self.v
        sources = sorted(sources, key=lambda s: v.pos[s])
        lay = {s: v.output_layout(s) for s in sources}
        jpos = v.pos[join]
        tentative = dict(lay)
        for p in range(v.pos[sources[0]] + 1, jpos):
            op = v.schedule[p]
            readers = {producer_of(x) for x in op.operands}
            add = sum(per_core_bytes(lay[s]) for s in sources if v.pos[s] < p and s not in readers and s is not op)
            ok, why = v.validate_op(op, add, tentative)
            if not ok:
                return False, why, None
        # The join with the L1 inputs.
        ins = v.input_layouts(join, tentative)
        cfg = join_cfg or v.config(join)
        if ins is None or cfg is None:
            return False, f"{self.label(join)} cannot be modelled", None
        add = v.timeline.active(jpos, frozenset({producer_of(x) for x in join.operands} | {join}))
        r = v.model.validate(join, ins, cfg, add)
        if not r.ok:
            return False, f"join {self.label(join)}: {r.reason}", None
        planned = v.output_layout(join)
        if join_cfg is None and planned is not None and r.output_layout != planned:
            return False, f"join {self.label(join)} would not produce its planned layout with the L1 input", None
        # Fragmentation check: the op after the join with every source still reserved.
        if jpos + 1 < len(v.schedule):
            total = sum(per_core_bytes(lay[s]) for s in sources)
            nxt = v.schedule[jpos + 1]
            ok, why = v.validate_op(nxt, total, tentative)
            if not ok:
                return False, f"fragmentation check: {why}", None
        return True, "", r.output_layout

    def commit(self, sources: list[Any]) -> None:
        for s in sources:
            self.v.reserve(s, self.v.output_layout(s))
            self.keep(self.v.chain_of[s])

    # -- 2. concat chains -------------------------------------------------------------------------
    def resolve_concat_chains(self) -> None:
        for c in self.chains:
            if not c.is_concat_chain or c.state is not L1ChainState.BUILT:
                continue
            op = c.first_op
            what = self.label(op)
            srcs = []
            why = ""
            for x in op.operands:
                p = producer_of(x)
                src = self.completed_source(p) if p is not None else None
                if src is None:
                    why = "an operand is not the output of a completed chain"
                    break
                if len(_users(p)) != 1:
                    why = f"{self.label(p)} has other users"
                    break
                srcs.append(p)
            out = None
            if not why and len({id(s) for s in srcs}) != len(srcs):
                why = "the same chain output twice"
            if not why:
                first = self.v.output_layout(srcs[0])
                out = self.concat_output(op, first)
                if out is None:
                    why = "no output layout from the first input's layout"
            if not why:
                ok, why, got = self.try_join(srcs, op, OpConfig(output=out))
                if ok:
                    self.commit(srcs)
                    c.state = L1ChainState.RESOLVED
                    c.complete({op: OpConfig(output=got)}, {})
                    c.spill_location = SpillLocation.DRAM
                    self.v.refresh()
                    self.decide("concat", what, True, f"{len(srcs)} inputs kept in L1", sources=[self.label(s) for s in srcs])
                    continue
            c.fail(f"concat chain: {why}")
            self.decide("concat", what, False, why)

    def concat_output(self, op: Any, first: Any) -> Any:
        t = op.results[0].type.resolve()
        dt = element_dtype(t) if isinstance(t, TensorType) else None
        if first is None or dt is None or not first.is_sharded:
            return None
        try:
            return make_layout(tuple(t.shape), dt, first.is_tiled, L1, first.memory_layout, tuple(first.grid), self.wg)
        except (AttrError, ValueError, TypeError):
            return None

    # -- 3. reshapes ------------------------------------------------------------------------------
    def apply_reshape_reservations(self) -> None:
        v = self.v
        for op in list(v.schedule):
            if op.name != "ttnn.reshape" or not op.operands:
                continue
            p = producer_of(op.operands[0])
            src = self.completed_source(p) if p is not None else None
            if src is None or len(_users(p)) != 1 or v.pos[op] != v.pos[p] + 1:
                continue
            what = f"{self.label(p)} -> {self.label(op)}"
            inl = l1_interleaved_layout(p.results[0], self.wg)
            cfg = v.config(op)
            if inl is None or cfg is None:
                continue
            ins = v.input_layouts(op, {p: inl})
            r = v.model.validate(op, ins, cfg, v.timeline.active(v.pos[op], frozenset({p, op}))) if ins else None
            if r is None or not r.ok:
                self.decide("spill-l1-interleaved", what, False, r.reason if r is not None else "no input layouts")
                continue
            v.reserve(p, inl)
            self.keep(src, SpillLocation.L1_INTERLEAVED)
            self.decide("spill-l1-interleaved", what, True, "reshape reads it from L1 interleaved")
            # The reshape's own output in L1 interleaved.
            users = _users(op)
            if any(u.name == "func.return" for u in users):
                self.decide("reserve-reshape", self.label(op), False, "a user is the function's return")
                return  # reference §2.9: upstream stops here (kept as it is)
            out = l1_interleaved_layout(op.results[0], self.wg)
            lcfg = next((c for c in (self.fn.analyses.legal[op].configs if op in self.fn.analyses.legal else [])
                         if c.output == out), None)  # fmt: skip
            if out is None or lcfg is None:
                self.decide("reserve-reshape", self.label(op), False, "no L1 interleaved legal config")
                continue
            r = v.model.validate(op, ins, lcfg, v.timeline.active(v.pos[op], frozenset({p, op})))
            if not r.ok:
                self.decide("reserve-reshape", self.label(op), False, r.reason)
                continue
            end = v.last_user_pos(op)
            assert end is not None  # every user but the function's return (checked above) is scheduled
            ok, why = v.validate_range(v.pos[op] + 1, end, per_core_bytes(out), {op: out}, (op,))
            if not ok:
                self.decide("reserve-reshape", self.label(op), False, why)
                continue
            v.extra_configs[op] = lcfg
            res = v.reserve(op, out)
            assert res is not None  # None only when a user is unscheduled (end above)
            self.decide("reserve-reshape", self.label(op), True, f"L1 interleaved, positions {res.start}-{res.end}, {res.bytes} B/core",
                        bytes=res.bytes)  # fmt: skip

    # -- 4. forks ---------------------------------------------------------------------------------
    def fork_users_accept(self, fork: Any, layout: Any) -> tuple[bool, str, dict[Any, OpConfig]]:
        v = self.v
        changed: dict[Any, OpConfig] = {}
        for u in _users(fork):
            if u not in v.pos:
                return False, f"user {u.name} is not scheduled (function return)", {}
            idxs = [i for i, x in enumerate(u.operands) if producer_of(x) is fork]
            if all((u, i) in v.reshard_of for i in idxs):
                continue  # reads through its reshard (a to_layout accepts any input)
            if u.name in REDUCTION_OPS:
                return False, f"user {self.label(u)} is a reduction (tt-metal #34951)", {}
            cfg = v.config(u)
            ins = v.input_layouts(u, {fork: layout})
            if cfg is None or ins is None:
                return False, f"user {self.label(u)} cannot be modelled", {}
            r = v.model.validate(u, ins, cfg)
            if not r.ok and family_of(u.name) is Family.CONV and cfg.conv2d is not None and cfg.conv2d.deallocate_activation:
                cfg = replace(cfg, conv2d=replace(cfg.conv2d, deallocate_activation=False))
                r = v.model.validate(u, ins, cfg)
                if r.ok:
                    changed[u] = cfg
            if not r.ok:
                return False, f"user {self.label(u)}: {r.reason}", {}
            planned = v.output_layout(u)
            if planned is not None and r.output_layout != planned:
                return False, f"user {self.label(u)} would not produce its planned layout", {}
        return True, "", changed

    def apply_fork_reservations(self) -> None:
        v = self.v
        for c in list(self.chains):
            if c.state is not L1ChainState.COMPLETED or c.spill_location is not SpillLocation.DRAM:
                continue
            fork = c.last_op
            if len(fork.results) != 1 or len(_users(fork)) < 2:
                continue
            end = v.last_user_pos(fork)
            if end is None:
                self.decide("reserve-fork", self.label(fork), False, "a user is the function's return")
                continue
            why_all = []
            for where, layout in ((SpillLocation.NONE, v.output_layout(fork)),
                                  (SpillLocation.L1_INTERLEAVED, l1_interleaved_layout(fork.results[0], self.wg))):  # fmt: skip
                kind = "sharded" if where is SpillLocation.NONE else "L1 interleaved"
                if layout is None:
                    continue
                ok, why, changed = self.fork_users_accept(fork, layout)
                if ok:
                    ok, why = v.validate_range(v.pos[fork] + 1, end, per_core_bytes(layout), {fork: layout}, (fork,))
                if not ok:
                    why_all.append(f"{kind}: {why}")
                    continue
                v.extra_configs.update(changed)
                res = v.reserve(fork, layout)
                assert res is not None  # None only when a user is unscheduled (end above)
                self.keep(c, where)
                self.decide("reserve-fork", self.label(fork), True, f"{kind}, positions {res.start}-{res.end}, {res.bytes} B/core",
                            layout=kind, bytes=res.bytes)  # fmt: skip
                break
            else:
                self.decide("reserve-fork", self.label(fork), False, "; ".join(why_all))

    # -- 5. merges ---------------------------------------------------------------------------------
    def apply_chain_merges(self) -> None:
        v = self.v
        for bi, b in enumerate(self.chains):
            if b.state is not L1ChainState.COMPLETED or b.is_concat_chain:
                continue
            first = b.first_op
            # 3-way: B's first op takes two chain outputs.
            if len(first.operands) == 2:
                s0, s1 = (producer_of(x) for x in first.operands)
                if s0 is not None and s1 is not None and s0 is not s1 \
                        and self.completed_source(s0) is not None and self.completed_source(s1) is not None:  # fmt: skip
                    what = f"{self.label(s0)} + {self.label(s1)} -> {self.label(first)} (chain {bi})"
                    if len(_users(s0)) > 1 or len(_users(s1)) > 1:
                        self.decide("merge-3way", what, False, "a source forks")
                    else:
                        ok, why, _ = self.try_join([s0, s1], first)
                        self.decide("merge-3way", what, ok, why, sources=[self.label(s0), self.label(s1)], target=self.label(first))
                        if ok:
                            self.commit([s0, s1])
                            continue
            # Simple A -> B: the largest valid source wins.
            best = None
            for op in b.ops:
                for i, x in enumerate(op.operands):
                    s = producer_of(x)
                    src = self.completed_source(s) if s is not None else None
                    if src is None or src is b:
                        continue
                    if i == 0 and not (op is first and (len(op.operands) == 1 or src.is_concat_chain)):
                        continue
                    what = f"{self.label(s)} -> {self.label(op)} operand {i} (chain {bi})"
                    if len(_users(s)) > 1:
                        self.decide("merge", what, False, "the source forks")
                        continue
                    if (op, i) in v.reshard_of:
                        self.decide("merge", what, False, "the edge is resharded")
                        continue
                    ok, why, _ = self.try_join([s], op)
                    if not ok:
                        self.decide("merge", what, False, why)
                        continue
                    size = per_core_bytes(v.output_layout(s))
                    self.say(f"merge candidate {what}: valid, {size} B/core")
                    if best is None or size > best[0]:
                        best = (size, s, op, i, what)
            if best is not None:
                size, s, op, i, what = best
                self.commit([s])
                self.decide("merge", what, True, f"largest valid source, {size} B/core", source=self.label(s),
                            target=self.label(op), operand=i, bytes=size)  # fmt: skip
