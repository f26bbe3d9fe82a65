"""DFShardingPolicy (seed 002 §3.2, seed 001, reference §2.5-2.7).

1. Build L1 chains while scheduling ops in DFS order: a shardable op with a sharded legal config
   joins the current chain; the chain continues into the next op iff that op is schedulable right
   after, uses this op's result as its operand 0, this op has exactly one use, and the next op is
   neither a dispatch op nor a concat. Dispatch ops break chains (seed 001), concat ops get a chain
   of their own (`is_concat_chain`; resolved by chain merging).
2. Link chains through dispatch ops and solve them in topological order; a chain consuming a
   dispatch result solves for its optimal first-op input, which becomes the dispatch's output.
3. Per chain: ShardSolver.resolve, then pickOpShardConfigs (max accumulated core usage, tie rule),
   finish, complete; a failed chain falls back to DRAM. Spill location: NONE when every user of the
   last op is a dispatch op (its output stays in L1), else DRAM.
"""

from __future__ import annotations

from typing import Any, ClassVar

from ttopt.optimizer.chain import L1ChainConfig, L1ChainState, OpL1MemSpec, SpillLocation
from ttopt.optimizer.core_usage import ForkRule, pick_config
from ttopt.optimizer.dispatch import (
    build_dispatch_chain_relationships,
    compute_chain_solving_order,
    compute_dispatch_d2m_configs,
    is_dispatch,
)
from ttopt.optimizer.memory_move import CONVERSION_OPS
from ttopt.optimizer.path_set import bits
from ttopt.optimizer.policies import FunctionContext, LayoutDecisions, register_policy
from ttopt.optimizer.scheduler import Scheduler
from ttopt.optimizer.shard_solver import ShardSolver, resolve_chain
from ttopt.optimizer.validation import OpModelBackend

# Ops that may live in an L1 chain: seed 002 §3.2.3's list (which has typecast and rms_norm) plus
# what reference §2.5 added at LEGACY (neg, rsqrt, pow_scalar, concat). Dispatch ops break chains
# instead (seed 001, DECISIONS.md).
SHARDABLE_OPS = frozenset({
    "ttnn.conv2d", "ttnn.conv_transpose2d", "ttnn.add", "ttnn.multiply", "ttnn.relu", "ttnn.relu6",
    "ttnn.typecast", "ttnn.silu", "ttnn.matmul", "ttnn.linear", "ttnn.minimum", "ttnn.rms_norm",
    "ttnn.rotary_embedding", "ttnn.gelu",
    "ttnn.neg", "ttnn.rsqrt", "ttnn.pow_scalar", "ttnn.concat",
})  # fmt: skip


def _one_use(op: Any) -> bool:
    return sum(len(r.uses) for r in op.results) == 1


def _producer(value: Any) -> Any:
    return getattr(value, "op", None)


@register_policy
class DFShardingPolicy:
    """The default policy: DFS-scheduled L1 chains solved by the ShardSolver."""

    name: ClassVar[str] = "DFSharding"

    def __init__(self, fork_rule: ForkRule = ForkRule.SUM, chain_merging: bool = True) -> None:
        self.fork_rule = fork_rule
        self.chain_merging = chain_merging  # DFSharding 2.0; False: the 1.0 behaviour
        self.last_merge_report: Any = None
        self.extra_op_configs: dict[Any, Any] = {}

    # -- 1. chains -----------------------------------------------------------------------------
    def build_l1_chains(self, fn: FunctionContext) -> tuple[list[L1ChainConfig], list[Any]]:
        """Chains in the order they were built, and the schedule (seed 001 phase 1)."""
        legal = fn.analyses.legal
        scheduler = Scheduler(fn.ops)
        chains = [L1ChainConfig()]
        current = None

        def finalize() -> None:
            if not chains[-1].is_empty():
                chains[-1].build()
                chains.append(L1ChainConfig())

        while scheduler.has_unscheduled_ops():
            if current is None:
                schedulable = scheduler.get_schedulable_ops()
                if chains[-1].is_empty():
                    # A schedulable conversion is taken first; it never starts a chain (reference §2.5).
                    current = next((o for o in schedulable if o.name in CONVERSION_OPS), None)
                if current is None:
                    current = schedulable[0]
            scheduler.schedule_op(current)
            if chains[-1].is_empty() and current.name in CONVERSION_OPS:
                current = None
                continue
            if is_dispatch(current):
                finalize()
                current = None
                continue
            info = legal.get(current)
            valid = current.name in SHARDABLE_OPS and info is not None and bool(info.sharded)
            if current.name == "ttnn.concat":
                finalize()
                if valid:
                    chains[-1].is_concat_chain = True
                    chains[-1].add_op_l1_mem_spec(OpL1MemSpec(current))
                    finalize()
                current = None
                continue
            next_op = None
            if scheduler.has_unscheduled_ops():
                for op in scheduler.get_schedulable_ops():
                    if any(_producer(v) is current for v in op.operands):
                        next_op = op
            if valid:
                chains[-1].add_op_l1_mem_spec(OpL1MemSpec(current))
                if next_op is not None and _one_use(current):
                    first_operand = next_op.operands[0] if next_op.operands else None
                    if first_operand is not None and _producer(first_operand) is current \
                            and not is_dispatch(next_op) and next_op.name != "ttnn.concat":  # fmt: skip
                        current = next_op
                        continue
            current = None
            finalize()
        if chains[-1].is_empty():
            chains.pop()
        return chains, scheduler.get_schedule()

    # -- 2 + 3. solving -------------------------------------------------------------------------
    def run(self, fn: FunctionContext) -> LayoutDecisions:
        """Build, link and solve the chains of one function; return the decisions."""
        trace = fn.trace
        chains, schedule = self.build_l1_chains(fn)
        relationships = build_dispatch_chain_relationships(schedule, chains)
        order = compute_chain_solving_order(len(chains), relationships)
        chain_to_dispatch: dict[int, Any] = {}
        for r in relationships:
            if r.consumer_chain_idx is None:
                continue
            # Solve for the dispatch's output only when the chain's first op is its sole user
            # (another user would otherwise read a layout nobody validated it with).
            users = [u for res in r.dispatch_op.results for u in res.users]
            if len(users) == 1 and users[0] is chains[r.consumer_chain_idx].first_op:
                chain_to_dispatch.setdefault(r.consumer_chain_idx, r.dispatch_op)
        if trace is not None:
            trace.chains(chains, schedule, relationships, order)
        if self.chain_merging:
            from ttopt.optimizer.chain_merging import set_concat_chain_preferences

            set_concat_chain_preferences(chains)
        backend = OpModelBackend(fn.analyses, fn.labels)
        dispatch_outputs: dict[Any, Any] = {}
        for idx in order:
            chain = chains[idx]
            if chain.is_concat_chain:
                if not self.chain_merging:
                    chain.fail("concat chains are resolved by chain merging (disabled: --no-chain-merging)")
                    if trace is not None:
                        trace.chain_result(idx, chain)
                continue  # resolved after the regular chains (after_chains_solved)
            consumes = idx in chain_to_dispatch
            on_step = trace.solver_begin(idx, chain, backend, consumes) if trace is not None else None
            solver = resolve_chain(chain, backend, fn.override_reshard_edges, consumes, on_step, self.fork_rule)
            if chain.state is L1ChainState.RESOLVED:
                ok, why = self.pick_op_shard_configs(solver, chain, backend, trace)
                if ok:
                    sol = solver.finish()
                    cfgs = {op: backend.configs(op)[i] for op, i in sol.selected_op_config.items()}
                    chain.complete(cfgs, sol.mem_reconfig_entry_map)
                    if consumes and solver.resolved_first_op_input_layout is not None:
                        chain.resolved_first_op_input_layout = solver.resolved_first_op_input_layout
                        dispatch_outputs[chain_to_dispatch[idx]] = solver.resolved_first_op_input_layout
                    self.set_spill_location(chain)
                else:
                    chain.fail(why)
            if trace is not None:
                trace.chain_result(idx, chain)

        self.after_chains_solved(fn, chains, schedule, backend)
        analyses = fn.analyses
        dispatch_configs = compute_dispatch_d2m_configs(
            relationships, chains, dispatch_outputs, analyses.device.usable_l1,
            default_input=lambda op: analyses.effective_layout(op.operands[0]) if op.operands else None,
            default_output=lambda op: analyses.effective_layout(op.results[0]) if op.results else None,
        )  # fmt: skip
        decisions = LayoutDecisions(
            schedule=schedule, chains=chains, dispatch_relationships=relationships, solving_order=order,
            dispatch_configs=dispatch_configs,
        )  # fmt: skip
        for chain in chains:
            if chain.state is not L1ChainState.COMPLETED:
                continue
            for spec in chain.op_l1_mem_specs:
                decisions.op_configs[spec.op] = spec.chosen
            decisions.reshards.update(chain.mem_reconfig_entry_map)
            if chain.spill_location is not SpillLocation.NONE:
                decisions.spills[chain.last_op] = chain.spill_location
        decisions.op_configs.update(self.extra_op_configs)  # DFSharding 2.0: reshape outputs, conv fork users
        return decisions

    def after_chains_solved(self, fn: FunctionContext, chains: list[L1ChainConfig], schedule: list[Any],
                            backend: OpModelBackend) -> None:  # fmt: skip
        """Hook between chain solving and the decisions. DFSharding 2.0 (seed 002 §4.1)
        resolves concat chains, L1 reservations and chain merges here by changing completed chains'
        `spill_location` (NONE / L1_INTERLEAVED) and failing or completing concat chains."""
        self.last_merge_report = None
        self.extra_op_configs = {}
        if self.chain_merging:
            from ttopt.optimizer.chain_merging import ChainMerger

            if fn.trace is not None:
                fn.trace.print("DFSharding 2.0: concat chains, L1 reservations, chain merges")
            merger = ChainMerger(fn, chains, schedule)
            self.last_merge_report = merger.run()
            self.extra_op_configs = dict(merger.v.extra_configs)
        for idx, chain in enumerate(chains):
            if chain.is_concat_chain and chain.state is L1ChainState.BUILT:
                chain.fail("concat chain not resolved")
                if fn.trace is not None:
                    fn.trace.chain_result(idx, chain)

    def pick_op_shard_configs(self, solver: ShardSolver, chain: L1ChainConfig, backend: OpModelBackend,
                              trace: Any = None) -> tuple[bool, str]:  # fmt: skip
        """Set every op to its best remaining config (reference §2.7); (False, why) if set() fails."""
        acc = solver.produce_max_core_usage()
        if trace is not None:
            trace.core_usage(chain, solver, acc, backend)
        preferred = chain.preferred_output_mem_layout
        if preferred is not None:
            # Concat producers/consumers: the last op first, to its best config with that layout.
            last = chain.last_op
            live = [i for i in bits(solver.bitset(last)) if backend.configs(last)[i].layout.memory_layout is preferred]
            choice = pick_config(live, acc[last], [backend.is_block_sharded(last, i) for i in range(backend.config_count(last))])
            if choice is not None and not solver.set(last, choice):
                return False, solver.failure
        for op in chain.ops:
            if op in solver.selected_op_config:
                continue
            n = backend.config_count(op)
            choice = pick_config(bits(solver.bitset(op)), acc[op], [backend.is_block_sharded(op, i) for i in range(n)])
            if choice is None:
                return False, f"no config left for {backend.op_label(op)}"
            if trace is not None:
                trace.pick(op, choice, acc[op][choice])
            if not solver.set(op, choice):
                return False, solver.failure
        return True, ""

    @staticmethod
    def set_spill_location(chain: L1ChainConfig) -> None:
        """Seed 001: a chain feeding only dispatch ops keeps its output in L1; otherwise DRAM."""
        last = chain.last_op
        users = [u for r in last.results for u in r.users]
        out = chain.op_l1_mem_specs[-1].chosen.layout  # called on a chain just completed
        if users and all(is_dispatch(u) for u in users):
            chain.spill_location = SpillLocation.NONE
        elif not out.is_dram:
            chain.spill_location = SpillLocation.DRAM
