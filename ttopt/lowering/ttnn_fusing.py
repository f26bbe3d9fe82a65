"""`ttnn-fusing`: TTNN op chains replaced by the fused TTNN op tt-mlir's TTNNFusing makes of them.

Always (HEAD's TTNNFusing without options):

* `ttnn.matmul` / `ttnn.linear` + `ttnn.sigmoid`, `silu` or `gelu` -> the op's `activation`
  attribute (TTNNMatmulAndLinearWithActivation);
* `ttnn.conv2d` (possibly through the reshape back from the flattened NHWC form) + `ttnn.relu`,
  `relu6`, `silu` or `sigmoid` -> `activation = <op_type = ...>` in its `conv2d_config`, with the
  weights' dtype (TTNNConv2dWithActivation).

Preconditions, as HEAD: the op has no activation yet, its result (and the reshape's) has one use,
and that use is the activation, of the same type. The cost model's estimate of a matmul or conv
does not depend on its activation, so each fold saves the activation op's estimate.

`enable-rope-fusion=true` (set by the backend pipeline, where it stands for HEAD's TTIR-level RoPE
fusion and so runs at every optimization level): `x * cos + rotate_half(x) * sin` and its expanded
form -> `ttnn.rotary_embedding` (fusing/ttnn_rope.py).

`enable-op-constraints=true` (set by the backend pipeline when the optimizer runs, as HEAD wraps
these op-model-validated patterns in its optimizer's device passes):

* a rope feeding the decode layout op (permute or reshape putting S first) -> the input permuted
  and a decode-mode rope with `token_index` (fusing/ttnn_rope.py);
* the decode concat-heads reorder + collapse -> `ttnn.nlp_concat_heads_decode` (fusing/ttnn_heads.py);
* `silu` / `gelu` / `relu` of an `rms_norm` -> `ttnn.dit_rms_norm_unary_fused` (fusing/ttnn_norm_act.py).

Cost: where HEAD validates a fused op against its op model, ttopt asks its cost model: the new ops
must be estimated faster than the ops they make dead (`cost-check=false` applies every match). The
decode rope is a layout rewrite HEAD always makes (it enables the decode kernels downstream): it is
applied whatever the estimates, and `--trace` says so with both. `--trace` prints one line per
candidate, applied or not and why; `--stats` the counts and the time saved. (HEAD's split-QKV,
create-QKV-heads-decode and TTNN-level SDPA patterns are not done here.)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

from ttopt.device.cost_model import CostModel, op_name
from ttopt.device.device import DeviceError, load_device
from ttopt.ir.attributes import DialectAttr, StringAttr
from ttopt.lowering.fusing import ttnn_heads, ttnn_norm_act, ttnn_rope
from ttopt.lowering.fusing.cost import TIE
from ttopt.lowering.fusing.match import where
from ttopt.lowering.fusing.rounds import fuse_rounds
from ttopt.lowering.fusing.ttnn_build import Rejected, TTNNBuilder, TTNNCandidate, dead_ops
from ttopt.optimizer.rewrite import LayoutAliaser
from ttopt.passes.base import Pass, option
from ttopt.passes.registry import register_pass

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.ir.operation import Block, Operation
    from ttopt.passes.context import PassContext

ACTIVATIONS = ("ttnn.sigmoid", "ttnn.silu", "ttnn.gelu")
CONV_ACTIVATIONS = ("ttnn.relu", "ttnn.relu6", "ttnn.silu", "ttnn.sigmoid")
TARGETS = ("ttnn.matmul", "ttnn.linear", "ttnn.conv2d")


def _activation_of(op: Operation) -> Operation | None:
    """The activation that alone reads `op` (a conv2d's through its one reshape), or None."""
    res = op.results[0]
    if len(res.uses) != 1:
        return None
    user = res.uses[0]
    if op.name != "ttnn.conv2d":
        return user if user.name in ACTIVATIONS else None
    if user.name == "ttnn.reshape" and len(user.results[0].uses) == 1:
        user = user.results[0].uses[0]
    return user if user.name in CONV_ACTIVATIONS else None


def _conv_config(op: Operation, kind: str) -> Any:
    """The conv's `conv2d_config` with `activation = <op_type = kind>` and the weights' dtype."""
    from ttopt.dialects.ttnn_attrs import Conv2dConfigAttr

    attr = op.get_attr("conv2d_config")
    typed = getattr(attr.resolve(), "typed", None) if attr is not None else None
    params = dict(getattr(typed, "params", ()) or ())
    if "activation" in params:
        return None
    weight = op.operands[1].type.resolve().element_type.resolve().text
    params["weights_dtype"] = {"f32": "f32", "bf16": "bf16"}.get(weight, params.get("weights_dtype", "bf16"))
    params["activation"] = f"<op_type = {kind}>"
    # tt-mlir's parameter order puts these two first; the others keep theirs.
    first = [(k, params.pop(k)) for k in ("weights_dtype", "activation")]
    return DialectAttr.of(Conv2dConfigAttr.of([*first, *params.items()]))


Matcher = Callable[["Operation"], "TTNNCandidate | Rejected | None"]


def _patterns(rope: bool, constraints: bool, worker_cores: int) -> dict[str, tuple[Matcher, ...]]:
    """Anchor op -> patterns tried on it, in HEAD's order, for the options given."""
    out: dict[str, list[Matcher]] = {}
    if rope:
        out.setdefault("ttnn.add", []).append(ttnn_rope.match_rotate_half)
        out.setdefault("ttnn.concat", []).append(ttnn_rope.match_expanded)
    if constraints:
        out.setdefault("ttnn.permute", []).append(ttnn_rope.match_decode)
        out.setdefault("ttnn.reshape", []).append(ttnn_rope.match_decode)
        out.setdefault("ttnn.reshape", []).append(lambda op: ttnn_heads.match_concat_heads_decode(op, worker_cores))
        for act in ttnn_norm_act.ACTIVATIONS:
            out.setdefault(act, []).append(ttnn_norm_act.match)
    return {k: tuple(v) for k, v in out.items()}


def _ns(cost: CostModel, op: Operation) -> float | None:
    try:
        c = cost.current_op_cost(op)
    except (TypeError, ValueError, ArithmeticError, KeyError):
        return None
    return c.ns if c is not None else None


@register_pass
@dataclass
class TTNNFusing(Pass):
    """Fold activations into matmul / linear / conv2d, and fuse RoPE, decode RoPE, decode concat-heads and RMS norm + activation."""

    name = "ttnn-fusing"
    summary = "Fold an activation into the matmul / linear / conv2d it alone reads; fuse RoPE, decode concat-heads and rms_norm + activation (cost-checked)"

    enable_op_constraints: bool = option(False, "Patterns HEAD validates against its op model (decode RoPE, nlp_concat_heads_decode, dit_rms_norm_unary_fused): ttopt checks them with its cost model")
    enable_rope_fusion: bool = option(False, "RoPE chains -> ttnn.rotary_embedding (HEAD does this at the TTIR level; ttopt's backend pipeline turns it on here)")
    max_fallback_attempts: int = option(10000, "HEAD's op-model fallback budget: ttopt has no op-model fallbacks, the value changes nothing")
    cost_check: bool = option(True, "Apply a fusion only when the new ops are estimated faster than the ops they replace")

    def run(self, module: Module, ctx: PassContext) -> None:
        try:
            device = load_device(ctx.device, module)
        except DeviceError:
            device = load_device(None)
        cost = CostModel(device)
        folded, saved = self._activations(module, cost, ctx)
        stats: dict[str, Any] = {f"{k}.applied": v for k, v in sorted(folded.items())}
        patterns = _patterns(self.enable_rope_fusion, self.enable_op_constraints, device.num_cores)
        lines: list[str] = []
        if patterns:
            aliaser = LayoutAliaser(module)
            for func in module.functions():
                for region in func.regions:
                    for block in region.blocks:
                        saved += self._block(block, patterns, cost, aliaser, stats, lines)
        if ctx.trace.enabled:
            for line in lines:
                ctx.trace.print(line)
        stats["saved_ns"] = round(saved, 1)
        ctx.stats.setdefault(self.name, {}).update(dict(sorted(stats.items())))

    def _block(self, block: Block, patterns: dict[str, tuple[Matcher, ...]], cost: CostModel, aliaser: LayoutAliaser,
               stats: dict[str, Any], lines: list[str]) -> float:  # fmt: skip
        saved = 0.0
        rejected: dict[tuple[int, str], tuple[Operation, str]] = {}

        def apply(res: TTNNCandidate) -> bool:
            nonlocal saved
            gain = self._apply(block, res, cost, aliaser, rejected, lines)
            if gain is None:
                return False
            saved += gain
            stats[f"{res.pattern}.applied"] = stats.get(f"{res.pattern}.applied", 0) + 1
            return True

        def reject(op: Operation, res: Rejected) -> None:
            rejected.setdefault((id(op), res.pattern), (op, f"ttnn-fusing: {res.pattern} at {where(op)}: [yellow]not applied[/]: {res.reason}"))

        fuse_rounds(block, patterns, apply, reject, ValueError)  # ValueError: a dynamic shape
        for (_, pattern), (op, line) in rejected.items():
            if op.parent is block:
                stats[f"{pattern}.rejected"] = stats.get(f"{pattern}.rejected", 0) + 1
                lines.append(line)
        return saved

    def _apply(self, block: Block, c: TTNNCandidate, cost: CostModel, aliaser: LayoutAliaser,
               rejected: dict[tuple[int, str], tuple[Operation, str]], lines: list[str]) -> float | None:  # fmt: skip
        anchor = c.anchor
        target = c.extra.get("replaces", anchor)  # the op whose result the new value takes over
        b = TTNNBuilder(aliaser, anchor)
        try:
            new = c.build(b)
        except (ValueError, TypeError, KeyError) as e:
            b.discard()
            rejected[(id(anchor), c.pattern)] = (anchor, f"ttnn-fusing: {c.pattern} at {where(anchor)}: [yellow]not applied[/]: cannot build: {e}")
            return None
        dead = dead_ops(anchor, c.matched, b.ops) if target is anchor else [anchor, *c.matched]
        before_ns = [_ns(cost, o) for o in dead]
        after_ns = [_ns(cost, o) for o in b.ops]
        before, after = sum(x or 0.0 for x in before_ns), sum(x or 0.0 for x in after_ns)
        est = f"{c.fused} {after / 1000:.2f} us vs {len(dead)} ops ({', '.join(sorted({o.name[5:] for o in dead}))}) {before / 1000:.2f} us"
        head = f"ttnn-fusing: {c.pattern} at {where(anchor)}: "
        if self.cost_check and not c.unconditional and after > before * (1 + TIE):
            b.discard()
            rejected[(id(anchor), c.pattern)] = (anchor, head + f"[yellow]not applied[/]: the fused op is estimated slower: {est}")
            return None
        at = block.index(target)
        for i, o in enumerate(b.ops):
            block.insert(at + i, o)
        if target is anchor:
            anchor.results[0].replace_all_uses_with(new)
        else:
            # The fused op takes the target's place; the anchor (an activation) is dropped.
            target.results[0].replace_all_uses_with(new)
            anchor.results[0].replace_all_uses_with(anchor.operands[0])
        # Every reader of a dead op is dead (dead_ops): drop them together.
        for o in dead:
            o.drop_all_references()
        assert not any(r.uses for o in dead for r in o.results), c.pattern
        block.remove_many(dead)
        rejected.pop((id(anchor), c.pattern), None)
        why = f" ({c.unconditional})" if c.unconditional else ""
        lines.append(head + f"[green]applied[/]: {est}, saves {(before - after) / 1000:.2f} us{why}")
        return before - after

    def _activations(self, module: Module, cost: CostModel, ctx: PassContext) -> tuple[dict[str, int], float]:
        """Fold activations into the matmul, linear or conv2d they alone read (HEAD's base patterns)."""
        folded: dict[str, int] = {}
        saved = 0.0
        for op in list(module.walk()):
            if op.name not in TARGETS or op.parent is None or "activation" in op.properties or not op.results:
                continue
            act = _activation_of(op)
            if act is None:
                continue
            src = act.operands[0]
            if act.results[0].type.resolve().text != src.type.resolve().text:
                continue
            kind = act.name[5:]
            cfg = None
            if op.name == "ttnn.conv2d":
                cfg = _conv_config(op, kind)
                if cfg is None:
                    continue
            plain = _ns(cost, op)
            if cfg is not None:
                op.properties["conv2d_config"] = cfg
            else:
                op.properties["activation"] = StringAttr(kind)
            # The op now runs the activation on its output tiles: it saves the activation's program
            # (launch and traffic), not its compute.
            fused = _ns(cost, op)
            c = _ns(cost, act)
            if c is not None and plain is not None and fused is not None:
                c -= fused - plain
            act.results[0].replace_all_uses_with(src)
            act.erase()
            folded[kind] = folded.get(kind, 0) + 1
            saved += c or 0.0
            if ctx.trace.enabled:
                est = f", saves {c / 1000:.2f} us (the {kind}'s estimate less its cost in the fused op)" if c is not None else ""
                ctx.trace.print(f'ttnn-fusing: {kind} into {op.name} at "{op_name(op)}": [green]applied[/]{est}')
        return folded, saved
