"""The attention custom calls torch-xla / tt-xla emit (`stablehlo.custom_call @tt.scaled_dot_product_attention`
and its decode, paged and chunked forms) to the TTIR attention ops, as tt-mlir lowers them.

Optional operands follow the call's `has_*` frontend attributes, in the op's operand order, and the
op records which are present in `operandSegmentSizes` (TTIR's attribute-sized operand segments).
`is_causal` defaults to true; `scale` and `sliding_window_size` appear only when the call names
them. The paged decode and chunked ops are destination-passing in TTIR: they take a `ttir.empty`
of the result type.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ttopt.ir.attributes import Attribute, BoolAttr, DenseArrayAttr
from ttopt.lowering.stablehlo_handlers import Unsupported
from ttopt.lowering.stablehlo_ops.custom_call import lowers_target
from ttopt.lowering.stablehlo_ops.frontend_attributes import f32, flag, frontend_attributes, unsigned

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation
    from ttopt.ir.values import Value
    from ttopt.lowering.stablehlo_to_ttir import Lowering


def _segments(*present: bool) -> DenseArrayAttr:
    return DenseArrayAttr("i32", tuple(int(p) for p in present))


def _props(**attrs: Attribute | None) -> dict[str, Attribute]:
    return {k: v for k, v in attrs.items() if v is not None}


def _take(op: Operation, first: int, present: list[bool]) -> list[Value | None]:
    """The optional operands after the first `first`, one per `present` flag, in order."""
    ins = list(op.operands)
    if len(ins) != first + sum(present):
        raise Unsupported("its operand count does not match its has_* frontend attributes")
    out: list[Value | None] = []
    i = first
    for p in present:
        out.append(ins[i] if p else None)
        i += p
    return out


def _some(*values: Value | None) -> list[Value]:
    return [v for v in values if v is not None]


@lowers_target("tt.scaled_dot_product_attention")
def _sdpa(low: Lowering, op: Operation) -> list[Value]:
    attrs = frontend_attributes(op)
    mask, sink = flag(attrs, "has_attention_mask", False), flag(attrs, "has_attention_sink", False)
    if len(op.operands) == 4 and not mask and not sink:
        mask = True  # calls that predate the has_* attributes pass the mask as the fourth operand
    m, s = _take(op, 3, [mask, sink])
    q, k, v = op.operands[:3]
    return [low.emit("scaled_dot_product_attention", _some(q, k, v, m, s), op.results[0].type,
                     **_props(is_causal=BoolAttr(flag(attrs, "is_causal", True)), scale=f32(attrs, "scale"),
                              sliding_window_size=unsigned(attrs, "sliding_window_size"),
                              operandSegmentSizes=_segments(True, True, True, mask, sink)))]  # fmt: skip


@lowers_target("tt.scaled_dot_product_attention_decode")
def _sdpa_decode(low: Lowering, op: Operation) -> list[Value]:
    attrs = frontend_attributes(op)
    mask, sink = flag(attrs, "has_attention_mask"), flag(attrs, "has_attention_sink")
    m, s = _take(op, 4, [mask, sink])
    q, k, v, cur_pos = op.operands[:4]
    return [low.emit("scaled_dot_product_attention_decode", _some(q, k, v, m, cur_pos, s), op.results[0].type,
                     **_props(is_causal=BoolAttr(flag(attrs, "is_causal", True)), scale=f32(attrs, "scale"),
                              operandSegmentSizes=_segments(True, True, True, mask, True, sink)))]  # fmt: skip


@lowers_target("tt.paged_scaled_dot_product_attention_decode")
def _paged_sdpa_decode(low: Lowering, op: Operation) -> list[Value]:
    attrs = frontend_attributes(op)
    present = [flag(attrs, "has_attention_mask"), flag(attrs, "has_cur_pos_tensor"), flag(attrs, "has_attention_sink")]
    m, cur_pos, s = _take(op, 4, present)
    q, k, v, page_table = op.operands[:4]
    out = low.emit("empty", [], op.results[0].type)
    return [low.emit("paged_scaled_dot_product_attention_decode", _some(q, k, v, page_table, out, m, cur_pos, s),
                     op.results[0].type,
                     **_props(is_causal=BoolAttr(flag(attrs, "is_causal", True)), scale=f32(attrs, "scale"),
                              sliding_window_size=unsigned(attrs, "sliding_window_size"),
                              operandSegmentSizes=_segments(True, True, True, True, True, *present)))]  # fmt: skip


@lowers_target("tt.chunked_scaled_dot_product_attention")
def _chunked_sdpa(low: Lowering, op: Operation) -> list[Value]:
    attrs = frontend_attributes(op)
    if len(op.operands) != 5:
        raise Unsupported("it takes query, key, value, page_table and chunk_start_idx")
    out = low.emit("empty", [], op.results[0].type)
    return [low.emit("chunked_scaled_dot_product_attention", [*op.operands, out], op.results[0].type,
                     **_props(scale=f32(attrs, "scale")))]  # fmt: skip


@lowers_target("tt.paged_flash_mla_decode")
def _paged_flash_mla_decode(low: Lowering, op: Operation) -> list[Value]:
    attrs = frontend_attributes(op)
    head_dim_v = unsigned(attrs, "head_dim_v")
    if head_dim_v is None:
        raise Unsupported("head_dim_v attribute must be present")
    has_value = flag(attrs, "has_value")
    present = [flag(attrs, "has_attention_mask"), flag(attrs, "has_cur_pos_tensor"), flag(attrs, "has_attention_sink")]
    ins = list(op.operands)
    if len(ins) != 3 + has_value + sum(present):
        raise Unsupported("its operand count does not match its has_* frontend attributes")
    q, k = ins[:2]
    v = ins[2] if has_value else None
    page_table = ins[2 + has_value]
    rest: list[Value | None] = []
    i = 3 + has_value
    for p in present:
        rest.append(ins[i] if p else None)
        i += p
    return [low.emit("paged_flash_multi_latent_attention_decode", _some(q, k, v, page_table, *rest), op.results[0].type,
                     **_props(head_dim_v=head_dim_v, is_causal=BoolAttr(flag(attrs, "is_causal", True)),
                              scale=f32(attrs, "scale"),
                              operandSegmentSizes=_segments(True, True, has_value, True, *present)))]  # fmt: skip
