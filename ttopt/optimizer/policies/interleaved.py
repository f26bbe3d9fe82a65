"""What GreedyL1Interleaved and BFInterleaved share (reference §2.12): the op graph seen through
"DRAM or L1 interleaved" configs, the check that a placement really fits, and the decisions.

Both policies see an op's legal configs filtered to DRAM interleaved + L1 interleaved (upstream's
`filterDRAMAndL1Interleaved`): an op is *analyzable* when its default config (what it gets outside
any policy) is DRAM interleaved, and an *L1 candidate* when it also has an L1-interleaved legal
config, its result has a user, no user is the function's return (function results stay in DRAM,
as DFSharding's spill and the fallback analysis keep them), and every user is a top-level op the
op model knows that is not a dispatch op.

Sizes are bytes per core of the L1-interleaved output (`LayoutInfo.per_core_bytes`), the budget is
the device's usable L1 per core (reference §2.13). Both policies decide with upstream's tensor-size
model; `repair` then walks the final schedule and asks the op model about every op with its real
input layouts and the L1 of every other tensor alive across it (`additional_l1`), and moves tensors
back to DRAM until every op the op model accepted before still validates. Upstream has no such
check (its size model ignores circular buffers), so its plans can overflow L1; ttopt's cannot.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ttopt.device import OpConfig, layout_info
from ttopt.device.op_families import family_of
from ttopt.dialects.ttnn_layout import TTNNLayoutAttr
from ttopt.ir.types import TensorType
from ttopt.optimizer.chain import L1ChainConfig, L1ChainState, OpL1MemSpec
from ttopt.optimizer.dispatch import is_dispatch
from ttopt.optimizer.liveness import alive_across
from ttopt.optimizer.policies import FunctionContext, LayoutDecisions
from ttopt.optimizer.scheduler import Scheduler


def _is_dram_interleaved(cfg: OpConfig) -> bool:
    o = cfg.output
    return isinstance(o, TTNNLayoutAttr) and o.is_dram and not o.is_sharded


def _is_l1_interleaved(cfg: OpConfig) -> bool:
    o = cfg.output
    return isinstance(o, TTNNLayoutAttr) and o.is_l1 and not o.is_sharded


def l1_interleaved_config(configs: list[OpConfig], like: OpConfig | None = None) -> OpConfig | None:
    """The first L1-interleaved legal config (with `like`'s op-specific attributes when one has them)."""
    l1 = [c for c in configs if _is_l1_interleaved(c)]
    if like is not None:
        same = next((c for c in l1 if c.conv2d == like.conv2d and c.matmul == like.matmul), None)
        if same is not None:
            return same
    return l1[0] if l1 else None


@dataclass(frozen=True, slots=True)
class InterleavedConfigs:
    """An analyzable op's two choices and the L1 its output takes per core when in L1."""

    dram: OpConfig
    l1: OpConfig | None
    l1_bytes: int


@dataclass
class RepairStep:
    """One tensor moved back to DRAM by `repair` (for traces and tests)."""

    op: Any  # whose output moved to DRAM
    at: Any  # the op that did not validate
    reason: str


class InterleavedGraph:
    """The function's ops, their producers/users, and their DRAM / L1-interleaved configs."""

    def __init__(self, fn: FunctionContext) -> None:
        self.fn = fn
        self.analyses = fn.analyses
        self.model = fn.analyses.model
        self.usable_l1 = fn.analyses.device.usable_l1
        sched = Scheduler(fn.ops)
        self.deps: dict[Any, set[Any]] = sched.deps
        self.users: dict[Any, list[Any]] = sched.users
        self.index = sched.index
        members = set(fn.ops)
        term = fn.block.ops[-1] if fn.block.ops else None
        self.terminator = term if term is not None and term not in members else None
        self.returned: set[Any] = set()
        if self.terminator is not None:
            for v in self.terminator.operands:
                p = getattr(v, "op", None)
                if p is not None and p in members:
                    self.returned.add(p)
        self.configs: dict[Any, InterleavedConfigs] = {}
        self._candidate: dict[Any, bool] = {}
        for op in fn.ops:
            info = self.analyses.legal.get(op)
            if info is None or info.fixed:
                continue
            default = info.default_config()
            if default is None or not _is_dram_interleaved(default):
                continue  # an override keeps it elsewhere: the policies leave it alone
            l1 = l1_interleaved_config(info.configs, default)
            size = layout_info(l1.layout).per_core_bytes if l1 is not None else 0
            self.configs[op] = InterleavedConfigs(default, l1, size)
            self._candidate[op] = l1 is not None and self._uses_ok(op, members)

    def _uses_ok(self, op: Any, members: set[Any]) -> bool:
        if op in self.returned or len(op.results) != 1:
            return False
        uses = op.results[0].uses
        # Users the op model knows, outside dispatch regions: a dispatch op's callee / body types
        # follow only the layouts a dispatch config sets (DFSharding's), so it keeps DRAM inputs.
        return bool(uses) and all(u in members and family_of(u.name) is not None and not is_dispatch(u) for u in uses)

    # -- questions -----------------------------------------------------------------------------------
    def analyzable(self, op: Any) -> bool:
        """The op's output may be DRAM or L1 interleaved (its default config is DRAM interleaved)."""
        return op in self.configs

    def l1_candidate(self, op: Any) -> bool:
        """The op may put its output in L1 interleaved (see module docstring)."""
        return self._candidate.get(op, False)

    def l1_bytes(self, op: Any) -> int:
        """Per-core bytes of the op's L1-interleaved output (0 when it has none)."""
        c = self.configs.get(op)
        return c.l1_bytes if c is not None else 0

    @staticmethod
    def use_count(op: Any) -> int:
        """Uses of the op's results (`hasOneUse` counts uses, not users)."""
        return sum(len(r.uses) for r in op.results)

    def producers(self, op: Any) -> list[Any]:
        """Distinct producers of the op's operands among the function's ops, in operand order."""
        out: list[Any] = []
        for v in op.operands:
            p = getattr(v, "op", None)
            if p is not None and p in self.deps and p not in out:
                out.append(p)
        return out

    # -- layouts under a plan ------------------------------------------------------------------------
    def config(self, op: Any, in_l1: set[Any]) -> OpConfig | None:
        """The config `op` gets when the ops in `in_l1` output L1 interleaved."""
        c = self.configs.get(op)
        if c is not None:
            return c.l1 if op in in_l1 else c.dram
        info = self.analyses.legal.get(op)
        if info is None:
            return None
        d = info.default_config()
        return d if d is not None else (OpConfig(output=info.current) if info.current is not None else None)

    def output_layout(self, op: Any, in_l1: set[Any]) -> TTNNLayoutAttr | None:
        cfg = self.config(op, in_l1)
        if cfg is not None and isinstance(cfg.output, TTNNLayoutAttr):
            return cfg.output
        info = self.analyses.legal.get(op)
        return info.current if info is not None else None

    def input_layouts(self, op: Any, in_l1: set[Any]) -> list[TTNNLayoutAttr] | None:
        """Layouts of the op's tensor operands under the plan (None when one has no layout)."""
        out = []
        for v in op.operands:
            if not isinstance(v.type.resolve(), TensorType):
                continue
            p = getattr(v, "op", None)
            lay = self.output_layout(p, in_l1) if p is not None and p in self.deps else self.analyses.effective_layout(v)
            if lay is None:
                return None
            out.append(lay)
        return out

    # -- the check ---------------------------------------------------------------------------------
    def repair(self, schedule: list[Any], in_l1: set[Any]) -> list[RepairStep]:
        """Move L1 outputs to DRAM until every op validates under the plan (see module docstring).

        Walking the schedule, an op that fails puts, one at a time until it validates: its own L1
        output in DRAM; else (when it fails even with nothing else in L1) its largest L1 operand;
        else the largest other L1 tensor alive across it. Ops the op model rejects with their
        default inputs and config are not judged. A walk that moved anything is repeated (a
        producer now outputs DRAM); each walk but the last moves a tensor, so there are at most
        len(in_l1) + 1 walks.
        """
        steps: list[RepairStep] = []
        baseline: dict[Any, bool] = {}
        pos = {op: i for i, op in enumerate(schedule)}
        changed = True
        while changed:
            changed = False
            live, ends = self._liveness(schedule, pos, in_l1)
            for t, op in enumerate(schedule):
                while True:
                    ins = self.input_layouts(op, in_l1)
                    cfg = self.config(op, in_l1)
                    if ins is None or cfg is None:
                        break
                    own = [p for p in self.producers(op) if p in ends]
                    extra = live[t] - sum(self._bytes(p, in_l1) for p in own if ends[p] > t)
                    r = self.model.validate(op, ins, cfg, extra)
                    if r.ok and (op not in in_l1 or (r.output_info is not None and r.output_info.uid == layout_info(cfg.layout).uid)):
                        break
                    ok0 = baseline.get(op)
                    if ok0 is None:
                        base_ins = self.analyses.effective_inputs(op)
                        base_cfg = self.config(op, set())
                        ok0 = base_ins is not None and base_cfg is not None and self.model.validate(op, base_ins, base_cfg).ok
                        baseline[op] = ok0
                    if not ok0:
                        break
                    victim = None
                    if op in in_l1:
                        victim = op
                    else:
                        l1_ins = [p for p in own if p in in_l1]
                        if l1_ins and not self.model.validate(op, ins, cfg).ok:
                            victim = max(l1_ins, key=lambda p: (self._bytes(p, in_l1), -pos[p]))
                        else:
                            crossing = [p for p in ends if p in in_l1 and pos[p] < t < ends[p] and p not in own]
                            if crossing:
                                victim = max(crossing, key=lambda p: (self._bytes(p, in_l1), -pos[p]))
                    if victim is None:
                        break
                    b = self._bytes(victim, in_l1)
                    in_l1.discard(victim)
                    e = ends.pop(victim, None)
                    if e is not None:
                        for i in range(pos[victim] + 1, e):
                            live[i] -= b
                    steps.append(RepairStep(victim, op, r.reason if not r.ok else "output layout differs"))
                    changed = True
        return steps

    def _bytes(self, op: Any, in_l1: set[Any]) -> int:
        lay = self.output_layout(op, in_l1)
        return layout_info(lay).per_core_bytes if lay is not None else 0

    def _liveness(self, schedule: list[Any], pos: dict[Any, int], in_l1: set[Any]) -> tuple[list[int], dict[Any, int]]:
        """Per schedule position, the L1 bytes of tensors alive strictly across it; and each L1
        tensor's last use position (tensors in L1 by the plan or by a fixed layout)."""
        ends: dict[Any, int] = {}
        spans: list[tuple[int, int, int]] = []
        for op in schedule:
            b = self._bytes(op, in_l1)
            if not b:
                continue
            users = [pos[u] for u in self.users.get(op, ()) if u in pos]
            if not users:
                continue
            ends[op] = max(users)
            spans.append((pos[op], ends[op], b))
        live = alive_across(len(schedule), spans)
        return live, ends

    # -- decisions -------------------------------------------------------------------------------------
    def decisions(self, schedule: list[Any], in_l1: set[Any]) -> LayoutDecisions:
        """Schedule, one config per analyzable op, and one pseudo-chain holding the L1 ops
        (upstream packs them into a single L1ChainConfig: no reshards, no spills)."""
        d = LayoutDecisions(schedule=list(schedule))
        for op, c in self.configs.items():
            if op in in_l1:
                assert c.l1 is not None  # only L1 candidates (they have an L1 config) are put in L1
                d.op_configs[op] = c.l1
            else:
                d.op_configs[op] = c.dram
        chain = L1ChainConfig()
        for op in schedule:
            if op in in_l1:
                chain.add_op_l1_mem_spec(OpL1MemSpec(op))
        if not chain.is_empty():
            chain.build()
            chain.state = L1ChainState.RESOLVED  # no ShardSolver: the policy itself resolved it
            chain.complete({op: d.op_configs[op] for op in chain.ops}, {})
            d.chains.append(chain)
        return d


@dataclass
class PlacementTable:
    """Rows for `--trace`: what a policy decided per op, in schedule order."""

    title: str
    columns: tuple[str, ...]
    rows: list[tuple[str, ...]] = field(default_factory=list)

    def render(self, trace: Any) -> None:
        from rich import box
        from rich.markup import escape
        from rich.table import Table

        t = Table(title=self.title, title_justify="left", box=box.SIMPLE)
        for c in self.columns:
            t.add_column(c, overflow="fold")
        for r in self.rows:
            t.add_row(*(escape(x) for x in r))
        trace.print(t)


def report_repairs(fn: FunctionContext, steps: list[RepairStep]) -> None:
    """Trace lines for the tensors `repair` moved back to DRAM."""
    if fn.trace is None:
        return
    for s in steps:
        fn.trace.note(
            f"{fn.labels.get(s.op, s.op.name)} back to DRAM: {fn.labels.get(s.at, s.at.name)} does not validate with it in L1 ({s.reason})"
        )
