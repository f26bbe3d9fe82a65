"""`ttir-quant-dequant-conversion`: dequantizes commuted below the ops that can run on quantized
tensors, as tt-mlir's TTIRQuantDequantConversion does (the backend pipeline runs it by default,
`enable-quant-dequant-conversion-pass`).

Applied to a fixed point, on every op of HEAD's QuantizableOpInterface (the elementwise unary and
binary ops, `selu`, `conv2d`, `conv_transpose2d`, `avg_pool2d`, `max_pool2d`) that has a reader:

* The first operand that is a `ttir.dequantize` read only by this op (and not computed from
  parameter / constant arguments alone) is commuted when the op finds its quantized operands
  acceptable (`add`: all quantized operands of one type; `conv2d`: an 8-bit quantized input and
  weight, and without a bias every operand quantized; `conv_transpose2d`: both operands 8-bit
  quantized; any other op: always).
* The op is then rebuilt on the quantized operands where it has a quantized form, and its result
  dequantized: `max_pool2d` keeps its per-tensor input type; `add` quantizes a float operand to the
  other's type; `conv2d` / `conv_transpose2d` produce `input scale x weight scale` (per tensor, or
  per output channel for weights quantized per output channel, dim 0; zero points equal to the
  input's) in i32, or in i8 for a conv2d with a bias, which is quantized to that type.
* Otherwise (any other op, or a type combination those forms reject) the op keeps its float
  operands and its result is quantized to the dequantized operand's type and dequantized again,
  so the dequantize still moves below it; the op is not commuted again.
* `quantize(dequantize(x))` becomes `requantize(x)`, and `x` itself when the types are equal.

Dequantizes and quantizes no longer read are erased.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ttopt.dialects.ttir import inputs
from ttopt.ir.operation import Operation
from ttopt.ir.types import OpaqueType, TensorType
from ttopt.lowering.quant_types import UniformType, parse_uniform
from ttopt.passes.base import Pass
from ttopt.passes.registry import register_pass

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.passes.context import PassContext

_UNARY = ("abs cbrt ceil cos acos floor frac trunc gelu isfinite logical_not bitwise_not mish neg tan atan tanh reciprocal "
          "relu relu6 rsqrt sigmoid softsign hardsigmoid silu sign signbit sin asin asinh sqrt square typecast "
          "bitcast_convert log log1p expm1 exp exp2 erf erfc leaky_relu selu")  # fmt: skip
_BINARY = ("eq ne ge gt le lt logical_and logical_or logical_xor bitwise_and bitwise_or bitwise_xor minimum "
           "logical_right_shift right_shift logical_left_shift subtract remainder pow atan2 add multiply div maximum gelu_bw")  # fmt: skip
# HEAD's QuantizableOpInterface ops.
QUANTIZABLE = frozenset(f"ttir.{n}" for n in (*_UNARY.split(), *_BINARY.split(), "conv2d", "conv_transpose2d", "avg_pool2d", "max_pool2d"))
_PURE_QUANT = frozenset({"ttir.quantize", "ttir.dequantize", "ttir.requantize"})


def _quant(v: Any) -> UniformType | None:
    t = v.type.resolve()
    return parse_uniform(t.element_type.resolve().text) if isinstance(t, TensorType) else None


def _tensor(shape: tuple[int, ...], q: UniformType | Any) -> TensorType:
    """A `shape` tensor of quantized type `q`, or of the element type of value `q` (spelled as it is)."""
    if isinstance(q, UniformType):
        return TensorType(shape, OpaqueType(q.mlir_text, "quant.uniform"))
    return TensorType(shape, q.type.resolve().element_type)


def _shape(v: Any) -> tuple[int, ...]:
    return tuple(v.type.resolve().shape)


class _Rewriter:
    """One block's rewrites: new ops go in front of the op being rewritten."""

    def __init__(self, consts: set[int]) -> None:
        from ttopt.lowering.weight_dtype import traces_to_const_args

        self.consts = consts
        self.traces_to_consts = traces_to_const_args
        self.fallbacks: set[int] = set()  # ops rebuilt with a quantize-dequantize after them: not commuted again
        self.count = {"commuted": 0, "quantized": 0, "requantize": 0}

    def insert(self, anchor: Operation, name: str, operands: list[Any], result: Any, properties: dict | None = None) -> Any:
        op = Operation(name, operands, [result], properties=dict(properties or {}), location=anchor.location)
        op.pos = anchor.pos
        block = anchor.parent
        assert block is not None
        block.insert(block.index(anchor), op)
        return op.results[0]

    # -- quantize(dequantize(x)) -> requantize(x) ------------------------------------------------
    def requantize(self, op: Operation) -> bool:
        """quantize(dequantize(x)) as requantize(x) (x itself for equal types); whether it rewrote."""
        dq = getattr(op.operands[0], "op", None) if op.operands else None
        if dq is None or dq.name != "ttir.dequantize" or not dq.operands:
            return False
        x = dq.operands[0]
        out = op.results[0]
        if _same_type(x, out):
            new = x  # HEAD's RequantizeOp folder: an identity requantize is its input
        else:
            new = self.insert(op, "ttir.requantize", [x], out.type)
        out.replace_all_uses_with(new)
        _erase_dead(op)
        self.count["requantize"] += 1
        return True

    # -- commuting a dequantize below an op -----------------------------------------------------
    def commute(self, op: Operation) -> bool:
        """Move the dequantizes `op` reads below it (or quantize-dequantize after it); whether it rewrote."""
        if id(op) in self.fallbacks or not any(r.uses for r in op.results) or len(op.results) != 1:
            return False
        ins = inputs(op)  # a destination-passing output is not an operand the op computes from
        sources = [_producer(v).operands[0] if _is_dequantize(v) else v for v in ins]
        for v in ins:
            if not _is_dequantize(v) or self.traces_to_consts(v, self.consts):
                continue
            if len(v.uses) != 1 or not _favorable(op, sources):
                continue
            self._rewrite(op, _producer(v), sources)
            return True
        return False

    def _rewrite(self, op: Operation, dq: Operation, sources: list[Any]) -> None:
        result = op.results[0]
        new = _QUANTIZED.get(op.name, _no_quantized_form)(self, op, sources)
        if new is not None:
            self.count["quantized"] += 1
            if _quant(new) is not None:
                new = self.insert(op, "ttir.dequantize", [new], result.type)
        else:
            clone = op.clone()
            block = op.parent
            assert block is not None
            block.insert(block.index(op), clone)
            self.fallbacks.add(id(clone))
            quantized = self.insert(op, "ttir.quantize", [clone.results[0]], _tensor(_shape(result), dq.operands[0]))
            new = self.insert(op, "ttir.dequantize", [quantized], result.type)
        self.count["commuted"] += 1
        result.replace_all_uses_with(new)
        _erase_dead(op)


def _same_type(a: Any, b: Any) -> bool:
    """Equal tensor types, quantized element types compared by value (`0.1` is `1.000000e-01`)."""
    ta, tb = a.type.resolve(), b.type.resolve()
    if ta.text == tb.text:
        return True
    qa, qb = _quant(a), _quant(b)
    return qa is not None and qa == qb and isinstance(ta, TensorType) and isinstance(tb, TensorType) and ta.shape == tb.shape


def _producer(v: Any) -> Any:
    return getattr(v, "op", None)


def _is_dequantize(v: Any) -> bool:
    p = getattr(v, "op", None)
    return p is not None and p.name == "ttir.dequantize" and bool(p.operands)


def _erase_dead(op: Operation) -> None:
    """Erase `op`, then the dequantizes / quantizes it read that nothing reads any more."""
    operands = list(op.operands)
    op.erase()
    for v in operands:
        p = getattr(v, "op", None)
        if p is not None and p.name in _PURE_QUANT and p.parent is not None and not any(r.uses for r in p.results):
            _erase_dead(p)


def _eight_bit(v: Any) -> bool:
    q = _quant(v)
    bits = re.match(r"[a-z]*(\d+)", q.storage) if q is not None else None
    return bits is not None and bits.group(1) == "8"


def _favorable(op: Operation, sources: list[Any]) -> bool:
    """HEAD's isQuantizedRewriteFavorable of `op` given its operands with the dequantizes removed."""
    if op.name == "ttir.add":
        types = {q.mlir_text for q in (_quant(v) for v in sources) if q is not None}
        return len(types) <= 1
    if op.name == "ttir.conv2d":
        checked = sources[:2] if len(sources) > 2 else sources
        return all(_eight_bit(v) for v in checked)
    if op.name == "ttir.conv_transpose2d":
        return all(_eight_bit(v) for v in sources)
    return True


def _no_quantized_form(rw: _Rewriter, op: Operation, sources: list[Any]) -> Any:
    return None


def _max_pool2d(rw: _Rewriter, op: Operation, sources: list[Any]) -> Any:
    q = _quant(sources[0])
    if q is None or q.axis is not None:
        return None
    return rw.insert(op, op.name, [sources[0]], _tensor(_shape(op.results[0]), sources[0]), op.properties)


def _add(rw: _Rewriter, op: Operation, sources: list[Any]) -> Any:
    lhs, rhs = sources
    ql, qr = _quant(lhs), _quant(rhs)
    if (ql is None) != (qr is None):
        q, quant_side, float_side = (ql, lhs, rhs) if ql is not None else (qr, rhs, lhs)
        assert q is not None
        if float_side.type.resolve().element_type.resolve().text != q.expressed:
            return None
        quantized = rw.insert(op, "ttir.quantize", [float_side], _tensor(_shape(float_side), quant_side))
        lhs, rhs = (lhs, quantized) if ql is not None else (quantized, rhs)
    if _quant(lhs) is None:
        return None
    return rw.insert(op, op.name, [lhs, rhs], _tensor(_shape(op.results[0]), lhs), op.properties)


def _output_type(inp: UniformType, weight: UniformType, storage: str, out_axis: int, channels: int) -> UniformType | None:
    """HEAD's computeOutputScalesAndZeroPoint: the accumulator's type, `input scale x weight scale`
    per tensor or per output channel (None when the types do not combine)."""
    if inp.axis is not None or inp.storage.startswith("u"):
        return None
    scale, zero = inp.params[0]
    if weight.axis is None:
        if weight.params[0][1] != zero:
            return None
        return UniformType(storage, inp.expressed, None, ((scale * weight.params[0][0], zero),))
    if any(z != zero for _, z in weight.params) or weight.axis != 0 or len(weight.params) != channels:
        return None
    params = tuple((scale * s, z) for s, z in weight.params)
    if len(params) == 1:
        return UniformType(storage, inp.expressed, None, params)
    return UniformType(storage, inp.expressed, out_axis, params)


def _conv(channel_dim: Any) -> Any:
    def rewrite(rw: _Rewriter, op: Operation, sources: list[Any]) -> Any:
        qi, qw = _quant(sources[0]), _quant(sources[1])
        if qi is None or qw is None:
            return None
        bias = sources[2] if len(sources) > 2 else None
        out_shape = _shape(op.results[0])
        axis = channel_dim(op) % len(out_shape)
        q = _output_type(qi, qw, "i8" if bias is not None else "i32", axis, out_shape[axis])
        if q is None or op.results[0].type.resolve().element_type.resolve().text != q.expressed:
            return None
        operands = list(sources[:2])
        if bias is not None:
            original = inputs(op)[2]
            operands.append(rw.insert(op, "ttir.quantize", [original], _tensor(_shape(original), q)))
        return rw.insert(op, op.name, operands, _tensor(out_shape, q), op.properties)

    return rewrite


def _conv2d_channel(op: Operation) -> int:
    value = getattr(op.get_attr("channel_dim"), "value", None)
    return value if isinstance(value, int) else 3


_QUANTIZED = {
    "ttir.max_pool2d": _max_pool2d,
    "ttir.add": _add,
    "ttir.conv2d": _conv(_conv2d_channel),
    "ttir.conv_transpose2d": _conv(_conv2d_channel),
}


def convert_block(block: Any, consts: set[int]) -> dict[str, int]:
    """Apply the rewrites to `block` until none applies; how many of each kind."""
    rw = _Rewriter(consts)
    changed = True
    while changed:
        changed = False
        for op in list(block.ops):
            if op.parent is not block:
                continue
            if op.name == "ttir.quantize":
                changed |= rw.requantize(op)
            elif op.name in QUANTIZABLE:
                changed |= rw.commute(op)
    return rw.count


@register_pass
@dataclass
class TTIRQuantDequantConversion(Pass):
    """Commute dequantizes below the ops that run on quantized tensors (tt-mlir's TTIRQuantDequantConversion)."""

    name = "ttir-quant-dequant-conversion"
    summary = "Commute ttir.dequantize below ops with a quantized form (else quantize-dequantize their result); quantize(dequantize) -> requantize"

    def run(self, module: Module, ctx: PassContext) -> None:
        from ttopt.lowering.const_eval import const_args

        stats: dict[str, int] = {}
        for func in module.functions():
            consts = const_args(func)
            for region in func.regions:
                for block in region.blocks:
                    for k, n in convert_block(block, consts).items():
                        stats[k] = stats.get(k, 0) + n
        ctx.stats.setdefault(self.name, {}).update(stats)
