"""The cost model's estimate of TTIR ops as `convert-ttir-to-ttnn` will leave them (each TTIR op
as its TTNN op, every tensor tiled in DRAM, interleaved), so a fusion is applied only when the
fused op is estimated faster than the ops it makes dead.

Each TTIR op is costed by `ttopt.device.cost_model.CostModel` as its TTNN counterpart. Creation ops
(constants, fills) cost nothing: they are made once, not per run; so do concats, permutes,
reshapes, typecasts, broadcasts, pads and elementwise arithmetic of parameter / constant arguments
(`ttcore.argument_type`), which
const-eval hoists out of the run (the split-QKV weight concat), and the arithmetic on them (a
conv's folded scale). A broadcast read only by
elementwise ops is free (TTNN broadcasts implicitly), else it is a `ttnn.repeat`. A
`ttcore.composite` is priced as the TTNN op it names (a RoPE composite as `ttnn.rotary_embedding`).
`scaled_dot_product_attention` has no op-model rule; it is estimated here in the cost model's
terms (cost_terms): one program of the matmul kind whose compute is the two score and context
matmuls with their operands in L1 plus the softmax over the scores (the norm kind's cycles per
tile), and whose DRAM traffic is Q, K, V, the mask and the output only -- the scores never leave
the cores, which is what the fusion saves. One query token (Sq = 1) lowers to tt-metal's decode
kernel, estimated as `cost_terms.sdpa_decode_terms` prices it, plus the permutes (and a mask's
repeat) the lowering puts around it. `split_query_key_value_and_split_heads` is
tt-metal's nlp_create_qkv_heads and a fused `concatenate_heads` its nlp_concat_heads: each core takes
whole tile rows of the sequence and reads a row's tiles one at a time (`tile_row_reader_terms`). A linear's bias is read from DRAM on top of its matmul
terms (which model two operands).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import ceil, prod
from typing import Any, Sequence

from ttopt.device.cost_model import CostModel, head_program_rows
from ttopt.device.cost_terms import combine, fidelity_for, matmul_terms, sdpa_decode_terms, tile_bytes, tile_row_reader_terms
from ttopt.device.layout_info import tensor_tiles
from ttopt.device.op_families import family_of
from ttopt.dialects.ttir import inputs
from ttopt.dialects.ttnn_layout import TTNNLayoutAttr
from ttopt.ir.attributes import DenseArrayAttr
from ttopt.ir.properties import int_values
from ttopt.ir.types import ScalarType, TensorType, static_shape

# A fused op estimated within this fraction of what it replaces counts as no slower: closer
# estimates are within the cost model's error, and the fused op is what tt-mlir emits.
TIE = 0.02

FREE = frozenset({"ttir.constant", "ttir.full", "ttir.zeros", "ttir.ones", "ttir.empty", "ttir.arange"})
ELEMENTWISE_READERS = ("ttir.add", "ttir.subtract", "ttir.multiply", "ttir.div", "ttir.maximum", "ttir.minimum", "ttir.pow", "ttir.where")
TTNN_NAME = {"div": "divide", "pow": "pow_tensor", "square": "multiply", "transpose": "permute", "squeeze": "reshape", "unsqueeze": "reshape",
             "linear": "linear", "reduce_and": "min", "reduce_or": "max"}  # fmt: skip
DTYPE = {"f64": "f32", "i64": "si32", "si64": "si32", "i32": "si32", "i1": "bf16", "i16": "si32", "si16": "si32", "i8": "u8", "si8": "u8",
         "ui8": "u8", "ui16": "u16", "ui32": "u32"}  # fmt: skip
SDPA = ("ttir.scaled_dot_product_attention", "ttnn.scaled_dot_product_attention")
SPLIT_QKV = "ttir.split_query_key_value_and_split_heads"
# Ops on weights: computed once by const-eval when they read only parameters and constants (layout
# ops such as the split-QKV weight concat and RepVGG's padded 1x1 weight; the arithmetic a conv's
# folded scale or batch norm, or RepVGG's weight sum, makes).
HOISTED = ("ttir.concat", "ttir.permute", "ttir.transpose", "ttir.reshape", "ttir.typecast", "ttir.broadcast",
           "ttir.pad", "ttir.multiply", "ttir.add", "ttir.subtract", "ttir.div", "ttir.sqrt")  # fmt: skip


@dataclass(frozen=True)
class OpEstimate:
    """One op's estimate: ns, and how it was reached (`ttnn.softmax`, `free`, `not costed`)."""

    ns: float
    how: str


class _Typed:
    __slots__ = ("type",)

    def __init__(self, t: TensorType) -> None:
        self.type = t


class _Proxy:
    """A TTNN op as the cost model reads it: name, operand and result types, and the attributes
    its estimate reads (none for most ops)."""

    __slots__ = ("name", "operands", "results", "location", "properties")

    def __init__(self, name: str, operands: Sequence[TensorType], result: TensorType, properties: dict[str, Any] | None = None) -> None:
        self.name = name
        self.operands = [_Typed(t) for t in operands]
        self.results = [_Typed(result)]
        self.location = None
        self.properties = properties or {}

    def get_attr(self, key: str) -> Any:
        return self.properties.get(key)


def _dtype(t: TensorType) -> str:
    e = t.element_type.resolve().text
    return DTYPE.get(e, e)


def _tensor(t: Any) -> TensorType | None:
    t = t.resolve()
    if not isinstance(t, TensorType) or t.shape is None or any(not isinstance(d, int) or d < 0 for d in t.shape):
        return None
    return TensorType(static_shape(t) or (1,), ScalarType(_dtype(t)))


def _layout(t: TensorType) -> TTNNLayoutAttr:
    return TTNNLayoutAttr.build(static_shape(t), t.element_type.resolve().text, buffer_type="dram", memory_layout="interleaved")


class FusionCost:
    """Estimates of TTIR ops (memoised per op signature by the cost model)."""

    def __init__(self, model: CostModel) -> None:
        self.model = model
        self._memo: dict[tuple, OpEstimate] = {}
        self._layouts: dict[tuple, TTNNLayoutAttr] = {}
        self._weights: dict[int, bool] = {}
        self._consts: dict[int, set[int]] = {}

    def op(self, op: Any) -> OpEstimate:
        """The estimate of one TTIR op as its TTNN op in DRAM-interleaved tiles (memoised on the op
        name and its operand and result types)."""
        if op.name in FREE:
            return OpEstimate(0.0, "free (created once)")
        if op.name == "ttir.broadcast" and all(u.name in ELEMENTWISE_READERS for u in op.results[0].users):
            return OpEstimate(0.0, "free (implicit broadcast)")
        if op.name in HOISTED and all(self._weight(v) for v in inputs(op)):
            return OpEstimate(0.0, "free (parameters only: hoisted to const-eval)")
        key: tuple = (op.name, tuple(v.type.resolve().text for v in inputs(op)), op.results[0].type.resolve().text if op.results else "")
        if op.name == "ttir.conv3d":  # its layout dims, stride and padding decide the program
            key += tuple(sorted((k, v.canonical()) for k, v in op.properties.items()))
        est = self._memo.get(key)
        if est is None:
            est = self._memo[key] = self._estimate(op)
        return est

    def _weight(self, v: Any, depth: int = 0) -> bool:
        """`v` depends only on parameter / constant arguments and created constants (what
        const-eval hoists out of the run)."""
        key = id(v)
        hit = self._weights.get(key)
        if hit is not None:
            return hit
        op = getattr(v, "op", None)
        if op is None:
            block = getattr(v, "block", None)
            func = getattr(getattr(block, "parent", None), "parent", None) if block is not None else None
            out = func is not None and getattr(v, "index", -1) in self._const_args(func)
        elif op.name in FREE:
            out = op.name not in ("ttir.empty",)
        elif op.name in HOISTED and depth < 16:
            out = all(self._weight(u, depth + 1) for u in inputs(op))
        else:
            out = False
        self._weights[key] = out
        return out

    def _const_args(self, func: Any) -> set[int]:
        got = self._consts.get(id(func))
        if got is None:
            from ttopt.lowering.const_eval import const_args

            try:
                got = const_args(func)
            except (AttributeError, TypeError, ValueError):
                got = set()
            self._consts[id(func)] = got
        return got

    def _estimate(self, op: Any) -> OpEstimate:
        ins = [_tensor(v.type) for v in inputs(op)]
        out = _tensor(op.results[0].type) if op.results else None
        if out is None or any(t is None for t in ins):
            return OpEstimate(0.0, "not costed (dynamic shape)")
        tensors: list[TensorType] = [t for t in ins if t is not None]
        if op.name in SDPA:
            return OpEstimate(self.sdpa_ns(tensors, out), "sdpa estimate")
        if op.name == SPLIT_QKV:
            # tt-metal's nlp_create_qkv_heads (DRAM interleaved in and out): every core takes whole
            # tile rows of the sequence and reads a row's Q, K and V tiles one by one.
            rows, per_row = head_program_rows("ttnn.split_query_key_value_and_split_heads", [static_shape(t) for t in tensors])
            t = tile_row_reader_terms(self.model.params, rows, per_row, _dtype(tensors[0]), True, True, self.model.device.num_cores)
            return OpEstimate(t.ns, "split-heads estimate (nlp_create_qkv_heads)")
        if op.name == "ttir.conv3d":
            return self._conv3d(op, tensors, out)
        short = op.name.split(".", 1)[1]
        name = "ttnn." + ("repeat" if short == "broadcast" else TTNN_NAME.get(short, short))
        if op.name == "ttcore.composite":  # the typed op it names (a RoPE composite ends as ttnn.rotary_embedding)
            name = "ttnn." + str(getattr(op.properties.get("composite_name"), "value", ""))
        if short == "square":
            tensors = tensors * 2
        if family_of(name) is None:
            return OpEstimate(0.0, f"not costed ({name} has no op-model rule)")
        try:
            ns = self._op_ns(name, tensors, out)
        except (TypeError, ValueError, ArithmeticError, KeyError):
            return OpEstimate(0.0, f"not costed ({name})")
        ns += self.bias_ns(tensors[2]) if name == "ttnn.linear" and len(tensors) > 2 else 0.0
        return OpEstimate(ns, name)

    def _conv3d(self, op: Any, tensors: Sequence[TensorType], out: TensorType) -> OpEstimate:
        """A channels-last `ttir.conv3d` as the `ttnn.conv3d` the conversion writes: input channels
        padded to the tile, HEAD's default blocking (`ttnn_conv3d.default_config`)."""
        from ttopt.lowering.ttnn_conv3d import default_config, prepared_weight_shape

        xs, ws, os = (static_shape(t) for t in (tensors[0], tensors[1], out)) if len(tensors) >= 2 else ((), (), ())
        channel = getattr(op.properties.get("channel_dim"), "value", 4) if op.properties.get("channel_dim") is not None else 4
        if len(xs) != 5 or len(ws) != 5 or len(os) != 5 or channel % 5 != 4:
            return OpEstimate(0.0, "not costed (a conv3d not channels-last: costed once its permutes are in)")
        kernel = (int(ws[2]), int(ws[3]), int(ws[4]))
        stride = tuple(int_values(op.properties.get("stride")) or (1, 1, 1))
        stride = stride if len(stride) == 3 else (stride[0],) * 3 if len(stride) == 1 else (1, 1, 1)
        c = -(-int(xs[4]) // 32) * 32
        x = TensorType((*xs[:4], c), tensors[0].element_type)
        groups = getattr(op.properties.get("groups"), "value", 1) if op.properties.get("groups") is not None else 1
        w = TensorType(prepared_weight_shape(c, int(groups), kernel, int(os[4])), tensors[1].element_type)
        props = {"kernel_size": DenseArrayAttr("i32", kernel), "stride": DenseArrayAttr("i32", stride), "conv3d_config": default_config(kernel, c)}
        proxy = _Proxy("ttnn.conv3d", [x, w, *tensors[2:]], out, props)
        # As the conversion writes it: the input and the result row-major (HEAD's conv3d operand
        # workaround; its layout pass does not tilize conv3d results), the weight prepared in tiles.
        x_rows, out_rows = (TTNNLayoutAttr.build(static_shape(t), _dtype(t), tiled=False, buffer_type="dram", memory_layout="interleaved") for t in (x, out))
        try:
            ns = self.model.op_cost(proxy, [x_rows, self._layout(w), *(self._layout(t) for t in tensors[2:])], out_rows).ns
        except (TypeError, ValueError, ArithmeticError, KeyError):
            return OpEstimate(0.0, "not costed (ttnn.conv3d)")
        return OpEstimate(ns, "ttnn.conv3d (tt-metal's conv3d program, HEAD's default blocking)")

    def _layout(self, t: TensorType) -> TTNNLayoutAttr:
        key = (static_shape(t), t.element_type.resolve().text)
        lay = self._layouts.get(key)
        if lay is None:
            lay = self._layouts[key] = _layout(t)
        return lay

    def bias_ns(self, bias: TensorType) -> float:
        """What the cost model's matmul terms leave out of a linear: reading its bias from DRAM."""
        return tensor_tiles(static_shape(bias)) * tile_bytes(_dtype(bias)) / self.model.params.dram_stream_gbps

    def sdpa_ns(self, ins: Sequence[TensorType], out: TensorType) -> float:
        """Fused attention: score and context matmuls in L1, the softmax on the cores, DRAM for Q, K,
        V, the mask and the output (see the module doc)."""
        p = self.model.params
        q, k = static_shape(ins[0]), static_shape(ins[1])
        b, h, sq, d = q
        sk = k[2]
        fmt = _dtype(ins[0])
        fid = fidelity_for(fmt)
        cores = self.model.device.num_cores
        if sq == 1:  # lowered to tt-metal's decode kernel (ttnn.scaled_dot_product_attention_decode)
            return sdpa_decode_terms(p, b, h, k[1], d, sk, _dtype(ins[1]), fmt, fid, cores).ns + self._decode_moves(ins, out)
        qk = matmul_terms(p, sq, d, sk, fmt, fmt, fmt, fid, "l1_s", "l1_s", "l1_s", cores, b * h)
        pv = matmul_terms(p, sq, sk, d, fmt, fmt, fmt, fid, "l1_s", "l1_s", "l1_s", cores, b * h)
        scores = b * h * ceil(sq / 32) * ceil(sk / 32)
        softmax = ceil(scores / cores) * p.cycles_per_tile.get("norm", 0.0) / p.clock_ghz
        nbytes = sum(tensor_tiles(static_shape(t)) * tile_bytes(_dtype(t)) for t in (*ins, out))
        return combine(p, "matmul", qk.compute_ns + pv.compute_ns + softmax, nbytes / p.dram_stream_gbps, 0.0).ns

    def _decode_moves(self, ins: Sequence[TensorType], out: TensorType) -> float:
        """The programs the decode lowering (lowering/ttnn_fused.py) puts around the kernel: the
        query into [1, B, H, D] and the result back, and a mask into [B, 1, H, Sk], repeated to
        the query heads when it has fewer."""
        b, h, _, d = static_shape(ins[0])
        moved = TensorType((1, b, h, d), ins[0].element_type)
        ns = self._op_ns("ttnn.permute", [ins[0]], moved) + self._op_ns("ttnn.permute", [moved], out)
        if len(ins) > 3:
            mb, mh, _, sk = static_shape(ins[3])
            mask = TensorType((mb, 1, mh, sk), ins[3].element_type)
            ns += self._op_ns("ttnn.permute", [ins[3]], mask)
            if h > 1 and mh != h:
                ns += self._op_ns("ttnn.repeat", [mask], TensorType((mb, 1, h, sk), ins[3].element_type))
        return ns

    def _op_ns(self, name: str, tensors: Sequence[TensorType], out: TensorType) -> float:
        """One TTNN op on DRAM-interleaved tiles, as the cost model prices it."""
        return self.model.op_cost(_Proxy(name, tensors, out), [self._layout(t) for t in tensors], self._layout(out)).ns

    def ttnn_sdpa_ns(self, op: Any) -> float | None:
        """The estimate of a lowered `ttnn.scaled_dot_product_attention` (None if its shapes are not static)."""
        ins = [_tensor(v.type) for v in op.operands if isinstance(v.type.resolve(), TensorType)]
        out = _tensor(op.results[0].type)
        if out is None or any(t is None for t in ins) or len(ins) < 3 or prod(static_shape(ins[0])) == 0:  # type: ignore[union-attr]
            return None
        return self.sdpa_ns([t for t in ins if t is not None], out)

    def ttnn_extra_ns(self, op: Any) -> float:
        """What `CostModel.current_op_cost` leaves out of a lowered op: a `ttnn.linear`'s bias read."""
        if op.name != "ttnn.linear":
            return 0.0
        tensors = [v for v in op.operands if isinstance(v.type.resolve(), TensorType)]
        bias = _tensor(tensors[2].type) if len(tensors) > 2 else None
        return self.bias_ns(bias) if bias is not None else 0.0
