"""Memory-layout policies: one interface, a registry, one rewrite path (seed 002 §2.3).

A policy gets a `FunctionContext` (the function, its schedulable ops, the analyses' legal configs,
the user's reshard edges, the trace) and returns `LayoutDecisions` (schedule, config per op,
reshards, spills, dispatch configs, chains for traces and stats). It never edits the IR:
`ttopt.optimizer.rewrite.apply_decisions` does that for every policy.

Adding a policy: write `policies/<name>.py` with a class that has `name` and `run(fn)`, and point
its entry in `POLICY_MODULES` at the module (GreedyL1Interleaved, BFInterleaved).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TypeVar

if TYPE_CHECKING:
    from ttopt.device import CostModel, OpConfig
    from ttopt.optimizer.analyses import AnalysisPipeline
    from ttopt.optimizer.chain import Edge, L1ChainConfig, MemReconfigEntry, SpillLocation
    from ttopt.optimizer.dispatch import DispatchChainRelationship, DispatchD2MConfig
    from ttopt.optimizer.stats import CurrentCosts
    from ttopt.optimizer.trace import OptimizerTrace

# Policy name -> module that registers it, or None while it is planned (seed 002 §2.3 names).
POLICY_MODULES: dict[str, str | None] = {
    "DFSharding": "ttopt.optimizer.policies.df_sharding",
    "GreedyL1Interleaved": "ttopt.optimizer.policies.greedy_l1_interleaved",
    "BFInterleaved": "ttopt.optimizer.policies.bf_interleaved",
    "CostBased": "ttopt.optimizer.policies.cost_based",
}
PLANNED_IN: dict[str, str] = {}
DEFAULT_POLICY = "CostBased"  # it beats every other policy on every bench model

_REGISTRY: dict[str, type[MemoryLayoutPolicy]] = {}


class PolicyNotImplemented(LookupError):
    """A policy name that is known but not implemented yet."""


@dataclass
class FunctionContext:
    """Everything a policy may read about one forward function."""

    func: Any
    block: Any
    ops: list[Any]  # schedulable top-level ops in IR order (no get_device / empty / terminator)
    labels: dict[Any, str]
    analyses: AnalysisPipeline
    override_reshard_edges: set[Edge] = field(default_factory=set)
    trace: OptimizerTrace | None = None
    cost: CostModel | None = None  # the driver's cost model (shared memo); policies that estimate time read it
    current_costs: CurrentCosts | None = None  # the ops' estimates as the IR has them (validated per op)


@dataclass
class LayoutDecisions:
    """What a policy decided; `rewrite.apply_decisions` writes it into the IR."""

    schedule: list[Any] | None = None  # None: keep the IR order
    op_configs: dict[Any, OpConfig] = field(default_factory=dict)  # ops absent: their default config
    reshards: dict[Edge, MemReconfigEntry] = field(default_factory=dict)
    spills: dict[Any, SpillLocation] = field(default_factory=dict)
    dispatch_configs: dict[Any, DispatchD2MConfig] = field(default_factory=dict)
    chains: list[L1ChainConfig] = field(default_factory=list)
    dispatch_relationships: list[DispatchChainRelationship] = field(default_factory=list)
    solving_order: list[int] = field(default_factory=list)
    keep_input: bool = False  # no plan beats the function as given: leave its IR untouched


class MemoryLayoutPolicy(Protocol):
    """Chains/configs in, decisions out."""

    name: ClassVar[str]

    def run(self, fn: FunctionContext) -> LayoutDecisions:
        """Decide layouts for one forward function."""


_PolicyClass = TypeVar("_PolicyClass", bound="type[MemoryLayoutPolicy]")


def register_policy(cls: _PolicyClass) -> _PolicyClass:
    """Class decorator: make a policy available under its `name`."""
    _REGISTRY[cls.name] = cls
    return cls


def policy_names() -> tuple[str, ...]:
    """Every policy the option accepts (implemented and planned), in registration order."""
    return tuple(POLICY_MODULES)


def get_policy(name: str, **options: Any) -> MemoryLayoutPolicy:
    """An instance of policy `name`; PolicyNotImplemented for planned ones, KeyError for unknown."""
    if name not in POLICY_MODULES:
        raise KeyError(name)
    module = POLICY_MODULES[name]
    if module is None:
        raise PolicyNotImplemented(
            f"memory layout policy '{name}' is not implemented yet (planned: {PLANNED_IN.get(name, 'later')}); "
            f"implemented: {', '.join(n for n, m in POLICY_MODULES.items() if m)}"
        )
    importlib.import_module(module)
    return _REGISTRY[name](**options)
