"""TTIR -> TTNN for the transformer ops whose TTNN form HEAD's workaround decompositions rewrite
(TTNN Workarounds/Decomposition), so the output is what HEAD's backend pipeline prints:

* `split_query_key_value_and_split_heads` with a head size that is a multiple of the tile width
  (32): `ttnn.split_query_key_value_and_split_heads` as it is. Otherwise
  (SplitQueryKeyValueAndSplitHeadsOpRewritePattern): for a fused QKV input, three
  `ttnn.slice_static` of the hidden dimension, three `ttnn.reshape` to [batch, seq, heads,
  head_size] and three `ttnn.permute` (0, 2, 1, 3); with a separate KV input (grouped-query
  attention), the query reshaped and permuted, then the KV input sliced into key and value halves,
  each reshaped and permuted; for `transpose_key` one more permute (0, 1, 3, 2) of the key.
* `topk_router_gpt`: tt-metal writes k rounded up to a multiple of 8; the op is emitted with that k
  and both results sliced back to [B, k] (TopKRouterGptDecompositionRewritePattern).
* `sampling` of rank-2 (or rank-1) values and indices: both reshaped to rank 4 ([1, 1, B, V]), the
  op's [1, 1, 1, B] result reshaped back (SamplingOpRank2RewritePattern).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ttopt.ir.attributes import ArrayAttr, DenseArrayAttr, IntegerAttr
from ttopt.ir.operation import Operation
from ttopt.ir.types import ScalarType, TensorType
from ttopt.lowering.ttnn_direct import DIRECT, direct_rule

if TYPE_CHECKING:
    from ttopt.lowering.ttir_to_ttnn import _Lowering

I32 = ScalarType("i32")
TILE = 32
TOPK_ALIGNMENT = 8


def _i32s(values: Any) -> ArrayAttr:
    return ArrayAttr(tuple(IntegerAttr(int(v), I32) for v in values))


def _typed(lw: _Lowering, op: Any, shape: tuple[int, ...], like: Any) -> Any:
    return lw.layout_type(TensorType(tuple(shape), like.type.resolve().element_type), op)


def _slice(lw: _Lowering, op: Any, v: Any, begins: list[int], ends: list[int], result: Any) -> Any:
    return lw.emit("ttnn.slice_static", [v], result, {"begins": _i32s(begins), "ends": _i32s(ends), "step": _i32s([1] * len(begins))},
                   op.location)  # fmt: skip


def _permute(lw: _Lowering, op: Any, v: Any, perm: tuple[int, ...]) -> Any:
    shape = tuple(v.type.resolve().shape)
    return lw.emit("ttnn.permute", [v], _typed(lw, op, tuple(shape[p] for p in perm), v), {"permutation": DenseArrayAttr("i64", perm)},
                   op.location)  # fmt: skip


def _attr_value(op: Operation, name: str) -> Any:
    a = op.get_attr(name)
    if a is None:
        raise ValueError(f"needs a '{name}' attribute")
    return getattr(a.resolve(), "value", None)


_split_direct = direct_rule("split_query_key_value_and_split_heads", DIRECT["split_query_key_value_and_split_heads"])
_topk_router_direct = direct_rule("topk_router_gpt", DIRECT["topk_router_gpt"])


def _split_qkv(lw: _Lowering, op: Operation) -> Any:
    query = tuple(op.results[0].type.resolve().shape)
    if len(query) != 4 or query[3] % TILE == 0:
        return _split_direct(lw, op)
    x = op.operands[0]
    batch, seq, width = tuple(x.type.resolve().shape)
    head = query[3]
    heads = int(_attr_value(op, "num_heads"))
    kv_heads = op.get_attr("num_kv_heads")
    if len(op.operands) == 2 and kv_heads is not None:
        # Grouped-query attention: the query from the first input, key and value halves of the second.
        q = _permute(lw, op, _reshape(lw, op, x, (batch, seq, heads, head)), (0, 2, 1, 3))
        kv = op.operands[1]
        hidden = int(kv_heads.resolve().value) * head
        part = _typed(lw, op, (batch, seq, hidden), kv)
        halves = [_slice(lw, op, kv, [0, 0, i * hidden], [batch, seq, (i + 1) * hidden], part) for i in range(2)]
        k, v = (_permute(lw, op, _reshape(lw, op, h, (batch, seq, hidden // head, head)), (0, 2, 1, 3)) for h in halves)
    elif len(op.operands) == 1:
        hidden = width // 3
        part = _typed(lw, op, (batch, seq, hidden), x)
        parts = [_slice(lw, op, x, [0, 0, i * hidden], [batch, seq, (i + 1) * hidden], part) for i in range(3)]
        reshaped = [_reshape(lw, op, p, (batch, seq, heads, head)) for p in parts]
        q, k, v = (_permute(lw, op, r, (0, 2, 1, 3)) for r in reshaped)
    else:
        raise ValueError("has a KV input but no num_kv_heads")
    transpose = op.get_attr("transpose_key")
    if transpose is not None and transpose.text == "true":
        k = _permute(lw, op, k, (0, 1, 3, 2))
    return [q, k, v]


def _reshape(lw: _Lowering, op: Any, v: Any, shape: tuple[int, ...]) -> Any:
    return lw.emit("ttnn.reshape", [v], _typed(lw, op, shape, v), {"shape": _i32s(shape)}, op.location)


def _topk_router_gpt(lw: _Lowering, op: Operation) -> Any:
    k = int(_attr_value(op, "k"))
    padded = -(-k // TOPK_ALIGNMENT) * TOPK_ALIGNMENT
    if padded == k:
        return _topk_router_direct(lw, op)
    types = []
    for r in op.results:
        shape = tuple(r.type.resolve().shape)
        types.append(_typed(lw, op, (*shape[:-1], padded), r))
    properties: dict[str, Any] = {"k": IntegerAttr(padded, I32), "num_experts": op.get_attr("num_experts")}
    new = Operation("ttnn.topk_router_gpt", list(op.operands), types, properties=properties, location=op.location)
    lw.out.append(new)
    out = []
    for r, wide in zip(op.results, new.results):
        shape = tuple(r.type.resolve().shape)
        out.append(_slice(lw, op, wide, [0] * len(shape), list(shape), lw.layout_type(r.type, op)))
    return out


_sampling_direct = direct_rule("sampling", DIRECT["sampling"])


def _sampling(lw: _Lowering, op: Operation) -> Any:
    ins = list(op.operands)
    if len(ins) != 5 or len(ins[0].type.resolve().shape) not in (1, 2):
        return _sampling_direct(lw, op)
    out = tuple(op.results[0].type.resolve().shape)
    wide = []
    for v in ins[:2]:
        shape = tuple(v.type.resolve().shape)
        wide.append(_reshape(lw, op, v, (1,) * (4 - len(shape)) + shape))
    result = _typed(lw, op, (1, 1, 1, *out), op.results[0])
    properties = {"seed": op.get_attr("seed")} if op.get_attr("seed") is not None else {}
    y = lw.emit("ttnn.sampling", [*wide, *ins[2:]], result, properties, op.location)
    return _reshape(lw, op, y, out)


TRANSFORMER_RULES = {"sampling": _sampling, "split_query_key_value_and_split_heads": _split_qkv, "topk_router_gpt": _topk_router_gpt}
