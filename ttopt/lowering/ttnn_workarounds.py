"""`ttnn-workaround`: the workarounds tt-mlir's TTNNWorkarounds pass applies to TTNN ops whose
tt-metal kernels take fewer data types or page layouts than the op (TTNNWorkaroundsPass.cpp).

First the decompositions (ttnn_workaround_decompositions.py) rewrite ops a kernel cannot take as
they are; then the operand workarounds: an operand whose data type or page layout the op's kernel
does not take first goes through a `ttnn.to_tensor_spec` to one it does, and a result computed in
another goes through one back after the op, so the change stays local to the op, as HEAD's pass
leaves it (`ttnn-decompose-layouts` makes each a `ttnn.typecast` / `ttnn.to_layout`). RM is
row-major, TILE tiled:

| op | operands | results |
|---|---|---|
| `tanh` | bf16 | bf16 |
| `erf` of an integer | bf16 | bf16 |
| `where` | predicate of another type than the inputs: the inputs' type; all integer: f32 | f32 when integer |
| `reshape` of ui8 | si32 | si32 |
| `sum`, `mean`, `max`, `min` not on f32/bf16 | f32 | f32 |
| `prod` | bf16 | bf16 |
| `argmax` | RM | RM ui32 |
| `sort` | f32 -> bf16, integers but ui16 -> ui16 | values as the input; indices ui16 (ui32 past 65535 padded elements) |
| `topk` | not bf16/bfp_bf8 -> bf16 | values as the input; indices ui16 (ui32 past 65535 padded elements) |
| `permute` of a 32-bit integer | f32 | f32 |
| strided `slice_static` of an unsigned type under 32 bits | ui32 | ui32 |
| `slice_dynamic` | input RM (ui32 when unsigned under 32 bits), bounds ui32 | RM |
| `pad` with front padding | RM | RM |
| binary elementwise | ui8 -> si32 (bitwise: ui32; shifts: si32 unless 32-bit; divide / pow_tensor of integers: f32); TILE when either is RM | the same |
| `bitwise_not` | si32 when unsigned; TILE | the same |
| `embedding` | indices RM ui32, table RM bf16 | TILE bf16 |
| `embedding_bw` | indices RM ui32, table and gradient bf16 | bf16 |
| `max_pool2d`, `avg_pool2d`, `upsample` | RM bf16 | RM bf16 |
| `max_pool2d_with_indices` | RM bf16 | RM bf16, RM ui16 indices |
| `conv1d`, `conv2d`, `conv_transpose2d` | input RM (bf16 when bfp_bf8, only with the page layout) | |
| `conv3d` | input RM bf16, weight bf16, bias TILE bf16 | bf16 |
| `gather` | input and index TILE | |
| `rotary_embedding` | TILE | TILE |
| `group_norm` | input bf16, weight and bias RM bf16 | bf16 |
| `dropout` | bf16 | bf16 |
| `scaled_dot_product_attention`, `scaled_dot_product_attention_decode` | query, key, value, mask bf16 | bf16 |
| `sdpa_fw` (optimization level 0 only) | query, key, value, mask bf16 | output bf16, intermediates f32 |
| `sdpa_bw` | gradient, forward output, query, key, value, mask bf16; intermediates f32 | bf16 |
| `flash_mla_prefill` | query, key, value bf16 unless bf16 / bfp_bf8 / bfp_bf4; the mask likewise | as the query |
| `update_cache` | si32 update index -> ui32 | |
| `paged_update_cache`, `paged_fill_cache` | index / page table / batch index RM | |
| `paged_scaled_dot_product_attention_decode`, `chunked_scaled_dot_product_attention` | page table and positions RM | |
| `paged_flash_multi_latent_attention_decode` | page table RM si32, positions RM | |
| `sparse_matmul` | sparsity RM bf16 | |
| `sampling` | indices, p, temperature RM; k RM ui32 | RM ui32 |
| `topk_router_gpt` | | indices RM ui16, weights RM bf16, both L1 interleaved |
| `all_to_all_dispatch`, `all_to_all_combine`, `moe_expert_token_remap` | data RM bf16, indices and maps RM ui16 | the same |
| `all_to_all_dispatch_metadata` | input, scores RM bf16 and indices RM ui16, all L1 interleaved; mapping RM ui16 | dispatched RM bf16; indices RM ui16, scores RM bf16, both L1 height sharded |

At `ttnn-optimization-level` 1 and 2 the optimizer picks page layouts, so only the ops tt-mlir
lists (LAYOUTS_WITH_OPTIMIZER: embedding, sampling, sparse_matmul, conv3d, ...) keep their page-layout
changes there; the data-type changes apply at every level (but for `sdpa_fw`, which HEAD leaves to
its optimizer altogether) (tt-mlir's op-model validation makes
the same casts after its optimizer, which ttopt, without an op model, cannot ask).

Only device tensors change (host tensors, such as conv weights, are prepared by their op; the
decompositions move a conv's weight and bias there). A
row-major target of a block-float tensor is bf16 (block floats exist only as tiles). A tensor
moved to another buffer or memory layout keeps its grid, as tt-mlir's layout builder does: a DRAM
tensor (grid 1x1) moved to L1 interleaved holds all its pages in one row (`memref<1xN>`), one
sharded in L1 takes the grid when it suits the sharding, else one core.
`disable-workarounds=true` on the backend pipeline skips the pass; `ttnn-enable-layout-workaround-pass`
and `ttnn-enable-decomposition-workaround-pass` switch the two halves.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import ceil
from typing import TYPE_CHECKING, Any, Callable

from ttopt.device.device import Device, DeviceError, from_module_desc, preset
from ttopt.device.tensor import element_dtype
from ttopt.dialects.ttcore_attrs import DataType
from ttopt.dialects.ttnn import BINARY
from ttopt.dialects.ttnn_device import new_device
from ttopt.dialects.ttnn_layout import BufferType, TensorMemoryLayout, TTNNLayoutAttr
from ttopt.ir.diagnostics import Diagnostic, op_position
from ttopt.ir.operation import Operation
from ttopt.ir.properties import int_values
from ttopt.ir.types import TensorType
from ttopt.lowering.sdpa_decode_program_config import PAGED_SDPA_DECODE, set_program_configs
from ttopt.lowering.ttnn_workaround_decompositions import Decomposer
from ttopt.optimizer.analyses import current_layout
from ttopt.optimizer.rewrite import LayoutAliaser, update_function_type
from ttopt.passes.base import Pass
from ttopt.passes.options import option
from ttopt.passes.registry import register_pass

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.passes.context import PassContext

F32, BF16, U32, U16, U8, SI32 = DataType.F32, DataType.BF16, DataType.U32, DataType.U16, DataType.U8, DataType.SI32
FLOATS = frozenset({F32, BF16, DataType.BFP_BF8, DataType.BFP_BF4})
INTEGERS = frozenset({U32, U16, U8, SI32})
UINT16_MAX = 65535


@dataclass(frozen=True)
class To:
    """One tensor's workaround target: a data type, a page layout (tiled or row-major), or both; None
    keeps it. `for_layout`: the data type only serves the page layout (dropped with it)."""

    dtype: DataType | None = None
    tiled: bool | None = None
    for_layout: bool = False
    buffer: BufferType | None = None  # a page-layout change: moved to this memory (interleaved unless `memory`)
    memory: TensorMemoryLayout | None = None  # a page-layout change: this memory layout (in `buffer`, else the tensor's)


RM, TILE = To(tiled=False), To(tiled=True)
# Per op: (target per tensor operand, per result); a bare DataType changes only the data type, None nothing.
Target = DataType | To | None
Workaround = tuple[list[Target], list[Target]]


def _dtype(v: Any) -> DataType | None:
    t = v.type.resolve()
    return element_dtype(t) if isinstance(t, TensorType) else None


def _tiled(v: Any) -> bool | None:
    lay = current_layout(v.type)
    return None if lay is None else lay.is_tiled


def _same(dt: Target, n_in: int = 1, n_out: int = 1) -> Workaround:
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
    return [RM], [To(U32, tiled=False)]


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
    # Elementwise kernels read tiles: a row-major operand tiles both operands and the result.
    tile = True if any(_tiled(v) is False for v in op.operands[:2]) else None
    return _same(To(target, tile), 2, 1)


def _bitwise_not(op: Operation) -> Workaround:
    return _same(To(SI32 if _dtype(op.operands[0]) in (U8, U16, U32) else None, True if _tiled(op.operands[0]) is False else None))


def _embedding(op: Operation) -> Workaround:
    return [To(U32, tiled=False), To(BF16, tiled=False)], [To(BF16, tiled=True)]


def _embedding_bw(op: Operation) -> Workaround:
    return [To(U32, tiled=False), BF16, BF16], [BF16]


def _bf16(op: Operation) -> Workaround:
    return _same(BF16)


def _row_major_bf16(op: Operation) -> Workaround:
    """Pooling and upsample: their kernels write row-major, so both ends run row-major in bf16."""
    return _same(To(BF16, tiled=False))


def _max_pool2d_with_indices(op: Operation) -> Workaround:
    return [To(BF16, tiled=False)], [To(BF16, tiled=False), To(U16, tiled=False)]


def _conv(op: Operation) -> Workaround:
    """Conv activations row-major (tt-metal's advice for large inputs); a bfp_bf8 one through bf16."""
    return [To(BF16 if _dtype(op.operands[0]) is DataType.BFP_BF8 else None, tiled=False, for_layout=True)], []


def _conv3d(op: Operation) -> Workaround:
    return [To(BF16, tiled=False), BF16, To(BF16, tiled=True)], [BF16]


def _gather(op: Operation) -> Workaround:
    return [TILE, TILE], []


def _pad(op: Operation) -> Workaround:
    """tt-metal pads tiles only at the back: front padding runs row-major."""
    front = any(v for v in (int_values(op.properties.get("padding")) or ())[0::2])
    return _same(RM if front and _tiled(op.operands[0]) else None)


def _slice_dynamic(op: Operation) -> Workaround:
    small = To(U32) if _dtype(op.operands[0]) in (U16, U8) else To()
    return [To(small.dtype, tiled=False), U32, U32], [To(small.dtype, tiled=False)]


def _rotary_embedding(op: Operation) -> Workaround:
    return _same(TILE, 3, 1)


def _group_norm(op: Operation) -> Workaround:
    seg = list(int_values(op.properties.get("operandSegmentSizes")) or (1, 0, 0, 0))
    return [BF16] + [None] * seg[1] + [To(BF16, tiled=False)] * (seg[2] + seg[3]), [BF16]


def _sparse_matmul(op: Operation) -> Workaround:
    return [None, None, To(BF16, tiled=False)], []


def _sampling(op: Operation) -> Workaround:
    return [None, RM, To(U32, tiled=False), RM, RM], [To(U32, tiled=False)]


def _paged_cache(op: Operation) -> Workaround:
    """paged_update_cache / paged_fill_cache: cache, input, then indices / page table / batch index row-major."""
    return [None, None, RM, RM], []


def _paged_mla_decode(op: Operation) -> Workaround:
    """Page table row-major si32, current positions row-major (q, k, v?, page_table, mask?, cur_pos?, sink?)."""
    seg = list(int_values(op.properties.get("operandSegmentSizes")) or (1, 1, 0, 1, 0, 0, 0))
    ins: list[Target] = [None, None]
    for n, target in zip(seg[2:], (None, To(SI32, tiled=False), None, RM, None)):
        ins += [target] * n
    return ins, []


def _paged_sdpa_decode(op: Operation) -> Workaround:
    """Page table and current positions row-major (operands: q, k, v, page_table?, mask?, cur_pos?, sink?)."""
    seg = list(int_values(op.properties.get("operandSegmentSizes")) or (1, 1, 1, 0, 0, 0, 0))
    ins: list[Target] = [None, None, None]
    for n, target in zip(seg[3:], (RM, None, RM, None)):
        ins += [target] * n
    return ins, []


_RM_BF16, _RM_U16 = To(BF16, tiled=False), To(U16, tiled=False)


def _moe_ccl(op: Operation) -> Workaround:
    """all_to_all_dispatch / combine, moe_expert_token_remap: data row-major bf16, indices and maps row-major ui16."""
    outs: dict[str, list[Target]] = {"ttnn.all_to_all_dispatch": [_RM_BF16, _RM_U16], "ttnn.all_to_all_combine": [_RM_BF16],
                                     "ttnn.moe_expert_token_remap": [_RM_BF16, _RM_U16]}  # fmt: skip
    return [_RM_BF16, _RM_U16, _RM_U16], outs[op.name]


_L1_RM_BF16, _L1_RM_U16 = (To(dt, tiled=False, buffer=BufferType.L1, memory=TensorMemoryLayout.INTERLEAVED) for dt in (BF16, U16))
_DRAIN_RM_BF16, _DRAIN_RM_U16 = (To(dt, tiled=False, buffer=BufferType.L1, memory=TensorMemoryLayout.HEIGHT_SHARDED) for dt in (BF16, U16))


def _dispatch_metadata(op: Operation) -> Workaround:
    """all_to_all_dispatch_metadata: input, indices and scores row-major in L1 interleaved, the mapping
    row-major ui16 (the bound output buffers as they are); the kernel writes the dispatched tokens
    row-major bf16 and the gathered indices and scores height sharded in L1 (its drain core)."""
    return [_L1_RM_BF16, _L1_RM_U16, _L1_RM_BF16, _RM_U16], [_RM_BF16, _DRAIN_RM_U16, _DRAIN_RM_BF16]


def _topk_router_gpt(op: Operation) -> Workaround:
    """The router kernel writes its indices (ui16) and weights (bf16) row-major in L1."""
    return [], [To(U16, tiled=False, buffer=BufferType.L1), To(BF16, tiled=False, buffer=BufferType.L1)]


def _chunked_sdpa(op: Operation) -> Workaround:
    return [None, None, None, RM, RM], []


def _sdpa(op: Operation) -> Workaround:
    seg = list(int_values(op.properties.get("operandSegmentSizes")) or (1, 1, 1, 0, 0))
    ins: list[Target] = [BF16] * 3 + [BF16] * seg[3] + [None] * seg[4]
    return ins, [BF16]


def _sdpa_fw(op: Operation) -> Workaround:
    """The ttml forward kernel: query, key, value, mask and output bf16, log-sum-exp intermediates f32."""
    return [BF16] * len(op.operands), [BF16, F32]


def _sdpa_bw(op: Operation) -> Workaround:
    """The ttml backward kernel: gradient, forward output, query, key, value, mask and the three
    gradients bf16, the log-sum-exp intermediates (operand 5) f32."""
    ins: list[Target] = [BF16] * len(op.operands)
    ins[5] = F32
    return ins, [BF16] * 3


def _sdpa_decode(op: Operation) -> Workaround:
    """Query, key, value and mask bf16 (operands: q, k, v, mask?, cur_pos?, sink?)."""
    seg = list(int_values(op.properties.get("operandSegmentSizes")) or (1, 1, 1, 0, 0, 0))
    ins: list[Target] = [BF16] * (3 + seg[3]) + [None] * sum(seg[4:])
    return ins, [BF16]


SDPA_DTYPES = frozenset({BF16, DataType.BFP_BF8, DataType.BFP_BF4})


def _flash_mla_prefill(op: Operation) -> Workaround:
    """Query, key, value and the result bf16 unless already an SDPA data type; the mask on its own."""
    seg = list(int_values(op.properties.get("operandSegmentSizes")) or (1, 1, 0, 0))
    qkv = None if _dtype(op.operands[0]) in SDPA_DTYPES else BF16
    ins: list[Target] = [qkv] * (2 + seg[2])
    if seg[3]:
        ins.append(None if _dtype(op.operands[2 + seg[2]]) in SDPA_DTYPES else BF16)
    return ins, [qkv]


def _update_cache(op: Operation) -> Workaround:
    ins: list[Target] = [None] * len(op.operands)
    if len(op.operands) >= 3 and _dtype(op.operands[2]) is SI32:
        ins[2] = U32
    return ins, [None] * len(op.results)


WORKAROUNDS: dict[str, Callable[[Operation], Workaround]] = {
    "ttnn.tanh": _tanh, "ttnn.erf": _erf, "ttnn.where": _where, "ttnn.reshape": _reshape,
    **{f"ttnn.{n}": _reduction for n in ("sum", "mean", "max", "min")},
    "ttnn.prod": _prod, "ttnn.argmax": _argmax, "ttnn.sort": _sort, "ttnn.topk": _topk, "ttnn.permute": _permute,
    "ttnn.slice_static": _slice_static, **{f"ttnn.{n}": _binary for n in (*BINARY, "gelu_bw")},
    "ttnn.bitwise_not": _bitwise_not, "ttnn.embedding": _embedding, "ttnn.embedding_bw": _embedding_bw,
    "ttnn.upsample": _row_major_bf16, "ttnn.max_pool2d": _row_major_bf16, "ttnn.avg_pool2d": _row_major_bf16,
    "ttnn.max_pool2d_with_indices": _max_pool2d_with_indices, "ttnn.dropout": _bf16,
    "ttnn.scaled_dot_product_attention": _sdpa, "ttnn.update_cache": _update_cache,
    "ttnn.scaled_dot_product_attention_decode": _sdpa_decode, "ttnn.flash_mla_prefill": _flash_mla_prefill,
    "ttnn.conv1d": _conv, "ttnn.conv2d": _conv, "ttnn.conv_transpose2d": _conv, "ttnn.conv3d": _conv3d,
    "ttnn.gather": _gather, "ttnn.pad": _pad, "ttnn.slice_dynamic": _slice_dynamic,
    "ttnn.rotary_embedding": _rotary_embedding, "ttnn.group_norm": _group_norm, "ttnn.sparse_matmul": _sparse_matmul,
    "ttnn.sampling": _sampling, "ttnn.paged_update_cache": _paged_cache, "ttnn.paged_fill_cache": _paged_cache,
    "ttnn.paged_flash_multi_latent_attention_decode": _paged_mla_decode, "ttnn.topk_router_gpt": _topk_router_gpt,
    "ttnn.paged_scaled_dot_product_attention_decode": _paged_sdpa_decode,
    "ttnn.chunked_scaled_dot_product_attention": _chunked_sdpa, "ttnn.sdpa_fw": _sdpa_fw, "ttnn.sdpa_bw": _sdpa_bw,
    **{f"ttnn.{n}": _moe_ccl for n in ("all_to_all_dispatch", "all_to_all_combine", "moe_expert_token_remap")},
    "ttnn.all_to_all_dispatch_metadata": _dispatch_metadata,
}  # fmt: skip

# The ops whose page-layout workarounds also apply when the optimizer runs (optimization level >= 1):
# for the others tt-mlir's layout optimizer picks the page layout (TTNNWorkaroundsPatterns.cpp,
# enabledOpsForWorkaroundWithOptimizer).
LAYOUTS_WITH_OPTIMIZER = frozenset(f"ttnn.{n}" for n in (
    "where", "full", "embedding", "scatter", "topk", "flash_mla_prefill", "scaled_dot_product_attention",
    "scaled_dot_product_attention_decode", "prepare_moe_compute_w0w1_weights", "prepare_moe_compute_w2_weights",
    "moe_compute", "conv3d", "sampling", "all_to_all_dispatch", "all_to_all_dispatch_metadata", "all_to_all_combine",
    "moe_expert_token_remap", "sparse_matmul", "sdpa_bw"))  # fmt: skip

# Ops whose workarounds, data types too, apply only at optimization level 0: tt-mlir leaves them to
# its optimizer (not in enabledOpsForWorkaroundWithOptimizer), and ttopt's conversion already
# types them for their kernels (ttnn_sdpa_training.py), so only hand-written TTNN reaches the rule.
UNOPTIMIZED_ONLY = frozenset({"ttnn.sdpa_fw"})


class _Caster:
    """Builds `ttnn.to_tensor_spec`s to another data type or page layout with the same memory
    otherwise (HEAD's form; ttnn-decompose-layouts makes each a ttnn.typecast / to_layout)."""

    def __init__(self, module: Any) -> None:
        self.aliaser = LayoutAliaser(module)
        self.module = module
        self._chip: Device | None = None

    def chip(self) -> Device:
        """The module's chip (its system desc's, wormhole_b0 without one), read once; a bad desc is an error at it."""
        if self._chip is None:
            try:
                self._chip = from_module_desc(self.module) or preset("wormhole_b0")
            except DeviceError as e:
                raise Diagnostic(f"ttnn-workaround: {e.message}", e.pos or op_position(self.module.source, self.module.op)) from None
        return self._chip

    def worker_grid(self) -> tuple[int, int]:
        """The worker grid of the module's chip."""
        g = self.chip().worker_grid
        return (g[0], g[1])

    def retyped(self, t: TensorType, to: To) -> TensorType | None:
        """`t` changed as `to` says, None when `t` is not a device tensor or is that already."""
        lay = current_layout(t)
        if lay is None or lay.buffer_type is BufferType.SYSTEM_MEMORY:
            return None
        dtype = to.dtype if to.dtype is not None and to.dtype is not lay.dtype else None
        tiled = to.tiled if to.tiled is not None and to.tiled != lay.is_tiled else None
        buffer = to.buffer if to.buffer is not None and to.buffer is not lay.buffer_type else None
        memory = to.memory if to.memory is not None and to.memory is not lay.memory_layout else None
        if dtype is None and tiled is None and buffer is None and memory is None:
            return None
        if tiled is False and (dtype or lay.dtype).builtin is None:
            dtype = BF16  # block floats exist only as tiles: row-major in bf16, as HEAD's conv workaround takes them
        shape = tuple(int(d) for d in t.shape or () if d is not None)
        if buffer is None and memory is None:
            return self.aliaser.tensor_type(t, lay.relayout(shape, dtype=dtype, tiled=tiled))
        return self.aliaser.tensor_type(t, self._moved(lay, shape, buffer or lay.buffer_type, memory or lay.memory_layout, dtype, tiled))

    def _moved(self, lay: TTNNLayoutAttr, shape: tuple[int, ...], buffer: BufferType, memory: TensorMemoryLayout | None,
               dtype: DataType | None, tiled: bool | None) -> TTNNLayoutAttr:  # fmt: skip
        """`lay` in another buffer or memory layout on its own grid, as tt-mlir's layout builder
        keeps it: L1 interleaved spreads the tensor over that grid (a DRAM tensor's 1x1: one row of
        all its pages), a sharded layout shards over it (one core when the grid cannot take that
        sharding)."""
        memory = memory or TensorMemoryLayout.INTERLEAVED
        if buffer is not BufferType.L1 or not memory.is_sharded:
            return lay.relayout(shape, buffer_type=buffer, memory_layout=memory, dtype=dtype, tiled=tiled, worker_grid=lay.grid)
        gy, gx = lay.grid
        wy, wx = self.worker_grid()
        fits = {TensorMemoryLayout.HEIGHT_SHARDED: gx == 1 and gy <= wy * wx, TensorMemoryLayout.WIDTH_SHARDED: gy == 1 and gx <= wy * wx,
                TensorMemoryLayout.BLOCK_SHARDED: gy <= wy and gx <= wx}.get(memory, False)  # fmt: skip
        return lay.relayout(shape, buffer_type=buffer, memory_layout=memory, grid=lay.grid if fits else (1, 1), dtype=dtype,
                            tiled=tiled, worker_grid=(wy, wx))  # fmt: skip

    def cast(self, v: Any, t: TensorType, anchor: Operation) -> Operation:
        op = Operation("ttnn.to_tensor_spec", [v], [t], location=anchor.location)
        op.pos = anchor.pos
        return op


def target_dtype(target: Target) -> DataType | None:
    """The data type a workaround target asks for (None: the tensor's own)."""
    return target.dtype if isinstance(target, To) else target


def _target(target: Target, layouts: bool) -> To:
    to = target if isinstance(target, To) else To(dtype=target)
    return to if layouts else To(dtype=None if to.for_layout else to.dtype)  # page layout and memory dropped


def _apply(op: Operation, caster: _Caster, before: list[Operation], after: list[Operation], level: int) -> bool:
    rule = WORKAROUNDS.get(op.name)
    if rule is None or (level and op.name in UNOPTIMIZED_ONLY):
        return False
    ins, outs = rule(op)
    layouts = level == 0 or op.name in LAYOUTS_WITH_OPTIMIZER
    changed = False
    tensors = [i for i, v in enumerate(op.operands) if isinstance(v.type.resolve(), TensorType)]
    for i, target in zip(tensors, ins):
        v = op.operands[i]
        t = caster.retyped(v.type.resolve(), _target(target, layouts))
        if t is None:
            continue
        cast = caster.cast(v, t, op)
        before.append(cast)
        op.set_operand(i, cast.results[0])
        changed = True
    for r, target in zip(op.results, outs):
        old = r.type.resolve()
        if not isinstance(old, TensorType):
            continue
        t = caster.retyped(old, _target(target, layouts))
        if t is None:
            continue
        r.type = t
        cast = caster.cast(r, old, op)
        r.replace_all_uses_with(cast.results[0], except_in=cast)
        # HEAD inserts each result's cast right after the op, so the last result's comes first.
        after.insert(0, cast)
        changed = True
    return changed


def apply_workarounds(module: Module, level: int = 0, operands: bool = True, decompositions: bool = True) -> dict[str, int]:
    """Apply the workarounds to every function of `module` as at optimization `level`: first the
    decompositions, then the operand data types and page layouts (of the new ops too), each under
    its switch; how many ops of each kind changed."""
    caster = _Caster(module)
    counts: dict[str, int] = {}
    changed: set[int] = set()

    def count(op: Operation) -> None:  # an op decomposed and then given operand workarounds is one op changed
        if id(op) not in changed:
            changed.add(id(op))
            counts[op.name] = counts.get(op.name, 0) + 1

    for func in module.functions():
        if not func.regions or not func.regions[0].blocks:
            continue
        for block in func.regions[0].blocks:
            ops = block.ops
            if decompositions:
                ops = _decomposed(module, block, caster, count)
            if operands:
                out: list[Operation] = []
                for op in ops:
                    before: list[Operation] = []
                    after: list[Operation] = []
                    if _apply(op, caster, before, after, level):
                        count(op)
                    out.extend(before)
                    out.append(op)
                    out.extend(after)
                ops = out
            for op in ops:
                op.parent = block
            block.ops = ops
        update_function_type(func)
    if decompositions:
        chip = caster.chip()
        configured = set_program_configs(module, chip.arch, caster.worker_grid())
        if configured:
            counts[PAGED_SDPA_DECODE] = counts.get(PAGED_SDPA_DECODE, 0) + configured
    return counts


def _decomposed(module: Module, block: Any, caster: _Caster, count: Callable[[Operation], None]) -> list[Operation]:
    """`block`'s ops with the decompositions applied (a ttnn.get_device first when one needs it)."""
    found = next((o for o in block.ops if o.name == "ttnn.get_device" and not o.operands), None)
    made: list[Operation] = []

    def device() -> Any:
        if found is not None:
            return found.results[0]
        if not made:
            made.append(new_device(module))
        return made[0].results[0]

    decomposer = Decomposer(caster.aliaser, device, lambda: caster.chip().l1_per_core)  # L1 above the reserved base
    out: list[Operation] = []
    for op in block.ops:
        try:
            rewrite = decomposer.rewrite(op)
        except ValueError as e:
            raise Diagnostic(f"'{op.name}' op {e}", op_position(module.source, op)) from None
        if rewrite is None:
            out.append(op)
            continue
        count(op)
        out.extend(rewrite[0])
        if rewrite[1] is not None:
            out.append(op)
            out.extend(rewrite[1])
    return made + out


@register_pass
@dataclass
class TTNNWorkaround(Pass):
    """Convert the operands and results of TTNN ops whose kernels take fewer data types or page layouts (HEAD's workarounds)."""

    name = "ttnn-workaround"
    summary = "TTNN workarounds: to_tensor_spec data-type and page-layout changes around ops whose tt-metal kernels take fewer (tanh, embedding, pooling, argmax, conv, ...)"

    ttnn_enable_layout_workaround_pass: bool = option(True, "Apply the operand workarounds (data types and page layouts of operands and results)")
    ttnn_enable_decomposition_workaround_pass: bool = option(True, "Apply the decomposition workarounds (decode attention sink, decode mask heads, SDPA head dim padded to tiles, bilinear upsample pad, si32 gather, rank-1 gather, embedding table of rank > 4, rank-2 sampling, cache-fill pad, integer prod, rank-1 all_gather, slice past L1, conv weight and bias to the host, linear with a non-row bias, Blackhole paged SDPA decode program config)")
    ttnn_optimization_level: int = option(0, "The pipeline's optimization level: from 1 the optimizer picks page layouts, so only the ops tt-mlir lists get page-layout workarounds")

    def run(self, module: Module, ctx: PassContext) -> None:
        counts = apply_workarounds(module, self.ttnn_optimization_level, self.ttnn_enable_layout_workaround_pass,
                                   self.ttnn_enable_decomposition_workaround_pass)  # fmt: skip
        ctx.stats.setdefault(self.name, {}).update(counts)
