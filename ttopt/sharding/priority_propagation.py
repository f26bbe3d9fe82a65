"""`op-priority-propagation` / `user-priority-propagation`: Shardy's propagation in iterations.

Op priorities (Shardy's `op_priority_propagation.cc`): five aggressive propagations, the i-th
letting each op propagate only in the union of the directions the first i+1 heuristics allow:
pass-through ops (elementwise, reshape, transpose, data-flow edges, host-offload custom calls;
dynamic slices only forward) when no operand has several uses; the same with several uses;
pass-through factors of every op, broadcast_in_dim only backward; every op, broadcast_in_dim
only backward; everything. Function results, sharding groups and propagation barriers keep
their own directions, as in Shardy.

User priorities (Shardy's `user_priority_propagation.cc`): a dimension sharding written with a
priority `pN` (N > 0) starts empty and closed with its axes replicated; op-priority propagation
runs, then for each priority in increasing order those dimensions get their own sharding back
and it runs again. Priorities are gone from the result.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ttopt.ir.values import BlockArgument, OpResult
from ttopt.passes.base import option
from ttopt.passes.registry import register_pass
from ttopt.sharding import factor_propagation as fp
from ttopt.sharding.propagation import (
    STRATEGIES,
    Node,
    PropagationPass,
    PropagationResult,
    ShardingGraph,
    propagate_rounds,
    run_propagation,
)

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.ir.operation import Operation
    from ttopt.passes.context import PassContext
    from ttopt.sharding.factors import Sharding

# Nodes that are not ops: their direction is their own (Shardy propagates them outside the
# op-priority schedule).
_UNSCHEDULED = frozenset({"return", "sharding group", "sdy.propagation_barrier"})
_PASS_THROUGH = frozenset({"stablehlo.reshape", "stablehlo.transpose", "sdy.data_flow_edge", "sdy.func_data_flow_edge"})
_FORWARD_ONLY = frozenset({"stablehlo.dynamic_slice", "stablehlo.dynamic_update_slice"})
OP_PRIORITIES = 5


def _multi_use_operand(op: Operation) -> bool:
    """Some non-scalar operand has more than one use (an op reading it twice counts twice)."""
    for v in op.operands:
        shape = getattr(v.type.resolve(), "shape", None)
        if shape is not None and len(shape) == 0:
            continue
        if len(v.uses) != 1:
            return True
    return False


def _is_offload(op: Operation) -> bool:
    from ttopt.sharding.rules import custom_call_target

    return op.name == "stablehlo.custom_call" and custom_call_target(op) in ("MoveToDevice", "MoveToHost")


def _pass_through_op(node: Node, multi_use: bool) -> str:
    op = node.op
    by_uses = fp.BOTH if multi_use or not _multi_use_operand(op) else fp.NONE
    if node.elementwise or _is_offload(op) or op.name in _PASS_THROUGH:
        return by_uses
    if op.name in _FORWARD_ONLY:
        return fp.intersect(by_uses, fp.FORWARD)
    return fp.NONE


def _pass_through_factors(node: Node, f: int) -> str:
    if node.label not in ("data-flow edge", "func data-flow edge") and not node.rule.factor_type(f).name == "PASS_THROUGH":
        return fp.NONE
    return fp.BACKWARD if node.op.name == "stablehlo.broadcast_in_dim" else fp.BOTH


def _any_but_broadcast_forward(node: Node, f: int) -> str:
    return fp.BACKWARD if node.op.name == "stablehlo.broadcast_in_dim" else fp.BOTH


def op_direction(priority: int, node: Node, f: int) -> str:
    """The union of the first `priority + 1` heuristics' directions for `node` along factor `f`."""
    if node.label in _UNSCHEDULED:
        return fp.BOTH
    schedule = (
        lambda: _pass_through_op(node, False),
        lambda: _pass_through_op(node, True),
        lambda: _pass_through_factors(node, f),
        lambda: _any_but_broadcast_forward(node, f),
        lambda: fp.BOTH,
    )
    d = fp.NONE
    for heuristic in schedule[: priority + 1]:
        d = fp.union(d, heuristic())
        if d == fp.BOTH:
            break
    return d


def propagate_op_priorities(graph: ShardingGraph, run_op_priority: bool = True, strategy: str = "aggressive") -> PropagationResult:
    """One propagation (`strategy`) per op priority, or a single one when disabled."""
    total = PropagationResult(skipped=dict(graph.skipped))
    for p in range(OP_PRIORITIES if run_op_priority else 1):
        graph.direction_of = (lambda node, f, p=p: op_direction(p, node, f)) if run_op_priority else None
        res = propagate_rounds(graph, strategy)
        total.visits += res.visits
        total.updates += res.updates
    graph.direction_of = None
    return total


def _skipped_by_user_priority(owner: Any) -> bool:
    """Shardy leaves the shardings of data-flow edge targets out (a manual computation's in/out
    shardings keep their priorities)."""
    if isinstance(owner, OpResult):
        return owner.op.name == "sdy.manual_computation"
    if isinstance(owner, BlockArgument) and owner.block is not None and owner.block.parent is not None:
        parent = owner.block.parent.parent
        return parent is not None and parent.name != "func.func"
    return False


def _mesh_order(graph: ShardingGraph, sh: Sharding) -> dict[str, int]:
    mesh = sh.mesh if not isinstance(sh.mesh, str) else graph.meshes.get(sh.mesh)
    return {a.name: i for i, a in enumerate(getattr(mesh, "axes", ()))}


def propagate_user_priorities(graph: ShardingGraph, run_op_priority: bool = True, strategy: str = "aggressive") -> PropagationResult:
    """Shardy's user-priority propagation on the graph's slots (see the module docstring)."""
    refs: dict[int, list[tuple[int, Sharding]]] = {}
    for s, sh in enumerate(graph.sh):
        if sh is None or _skipped_by_user_priority(graph.owner[s]):
            continue
        original = sh.copy()
        for p in sorted({p for p in sh.priority if p}):
            refs.setdefault(p, []).append((s, original))
        new = sh.copy()
        replicated = list(new.replicated)
        for d, q in enumerate(new.priority):
            if q:
                replicated.extend(new.dims[d])
                new.dims[d], new.closed[d] = [], True
            new.priority[d] = None
        order = _mesh_order(graph, sh)
        new.replicated = tuple(sorted(replicated, key=lambda a: (order.get(a[0], len(order)), a[0], a[1])))
        graph.sh[s] = new
    total = propagate_op_priorities(graph, run_op_priority, strategy)
    for p in sorted(refs):
        for s, original in refs[p]:
            cur = graph.sh[s]
            if cur is None:
                continue
            cur = cur.copy()
            restored = []
            for d, q in enumerate(original.priority):
                if q == p:
                    cur.dims[d], cur.closed[d], cur.priority[d] = list(original.dims[d]), original.closed[d], None
                    restored.extend(original.dims[d])
            cur.replicated = tuple(a for a in cur.replicated if a not in restored)
            graph.sh[s] = cur
        res = propagate_op_priorities(graph, run_op_priority, strategy)
        total.visits += res.visits
        total.updates += res.updates
    return total


@register_pass
@dataclass
class OpPriorityPropagation(PropagationPass):
    """Shardy's op-priority propagation (aggressive propagation per op heuristic)."""

    name = "op-priority-propagation"
    summary = "Propagate sdy shardings in op-priority iterations (Shardy op-priority strategy)"
    aliases = ("sdy-op-priority-propagate",)

    run_op_priority_propagation: bool = option(True, "false: one propagation instead of the op iterations")
    propagation_strategy: str = option("aggressive", "Factor propagation per round: basic, aggressive (Shardy's "
                                       "default) or basic-then-aggressive", choices=STRATEGIES)

    def run(self, module: Module, ctx: PassContext) -> None:
        run_propagation(module, ctx, self.is_conservative(), True, self.name, self.keep_sharding_rules,
                        strategy=self.rounds)

    def rounds(self, graph: ShardingGraph) -> PropagationResult:
        """The propagation rounds of this scheme."""
        return propagate_op_priorities(graph, self.run_op_priority_propagation, self.propagation_strategy)


@register_pass
@dataclass
class UserPriorityPropagation(OpPriorityPropagation):
    """Shardy's user-priority propagation (op-priority propagation per user priority)."""

    name = "user-priority-propagation"
    summary = "Propagate sdy shardings by dimension priorities p0, p1, ... (Shardy user-priority strategy)"
    aliases = ("sdy-user-priority-propagate",)

    run_op_priority_propagation: bool = option(True, "false: one propagation per user priority")

    def rounds(self, graph: ShardingGraph) -> PropagationResult:
        """Op-priority rounds per user priority, highest first."""
        return propagate_user_priorities(graph, self.run_op_priority_propagation, self.propagation_strategy)
