"""Producers read only by an op the optimizer does not place, as tt-mlir HEAD's greedy optimizer
treats them (`MemoryLayoutPropagation` with the AdamW and TTML SDPA-forward rule books).

HEAD's greedy forward pass chooses every op's layout for the op itself: a producer with L1-sharded
legal layouts gets one, whoever reads it. The reader's input filter then decides the reshard:

* `ttnn.adamw` (a constraint sink, `optimizer_utils::isSinkOp`; `AdamWRuleBook`): every operand
  tiled and DRAM interleaved. No candidate survives the filter, so HEAD's fallback candidate is a
  DRAM-interleaved reshard: one `ttnn.to_memory_config` to DRAM in front of the adamw.
* `ttnn.sdpa_fw` (`TTMLSDPAForwardRuleBook`): tiled and not sharded, and no reshard exploration, so
  the only candidates are the L1-interleaved reshards `addL1InterleavedFallbacks` adds for an
  L1-sharded producer: a `ttnn.to_memory_config` to L1 interleaved. The L1 spill management then
  spills that tensor to DRAM right before the sdpa_fw (a second `ttnn.to_memory_config`), which
  is also what ttopt must do: its op model has no sdpa_fw, so it cannot tell what L1 the op needs
  next to an L1 operand (HEAD's rule for an op it cannot validate: flush live L1 before it).

HEAD does this unconditionally: its score ranks an L1-sharded output above any other and never
prices the reshard. ttopt's cost model estimates the pair slower than leaving the producer in DRAM
(a 1x1x256x256 bf16 multiply: 6.3 us + a 3.4 us reshard vs 6.9 us); `--trace` prints both numbers.
So the policies that follow HEAD's unpriced choices (DFSharding, the interleaved ones) apply it as
HEAD does, and CostBased (optimization-level=2's default) applies it only where the estimate with
the reshards is not above the estimate without them: no level may be estimated slower than level 0.

Producers whose HEAD rule book gives no sharded output hint (`NO_SHARDED_HINT`) keep their layout.
What ttopt adds for safety: only a producer whose result the sink alone reads (deallocations
aside), with the sink as the next op (so the L1 tensor is alive across no other op), whose output
is DRAM interleaved now and tiled; its layout is the legal L1-sharded config the cost model
estimates cheapest for the op alone (first in legal order on ties), validated by the op model with
its current inputs and every other L1 tensor alive across it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich.markup import escape

from ttopt.device import OpConfig, layout_info
from ttopt.device.layout_info import DRAM, INTERLEAVED, L1, make_layout
from ttopt.dialects.errors import AttrError
from ttopt.dialects.ttnn_layout import TTNNLayoutAttr
from ttopt.ir.types import TensorType
from ttopt.optimizer.analyses import current_layout, ranked_shape
from ttopt.optimizer.policies import FunctionContext
from ttopt.optimizer.scheduler import ATTACHED_OPS

# Reader -> the buffer types of the conversions HEAD puts in front of it, in order.
SINK_ROUTES: dict[str, tuple[str, ...]] = {
    "ttnn.adamw": ("dram",),
    "ttnn.sdpa_fw": ("l1", "dram"),
}
IGNORED_USERS = frozenset({"ttnn.deallocate"})
# Producers whose HEAD rule book offers no sharded output hint: the null hint (the kernel derives
# the output memory from the inputs, so a DRAM input gives a DRAM output: typecast / where,
# rotary embedding, split-QKV, the SDPA family, MoE weight preparation) or non-sharded hints only
# (reshape / permute, concatenate_heads).
NO_SHARDED_HINT = frozenset({
    "ttnn.typecast", "ttnn.where", "ttnn.rotary_embedding", "ttnn.rotary_embedding_llama",
    "ttnn.split_query_key_value_and_split_heads", "ttnn.scaled_dot_product_attention",
    "ttnn.scaled_dot_product_attention_decode", "ttnn.paged_scaled_dot_product_attention_decode",
    "ttnn.nlp_concat_heads_decode", "ttnn.sdpa_fw", "ttnn.sdpa_bw", "ttnn.prepare_moe_compute_w0_w1_weights",
    "ttnn.prepare_moe_compute_w2_weights", "ttnn.reshape", "ttnn.permute", "ttnn.concatenate_heads",
})  # fmt: skip


@dataclass
class SinkReshard:
    """One producer moved to L1 for a sink reader, and the layouts its value goes through."""

    producer: Any
    sink: Any
    operand: int
    config: OpConfig
    route: tuple[TTNNLayoutAttr, ...]
    ns_before: float | None
    ns_after: float | None


def _interleaved(shape: tuple[int, ...], lay: TTNNLayoutAttr, buffer: str, wg: tuple[int, int]) -> TTNNLayoutAttr | None:
    try:
        return make_layout(shape, lay.dtype, lay.is_tiled, L1 if buffer == "l1" else DRAM, INTERLEAVED, None, wg)
    except (AttrError, ValueError, TypeError):
        return None


def _l1_alive_across(seq: list[Any], i: int, op: Any) -> int:
    """L1 bytes per core of values defined before position `i` and read after it, not `op`'s operands."""
    later: set[int] = set()
    for u in seq[i + 1 :]:
        later.update(id(v) for v in u.operands)
    own = {id(v) for v in op.operands}
    total = 0
    seen: set[int] = set()
    for u in seq[:i]:
        for v in [*u.operands, *u.results]:
            if id(v) in seen or id(v) in own or id(v) not in later:
                continue
            seen.add(id(v))
            t = v.type.resolve()
            lay = current_layout(t) if isinstance(t, TensorType) else None
            if lay is not None and lay.is_l1:
                total += layout_info(lay).per_core_bytes
    return total


def _sink_of(op: Any, nxt: Any) -> tuple[Any, int] | None:
    """(sink, operand index) when the op's only reader is `nxt`, a sink of SINK_ROUTES, reading it once."""
    if len(op.results) != 1 or nxt is None or nxt.name not in SINK_ROUTES or op.name in NO_SHARDED_HINT:
        return None
    r = op.results[0]
    readers = [u for u in r.users if u.name not in IGNORED_USERS]
    if not readers or any(u is not nxt for u in readers):
        return None
    slots = [j for j, v in enumerate(nxt.operands) if v is r]
    return (nxt, slots[0]) if len(slots) == 1 else None


def plan_sink_reshards(fn: FunctionContext, priced: bool = False) -> list[SinkReshard]:
    """The producers of `fn` to move to L1 for a sink reader; with `priced`, only those not estimated slower."""
    analyses = fn.analyses
    model = analyses.model
    cost = fn.cost
    wg = analyses.device.worker_grid
    seq = [op for op in fn.block.ops if op.name not in ATTACHED_OPS]
    out: list[SinkReshard] = []
    for i, op in enumerate(seq):
        hit = _sink_of(op, seq[i + 1] if i + 1 < len(seq) else None)
        if hit is None:
            continue
        sink, operand = hit
        info = analyses.legal.get(op)
        t = op.results[0].type.resolve()
        cur = current_layout(t) if isinstance(t, TensorType) else None
        if info is None or info.fixed or cur is None or not cur.is_dram or cur.is_sharded or not cur.is_tiled:
            continue
        ins = model.current_inputs(op)
        if ins is None:
            continue
        extra = _l1_alive_across(seq, i, op)
        best: tuple[float, OpConfig] | None = None
        for cfg in info.configs:
            lay = cfg.output
            if not isinstance(lay, TTNNLayoutAttr) or not (lay.is_l1 and lay.is_sharded and lay.is_tiled):
                continue
            res = model.validate(op, list(ins), cfg, extra)
            if not res.ok or res.output_info is None or res.output_info.uid != layout_info(lay).uid:
                continue
            ns = _ns(cost, op, ins, lay)
            key = ns if ns is not None else float("inf")
            if best is None or key < best[0]:
                best = (key, cfg)
        if best is None:
            continue
        cfg = best[1]
        assert isinstance(cfg.output, TTNNLayoutAttr)  # filtered above
        shape = ranked_shape(t)
        route: list[TTNNLayoutAttr] = []
        for buffer in SINK_ROUTES[sink.name]:
            lay = _interleaved(shape, cfg.output, buffer, wg)
            if lay is None:
                break
            route.append(lay)
        if len(route) != len(SINK_ROUTES[sink.name]):
            continue
        before = _ns(cost, op, ins, cur)
        after = _ns(cost, op, ins, cfg.output)
        if after is not None and cost is not None:
            src = cfg.output
            for lay in route:
                after += cost.conversion_cost(shape, src, lay).ns
                src = lay
        if priced and (before is None or after is None or after > before):
            continue
        out.append(SinkReshard(op, sink, operand, cfg, tuple(route), before, after))
    return out


def _ns(cost: Any, op: Any, ins: Any, out: TTNNLayoutAttr) -> float | None:
    if cost is None:
        return None
    try:
        return float(cost.op_cost(op, list(ins), out).ns)
    except (TypeError, ValueError, ArithmeticError):
        return None


def trace_sink_reshards(fn: FunctionContext, done: list[SinkReshard]) -> None:
    """One `--trace` line per producer moved to L1 for its sink reader."""
    if fn.trace is None:
        return
    for s in done:
        name = fn.labels.get(s.producer, s.producer.name)
        assert isinstance(s.config.output, TTNNLayoutAttr)
        steps = " -> ".join(layout_info(x).short() for x in (s.config.output, *s.route))
        est = ""
        if s.ns_before is not None and s.ns_after is not None:
            est = f"; estimated {s.ns_after / 1000:.2f} us vs {s.ns_before / 1000:.2f} us in DRAM (HEAD does not price it)"
        fn.trace.print(f"[bold]sink reader[/bold] {escape(name)} read by {s.sink.name}: {escape(steps)}{escape(est)}")
