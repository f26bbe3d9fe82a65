"""Reference optimum of a small function's layout plan, by exhaustive branch and bound — written
apart from the CostBased policy so that its optimality is tested, not asserted.

The decision space is the one every policy shares: each op takes one of its legal configs (all of
them, unpruned) or keeps its default when a reader the op model does not see reads its result
(returned, nested, dispatch or unknown readers); a consumer reads each producer's layout directly or
through one `ttnn.to_layout` to the layout its config was found legal with, whichever subset of
conversions is cheapest among those the op model accepts. The estimate is the cost model's, summed
over ops and conversions; L1 per core at every position is the op's peak plus every other L1 tensor
still to be read (l1_budget_check's rule). Ops are assigned in schedule order, so a partial plan's
estimate only grows and any branch already as expensive as the best plan is cut.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

from ttopt.device import CostModel, OpConfig, layout_info
from ttopt.device.op_families import Family, family_of
from ttopt.dialects.ttnn_layout import TTNNLayoutAttr
from ttopt.ir.types import TensorType
from ttopt.optimizer.analyses import current_layout
from ttopt.optimizer.dispatch import DISPATCH_OPS


@dataclass
class OraclePlan:
    """The optimum: estimated ns of the function's ops, the config per op label, plans visited."""

    ns: float
    configs: dict[str, Any]
    visited: int


def _l1(lay: Any) -> int:
    return layout_info(lay).per_core_bytes if isinstance(lay, TTNNLayoutAttr) and lay.is_l1 else 0


class _Op:
    def __init__(self, fn: Any, op: Any, pos: int, index: dict[Any, int], n: int) -> None:
        a = fn.analyses
        self.op, self.pos = op, pos
        self.inputs: list[tuple[int | None, Any, tuple]] = []  # (producer position, fixed layout, shape)
        for v in op.operands:
            t = v.type.resolve()
            if isinstance(t, TensorType):
                p = getattr(v, "op", None)
                pi = index.get(p) if p is not None and len(p.results) == 1 else None
                self.inputs.append((pi, None if pi is not None else a.effective_layout(v), tuple(t.shape or ())))
        readers = [u for r in op.results for u in r.users]
        self.last = max((index.get(u, n) for u in readers), default=-1)
        visible = all(u in index and (u.name == "ttnn.deallocate" or (family_of(u.name) is not None and u.name not in DISPATCH_OPS))
                      for u in readers)  # fmt: skip
        info = a.legal.get(op)
        self.costed = family_of(op.name) is not None and len(op.results) == 1 and isinstance(op.results[0].type.resolve(), TensorType)
        if info is None or info.fixed:
            cur = current_layout(op.results[0].type) if len(op.results) == 1 else None
            self.options: list[tuple[OpConfig | None, Any]] = [(None, cur)]
            return
        default = info.default_config()
        out = default.output
        dram_default = isinstance(out, TTNNLayoutAttr) and out.is_dram and not out.is_sharded
        configs = info.configs if (visible and readers and len(op.results) == 1 and dram_default) else [default]
        self.options = [(c, c.output) for c in configs]


def _ref(fn: Any, op: Any, cfg: OpConfig) -> list | None:
    a = fn.analyses
    eff = a.effective_inputs(op)
    if eff is None:
        return None
    if a.model.validate(op, eff, cfg).ok:
        return eff
    out = cfg.output
    if not (isinstance(out, TTNNLayoutAttr) and out.is_sharded and eff):
        return None
    if family_of(op.name) is Family.CONCAT:
        ref = [a.same_spec_input(op, out, v) for v in op.operands if isinstance(v.type.resolve(), TensorType)]
    else:
        ref = [a.same_spec_input(op, out), *eff[1:]]
    if any(r is None for r in ref) or not a.model.validate(op, ref, cfg).ok:
        return None
    return ref


def optimum(fn: Any, cost: CostModel | None = None, limit: int = 2_000_000) -> OraclePlan:
    """The cheapest feasible plan of `fn` (a FunctionContext) under the rules in the module docstring."""
    cost = cost or CostModel(fn.analyses.device)
    model = fn.analyses.model
    budget = model.usable_l1
    index = {op: i for i, op in enumerate(fn.ops)}
    ops = [_Op(fn, op, i, index, len(fn.ops)) for i, op in enumerate(fn.ops)]
    memo: dict[tuple, tuple[float, int, int, tuple[bool, ...]] | None] = {}

    def evaluate(o: _Op, k: int, ins: tuple) -> tuple[float, int, int, tuple[bool, ...]] | None:
        """(ns, op peak, largest conversion L1, converted per operand) of option k, or None."""
        key = (o.pos, k, tuple(layout_info(x).uid if x is not None else 0 for x in ins))
        if key in memo:
            return memo[key]
        cfg, out = o.options[k]
        res = None
        if cfg is None or not o.costed or any(x is None for x in ins):
            peak = sum(_l1(x) for x in ins) + _l1(out)
            ns = 0.0
            if o.costed and out is not None and all(x is not None for x in ins):
                r = model.validate(o.op, list(ins), OpConfig(output=out))
                peak = r.l1.peak if r.ok else peak
                ns = cost.op_cost(o.op, ins, out).ns
            res = (ns, peak, 0, tuple(False for _ in ins))
        else:
            ref = _ref(fn, o.op, cfg)
            for mask in itertools.product((False, True), repeat=len(ins)):
                if ref is None and any(mask):
                    continue
                reads = [ref[j] if m else x for j, (m, x) in enumerate(zip(mask, ins))]  # type: ignore[index]
                r = model.validate(o.op, reads, cfg)
                if not r.ok:
                    continue
                ns = cost.op_cost(o.op, reads, out).ns
                conv = 0
                for j, m in enumerate(mask):
                    if m and reads[j] != ins[j]:
                        ns += cost.conversion_cost(o.inputs[j][2], ins[j], reads[j]).ns
                        conv = max(conv, _l1(ins[j]) + _l1(reads[j]))
                if res is None or ns < res[0]:
                    res = (ns, r.l1.peak, conv, tuple(m and reads[j] != ins[j] for j, m in enumerate(mask)))
        memo[key] = res
        return res

    best: list[Any] = [float("inf"), None]
    chosen: list[int] = [0] * len(ops)
    visited = [0]

    def others(i: int, o: _Op, direct: set[int]) -> int:
        total = 0
        for p in range(i):
            q = ops[p]
            if q.last > i or (q.last == i and p in direct):
                if p not in direct:
                    total += _l1(q.options[chosen[p]][1])
        return total

    def dfs(i: int, partial: float) -> None:
        if partial >= best[0] or visited[0] > limit:
            return
        if i == len(ops):
            best[0], best[1] = partial, list(chosen)
            return
        o = ops[i]
        ins = tuple(ops[p].options[chosen[p]][1] if p is not None else f for p, f, _ in o.inputs)
        scored = []
        for k in range(len(o.options)):
            ev = evaluate(o, k, ins)
            if ev is not None:
                scored.append((ev[0], k, ev))
        for ns, k, (_, peak, conv, converted) in sorted(scored, key=lambda e: (e[0], e[1])):
            visited[0] += 1
            direct = {p for (p, _, _), c in zip(o.inputs, converted) if p is not None and not c}
            oth = others(i, o, direct)
            if peak + oth > budget or conv + oth > budget:
                continue
            chosen[i] = k
            dfs(i + 1, partial + ns)
        chosen[i] = 0

    dfs(0, 0.0)
    if best[1] is None:
        raise ValueError("no feasible plan")
    labels = fn.labels
    configs = {labels.get(o.op, o.op.name): o.options[best[1][o.pos]][0] for o in ops if len(o.options) > 1}
    return OraclePlan(best[0], configs, visited[0])


def analysed_function(text: str, max_legal_layouts: int = 8, name: str = "oracle.mlir") -> Any:
    """Parse `text` and run the optimizer's analyses on its first forward function (a FunctionContext)."""
    from ttopt.device import OpModel, load_device
    from ttopt.optimizer.analyses import AnalysisPipeline, forward_functions, op_labels
    from ttopt.optimizer.policies import FunctionContext
    from ttopt.optimizer.scheduler import split_block
    from ttopt.parse.parser import parse_module

    module = parse_module(text, name)
    device = load_device(None, module)
    analyses = AnalysisPipeline(device, OpModel(device), max_legal_layouts)
    func = forward_functions(module)[0]
    block = func.regions[0].entry
    ops, _, _ = split_block(block.ops)
    labels = op_labels(block.ops)
    analyses.run(ops, labels)
    return FunctionContext(func, block, ops, labels, analyses)
