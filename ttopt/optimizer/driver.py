"""One run of the ttnn-optimizer pass (kept out of `pass_.py` so the CLI can list the pass's
options without importing the optimizer). Every user error becomes a `Diagnostic`."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, cast

from ttopt.device import CostModel, DeviceError, OpModel, load_device
from ttopt.ir.diagnostics import Diagnostic, SourcePos, op_position
from ttopt.optimizer.analyses import AnalysisPipeline, forward_functions, op_labels
from ttopt.optimizer.chain import Edge, MemReconfigEntry
from ttopt.optimizer.config_snapshot import ConfigSnapshot
from ttopt.optimizer.conv2d_overrides import check_conv2d_targets, validate_conv2d_overrides
from ttopt.optimizer.conv3d_config import apply_conv3d_configs, parse_conv3d_config_overrides
from ttopt.optimizer.l1_budget_check import verify_l1_budget
from ttopt.optimizer.l1_interleaved_fallback import run_l1_interleaved_fallback
from ttopt.optimizer.option_checks import check_override_grid
from ttopt.optimizer.overrides import (
    OverrideError,
    check_names,
    parse_conv2d_config_overrides,
    parse_mem_reconfig_overrides,
    parse_output_layout_overrides,
)
from ttopt.optimizer.policies import FunctionContext, LayoutDecisions, PolicyNotImplemented, get_policy
from ttopt.optimizer.preconditions import check_block
from ttopt.optimizer.rewrite import LayoutAliaser, RewriteResult, apply_decisions, apply_sink_reshards
from ttopt.optimizer.scheduler import split_block
from ttopt.optimizer.sink_readers import plan_sink_reshards, trace_sink_reshards
from ttopt.optimizer.stats import CurrentCosts, function_cost, function_stats, module_stats
from ttopt.optimizer.trace import OptimizerTrace

if TYPE_CHECKING:
    from ttopt.optimizer.policies.cost_based import CostBased


def _fail(message: str, pos: Any = None) -> Diagnostic:
    return Diagnostic(f"ttnn-optimizer: {message}", pos)


def _module_position(module: Any) -> SourcePos | None:
    """Where the module op is, as MLIR reports a pass's failure at the op the pass runs on; an
    implicit module (bare top-level ops) has no text of its own, so the start of its input."""
    pos = op_position(module.source, module.op)
    if pos is None and module.source is not None:
        pos = SourcePos(module.source, 0)
    return pos


def run_optimizer(p: Any, module: Any, ctx: Any) -> None:
    """Run the pass `p` (a TTNNOptimizer) on `module`."""
    t0 = time.perf_counter()
    # -- options ----------------------------------------------------------------------------------
    if p.max_legal_layouts < 0:
        raise _fail(f"--max-legal-layouts must be >= 0, got {p.max_legal_layouts}")
    policy = None
    if p.memory_layout_analysis_enabled:
        try:
            policy = get_policy(p.memory_layout_analysis_policy)
        except PolicyNotImplemented as e:
            raise _fail(f"--memory-layout-analysis-policy: {e}") from None
        except KeyError:
            raise _fail(f"--memory-layout-analysis-policy: unknown policy '{p.memory_layout_analysis_policy}'") from None
        if hasattr(policy, "chain_merging"):  # DFSharding 2.0
            policy.chain_merging = getattr(p, "chain_merging", True)
        if hasattr(policy, "exact_max_ops"):  # CostBased
            cost_policy = cast("CostBased", policy)
            cost_policy.exact_max_ops = p.cost_exact_max_ops
            cost_policy.time_limit = p.cost_time_limit
            cost_policy.beam_width = p.cost_beam_width
    try:
        layout_overrides = parse_output_layout_overrides(p.override_output_layout)
        reconfig_overrides = parse_mem_reconfig_overrides(p.insert_memreconfig)
        conv_overrides = validate_conv2d_overrides(parse_conv2d_config_overrides(p.override_conv2d_config))
        conv3d_overrides = parse_conv3d_config_overrides(getattr(p, "override_conv3d_config", []))
    except OverrideError as e:
        raise _fail(str(e)) from None
    try:
        device = load_device(p.device or getattr(ctx, "device", None) or None, module, cap=p.tensor_l1_usage_cap)
    except DeviceError as e:
        raise _fail(e.message, e.pos) from None
    try:
        for lov in layout_overrides.values():
            check_override_grid(lov, device.worker_grid, f"the worker grid of {device.name}")
    except OverrideError as e:
        raise _fail(str(e)) from None

    funcs = forward_functions(module)
    if not funcs:
        raise _fail(
            'the module has no forward function (no func.func with tt.function_type = "forward_device", '
            "and no public func.func with a body)",
            _module_position(module),
        )
    # -- names -------------------------------------------------------------------------------------
    per_func: list[tuple[Any, Any, dict[Any, str]]] = []  # (function, its block, op labels); block None: skipped
    known: set[str] = set()
    for func in funcs:
        region = func.regions[0]
        if len(region.blocks) != 1:
            per_func.append((func, None, {}))
            continue
        block = region.entry
        check_block(module, block)
        labels = op_labels(block.ops)
        for op in block.ops:
            name = op.location.name if op.location is not None else None
            if name:
                known.add(name)
        per_func.append((func, block, labels))
    try:
        check_names("override-output-layout", layout_overrides, known)
        check_names("insert-memreconfig", reconfig_overrides, known)
        check_names("override-conv2d-config", conv_overrides, known)
        check_names("override-conv3d-config", conv3d_overrides, known)
        check_conv2d_targets(conv_overrides, [b for _, b, _ in per_func if b is not None], device.worker_grid)
    except OverrideError as e:
        raise _fail(str(e)) from None

    model = OpModel(device)
    cost = CostModel(device)
    analyses = AnalysisPipeline(device, model, p.max_legal_layouts, p.row_major_enabled, layout_overrides, conv_overrides)
    trace = OptimizerTrace(ctx.trace, p, device) if ctx.trace.enabled else None
    aliaser = LayoutAliaser(module)
    fstats: list[dict[str, Any]] = []
    stat_calls = 0
    # The stats re-validate and re-cost every op (a fifth of the pass): only when someone reads them.
    want_stats = getattr(ctx, "stats_requested", True) or trace is not None
    for func, block, labels in per_func:
        fname = getattr(func.properties.get("sym_name"), "value", "?")
        if block is None:
            if trace is not None:
                trace.note(f"@{fname}: skipped (more than one block)")
            continue
        apply_conv3d_configs(block, conv3d_overrides)
        ops, _, _ = split_block(block.ops)
        analyses.run(ops, labels)
        for op in ops:
            info = analyses.legal.get(op)
            ov = layout_overrides.get(labels[op])
            if ov is not None and info is not None and not info.configs and info.note.startswith("no legal layout"):
                raise _fail(f"--override-output-layout: no legal layout of '{labels[op]}' ({op.name}) matches '{ov.text()}'")
        by_name = {labels[op]: op for op in block.ops}
        override_edges: set[Edge] = set()
        for name, rov in reconfig_overrides.items():
            op = by_name.get(name)
            if op is None:
                continue
            for idx in rov.operands:
                if idx >= len(op.operands):
                    raise _fail(f"--insert-memreconfig: '{name}' has {len(op.operands)} operand(s), no operand {idx}")
                override_edges.add(Edge(getattr(op.operands[idx], "op", None), op, idx))
        costs = CurrentCosts(cost)
        fn = FunctionContext(func, block, ops, labels, analyses, override_edges, trace, cost, costs)
        if trace is not None:
            trace.function_begin(fname, fn)
        before = function_cost(cost, block, costs) if want_stats else (0.0, 0)
        decisions = policy.run(fn) if policy is not None else LayoutDecisions()
        for edge in sorted(override_edges, key=lambda x: (block.index(x.consumer), x.operand_index)):
            decisions.reshards.setdefault(edge, MemReconfigEntry({}, overridden=True))
        if not p.memreconfig_enabled:
            decisions.reshards = {}
        # Without a policy the plan is unpriced: it is kept only if no slower than the input (what
        # the user overrode is applied as asked).
        snapshot = None
        if policy is None and not decisions.reshards and not (layout_overrides or conv_overrides or conv3d_overrides):
            snapshot = ConfigSnapshot(func, block, aliaser)
            if not want_stats:
                before = function_cost(cost, block, costs)
        if decisions.keep_input and not override_edges:
            result = RewriteResult()
        else:
            result = apply_decisions(module, fn, decisions, aliaser)
        if snapshot is not None and function_cost(cost, block, costs)[0] > before[0] * (1 + 1e-9):
            snapshot.restore()
            for op in block.ops:
                model.invalidate(op)
            if trace is not None:
                trace.note(f"@{fname}: the first legal configs are estimated slower than the input: input kept")
        if policy is not None and p.max_legal_layouts > 0:
            # A policy that prices its plan (CostBased) keeps it from getting slower: HEAD's
            # unpriced sink reshard is applied only where the estimate does not grow.
            sinks = plan_sink_reshards(fn, priced=hasattr(policy, "exact_max_ops"))
            if sinks:
                apply_sink_reshards(fn, sinks, aliaser)
                trace_sink_reshards(fn, sinks)
        if getattr(p, "verify_l1_budget", False):

            verify_l1_budget(block, model, labels)
        fallback = run_l1_interleaved_fallback(fn, aliaser) if p.l1_interleaved_fallback_analysis_enabled else None
        if trace is not None:
            trace.function_end(fn, decisions, result)
        if not want_stats:
            continue
        c0 = model.calls
        fstats.append(function_stats(fname, fn, decisions, result, before, model, cost, costs))
        merge_report = getattr(policy, "last_merge_report", None)
        if merge_report is not None:
            fstats[-1]["chain_merging"] = merge_report.as_dict()
        cost_report = getattr(policy, "last_report", None)
        if cost_report is not None:
            fstats[-1]["cost_based"] = cost_report.as_dict()
        if fallback is not None:
            fstats[-1]["l1_interleaved_fallback"] = [labels[d.op] for d in fallback if d.upgraded]
        stat_calls += model.calls - c0
    if not want_stats:
        return
    stats = module_stats(fstats, p, device, model.calls - stat_calls, time.perf_counter() - t0)
    stats["options"]["chain_merging"] = getattr(p, "chain_merging", True)
    stats["totals"]["spills_avoided"] = sum(f.get("chain_merging", {}).get("spills_avoided", 0) for f in fstats)
    prev = ctx.stats.get("ttnn-optimizer")
    if prev is None:
        ctx.stats["ttnn-optimizer"] = stats
    else:  # --split-input-file: one entry per chunk
        prev.setdefault("modules", []).append(stats)
    if trace is not None:
        trace.summary(stats)
