"""Verifiers of the TTNN transformer ops (HEAD's NLPConcatHeadsOp, NLPConcatHeadsDecodeOp,
RotaryEmbeddingLlamaOp, RotaryEmbeddingOp, PagedFlashMultiLatentAttentionDecodeOp,
FlashMlaPrefillOp and IndexerScoreDsaOp::verify), with HEAD's messages."""

from __future__ import annotations

from typing import Any

from ttopt.dialects.verify_common import TILE, bool_attr, element, int_attr, join, layout, operands_named, shape
from ttopt.ir.types import ScalarType, TensorType


def _out(op: Any) -> tuple[int, ...] | None:
    return shape(op.results[0]) if op.results else None


def verify_nlp_concat_heads(op: Any) -> None:
    """[B, H, S, D] -> [B, 1, S, H*D]."""
    x, out = shape(op.operands[0]), _out(op)
    if x is None or out is None:
        return
    if len(out) != 4:
        raise ValueError("output tensor must be a 4D tensor")
    if len(x) != 4:
        raise ValueError("input tensor must be a 4D tensor")
    want = (x[0], 1, x[2], x[1] * x[3])
    if out != want:
        raise ValueError(f"expected output shape ({join(want, ', ')}), got ({join(out, ', ')})")


def verify_nlp_concat_heads_decode(op: Any) -> None:
    """[S, B, H, D] -> [S, 1, B, num_heads*D]."""
    x, out = shape(op.operands[0]), _out(op)
    if x is None or out is None:
        return
    if len(x) != 4:
        raise ValueError("input tensor must be a 4D tensor")
    if len(out) != 4:
        raise ValueError("output tensor must be a 4D tensor")
    heads = int_attr(op, "num_heads")
    if heads is None:
        return
    if out[1] != 1:
        raise ValueError(f"output dimension 1 must be 1, got {out[1]}")
    if x[2] < heads:
        raise ValueError(
            f"num_heads attribute must be less than or equal to input num_heads dimension, got num_heads = {heads}, "
            f"input num_heads dimension = {x[2]}"
        )
    if x[0] != out[0]:
        raise ValueError(
            f"input sequence dimension must match output sequence dimension, got input sequence size = {x[0]}, "
            f"output sequence size = {out[0]}"
        )
    hidden = heads * x[3]
    if hidden != out[3]:
        # HEAD names the input's head count num_heads and the attribute head_size; its tests check that text.
        raise ValueError(
            f"Output hidden dimension must equal num_heads * head_size, got num_heads = {x[2]}, head_size = {heads}, "
            f"expected hidden size = {hidden}, actual output hidden size = {out[3]}"
        )


def verify_rotary_embedding_llama(op: Any) -> None:
    """bf16, tiled, on-device input / cos / sin / transformation matrix (1, 1, 32, 32); height
    sharded in decode mode; the result shaped as the input."""
    values = op.operands[:4]
    if len(values) < 4:
        return
    x, cos, sin, trans = (shape(v) for v in values)
    if x is None or cos is None or sin is None or trans is None:
        return
    if not all(element(v) == "bf16" for v in values):
        raise ValueError("all input tensors must be bfloat16 type.")
    layouts = [layout(v) for v in values]
    if all(lay is not None for lay in layouts):
        if not all(lay.is_tiled for lay in layouts):
            raise ValueError("all input tensors must have tiled layout.")
        if not all(not lay.is_system_memory for lay in layouts):
            raise ValueError("all input tensors must be on device.")
    if cos != sin:
        raise ValueError("cos and sin tensors must have the same shape.")
    if x and x[-1] > 256:
        raise ValueError(f"head dimension must be ≤ 256, got {x[-1]}.")
    if len(trans) != 4:
        raise ValueError("transformation matrix must be at least 4D tensor.")
    if trans != (1, 1, TILE, TILE):
        raise ValueError(f"transformation matrix must have shape ({join((1, 1, TILE, TILE))}) but got ({join(trans)}).")
    if bool_attr(op, "is_decode_mode") and all(lay is not None for lay in layouts):
        if not all(getattr(lay.memory_layout, "value", None) == "height_sharded" for lay in layouts):
            raise ValueError("in decode mode, all input tensors must have HeightSharded memory layout.")
    out = _out(op)
    if out is not None and out != x:
        raise ValueError("output shape must match input shape.")


def verify_rotary_embedding(op: Any) -> None:
    """cos and sin of one dtype and shape; input, cos, sin and result 4-D."""
    if len(op.operands) < 3:
        return
    x, cos, sin = (shape(v) for v in op.operands[:3])
    out = _out(op)
    if element(op.operands[1]) != element(op.operands[2]):
        raise ValueError("cos and sin tensor dtypes must match.")
    if cos is not None and sin is not None and cos != sin:
        raise ValueError("cos and sin tensor shapes must match.")
    if any(s is not None and len(s) != 4 for s in (x, cos, sin, out)):
        raise ValueError("all input and output tensors must be 4D tensors.")


def _is_float(value: Any) -> bool:
    t = value.type.resolve()
    e = t.element_type.resolve() if isinstance(t, TensorType) else None
    return isinstance(e, ScalarType) and e.is_float


def _is_integer(value: Any) -> bool:
    t = value.type.resolve()
    e = t.element_type.resolve() if isinstance(t, TensorType) else None
    return isinstance(e, ScalarType) and e.is_integer


def verify_paged_flash_mla_decode(op: Any) -> None:
    """4-D float query and key (one KV head), a 2-D integer page table, an optional value like the key."""
    named = operands_named(op, ("query", "key", "value", "page_table", "attention_mask", "cur_pos_tensor", "attention_sink"))
    q_v, k_v, pt_v = named.get("query"), named.get("key"), named.get("page_table")
    if q_v is None or k_v is None or pt_v is None:
        return
    q, k, pt = shape(q_v), shape(k_v), shape(pt_v)
    if q is None or k is None or pt is None:
        return
    if len(q) != 4:
        raise ValueError("Query must be a 4D tensor.")
    if len(k) != 4:
        raise ValueError("Key tensor must be a 4D tensor.")
    if len(pt) != 2:
        raise ValueError("Page table tensor must be a 2D tensor.")
    if not _is_float(q_v):
        raise ValueError("Query must be a float tensor.")
    if element(q_v) != element(k_v):
        raise ValueError("Query and key must have the same element type.")
    if not _is_integer(pt_v):
        raise ValueError("Page table must be an integer tensor.")
    if k[1] != 1:
        raise ValueError(f"Key num KV heads (nkv) must be 1, got {k[1]}.")
    v_v = named.get("value")
    v = shape(v_v) if v_v is not None else None
    if v is not None:
        if len(v) != 4:
            raise ValueError("Value tensor must be a 4D tensor.")
        if element(q_v) != element(v_v):
            raise ValueError("Query and value must have the same element type.")
        if v[1] != 1:
            raise ValueError(f"Value num KV heads (nkv) must be 1, got {v[1]}.")
    if int_attr(op, "head_dim_v") == 0:
        raise ValueError("head_dim_v must be greater than 0.")


def verify_flash_mla_prefill(op: Any) -> None:
    """Query [B, Hq, S, D], key [B, Hkv, S, D], optional value [B, Hkv, S, head_dim_v] and mask
    [1|B, 1|Hq, S, S]; result [B, Hq, S, head_dim_v] of the query's dtype."""
    named = operands_named(op, ("query", "key", "value", "attention_mask"))
    q_v, k_v = named.get("query"), named.get("key")
    if q_v is None or k_v is None or not op.results:
        return
    q, k, out = shape(q_v), shape(k_v), _out(op)
    if q is None or k is None or out is None:
        return
    if len(q) != 4:
        raise ValueError("Query must be a 4D tensor")
    if len(k) != 4:
        raise ValueError("Key must be a 4D tensor")
    if len(out) != 4:
        raise ValueError("Output must be a 4D tensor")
    if element(q_v) != element(op.results[0]):
        raise ValueError("Query and result must have the same element type")
    if element(q_v) != element(k_v):
        raise ValueError("Query and key must have the same element type")
    batch, heads, seq, head_size = q
    kv_heads = k[1]
    head_dim_v = int_attr(op, "head_dim_v", 0) or 0
    if k[0] != batch:
        raise ValueError("Key batch size must match query batch size")
    if k[3] != head_size:
        raise ValueError("Key head size must match query head size")
    if seq != k[2]:
        raise ValueError("Query and key must have the same sequence length")
    if kv_heads == 0 or heads % kv_heads:
        raise ValueError("Query num heads must be divisible by key num heads (GQA/MQA/MLA)")
    v_v = named.get("value")
    if v_v is not None:
        v = shape(v_v)
        if v is None:
            return
        if len(v) != 4:
            raise ValueError("Value must be a 4D tensor")
        if element(q_v) != element(v_v):
            raise ValueError("Query and value must have the same element type")
        if v[0] != batch:
            raise ValueError("Value batch size must match query batch size")
        if v[1] != kv_heads:
            raise ValueError("Value num heads must match key num heads")
        if v[2] != seq:
            raise ValueError("Value sequence length must match query/key sequence length")
        if v[3] != head_dim_v:
            raise ValueError("Value head size must equal head_dim_v")
    elif head_dim_v > head_size:
        raise ValueError("head_dim_v cannot exceed key's head dim when value is not provided")
    if head_dim_v <= 0:
        raise ValueError("head_dim_v must be greater than 0")
    m_v = named.get("attention_mask")
    if m_v is not None:
        if bool_attr(op, "is_causal"):
            raise ValueError("Attention mask is not allowed when is_causal is true")
        m = shape(m_v)
        if m is None:
            return
        if len(m) != 4:
            raise ValueError("Attention mask must be a 4D tensor")
        if m[0] not in (1, batch):
            raise ValueError("Attention mask batch size must be 1 (broadcast) or match query batch size")
        if m[1] not in (1, heads):
            raise ValueError("Attention mask dim 1 must be 1 (broadcast) or match query num heads")
        if m[2] != seq:
            raise ValueError("Attention mask at dim 2 must match query sequence length")
        if m[3] != seq:
            raise ValueError("Attention mask at dim 3 must match key sequence length")
    if out != (batch, heads, seq, head_dim_v):
        raise ValueError("Result shape must be [batch, num_query_heads, seq_len, head_dim_v]")


def verify_indexer_score_dsa(op: Any) -> None:
    """Query [1, Hi, Sq, D], key [1, 1, T, D], weights [1, Hi, Sq, 1] -> scores [1, 1, Sq, T]."""
    if len(op.operands) < 3:
        return
    q_v, k_v, w_v = op.operands[:3]
    q, k, w, out = shape(q_v), shape(k_v), shape(w_v), _out(op)
    if q is None or k is None or w is None or out is None:
        return
    if len(q) != 4:
        raise ValueError("Query must be a 4D tensor [B, Hi, Sq, D]")
    if len(k) != 4:
        raise ValueError("Key must be a 4D tensor [B, 1, T, D]")
    if len(w) != 4:
        raise ValueError("Weights must be a 4D tensor [B, Hi, Sq, 1]")
    if len(out) != 4:
        raise ValueError("Result must be a 4D tensor [B, 1, Sq, T]")
    batch, heads, seq, head_dim = q
    if batch != 1:
        raise ValueError(f"Query batch size (dim 0) must be 1, got {batch}")
    if k[0] != batch:
        raise ValueError("Key batch size must match query batch size")
    if k[1] != 1:
        raise ValueError("Key must have a single head (dim 1 must be 1)")
    if k[3] != head_dim:
        raise ValueError("Key head dim must match query head dim")
    if w != (batch, heads, seq, 1):
        raise ValueError("Weights shape must be [batch, num_heads, query_seq_len, 1]")
    if out != (batch, 1, seq, k[2]):
        raise ValueError("Result shape must be [batch, 1, query_seq_len, key_seq_len]")
    if element(q_v) != element(k_v):
        raise ValueError("Query and key must have the same element type")


VERIFIERS = {
    "ttnn.nlp_concat_heads": verify_nlp_concat_heads,
    "ttnn.nlp_concat_heads_decode": verify_nlp_concat_heads_decode,
    "ttnn.rotary_embedding_llama": verify_rotary_embedding_llama,
    "ttnn.rotary_embedding": verify_rotary_embedding,
    "ttnn.paged_flash_multi_latent_attention_decode": verify_paged_flash_mla_decode,
    "ttnn.flash_mla_prefill": verify_flash_mla_prefill,
    "ttnn.indexer_score_dsa": verify_indexer_score_dsa,
}
