"""`@tt.flash_mla_prefill` and `@tt.indexer_score_dsa` custom calls to `ttcore.composite` ops, as
tt-mlir lowers them: the composite names the kernel, carries its options (`composite_attributes`)
and calls a private decomposition function, synthesized next to it in the module, that computes
the same result in primitive TTIR ops (the fallback TTNN inlines when it has no fused kernel).

* flash MLA prefill: softmax(Q K^T * scale [+ mask] [+ causal -inf mask]) V, where a missing V is
  the first `head_dim_v` features of K (MLA from the latent) and grouped-query heads are folded
  into the sequence dimension for the two matmuls; the scale defaults to 1/sqrt(head dim).
* DSA indexer score: sum over heads of relu(Q K^T) * per-head weights, plus the causal mask of a
  query chunk starting at `chunk_start_idx`, its position arithmetic in i32.

Decomposition functions are named `<kernel>_decomp`, then `_decomp_0`, `_decomp_1`, ... (the
first free name, as HEAD picks them).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from ttopt.ir.attributes import (
    ArrayAttr,
    BoolAttr,
    DenseArrayAttr,
    DictAttr,
    FloatAttr,
    IntegerAttr,
    StringAttr,
    SymbolRefAttr,  # fmt: skip
    TypeAttr,
)
from ttopt.ir.operation import Block, Operation, Region
from ttopt.ir.types import FunctionType, ScalarType, TensorType
from ttopt.lowering.dense_values import float_text
from ttopt.lowering.stablehlo_handlers import Unsupported
from ttopt.lowering.stablehlo_ops.custom_call import lowers_target
from ttopt.lowering.stablehlo_ops.frontend_attributes import F32, UI32, f32, flag, frontend_attributes, unsigned

if TYPE_CHECKING:
    from ttopt.ir.values import Value
    from ttopt.lowering.stablehlo_to_ttir import Lowering

I32, SI32, SI64, I64 = ScalarType("i32"), ScalarType("si32"), ScalarType("si64"), ScalarType("i64")


def _i32s(values: Any) -> ArrayAttr:
    return ArrayAttr(tuple(IntegerAttr(int(v), I32) for v in values))


class _Body:
    """Emits TTIR ops into a new function body through the lowering's `emit` (before a placeholder
    terminator), so they carry the custom call's location."""

    def __init__(self, low: Lowering, call: Operation, arg_types: list[Any]) -> None:
        self.low = low
        self.block = Block(arg_types)
        self.end = Operation("func.return", [], [], location=call.location)
        self.end.pos = call.pos
        self.block.append(self.end)

    def __enter__(self) -> _Body:
        self.saved = self.low.anchor
        self.low.anchor = self.end
        return self

    def __exit__(self, *exc: object) -> None:
        self.low.anchor = self.saved

    def t(self, shape: tuple[int, ...], like: Value, element: Any = None) -> TensorType:
        src = like.type.resolve()
        return TensorType(tuple(shape), element if element is not None else src.element_type, src.encoding)

    def op(self, name: str, ins: list[Value], ty: Any, **props: Any) -> Value:
        return self.low.emit(name, ins, ty, **props)

    def reshape(self, v: Value, shape: tuple[int, ...]) -> Value:
        return self.op("reshape", [v], self.t(shape, v), shape=_i32s(shape))

    def permute(self, v: Value, perm: list[int]) -> Value:
        s = v.type.resolve().shape
        return self.op("permute", [v], self.t(tuple(s[p] for p in perm), v), permutation=DenseArrayAttr("i64", tuple(perm)))

    def full(self, ty: TensorType, value: float | int) -> Value:
        if isinstance(value, int):
            fill: Any = IntegerAttr(value, I32)
        else:
            fill = FloatAttr(value, F32, text=f"{float_text(value)} : f32")
        return self.op("full", [], ty, shape=DenseArrayAttr("i32", tuple(ty.shape or ())), fill_value=fill)

    def arange(self, ty: TensorType, end: int, dim: int) -> Value:
        return self.op("arange", [], ty, start=IntegerAttr(0, SI64), end=IntegerAttr(end, SI64), step=IntegerAttr(1, SI64),
                       arange_dimension=IntegerAttr(dim, I64))  # fmt: skip


def _decomposition(low: Lowering, call: Operation, kernel: str, ins: list[Value], out_t: Any,
                   build: Any) -> SymbolRefAttr:  # fmt: skip
    """A private `@<kernel>_decomp[_N]` function of `ins`' types computing `build(body, args)`."""
    module = low.module
    taken = {str(getattr(op.properties.get("sym_name"), "value", "")) for op in module.walk() if op.name == "func.func"}
    name, n = f"{kernel}_decomp", 0
    while name in taken:
        name, n = f"{kernel}_decomp_{n}", n + 1
    body = _Body(low, call, [v.type for v in ins])
    with body:
        result = build(body, list(body.block.args))
    body.block.append(Operation("func.return", [result], [], location=call.location))
    body.end.erase()
    func = Operation("func.func", properties={
        "sym_name": StringAttr(name),
        "function_type": TypeAttr(FunctionType(tuple(v.type for v in ins), (out_t,))),
        "sym_visibility": StringAttr("private"),
    }, regions=[Region([body.block])], location=call.location)  # fmt: skip
    module.body.append(func)
    return SymbolRefAttr(name)


def _composite(low: Lowering, call: Operation, kernel: str, ins: list[Value], attrs: dict[str, Any], decomp: SymbolRefAttr) -> Value:
    return low.emit_op("ttcore.composite", ins, call.results[0].type, composite_attributes=DictAttr(dict(sorted(attrs.items()))),
                       composite_name=StringAttr(kernel), decomposition=decomp)  # fmt: skip


def _flash_mla_body(b: _Body, args: list[Value], has_value: bool, has_mask: bool, head_dim_v: int, causal: bool,
                    scale: float | None) -> Value:  # fmt: skip
    q, k = args[0], args[1]
    v = args[2] if has_value else None
    mask = args[2 + has_value] if has_mask else None
    batch, heads, sq, dqk = q.type.resolve().shape
    _, kv_heads, sk, _ = k.type.resolve().shape
    if v is None:
        v = b.op("slice_static", [k], b.t((batch, kv_heads, sk, head_dim_v), k), begins=_i32s((0, 0, 0, 0)),
                 ends=_i32s((batch, kv_heads, sk, head_dim_v)), step=_i32s((1, 1, 1, 1)))  # fmt: skip
    groups = heads // kv_heads if heads != kv_heads else 1
    gqa = heads != kv_heads
    qq = b.reshape(q, (batch, kv_heads, groups * sq, dqk)) if gqa else q
    kt = b.permute(k, [0, 1, 3, 2])
    scores_t = b.t((batch, heads, sq, sk), q)
    scores = b.op("matmul", [qq, kt], b.t((batch, kv_heads, groups * sq, sk), q) if gqa else scores_t)
    if gqa:
        scores = b.reshape(scores, (batch, heads, sq, sk))
    x = b.op("multiply", [scores, b.full(scores_t, scale if scale is not None else 1.0 / math.sqrt(dqk))], scores_t)
    if mask is not None:
        x = b.op("add", [x, mask], scores_t)
    if causal:
        mask_t = b.t((1, 1, sq, sk), q)
        keep = b.op("ge", [b.arange(mask_t, sq, 2), b.arange(mask_t, sk, 3)], mask_t)
        additive = b.op("where", [keep, b.full(mask_t, 0.0), b.full(mask_t, float("-inf"))], mask_t)
        x = b.op("add", [x, additive], scores_t)
    probs = b.op("softmax", [x], scores_t, dimension=IntegerAttr(3, SI32), numericStable=BoolAttr(True))
    if gqa:
        probs = b.reshape(probs, (batch, kv_heads, groups * sq, sk))
    out_t = b.t((batch, heads, sq, head_dim_v), q)
    out = b.op("matmul", [probs, v], b.t((batch, kv_heads, groups * sq, head_dim_v), q) if gqa else out_t)
    return b.reshape(out, (batch, heads, sq, head_dim_v)) if gqa else out


@lowers_target("tt.flash_mla_prefill")
def _flash_mla_prefill(low: Lowering, op: Operation) -> list[Value]:
    attrs = frontend_attributes(op)
    if not attrs:
        raise Unsupported("FlashMlaPrefill op must have mhlo.frontend_attributes")
    head_dim_v = unsigned(attrs, "head_dim_v")
    if head_dim_v is None or head_dim_v.value <= 0:
        raise Unsupported("head_dim_v attribute must be a positive integer")
    causal = flag(attrs, "is_causal", True)
    scale = f32(attrs, "scale")
    has_value, has_mask = flag(attrs, "has_value", False), flag(attrs, "has_attention_mask", False)
    ins = list(op.operands)
    if len(ins) != 2 + has_value + has_mask:
        raise Unsupported("its operand count does not match has_value / has_attention_mask")
    if any(len(v.type.resolve().shape) != 4 for v in ins[:2]):
        raise Unsupported("query and key must be rank 4")
    decomp = _decomposition(low, op, "flash_mla_prefill", ins, op.results[0].type,
                            lambda b, args: _flash_mla_body(b, args, has_value, has_mask, head_dim_v.value, causal,
                                                            scale.value if scale is not None else None))  # fmt: skip
    options: dict[str, Any] = {"head_dim_v": head_dim_v, "is_causal": BoolAttr(causal), "has_value": BoolAttr(has_value),
                               "has_attention_mask": BoolAttr(has_mask)}  # fmt: skip
    if scale is not None:
        options["scale"] = scale
    return [_composite(low, op, "flash_mla_prefill", ins, options, decomp)]


def _indexer_body(b: _Body, args: list[Value], chunk_start: int) -> Value:
    q, k, w = args
    batch, heads, sq, d = q.type.resolve().shape
    sk = k.type.resolve().shape[2]
    heads_t = b.t((batch, heads, sq, sk), q)
    qk = b.op("matmul", [b.reshape(q, (batch, 1, heads * sq, d)), b.permute(k, [0, 1, 3, 2])], b.t((batch, 1, heads * sq, sk), q))
    relu = b.op("relu", [b.reshape(qk, (batch, heads, sq, sk))], heads_t)
    weights = b.op("broadcast", [w], heads_t, broadcast_dimensions=DenseArrayAttr("i64", (1, 1, 1, sk)))
    score_t = b.t((batch, 1, sq, sk), q)
    score = b.op("sum", [b.op("multiply", [relu, weights], heads_t)], score_t, keep_dim=BoolAttr(True), dim_arg=_i32s((1,)))
    index_t = b.t((batch, 1, sq, sk), q, I32)
    row, col = b.arange(index_t, sq, 2), b.arange(index_t, sk, 3)
    threshold = b.op("add", [row, b.full(index_t, chunk_start)], index_t)
    visible = b.op("ge", [threshold, col], index_t)
    additive = b.op("where", [visible, b.full(score_t, 0.0), b.full(score_t, float("-inf"))], score_t)
    return b.op("add", [score, additive], score_t)


@lowers_target("tt.indexer_score_dsa")
def _indexer_score_dsa(low: Lowering, op: Operation) -> list[Value]:
    ins = list(op.operands)
    if len(ins) != 3:
        raise Unsupported("indexer_score_dsa expects exactly 3 operands (q, k, weights)")
    if any(len(v.type.resolve().shape) != 4 for v in ins):
        raise Unsupported("q, k and weights must be rank 4")
    attrs = frontend_attributes(op)
    start = unsigned(attrs, "chunk_start_idx") or IntegerAttr(0, UI32)
    decomp = _decomposition(low, op, "indexer_score_dsa", ins, op.results[0].type, lambda b, args: _indexer_body(b, args, start.value))
    options: dict[str, Any] = {"chunk_start_idx": start}
    axis = unsigned(attrs, "cluster_axis")
    if axis is not None:
        options["cluster_axis"] = axis
    return [_composite(low, op, "indexer_score_dsa", ins, options, decomp)]
