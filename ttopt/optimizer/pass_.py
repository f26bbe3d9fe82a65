"""The `ttnn-optimizer` pass (seed 002 §2-3, reference §2.0): analyses, policy, graph rewrite.

Order (reference §2.0): check the options and overrides -> per forward function: the analyses
(legal configs per op) -> if `memory-layout-analysis-enabled`, the policy (default DFSharding)
decides schedule, configs, reshards, spills and dispatch configs -> user reshard edges
(`insert-memreconfig`) -> `rewrite.apply_decisions` (every op without a decision gets its first
legal config, i.e. DRAM interleaved) -> traces and `--stats`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ttopt.optimizer.policies import DEFAULT_POLICY, policy_names
from ttopt.passes.base import Pass, option
from ttopt.passes.registry import register_pass

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.passes.context import PassContext


@register_pass
@dataclass
class TTNNOptimizer(Pass):
    """TTNN memory-layout optimizer: L1 chains solved by the ShardSolver, reshards and spills."""

    name = "ttnn-optimizer"
    summary = "Choose TTNN memory layouts and op configs (CostBased by default; DFSharding + ShardSolver, interleaved policies), insert reshards and spills"

    memory_layout_analysis_enabled: bool = option(False, "Enable the memory layout policy (L1 chains); without it every op gets its first legal config (DRAM interleaved)")
    memory_layout_analysis_policy: str = option(DEFAULT_POLICY, "Memory layout policy: CostBased (minimum estimated time, the default), DFSharding (L1 sharded chains), GreedyL1Interleaved, BFInterleaved", choices=policy_names())
    max_legal_layouts: int = option(8, "Sharded layouts considered per op (0: no L1 sharding)")
    tensor_l1_usage_cap: float | None = option(None, "Fraction of L1 usable by tensors, in (0, 1] (default 1.0, or the module's ttnn.tensor_l1_usage_cap)")
    row_major_enabled: bool = option(False, "Also consider row-major layouts")
    override_output_layout: list[str] = option([], "NAME=p1:p2,... with grid AxB, dram/l1, interleaved/height_sharded/width_sharded/block_sharded, tile/row_major, dtype")
    insert_memreconfig: list[str] = option([], "NAME=idx[:idx...]: reshard these operands of op NAME")
    memreconfig_enabled: bool = option(True, "Insert the reshards the solver asks for")
    l1_interleaved_fallback_analysis_enabled: bool = option(False, "After the policy, upgrade single-use DRAM ops feeding the next op to L1 interleaved where the op model accepts it")
    override_conv2d_config: list[str] = option([], "NAME=key#value:key#value: conv2d_config keys of conv op NAME (set keys are not searched)")
    override_conv3d_config: list[str] = option([], "NAME=key#value:key#value: conv3d_config keys (weights_dtype, t/w/h/c_out_block, c_in_block) of conv3d op NAME, over the _DEFAULT_BLOCKINGS heuristic")
    chain_merging: bool = option(True, "DFSharding 2.0: keep chain outputs in L1 (chain merges, concat chains, fork and reshape L1 reservations); --no-chain-merging restores DFSharding 1.0")
    cost_exact_max_ops: int = option(200, "CostBased: solve functions with at most this many decisions exactly (MIP); larger ones by beam search")
    cost_time_limit: float = option(10.0, "CostBased: time limit of the exact solver per function, in seconds (then its best plan and bound)")
    cost_beam_width: int = option(64, "CostBased: states kept per step of the beam search")
    verify_l1_budget: bool = option(False, "After the rewrite, replay the schedule and fail at the first position whose L1 use exceeds the budget")
    device: str = option("", "Device preset (wormhole_b0, n150, blackhole) or system-desc file, when the module has no ttcore.system_desc")

    def validate(self) -> None:
        """Reject bad option values up front (usage error, exit 2), as `layouts` and `analyze` do."""
        from ttopt.optimizer.option_checks import check_optimizer_options

        check_optimizer_options(self)

    def run(self, module: Module, ctx: PassContext) -> None:
        import gc

        from ttopt.optimizer.driver import run_optimizer

        # The op and cost models' memo tables grow with the graph; cyclic GC would rescan them
        # again and again (about a quarter of the pass at 20k ops). Nothing here makes cycles to free.
        enabled = gc.isenabled()
        gc.disable()
        try:
            run_optimizer(self, module, ctx)
        finally:
            if enabled:
                gc.enable()
