"""L1 chains: `L1ChainConfig` and its state machine, `SpillLocation`, `Edge`, `MemReconfigEntry`.

Seed 002 §3.2.4 / Appendix A and reference §2.8. A chain is a list of ops whose intermediate
tensors stay in L1; it moves InBuild -> Built -> Resolved -> Completed, or ends Failed (the solver
found nothing, or a policy gave up on it). Its end is spilled according to `spill_location`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Iterable

if TYPE_CHECKING:
    from ttopt.device import OpConfig
    from ttopt.dialects.ttnn_attrs import TensorMemoryLayout


class L1ChainState(StrEnum):
    """Seed 002 §3.2.4."""

    IN_BUILD = "InBuild"
    BUILT = "Built"
    RESOLVED = "Resolved"
    COMPLETED = "Completed"
    FAILED = "Failed"


class SpillLocation(StrEnum):
    """Where a completed chain's last output goes (seed 002 §4.1.4, replaces `spillEndToDRAM`).

    DFSharding sets DRAM, or NONE when the chain feeds a dispatch op (seed 001); chain merging
    adds NONE for merged chains and L1_INTERLEAVED.
    """

    NONE = "None"
    L1_INTERLEAVED = "L1Interleaved"
    DRAM = "DRAM"


@dataclass(frozen=True, slots=True)
class Edge:
    """Operand `operand_index` of `consumer` is produced by `producer` (None: a block argument)."""

    producer: Any
    consumer: Any
    operand_index: int


@dataclass(slots=True)
class MemReconfigEntry:
    """A reshard on an edge (reference §2.6): consumer config index -> input layouts that reach it."""

    reshard_output_config_map: dict[int, list[Any]]
    selected_reshard_output_config_bit_index: int | None = None
    overridden: bool = False  # the user asked for it (`insert-memreconfig`)

    def set_selected_reshard_output_config_bit_index(self, index: int) -> None:
        """Record the consumer config `set()` chose."""
        self.selected_reshard_output_config_bit_index = index

    def selected_layouts(self) -> list[Any]:
        """Candidate reshard layouts for the selected consumer config (empty before `set`)."""
        i = self.selected_reshard_output_config_bit_index
        return list(self.reshard_output_config_map.get(i, ())) if i is not None else []


@dataclass(slots=True)
class OpL1MemSpec:
    """One op of a chain and, once completed, its chosen config (Appendix A)."""

    op: Any
    tensor_split_factor: int = 1
    config: OpConfig | None = None

    @property
    def chosen(self) -> OpConfig:
        """The config of an op of a completed chain (`complete()` sets every op's)."""
        assert self.config is not None, "the chain is not completed"
        return self.config


class ChainStateError(RuntimeError):
    """An illegal L1ChainConfig transition (a bug in a policy, not a user error)."""


def chain_edges(ops: Iterable[Any]) -> list[Edge]:
    """Edges between ops of one chain, every operand index whose producer is in the chain (ref §2.6)."""
    ops = list(ops)
    members = set(map(id, ops))
    out = []
    for op in ops:
        for i, v in enumerate(op.operands):
            producer = getattr(v, "op", None)
            if producer is not None and id(producer) in members:
                out.append(Edge(producer, op, i))
    return out


def first_op_edge(op: Any) -> Edge:
    """The chain-entry edge: operand 0 of the first op (its producer is outside the chain)."""
    v = op.operands[0] if op.operands else None
    return Edge(getattr(v, "op", None), op, 0)


@dataclass
class L1ChainConfig:
    """A chain of ops kept in L1, with its state, reshards and spill location (reference §2.8)."""

    op_l1_mem_specs: list[OpL1MemSpec] = field(default_factory=list)
    mem_reconfig_entry_map: dict[Edge, MemReconfigEntry] = field(default_factory=dict)
    state: L1ChainState = L1ChainState.IN_BUILD
    spill_location: SpillLocation = SpillLocation.NONE
    is_concat_chain: bool = False
    preferred_output_mem_layout: TensorMemoryLayout | None = None  # set by chain merging
    failure_reason: str = ""
    # Dispatch-consumer chains (seed 001): the first op's input layout the solver chose.
    resolved_first_op_input_layout: Any = None
    solve_for_optimal_first_op_input: bool = False

    # -- building ------------------------------------------------------------------------------
    def add_op_l1_mem_spec(self, spec: OpL1MemSpec) -> None:
        """Append an op (InBuild only)."""
        self._expect(L1ChainState.IN_BUILD, "add an op to")
        self.op_l1_mem_specs.append(spec)

    def build(self) -> None:
        """InBuild -> Built: the op list is final."""
        self._expect(L1ChainState.IN_BUILD, "build")
        self.state = L1ChainState.BUILT

    # -- solving -------------------------------------------------------------------------------
    def resolved(self, ok: bool, failure: str | None = None, solve_for_optimal_first_op_input: bool = False) -> None:
        """Built -> Resolved (`ok`) or Failed: record what the ShardSolver found for this chain
        (`shard_solver.resolve_chain` runs it; the solver imports this module, not the reverse)."""
        self._expect(L1ChainState.BUILT, "resolve")
        self.solve_for_optimal_first_op_input = solve_for_optimal_first_op_input
        if ok:
            self.state = L1ChainState.RESOLVED
        else:
            self.state = L1ChainState.FAILED
            self.failure_reason = failure or "no solution"

    def complete(self, selected: dict[Any, OpConfig], mem_reconfig_map: dict[Edge, MemReconfigEntry]) -> None:
        """Resolved -> Completed: one config per op, plus the reshards on its edges."""
        self._expect(L1ChainState.RESOLVED, "complete")
        missing = [s.op for s in self.op_l1_mem_specs if s.op not in selected]
        if missing:
            raise ChainStateError(f"complete() without a config for {len(missing)} op(s)")
        for spec in self.op_l1_mem_specs:
            spec.config = selected[spec.op]
        self.mem_reconfig_entry_map = dict(mem_reconfig_map)
        self.state = L1ChainState.COMPLETED

    def fail(self, reason: str) -> None:
        """Built or Resolved -> Failed; the ops fall back to their first legal (DRAM) config."""
        if self.state not in (L1ChainState.BUILT, L1ChainState.RESOLVED, L1ChainState.FAILED):
            raise ChainStateError(f"cannot fail a chain in state {self.state}")
        self.state = L1ChainState.FAILED
        self.failure_reason = reason
        for spec in self.op_l1_mem_specs:
            spec.config = None
        self.mem_reconfig_entry_map = {}

    # -- views ---------------------------------------------------------------------------------
    @property
    def ops(self) -> list[Any]:
        """The chain's ops in order."""
        return [s.op for s in self.op_l1_mem_specs]

    @property
    def l1_chained_ops(self) -> set[Any]:
        """The chain's ops as a set."""
        return {s.op for s in self.op_l1_mem_specs}

    def is_empty(self) -> bool:
        """True when no op was added."""
        return not self.op_l1_mem_specs

    @property
    def first_op(self) -> Any:
        return self.op_l1_mem_specs[0].op

    @property
    def last_op(self) -> Any:
        return self.op_l1_mem_specs[-1].op

    def _expect(self, state: L1ChainState, what: str) -> None:
        if self.state is not state:
            raise ChainStateError(f"cannot {what} a chain in state {self.state} (expected {state})")
