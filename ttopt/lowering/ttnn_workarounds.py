"""`ttnn-workaround`: the data-type workarounds tt-mlir's TTNNWorkarounds pass applies to TTNN ops
whose tt-metal kernels take fewer data types than the op (TTNNWorkaroundsPass.cpp).

An operand whose data type the op's kernel does not take first goes through a
`ttnn.to_tensor_spec` to one it does; a result computed in another data type goes through one back
after the op, so the change stays local to the op, as HEAD's workaround pass leaves it
(`ttnn-decompose-layouts` makes each a `ttnn.typecast`):

| op | operands | results |
|---|---|---|
| `tanh` | bf16 | bf16 |
| `erf` of an integer | bf16 | bf16 |
| `where` | predicate of another type than the inputs: the inputs' type; all integer: f32 | f32 when integer |
| `reshape` of ui8 | si32 | si32 |
| `sum`, `mean`, `max`, `min` not on f32/bf16 | f32 | f32 |
| `prod` | bf16 | bf16 |
| `argmax` | | ui32 |
| `sort` | f32 -> bf16, integers but ui16 -> ui16 | values as the input; indices ui16 (ui32 past 65535 padded elements) |
| `topk` | not bf16/bfp_bf8 -> bf16 | values as the input; indices ui16 (ui32 past 65535 padded elements) |
| `permute` of a 32-bit integer | f32 | f32 |
| strided `slice_static` of an unsigned type under 32 bits | ui32 | ui32 |
| binary elementwise | ui8 -> si32 (bitwise: ui32; shifts: si32 unless 32-bit; divide / pow_tensor of integers: f32) | the same |
| `bitwise_not` of an unsigned type | si32 | si32 |
| `embedding` | indices ui32, table bf16 | bf16 |
| `embedding_bw` | indices ui32, table and gradient bf16 | bf16 |
| `upsample`, `max_pool2d`, `avg_pool2d`, `dropout` | bf16 | bf16 |
| `scaled_dot_product_attention` | query, key, value, mask bf16 | bf16 |
| `update_cache` | si32 update index -> ui32 | |

One workaround changes a shape rather than a data type: the attention sink of
`scaled_dot_product_attention_decode`, [B, Hq, 1, 1], is sliced to its first batch entry (when B > 1),
reshaped to [Hq, 1] and zero-padded to [Hq, 32], the tile the decode kernel reads (HEAD's
ScaledDotProductAttentionDecodeAttentionSinkRewritePattern).

Only device tensors are cast (host tensors, such as conv weights, are prepared by their op).
HEAD's layout workarounds (row-major operands of argmax, embedding, embedding_bw, pooling, upsample) are not
applied: ttopt keeps every device tensor tiled. `disable-workarounds=true` on the backend pipeline
skips the pass.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import ceil
from typing import TYPE_CHECKING, Any, Callable

from ttopt.device.tensor import element_dtype
from ttopt.dialects.ttcore_attrs import DataType
from ttopt.dialects.ttnn import BINARY
from ttopt.dialects.ttnn_layout import BufferType, TTNNLayoutAttr
from ttopt.ir.attributes import ArrayAttr, BoolAttr, DenseArrayAttr, FloatAttr, IntegerAttr
from ttopt.ir.operation import Operation
from ttopt.ir.properties import int_values
from ttopt.ir.types import ScalarType, TensorType
from ttopt.lowering.mlir_floats import mlir_float_attr
from ttopt.optimizer.rewrite import LayoutAliaser, update_function_type
from ttopt.passes.base import Pass
from ttopt.passes.registry import register_pass

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.passes.context import PassContext

F32, BF16, U32, U16, U8, SI32 = DataType.F32, DataType.BF16, DataType.U32, DataType.U16, DataType.U8, DataType.SI32
FLOATS = frozenset({F32, BF16, DataType.BFP_BF8, DataType.BFP_BF4})
INTEGERS = frozenset({U32, U16, U8, SI32})
UINT16_MAX = 65535
TILE_WIDTH = 32

# Per op: (dtype per tensor operand, dtype per result); None leaves that one as it is.
Workaround = tuple[list[DataType | None], list[DataType | None]]


def _dtype(v: Any) -> DataType | None:
    t = v.type.resolve()
    return element_dtype(t) if isinstance(t, TensorType) else None


def _same(dt: DataType | None, n_in: int = 1, n_out: int = 1) -> Workaround:
    return [dt] * n_in, [dt] * n_out


def _tanh(op: Operation) -> Workaround:
    return _same(BF16)


def _erf(op: Operation) -> Workaround:
    return _same(BF16 if _dtype(op.operands[0]) in INTEGERS else None)


def _where(op: Operation) -> Workaround:
    pred, inp = _dtype(op.operands[0]), _dtype(op.operands[-1])
    if pred not in INTEGERS and pred == inp:
        return [None] * 3, [None]
    if inp in INTEGERS:
        return [F32] * 3, [F32]
    return [inp, None, None], [None]


def _reshape(op: Operation) -> Workaround:
    return _same(SI32 if _dtype(op.operands[0]) is U8 else None)


def _reduction(op: Operation) -> Workaround:
    return _same(None if _dtype(op.operands[0]) in (F32, BF16) else F32)


def _prod(op: Operation) -> Workaround:
    return _same(BF16)


def _argmax(op: Operation) -> Workaround:
    return [None], [U32]


def _indices_dtype(size: int) -> DataType:
    return U16 if size <= UINT16_MAX else U32


def _sort(op: Operation) -> Workaround:
    dt = _dtype(op.operands[0])
    value = U16 if dt in INTEGERS and dt is not U16 else BF16 if dt is F32 else None
    last = op.operands[0].type.resolve().shape[-1]
    padded = 1 << max(0, int(last) - 1).bit_length()  # bitonic sort pads to a power of two
    return [value], [value, U16 if padded < UINT16_MAX else U32]


def _topk(op: Operation) -> Workaround:
    dt = _dtype(op.operands[0])
    shape = tuple(op.operands[0].type.resolve().shape)
    dim_attr = op.properties.get("dim")
    dim = int(getattr(dim_attr.resolve(), "value", -1)) if dim_attr is not None else -1
    dim %= len(shape)
    size = ceil(shape[dim] / 32) * 32 if dim >= len(shape) - 2 else shape[dim]  # tile-padded
    if dt not in (BF16, DataType.BFP_BF8):
        return [BF16], [BF16, _indices_dtype(size)]
    return [None], [dt, _indices_dtype(size)]


def _permute(op: Operation) -> Workaround:
    return _same(F32 if _dtype(op.operands[0]) in (SI32, U32) else None)


def _slice_static(op: Operation) -> Workaround:
    strided = any(s > 1 for s in int_values(op.properties.get("step")) or ())
    return _same(U32 if strided and _dtype(op.operands[0]) in (U16, U8) else None)


def _binary_dtype(name: str, dt: DataType | None) -> DataType | None:
    """HEAD's binaryOpDTypeWorkaround for one operand's data type."""
    if name in ("logical_left_shift", "logical_right_shift"):
        return None if dt in (U32, SI32) else SI32
    if name in ("bitwise_and", "bitwise_or", "bitwise_xor"):
        return U32 if dt is U8 else None
    if name == "gelu_bw":
        return None if dt is BF16 else BF16
    if name in ("divide", "pow_tensor"):
        return None if dt in FLOATS else F32
    return SI32 if dt is U8 else None


def _binary(op: Operation) -> Workaround:
    name = op.name[5:]
    target = None
    for v in op.operands[:2]:
        target = _binary_dtype(name, _dtype(v)) or target
    return _same(target, 2, 1)


def _bitwise_not(op: Operation) -> Workaround:
    return _same(SI32 if _dtype(op.operands[0]) in (U8, U16, U32) else None)


def _embedding(op: Operation) -> Workaround:
    return [U32, BF16], [BF16]


def _embedding_bw(op: Operation) -> Workaround:
    return [U32, BF16, BF16], [BF16]


def _bf16(op: Operation) -> Workaround:
    return _same(BF16)


def _sdpa(op: Operation) -> Workaround:
    seg = list(int_values(op.properties.get("operandSegmentSizes")) or (1, 1, 1, 0, 0))
    ins: list[DataType | None] = [BF16] * 3 + [BF16] * seg[3] + [None] * seg[4]
    return ins, [BF16]


def _update_cache(op: Operation) -> Workaround:
    ins: list[DataType | None] = [None] * len(op.operands)
    if len(op.operands) >= 3 and _dtype(op.operands[2]) is SI32:
        ins[2] = U32
    return ins, [None] * len(op.results)


WORKAROUNDS: dict[str, Callable[[Operation], Workaround]] = {
    "ttnn.tanh": _tanh, "ttnn.erf": _erf, "ttnn.where": _where, "ttnn.reshape": _reshape,
    **{f"ttnn.{n}": _reduction for n in ("sum", "mean", "max", "min")},
    "ttnn.prod": _prod, "ttnn.argmax": _argmax, "ttnn.sort": _sort, "ttnn.topk": _topk, "ttnn.permute": _permute,
    "ttnn.slice_static": _slice_static, **{f"ttnn.{n}": _binary for n in (*BINARY, "gelu_bw")},
    "ttnn.bitwise_not": _bitwise_not, "ttnn.embedding": _embedding, "ttnn.embedding_bw": _embedding_bw,
    "ttnn.upsample": _bf16, "ttnn.max_pool2d": _bf16, "ttnn.avg_pool2d": _bf16, "ttnn.dropout": _bf16,
    "ttnn.scaled_dot_product_attention": _sdpa, "ttnn.update_cache": _update_cache,
}  # fmt: skip


class _Caster:
    """Builds `ttnn.to_tensor_spec`s to another data type with the same layout otherwise (HEAD's
    form; ttnn-decompose-layouts makes each a ttnn.typecast)."""

    def __init__(self, module: Any) -> None:
        self.aliaser = LayoutAliaser(module)

    def retyped(self, t: TensorType, dt: DataType) -> TensorType | None:
        """`t` in data type `dt` (its layout's dtype changed), None when `t` is not a device tensor."""
        lay = getattr(t.encoding.resolve(), "typed", None) if t.encoding is not None else None
        if not isinstance(lay, TTNNLayoutAttr) or lay.buffer_type is BufferType.SYSTEM_MEMORY:
            return None
        shape = tuple(int(d) for d in t.shape or () if d is not None)
        return self.aliaser.tensor_type(t, lay.relayout(shape, dtype=dt))

    def cast(self, v: Any, t: TensorType, anchor: Operation) -> Operation:
        op = Operation("ttnn.to_tensor_spec", [v], [t], location=anchor.location)
        op.pos = anchor.pos
        return op


def _apply(op: Operation, caster: _Caster, before: list[Operation], after: list[Operation]) -> bool:
    rule = WORKAROUNDS.get(op.name)
    if rule is None:
        return False
    ins, outs = rule(op)
    changed = False
    tensors = [i for i, v in enumerate(op.operands) if isinstance(v.type.resolve(), TensorType)]
    for i, dt in zip(tensors, ins):
        v = op.operands[i]
        if dt is None or _dtype(v) is dt:
            continue
        t = caster.retyped(v.type.resolve(), dt)
        if t is None:
            continue
        cast = caster.cast(v, t, op)
        before.append(cast)
        op.set_operand(i, cast.results[0])
        changed = True
    for r, dt in zip(op.results, outs):
        old = r.type.resolve()
        if dt is None or not isinstance(old, TensorType) or element_dtype(old) is dt:
            continue
        t = caster.retyped(old, dt)
        if t is None:
            continue
        r.type = t
        cast = caster.cast(r, old, op)
        r.replace_all_uses_with(cast.results[0], except_in=cast)
        after.append(cast)
        changed = True
    return changed


def _i32s(values: tuple[int, ...]) -> ArrayAttr:
    return ArrayAttr(tuple(IntegerAttr(v, ScalarType("i32")) for v in values))


def _decode_sink(op: Operation, caster: _Caster, before: list[Operation]) -> bool:
    """Feed a 4-D [B, Hq, 1, 1] decode sink as the [Hq, 32] tile the decode kernel reads."""
    seg = list(int_values(op.properties.get("operandSegmentSizes")) or ())
    if op.name != "ttnn.scaled_dot_product_attention_decode" or len(seg) != 6 or not seg[5]:
        return False
    sink = op.operands[sum(seg[:5])]
    t = sink.type.resolve()
    lay = getattr(t.encoding.resolve(), "typed", None) if isinstance(t, TensorType) and t.encoding is not None else None
    shape = tuple(d for d in t.shape or () if isinstance(d, int)) if isinstance(t, TensorType) else ()
    if not isinstance(lay, TTNNLayoutAttr) or len(shape) != 4 or shape[2:] != (1, 1):
        return False
    heads = shape[1]

    def step(name: str, v: Any, out: tuple[int, ...], props: dict[str, Any]) -> Any:
        new = Operation(name, [v], [caster.aliaser.tensor_type(TensorType(out, t.element_type), lay.relayout(out))],
                        properties={k: mlir_float_attr(a) for k, a in props.items()}, location=op.location)  # fmt: skip
        new.pos = op.pos
        before.append(new)
        return new.results[0]

    if shape[0] != 1:  # one sink per head, the same for every batch entry
        sink = step("ttnn.slice_static", sink, (1, heads, 1, 1),
                    {"begins": _i32s((0, 0, 0, 0)), "ends": _i32s((1, heads, 1, 1)), "step": _i32s((1, 1, 1, 1))})  # fmt: skip
    sink = step("ttnn.reshape", sink, (heads, 1), {"shape": _i32s((heads, 1))})
    sink = step("ttnn.pad", sink, (heads, TILE_WIDTH), {"padding": DenseArrayAttr("i32", (0, 0, 0, TILE_WIDTH - 1)),
                                                        "value": FloatAttr(0.0, ScalarType("f32")), "use_multicore": BoolAttr(True)})  # fmt: skip
    op.set_operand(sum(seg[:5]), sink)
    return True


def apply_workarounds(module: Module) -> dict[str, int]:
    """Apply the data-type workarounds to every function of `module`; how many ops of each kind changed."""
    caster = _Caster(module)
    counts: dict[str, int] = {}
    for func in module.functions():
        if not func.regions or not func.regions[0].blocks:
            continue
        for block in func.regions[0].blocks:
            out: list[Operation] = []
            for op in block.ops:
                before: list[Operation] = []
                after: list[Operation] = []
                if _apply(op, caster, before, after) | _decode_sink(op, caster, before):
                    counts[op.name] = counts.get(op.name, 0) + 1
                out.extend(before)
                out.append(op)
                out.extend(after)
            for op in out:
                op.parent = block
            block.ops = out
        update_function_type(func)
    return counts


@register_pass
@dataclass
class TTNNWorkaround(Pass):
    """Convert the operands and results of TTNN ops whose kernels take fewer data types (HEAD's workarounds)."""

    name = "ttnn-workaround"
    summary = "TTNN data-type workarounds: to_tensor_spec data-type changes around ops whose tt-metal kernels take fewer data types (tanh, where, prod, argmax, sort, ...)"

    def run(self, module: Module, ctx: PassContext) -> None:
        ctx.stats.setdefault(self.name, {}).update(apply_workarounds(module))
