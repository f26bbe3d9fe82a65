"""`ttnn-resolve-composites`: each `ttcore.composite` left after the TTNN conversion becomes either
the typed TTNN op it names or the body of its decomposition function (tt-mlir's
TTNNResolveComposites; the backend pipeline's `composite-resolution`).

Modes: `inline` (and `auto`, `validate`, which resolve to inline here as in a tt-mlir build without
the op model) copy the decomposition function's body in place of the composite; `force-promote`
builds the typed op for the composites tt-mlir registers:

| composite_name | typed op | from composite_attributes |
|---|---|---|
| `flash_mla_prefill` | `ttnn.flash_mla_prefill(query, key[, value][, attention_mask])` | head_dim_v, is_causal, scale; has_value / has_attention_mask pick the optional operands |
| `indexer_score_dsa` | `ttnn.indexer_score_dsa(query, key, weights)` | chunk_start_idx (default 0), cluster_axis; only on blackhole (else inlined) |
| `topk_router_gpt` | `ttnn.topk_router_gpt(input, weight, bias)` | k, num_experts (i32) |
| `rotary_embedding` | `ttnn.rotary_embedding(input, cos_cache, sin_cache)` | none |

Any other name is inlined. Decomposition functions no composite refers to any more are erased.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

from ttopt.ir.attributes import BoolAttr, DenseArrayAttr, IntegerAttr
from ttopt.ir.diagnostics import Diagnostic, op_position
from ttopt.ir.operation import Operation
from ttopt.ir.types import ScalarType
from ttopt.passes.base import Pass, option
from ttopt.passes.registry import register_pass
from ttopt.sharding.func_attrs import func_name

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.passes.context import PassContext

COMPOSITE = "ttcore.composite"
MODES = ("auto", "inline", "validate", "force-promote")
UI32, I32 = ScalarType("ui32"), ScalarType("i32")


def _attrs(op: Operation) -> dict[str, Any]:
    d = op.properties.get("composite_attributes")
    return dict(getattr(d, "entries", None) or getattr(d, "value", None) or {}) if d is not None else {}


def _flag(attrs: dict[str, Any], name: str) -> bool:
    return bool(getattr(attrs.get(name), "value", False))


def _int(attrs: dict[str, Any], name: str) -> int | None:
    a = attrs.get(name)
    v = getattr(a, "value", None)
    return int(v) if isinstance(v, (int, bool)) or (isinstance(v, float) and v.is_integer()) else None


def _flash_mla_prefill(op: Operation, attrs: dict[str, Any]) -> Operation:
    ins = list(op.operands)
    has_value, has_mask = _flag(attrs, "has_value"), _flag(attrs, "has_attention_mask")
    head = _int(attrs, "head_dim_v")
    if head is None or "is_causal" not in attrs or len(ins) != 2 + has_value + has_mask:
        raise ValueError("flash_mla_prefill needs head_dim_v, is_causal and the operands has_value / has_attention_mask name")
    props: dict[str, Any] = {"head_dim_v": IntegerAttr(head, UI32), "is_causal": BoolAttr(_flag(attrs, "is_causal")),
                             "operandSegmentSizes": DenseArrayAttr("i32", (1, 1, int(has_value), int(has_mask)))}  # fmt: skip
    if "scale" in attrs:
        props["scale"] = attrs["scale"]
    return Operation("ttnn.flash_mla_prefill", ins, [r.type for r in op.results], properties=dict(sorted(props.items())),
                     location=op.location)  # fmt: skip


def _indexer_score_dsa(op: Operation, attrs: dict[str, Any]) -> Operation:
    if len(op.operands) != 3:
        raise ValueError("indexer_score_dsa takes query, key and weights")
    props: dict[str, Any] = {"chunk_start_idx": IntegerAttr(_int(attrs, "chunk_start_idx") or 0, UI32)}
    axis = _int(attrs, "cluster_axis")
    if axis is not None:
        props["cluster_axis"] = IntegerAttr(axis, UI32)
    return Operation("ttnn.indexer_score_dsa", list(op.operands), [r.type for r in op.results], properties=dict(sorted(props.items())),
                     location=op.location)  # fmt: skip


def _topk_router_gpt(op: Operation, attrs: dict[str, Any]) -> Operation:
    k, experts = _int(attrs, "k"), _int(attrs, "num_experts")
    if len(op.operands) != 3 or k is None or experts is None:
        raise ValueError("topk_router_gpt takes input, weight and bias and needs k and num_experts")
    return Operation("ttnn.topk_router_gpt", list(op.operands), [r.type for r in op.results],
                     properties={"k": IntegerAttr(k, I32), "num_experts": IntegerAttr(experts, I32)},
                     location=op.location, result_names=["expert_indices", "expert_weights"])  # fmt: skip


def _rotary_embedding(op: Operation, attrs: dict[str, Any]) -> Operation:
    if len(op.operands) != 3:
        raise ValueError("rotary_embedding takes input, cos_cache and sin_cache")
    return Operation("ttnn.rotary_embedding", list(op.operands), [r.type for r in op.results], location=op.location)


TYPED: dict[str, Callable[[Operation, dict[str, Any]], Operation]] = {
    "flash_mla_prefill": _flash_mla_prefill,
    "indexer_score_dsa": _indexer_score_dsa,
    "topk_router_gpt": _topk_router_gpt,
    "rotary_embedding": _rotary_embedding,
}
# Typed ops tt-metal has only on some architectures: elsewhere the composite is inlined.
ARCH_ONLY = {"indexer_score_dsa": "blackhole"}


def inline(op: Operation, decomposition: Operation) -> None:
    """Replace composite `op` by a copy of `decomposition`'s body."""
    body = decomposition.regions[0].entry
    mapping: dict[int, Any] = {id(a): v for a, v in zip(body.args, op.operands)}
    block = op.parent
    assert block is not None
    at = block.index(op)
    ret = body.ops[-1]
    for src in body.ops[:-1]:
        block.insert(at, src.clone(mapping))
        at += 1
    for r, v in zip(op.results, ret.operands):
        r.replace_all_uses_with(mapping.get(id(v), v))
    op.drop_all_references()
    block.remove(op)


@register_pass
@dataclass
class TTNNResolveComposites(Pass):
    """Resolve ttcore.composite ops to typed TTNN ops or their decompositions (tt-mlir's ttnn-resolve-composites)."""

    name = "ttnn-resolve-composites"
    summary = "Replace each ttcore.composite by its typed TTNN op (force-promote) or its decomposition's body (inline)"

    composite_resolution: str = option("inline", "inline / auto / validate: inline the decomposition; force-promote: the typed op where one is registered", choices=MODES)
    arch: str = option("wormhole_b0", "Chip architecture (typed ops tt-metal has only on some architectures are inlined elsewhere)")

    def run(self, module: Module, ctx: PassContext) -> None:
        funcs = {func_name(f): f for f in module.functions()}
        used: set[str] = set()
        promoted = inlined = 0
        for op in [o for o in module.walk() if o.name == COMPOSITE]:
            name = getattr(op.properties.get("composite_name"), "value", "")
            callee = getattr(op.properties.get("decomposition"), "root", "")
            used.add(callee)
            build = TYPED.get(name) if self.composite_resolution == "force-promote" else None
            if build is not None and ARCH_ONLY.get(name, self.arch) == self.arch:
                try:
                    typed = build(op, _attrs(op))
                except ValueError as e:
                    raise Diagnostic(f"{self.name}: composite '{name}': {e}", op_position(module.source, op)) from None
                block = op.parent
                assert block is not None
                block.insert(block.index(op), typed)
                for r, t in zip(op.results, typed.results):
                    r.replace_all_uses_with(t)
                op.drop_all_references()
                block.remove(op)
                promoted += 1
                continue
            decomposition = funcs.get(callee)
            if decomposition is None or not decomposition.regions or not decomposition.regions[0].blocks:
                raise Diagnostic(f"{self.name}: 'ttcore.composite' decomposition function '@{callee}' not found",
                                 op_position(module.source, op))  # fmt: skip
            inline(op, decomposition)
            inlined += 1
        referenced = _referenced_symbols(module)
        for callee in sorted(used):
            f = funcs.get(callee)
            if f is not None and callee not in referenced and f.parent is not None:
                f.parent.remove(f)
        ctx.stats.setdefault(self.name, {}).update({"promoted": promoted, "inlined": inlined})


def _referenced_symbols(module: Module) -> set[str]:
    """Symbols any op still names (calls, load_cached, composites, trace callees)."""
    out: set[str] = set()
    for op in module.walk():
        if op.name == "func.func":
            continue
        for a in op.properties.values():
            root = getattr(a, "root", None)
            if isinstance(root, str):
                out.add(root)
    return out
