"""`ttir-fusing`: subgraphs of TTIR ops rewritten into the fused TTIR op tt-mlir's TTIRFusing pass
makes of them, when the cost model estimates the fused op faster than what it replaces.

Patterns (ttopt/lowering/fusing/, one family per module; preconditions in each module's doc):

| pattern | anchor | becomes |
|---|---|---|
| linear | `add(matmul, bias)` | `ttir.linear` |
| conv_bias | `add(conv2d, bias)`, conv_transpose2d too | the conv with its bias operand |
| repvgg_conv_sum | `add(conv2d 3x3 (x), conv2d 1x1 (x))` | the 3x3 conv on summed weights (the 1x1 padded) and biases |
| softmax | `div(exp(x), sum(exp(x)))` | `ttir.softmax` |
| softmax_stable | `softmax(x - max(x))` | `ttir.softmax {numericStable = true}` |
| reduction_keep_dim | `reshape(reduce(x))` restoring the reduced dims | the reduction with keep_dim |
| scaled_sum_to_mean | `sum(x) * 1/N` | `ttir.mean` |
| relu | `maximum(x, 0)` | `ttir.relu` |
| relu6 | `minimum(relu(x), 6)` | `ttir.relu6` |
| rms_norm | `x * rsqrt(mean(x^2) + eps) * gamma`; beyond HEAD `x / sqrt(mean(x^2) + eps) * gamma` (Flax) | `ttir.rms_norm` |
| layer_norm (beyond HEAD) | `(x - mean) * rsqrt(var + eps) [* gamma] [+ beta]`, var `E[x^2] - E[x]^2` (Flax) or `E[(x - mean)^2]` | `ttir.layer_norm` |
| normalize_rms_norm | `x / clamp_min(sqrt(sum(x^2, d)), eps) * sqrt(D) [* gamma]` | `ttir.rms_norm` over d (permuted last) |
| gelu | `0.5 * x * (1 + erf(x/sqrt 2))`, tanh form | `ttir.gelu` |
| silu | `x * sigmoid(x)` | `ttir.silu` |
| hardsigmoid | `relu6(x + 3) / 6` | `ttir.hardsigmoid` |
| mish | `x * tanh(where(x > c, x, log1p(exp(x))))` | `ttir.mish` |
| spatial_mean | `mean(x, [1, 2])` of an NHWC x | `mean` over the flattened H*W (reshapes around it) |
| sdpa | `matmul(softmax(scale(Q @ K^T) [+ mask]), V)` | `ttir.scaled_dot_product_attention` |
| concatenate_heads | `reshape(permute(x, [0, 2, 1, 3]))` to [B, S, H*D] or [B*S, H*D] | `ttir.concatenate_heads` (then the 2-D reshape) |
| conv_scale (`ttnn-enable-conv2d-with-multiply-pattern`) | `multiply(conv, per-channel constant)` | the conv with its weight (and bias) scaled |
| conv_batch_norm (same switch) | `batch_norm_inference(conv)` | the conv with weight and bias folded from the statistics |
| permute_matmul (`enable-permute-matmul-fusion`) | `matmul` / `linear` of a `transpose(-1, -2)` permute | the op with that operand's transpose flag flipped |
| permute_slice_after_matmul (`enable-permute-slice-after-matmul-fusion`, on) | `slice_static` of a matmul / linear narrowing its rows or columns | the op on a slice of the operand producing them |
| pad_conv3d | `conv3d(pad(x))`, zero symmetric spatial pad | the conv3d with the pad added to its padding |
| rope | `x * cos + rotate_half(x) * sin` on a 4-D x | `ttcore.composite "rotary_embedding"` and its decomposition function (fusing/ttir_rope.py) |
| rope_expanded | `concat(x1 * cos - x2 * sin, x2 * cos + x1 * sin)` | the same composite on the tables doubled |
| rope_interleaved | `reshape(freqs[..., 0] * pairs[..., 0] + freqs[..., 1] * pairs[..., 1])` | the composite between permutations of x's pairs (fusing/ttir_rope_interleaved.py) |
| shared_lhs_matmul | three or more `matmul` / `linear` of one A | one op on the concatenated weights (and biases), a slice per result |
| fold_slices | `slice_static(slice_static(x))` | one slice (HEAD's folder, run by its greedy driver) |
| split_qkv (after the others) | a matmul / linear on concatenated weights whose three slices are split into heads | the op on the Q, K, V-ordered weights, `ttir.split_query_key_value_and_split_heads` |

`ttir.dot_general` is first decomposed into matmuls (ttir-to-ttir-decomposition), as HEAD runs its
fusing again after that decomposition. Patterns run to a fixed point in program order, HEAD's
pattern order at each op (so a softmax fused first can then become part of an attention).

Cost: each candidate is built aside; the ops that would become dead (the anchor and every matched
op with no other reader) are estimated as `convert-ttir-to-ttnn` leaves them (fusing/cost.py), and
the fusion is applied unless the new ops' estimate is higher by more than TIE (2%: the estimates
cannot tell closer programs apart, and HEAD applies every match; `cost-check=false` applies every
match, as HEAD does; topk, the conv-scale folds, the RoPE composites, shared_lhs_matmul and fold_slices are applied without the check, as HEAD). `--trace` prints one line per candidate: applied or not, and why -- the
failed precondition, or both estimates. `--stats`: per pattern applied / rejected, and the time
saved.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, ClassVar

from ttopt.device.cost_model import CostModel
from ttopt.device.device import DeviceError, load_device
from ttopt.lowering.fusing import (
    activations,
    conv,
    conv_scale,
    fold_slices,
    heads,
    layer_norm,
    linear,
    normalize_rms_norm,
    pad_conv3d,
    permute_matmul,
    reductions,
    repvgg,
    rms_norm,
    sdpa,
    shared_lhs_matmul,
    slice_matmul,
    softmax,
    split_qkv,
    ttir_rope,
    ttir_rope_interleaved,
)
from ttopt.lowering.fusing.cost import TIE, FusionCost
from ttopt.lowering.fusing.match import Builder, Candidate, NotStatic, Rejected, where
from ttopt.lowering.fusing.rounds import fuse_rounds
from ttopt.lowering.fusing.topk import fuse_topk
from ttopt.lowering.ttir_decomposition import decompose
from ttopt.passes.base import Pass, option
from ttopt.passes.registry import register_pass

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.ir.operation import Block, Operation
    from ttopt.ir.values import Value
    from ttopt.passes.context import PassContext

Matcher = Callable[["Operation"], "Candidate | Rejected | None"]
# anchor op -> patterns tried on it, in HEAD's order.
PATTERNS: dict[str, tuple[Matcher, ...]] = {
    "ttir.add": (linear.match, conv.match, repvgg.match, layer_norm.match, ttir_rope.match_rotate_half, ttir_rope_interleaved.match),
    "ttir.concat": (ttir_rope.match_expanded,),
    "ttir.div": (softmax.match_div, activations.match_hardsigmoid, layer_norm.match),
    "ttir.mean": (reductions.match_spatial_mean,),
    "ttir.softmax": (softmax.match_stable,),
    "ttir.reshape": (reductions.match, heads.match),
    "ttir.maximum": (activations.match_relu,),
    "ttir.minimum": (activations.match_relu6,),
    "ttir.multiply": (reductions.match_scaled_sum, rms_norm.match, normalize_rms_norm.match, layer_norm.match, activations.match_gelu, activations.match_silu, activations.match_mish),
    "ttir.matmul": (shared_lhs_matmul.match, sdpa.match),
    "ttir.linear": (shared_lhs_matmul.match,),
    "ttir.slice_static": (fold_slices.match,),
    "ttir.conv3d": (pad_conv3d.match,),
}
# With ttnn-enable-conv2d-with-multiply-pattern (tt-mlir's option, on from optimization-level=1 in
# the backend pipeline): scales and batch norms folded into convs.
CONV_SCALE_PATTERNS: dict[str, tuple[Matcher, ...]] = {"ttir.multiply": (conv_scale.match,), "ttir.batch_norm_inference": (conv_scale.match_batch_norm,)}
# With enable-permute-matmul-fusion (tt-mlir's option, off by default): transposes read as flags.
PERMUTE_MATMUL_PATTERNS: dict[str, tuple[Matcher, ...]] = {"ttir.matmul": (permute_matmul.match,), "ttir.linear": (permute_matmul.match,)}
# With enable-permute-slice-after-matmul-fusion (tt-mlir's option, on by default): a slice of a
# matmul's output moved onto the operand that produces the sliced dimension.
SLICE_MATMUL_PATTERNS: dict[str, tuple[Matcher, ...]] = {"ttir.slice_static": (slice_matmul.match,)}


def _with(extra: dict[str, tuple[Matcher, ...]], base: dict[str, tuple[Matcher, ...]]) -> dict[str, tuple[Matcher, ...]]:
    """`base` with `extra`'s patterns tried first at their anchors (HEAD adds them before the others)."""
    return {k: extra.get(k, ()) + base.get(k, ()) for k in {**base, **extra}}
# Tried once the patterns above reach their fixed point, as HEAD splits QKV in its TTNN fusing,
# after attention is fused (the roles are read from the attention ops).
LATE_PATTERNS: dict[str, tuple[Matcher, ...]] = {"ttir.matmul": (split_qkv.match,), "ttir.linear": (split_qkv.match,)}


@dataclass
class Decision:
    """One candidate: where, which pattern, whether applied, and why."""

    pattern: str
    where: str
    applied: bool
    reason: str
    fused: str = ""
    replaced: tuple[str, ...] = ()
    before_ns: float = 0.0
    after_ns: float = 0.0

    @property
    def saved_ns(self) -> float:
        """Estimated time saved (0 unless applied)."""
        return self.before_ns - self.after_ns if self.applied else 0.0

    def line(self) -> str:
        """The `--trace` line."""
        head = f"ttir-fusing: {self.pattern} at {self.where}: "
        if not self.applied and not self.replaced:
            return head + f"[yellow]not applied[/]: {self.reason}"
        est = (f"{self.fused} {self.after_ns / 1000:.2f} us vs {len(self.replaced)} ops "
               f"({', '.join(_counts(self.replaced))}) {self.before_ns / 1000:.2f} us")  # fmt: skip
        if self.applied:
            return head + f"[green]applied[/]: {est}, saves {self.saved_ns / 1000:.2f} us" + (f" ({self.reason})" if self.reason else "")
        return head + f"[yellow]not applied[/]: {self.reason}: {est}"


def _counts(names: tuple[str, ...]) -> list[str]:
    out: dict[str, int] = {}
    for n in names:
        out[n] = out.get(n, 0) + 1
    return [f"{k[5:]}" + (f" x{v}" if v > 1 else "") for k, v in out.items()]


def _rounded_readers(b: Builder, dead: list[Operation]) -> list[tuple[Value, Value, list[Operation]]]:
    """Per value the builder narrowed (`b.rounded`): the readers the fusion leaves alive, and the
    typecast back to the value's type, after the narrowing one, that they will read instead."""
    gone = {id(o) for o in dead} | {id(o) for o in b.ops}
    out: list[tuple[Value, Value, list[Operation]]] = []
    for old, narrowed in b.rounded:
        readers = [u for u in dict.fromkeys(old.uses) if id(u) not in gone]
        if readers:
            at = next(o for o in b.ops if narrowed in o.results)
            out.append((old, b.emit_after(at, "typecast", [narrowed], old.type), readers))
    return out


def _dead(anchor: Operation, b: Builder, also: list[Operation] | None = None) -> list[Operation]:
    """The anchor (and the other replaced ops) and every op feeding them that no one else reads once
    the new ops replace them."""
    keep = {id(v) for o in b.ops for v in o.operands}
    new = {id(o) for o in b.ops}
    roots = [anchor, *(also or [])]
    dead = {id(o): o for o in roots}
    order = list(roots)
    work = list(roots)
    while work:
        o = work.pop()
        for v in o.operands:
            p = getattr(v, "op", None)
            if p is None or id(p) in dead or p.parent is not anchor.parent or not p.name.startswith("ttir.") or p.regions:
                continue
            if any(id(r) in keep for r in p.results):
                continue
            if all(id(u) in dead or id(u) in new for r in p.results for u in r.uses):
                dead[id(p)] = p
                order.append(p)
                work.append(p)
    return order


@register_pass
@dataclass
class TTIRFusing(Pass):
    """Fuse TTIR subgraphs into linear, softmax, activations, rms_norm and attention ops."""

    name = "ttir-fusing"
    summary = "Fuse TTIR subgraphs (matmul+bias -> linear, conv+bias, softmax, relu/relu6/silu/gelu, rms_norm, SDPA, concatenate_heads, split QKV) when the cost model estimates a gain; RoPE chains into rotary_embedding composites"

    decisions: ClassVar[list[Decision]]  # per instance: what the last run decided (read by the bench)
    # Per instance, within one round: dead ops still listed in their block, new ops to insert before
    # an anchor or after another op (by id), and each op's place in the block (new ops take their
    # anchor's, or the op's they follow).
    _erased: ClassVar[list[Operation]]
    _before: ClassVar[dict[int, list[Operation]]]
    _after: ClassVar[dict[int, list[Operation]]]
    _positions: ClassVar[dict[int, int]]
    cost_check: bool = option(True, "Apply a fusion only when the fused op is estimated faster than the ops it replaces")
    ttnn_enable_conv2d_with_multiply_pattern: bool = option(False, "Fold a constant per-channel multiply, or a batch norm, of a conv into its weight and bias (tt-mlir's ConvWithMultiply and BatchNormDecomposition)")
    enable_permute_matmul_fusion: bool = option(False, "Read a matmul / linear operand's transpose(-1, -2) permute as its transpose flag (tt-mlir's PermuteMatmulFusionPattern)")
    enable_permute_slice_after_matmul_fusion: bool = option(True, "Move a slice of a matmul / linear output onto the operand that produces the sliced dimension (tt-mlir's PermuteSliceAfterMatmulPattern)")

    def __post_init__(self) -> None:
        object.__setattr__(self, "decisions", [])
        object.__setattr__(self, "_erased", [])
        object.__setattr__(self, "_before", {})
        object.__setattr__(self, "_after", {})
        object.__setattr__(self, "_positions", {})
        super().__post_init__()

    def run(self, module: Module, ctx: PassContext) -> None:
        decompose(module)
        try:
            device = load_device(ctx.device, module)
        except DeviceError:
            device = load_device(None)
        cost = FusionCost(CostModel(device))
        self.decisions.clear()
        for func in module.functions():
            if func.regions and func.regions[0].blocks:
                for block in func.regions[0].blocks:
                    self._block(block, cost)
                    for _ in range(fuse_topk(block)):
                        self.decisions.append(Decision("topk", func.properties["sym_name"].text, True, "sort + slice of k (not modelled: applied as HEAD)",
                                                       "ttir.topk", ("ttir.sort", "ttir.slice_static")))  # fmt: skip
        if ctx.trace.enabled:
            for d in self.decisions:
                ctx.trace.print(d.line())
        stats: dict[str, Any] = {}
        for d in self.decisions:
            key = f"{d.pattern}.{'applied' if d.applied else 'rejected'}"
            stats[key] = stats.get(key, 0) + 1
            if d.applied:
                stats[f"{d.pattern}.replaced_ops"] = stats.get(f"{d.pattern}.replaced_ops", 0) + len(d.replaced)
                stats[f"{d.pattern}.saved_ns"] = round(stats.get(f"{d.pattern}.saved_ns", 0.0) + d.saved_ns, 1)
        stats["saved_ns"] = round(sum(d.saved_ns for d in self.decisions), 1)
        ctx.stats.setdefault(self.name, {}).update(dict(sorted(stats.items())))

    def _block(self, block: Block, cost: FusionCost) -> None:
        # A rejection is kept only if it still holds at the fixed point: an anchor that a later
        # fusion consumed, or whose pattern matched once other fusions ran, is not reported.
        rejected: dict[tuple[int, str], tuple[Operation, Decision]] = {}
        first = PATTERNS
        if self.ttnn_enable_conv2d_with_multiply_pattern:
            first = _with(CONV_SCALE_PATTERNS, first)
        if self.enable_permute_matmul_fusion:
            first = _with(PERMUTE_MATMUL_PATTERNS, first)
        if self.enable_permute_slice_after_matmul_fusion:
            first = _with(SLICE_MATMUL_PATTERNS, first)
        for patterns in (first, LATE_PATTERNS):
            self._rounds(block, cost, patterns, rejected)
        for op, d in rejected.values():
            if op.parent is block:
                self.decisions.append(d)

    def _rounds(self, block: Block, cost: FusionCost, patterns: dict[str, tuple[Matcher, ...]],
                rejected: dict[tuple[int, str], tuple[Operation, Decision]]) -> None:  # fmt: skip
        def reject(op: Operation, res: Rejected) -> None:
            rejected.setdefault((id(op), res.pattern), (op, Decision(res.pattern, where(op), False, res.reason)))

        def index_block() -> None:
            self._positions.clear()
            self._positions.update((id(o), i) for i, o in enumerate(block.ops))

        fuse_rounds(block, patterns, lambda res: self._apply(res, cost, rejected), reject, NotStatic,
                    before_round=index_block, after_round=lambda: self._sweep(block))  # fmt: skip

    def _sweep(self, block: Block) -> None:
        """Put the round's new ops in front of their anchors and drop the dead ops, in one pass."""
        if not self._erased and not self._before and not self._after:
            return
        gone = {id(o) for o in self._erased}
        out: list[Operation] = []
        for o in block.ops:
            out.extend(n for n in self._before.get(id(o), ()) if id(n) not in gone)
            if id(o) not in gone:
                out.append(o)
                out.extend(n for n in self._after.get(id(o), ()) if id(n) not in gone)
        block.ops = out
        self._erased.clear()
        self._before.clear()
        self._after.clear()

    def _apply(self, c: Candidate, cost: FusionCost, rejected: dict[tuple[int, str], tuple[Operation, Decision]]) -> bool:
        anchor = c.anchor
        b = Builder(anchor, self._positions)
        try:
            new = c.build(b)
        except (ValueError, TypeError, NotStatic) as e:  # a shape the builder cannot express: leave the ops
            b.discard()
            rejected.setdefault((id(anchor), c.pattern), (anchor, Decision(c.pattern, where(anchor), False, f"cannot build: {e}")))
            return False
        dead = _dead(anchor, b, c.also)
        rounded = _rounded_readers(b, dead)
        before = sum(cost.op(o).ns for o in dead)
        after = sum(cost.op(o).ns for o in b.ops)
        d = Decision(c.pattern, where(anchor), True, c.note, c.fused, tuple(o.name for o in dead), before, after)
        if self.cost_check and c.cost_checked and after > before * (1 + TIE):
            b.discard()
            d.applied, d.reason = False, "the fused op is estimated slower"
            rejected[(id(anchor), c.pattern)] = (anchor, d)
            return False
        # New ops join the block, and dead ops leave it, in one pass per round (`_sweep`): inserting
        # and removing them one by one would scan the block each time.
        here = self._positions.get(id(anchor), 0)
        for o in b.ops:
            o.parent = anchor.parent
            at = b.after.get(id(o))
            if at is None:
                self._positions[id(o)] = here
                self._before.setdefault(id(anchor), []).append(o)
            else:
                self._positions[id(o)] = self._positions.get(id(at), here)
                self._after.setdefault(id(at), []).append(o)
        if c.also:
            for old, value in zip([anchor, *c.also], new):  # type: ignore[call-overload]
                old.results[0].replace_all_uses_with(value)
        else:
            anchor.results[0].replace_all_uses_with(new)
        for o in dead:
            o.drop_all_references()
        for o in dead:
            assert not any(r.uses for r in o.results), o.name
            o.parent = None
            self._erased.append(o)
        for old, restored, readers in rounded:
            for u in readers:
                for i, v in enumerate(u.operands):
                    if v is old:
                        u.set_operand(i, restored)
        rejected.pop((id(anchor), c.pattern), None)
        self.decisions.append(d)
        return True
