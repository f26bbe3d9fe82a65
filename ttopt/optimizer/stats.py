"""`--stats` JSON of the ttnn-optimizer (OP-MODEL.md §4): per function the chains, reshards, spills,
dispatch configs and per-op layout / L1 peak / estimated ns; module totals of estimated ns, DRAM
bytes and L1 residency (fraction of intermediate tensor bytes kept in L1). All figures come from
ttopt's analytic device model, not from hardware."""

from __future__ import annotations

from typing import Any

from ttopt.device import layout_info
from ttopt.device.layout_info import tensor_bytes
from ttopt.dialects.errors import AttrError
from ttopt.ir.types import TensorType
from ttopt.optimizer.analyses import current_layout, ranked_shape

MODEL_NOTE = "estimates from ttopt's analytic device model, not measurements"


def layout_text(layout: Any) -> str | None:
    """`l1 block_sharded 2x2 [1x1 tiles]`, or None."""
    return layout_info(layout).short() if layout is not None else None


class CurrentCosts:
    """Each op's estimate with the layouts the IR has now (`op_estimate`), computed once per op and
    state: an entry holds the op's operand and result types and its `compute_config` (all the cost
    reads, with the op's name and fixed shapes) and answers only while those are the same objects.
    Types and attributes are never mutated in place (the rewrite gives relaid values new types and
    sets new attribute objects), so a rewritten op misses and is costed again. The driver costs
    every op before the policy, the cost-based policy again for its baseline, and the stats after
    the rewrite (where unchanged ops hit)."""

    def __init__(self, cost: Any) -> None:
        self.cost = cost
        self._memo: dict[tuple, tuple[Any, tuple, Any, Any]] = {}

    def get(self, op: Any) -> Any:
        """`op_estimate(cost, op)`, from the memo when the op is as it was."""
        types = tuple([v.type.resolve() for v in op.operands] + [r.type.resolve() for r in op.results])
        fid = op.get_attr("compute_config")
        # The entry keeps the op, its types and the attribute alive, so their ids are not reused.
        key = (id(op), id(fid), *map(id, types))
        e = self._memo.get(key)
        if e is None:
            e = self._memo[key] = (op, types, fid, _op_cost(self.cost, op))
        return e[3]


def function_cost(cost: Any, block: Any, costs: CurrentCosts | None = None) -> tuple[float, int]:
    """(estimated ns, DRAM bytes) of the ttnn ops of a block with their current layouts."""
    if costs is not None:
        return _total([costs.get(op) for op in block.ops])
    return _total([_op_cost(cost, op) for op in block.ops])


def _total(costs: list[Any]) -> tuple[float, int]:
    """(ns, DRAM bytes) summed in program order (the float sum's order is part of the output)."""
    ns = 0.0
    dram = 0
    for c in costs:
        if c is not None:
            ns += c.ns
            dram += c.dram_bytes
    return ns, dram


def op_estimate(cost: Any, op: Any) -> Any:
    """The cost model's OpCost of a TTNN op with its current layouts, or None if it cannot be costed."""
    return _op_cost(cost, op)


def _op_cost(cost: Any, op: Any) -> Any:
    from ttopt.device.op_families import family_of
    from ttopt.device.rules.transformer import has_one_config

    # An op whose results share one config (the QKV head split) is costed once, as the policies price it.
    if not op.name.startswith("ttnn.") or not has_one_config(op):
        return None

    if family_of(op.name) is None:
        return None
    try:
        return cost.current_op_cost(op)
    except (AttrError, TypeError, ValueError, ArithmeticError):
        return None


def _result_bytes(t: TensorType, lay: Any) -> int | None:
    """Bytes of a result tensor in its layout (None: no layout, or one that cannot be sized)."""
    if lay is None:
        return None
    try:
        return tensor_bytes(ranked_shape(t), layout_info(lay))
    except (AttrError, TypeError, ValueError):
        return None


def function_stats(name: str, fn: Any, decisions: Any, result: Any, before: tuple[float, int], model: Any, cost: Any,
                   costs: CurrentCosts | None = None) -> dict[str, Any]:  # fmt: skip
    """The stats of one optimized function."""
    labels = fn.labels
    chain_of: dict[Any, int] = {}
    chains = []
    for i, c in enumerate(decisions.chains):
        for op in c.ops:
            chain_of[op] = i
        chains.append({
            "index": i, "ops": [labels.get(op, op.name) for op in c.ops], "state": c.state.value,
            "spill_location": c.spill_location.value, "concat": c.is_concat_chain,
            "solve_for_optimal_first_op_input": c.solve_for_optimal_first_op_input,
            **({"failure": c.failure_reason} if c.failure_reason else {}),
        })  # fmt: skip
    ops: dict[str, Any] = {}
    peak = 0
    # Each op of the block costed once: the per-op entries and the function's total share them.
    block_ops = list(fn.block.ops)
    block_costs = [costs.get(op) for op in block_ops] if costs is not None else [_op_cost(cost, op) for op in block_ops]
    cost_of = dict(zip(block_ops, block_costs))
    l1 = total = 0  # residency: bytes of the ops' tensor results in L1, and in all
    for op in fn.ops:
        if len(op.results) != 1:
            continue
        t = op.results[0].type.resolve()
        if not isinstance(t, TensorType):
            continue
        lay = current_layout(t)
        b = _result_bytes(t, lay)
        if b is not None and lay is not None:
            total += b
            if lay.is_l1:
                l1 += b
        r = model.validate_current(op)
        c = cost_of[op] if op in cost_of else _op_cost(cost, op)
        cfg = decisions.op_configs.get(op)
        entry: dict[str, Any] = {"op": op.name, "layout": layout_text(lay), "status": r.status.value}
        if r.ok:
            entry["l1_peak_bytes"] = r.l1.peak
            peak = max(peak, r.l1.peak)
        if c is not None:
            entry["estimated_ns"] = round(c.ns, 1)
        if op in chain_of:
            entry["chain"] = chain_of[op]
        if cfg is not None and cfg.matmul is not None:
            entry["matmul_program_config"] = cfg.matmul.kind
        if cfg is not None and cfg.conv2d is not None:
            entry["act_block_h_override"] = cfg.conv2d.act_block_h_override
        info = fn.analyses.legal.get(op)
        if info is not None:
            entry["legal_configs"] = len(info.configs)
            entry["sharded_configs"] = len(info.sharded)
            if info.note:
                entry["note"] = info.note
        ops[labels.get(op, op.name)] = entry
    ns, dram = _total(block_costs)
    return {
        "name": name,
        "schedule": [labels.get(op, op.name) for op in decisions.schedule] if decisions.schedule is not None else None,
        "chains": chains,
        "solving_order": list(decisions.solving_order),
        "dispatch": [
            {
                "op": labels.get(op, op.name), "input_layout": layout_text(d.input_layout),
                "output_layout": layout_text(d.output_layout), "l1_budget": d.l1_budget,
            }  # fmt: skip
            for op, d in decisions.dispatch_configs.items()
        ],
        "reshards": [
            {"op": labels.get(r.op, "") if r.in_place else f"{r.target}_mem_reconfig", "producer": r.source,
             "consumer": r.target, "operand": r.operand, "layout": layout_text(r.layout), "in_place": r.in_place}  # fmt: skip
            for r in result.reshards
        ],
        "spills": [{"op": r.source, "inserted": f"{r.source}_spill", "layout": layout_text(r.layout)} for r in result.spills],
        "ops": ops,
        "l1_peak_bytes": peak,
        "estimated_ns_before": round(before[0], 1),
        "estimated_ns": round(ns, 1),
        "dram_bytes_before": before[1],
        "dram_bytes": dram,
        "l1_bytes": l1,
        "tensor_bytes": total,
        "l1_residency": round(l1 / total, 4) if total else 0.0,
    }


def module_stats(functions: list[dict[str, Any]], p: Any, device: Any, validations: int, seconds: float) -> dict[str, Any]:
    """Per-function stats plus module totals."""
    l1 = sum(f["l1_bytes"] for f in functions)
    total = sum(f["tensor_bytes"] for f in functions)
    chains = [c for f in functions for c in f["chains"]]
    return {
        "model_note": MODEL_NOTE,
        "device": device.describe(),
        "options": {
            "memory_layout_analysis_enabled": p.memory_layout_analysis_enabled,
            "memory_layout_analysis_policy": p.memory_layout_analysis_policy,
            "max_legal_layouts": p.max_legal_layouts,
            "tensor_l1_usage_cap": device.l1_usage_cap,
            "row_major_enabled": p.row_major_enabled,
        },
        "functions": {f["name"]: f for f in functions},
        "totals": {
            "estimated_ns_before": round(sum(f["estimated_ns_before"] for f in functions), 1),
            "estimated_ns": round(sum(f["estimated_ns"] for f in functions), 1),
            "dram_bytes_before": sum(f["dram_bytes_before"] for f in functions),
            "dram_bytes": sum(f["dram_bytes"] for f in functions),
            "l1_residency": round(l1 / total, 4) if total else 0.0,
            "l1_peak_bytes": max((f["l1_peak_bytes"] for f in functions), default=0),
            "chains": len(chains),
            "chains_completed": sum(c["state"] == "Completed" for c in chains),
            "chains_failed": sum(c["state"] == "Failed" for c in chains),
            "reshards": sum(len(f["reshards"]) for f in functions),
            "spills": sum(len(f["spills"]) for f in functions),
            "validations": validations,
            "wall_seconds": round(seconds, 3),
        },
    }
