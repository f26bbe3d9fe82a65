"""Dispatch family: `ttnn.dispatch_d2m` (region form) and `ttnn.d2m_subgraph` (callee form).

Any input/output layouts are accepted (OP-MODEL.md §3 row 9). The L1 the fused computation needs
is the maximum peak over the ops inside (reference §4.1: element-wise max over internal ops),
validated with the dispatch's layouts flowing into them; an inner op whose layouts TTNN's own
kernel would reject is counted generically (D2M generates its own kernels, so it stays legal). Seed 001 phase 5 gives the dispatch a
budget of `usable L1 - producer output - consumer input`: the dispatch's own inputs and output stay
resident while the inner ops run, so the peak is those tensors plus the inner maximum.
"""

from __future__ import annotations

from typing import Any

from ttopt.device.circular_buffers import streaming_cb
from ttopt.device.layout_info import LayoutInfo, layout_info
from ttopt.device.op_config import OpConfig
from ttopt.device.rules.common import Illegal, OpContext, RuleResult
from ttopt.dialects.ttnn_layout import TTNNLayoutAttr
from ttopt.ir.types import TensorType


def _segments(op: Any, n: int) -> tuple[int, int]:
    """(number of ins, number of outs) among the op's tensor operands."""
    seg = op.properties.get("operandSegmentSizes")
    if seg is not None and len(getattr(seg, "values", ())) == 2:
        return seg.values[0], seg.values[1]
    return (n - 1, 1) if n > 1 else (n, 0)  # dispatch_d2m(%ins..., %out_buffer)


def _body(op: Any) -> tuple[list[Any], list[Any], Any]:
    """(inner ops, values bound to the dispatch operands in order, value the body yields)."""
    if op.regions and op.regions[0].blocks:
        block = op.regions[0].entry
        ops = list(block.ops)
        term = ops[-1] if ops else None
        yielded = term.operands[0] if term is not None and term.operands else None
        return ops[:-1] if term is not None else ops, list(block.args), yielded
    callee = op.properties.get("d2m_func")
    if callee is None:
        return [], [], None
    top = op
    while top.parent_op is not None:
        top = top.parent_op
    fn = None
    for cand in top.walk():
        s = cand.properties.get("sym_name")
        if cand.name == "func.func" and s is not None and getattr(s, "value", None) == callee.root:
            fn = cand
            break
    if fn is None:
        raise Illegal(f"d2m callee @{callee.root} not found")
    block = fn.regions[0].entry
    ops = list(block.ops)
    term = ops[-1] if ops else None
    yielded = term.operands[0] if term is not None and term.operands else None
    return ops[:-1], list(block.args), yielded


def dispatch(ctx: OpContext) -> RuleResult:
    """Any layouts; CBs = the inner ops' maximum L1 peak; the output buffer operand is the output."""
    n_in, n_out = _segments(ctx.op, len(ctx.inputs))
    out_buffer = ctx.inputs[n_in] if n_out else None

    def default() -> LayoutInfo:
        if out_buffer is not None:
            return ctx.check_full_hint(out_buffer)
        return ctx.copy_config(ctx.inputs[0])

    out = ctx.resolve_output(default)
    ops, args, yielded = _body(ctx.op)
    env: dict[int, LayoutInfo] = {}
    for v, info in zip(args, ctx.inputs):
        env[id(v)] = info
    inner_peak = 0
    for inner in ops:
        if not inner.results:
            continue
        ins = []
        for v in inner.operands:
            t = v.type.resolve()
            if not isinstance(t, TensorType):
                continue
            known = env.get(id(v))
            if known is None:
                enc = t.encoding
                if enc is None:
                    raise Illegal(f"inner {inner.name}: operand without a layout")
                known = layout_info(enc.typed)
            ins.append(known.layout)
        r0 = inner.results[0]
        hint: TTNNLayoutAttr | None
        if r0 is yielded:
            hint = out.layout
        else:
            renc = getattr(r0.type.resolve(), "encoding", None)
            hint = renc.typed if renc is not None else None
        res = ctx.model.validate(inner, tuple(ins), OpConfig(output=hint))
        if res.output_layout is not None and res.status in ("success", "out_of_memory"):
            inner_peak = max(inner_peak, res.l1.peak)
            env[id(r0)] = layout_info(res.output_layout)
        elif hint is not None:
            # D2M compiles its own kernels: a layout TTNN's kernel would reject is still fine here.
            # Count the op generically: its L1 operands, its output, 2 pages per interleaved operand.
            out_info = layout_info(hint)
            shapes = [t.shape for t in (v.type.resolve() for v in inner.operands) if isinstance(t, TensorType)]
            infos = [layout_info(x) for x in ins]
            cb = streaming_cb(list(zip(infos, shapes)) + [(out_info, r0.type.resolve().shape)])
            inner_peak = max(inner_peak, cb + sum(i.per_core_bytes for i in infos) + out_info.per_core_bytes)
            env[id(r0)] = out_info
    freed = tuple(range(n_in, n_in + n_out))  # the output buffer is the output: count it once
    return RuleResult(out, inner_peak + streaming_cb([]), freed_inputs=freed)
