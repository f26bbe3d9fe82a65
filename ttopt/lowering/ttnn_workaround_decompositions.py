"""The decompositions `ttnn-workaround` applies before its operand workarounds: TTNN ops whose
tt-metal kernels cannot take a shape or value range are rewritten into ops that can
(TTNNWorkaroundsPatterns.cpp and Workarounds/Decomposition/):

| op | rewrite |
|---|---|
| `scaled_dot_product_attention_decode` with a [B, Hq, 1, 1] attention sink | the sink sliced to its first batch entry (B > 1), reshaped to [Hq, 1] and zero-padded to the [Hq, 32] tile the kernel reads |
| `scaled_dot_product_attention` whose head dim is not whole tiles | query, key and value zero-padded to whole tiles along it, the result sliced back |
| `scaled_dot_product_attention_decode` with a [B or 1, 1, 1, Sk] mask and more than one query head | the mask repeated to the query's heads (the kernel broadcasts its batch, not its heads) |
| bilinear `upsample` whose channels are not a multiple of 32 | the input zero-padded to whole tiles of channels, the result sliced back |
| rank-1 `gather` | input and index reshaped to [1, n], the gather on dim + 1 (a negative dim as it is), its result reshaped back |
| `embedding` with a table of rank > 4 (leading dims 1) | the table reshaped to [1, 1, rows, width] |
| `sampling` of rank-2 values and indices | both reshaped to [1, 1, B, V], the [1, 1, 1, B] result reshaped to [B] |
| `fill_cache`, `paged_fill_cache` of a sequence that is not whole tiles | the input zero-padded to whole tiles along dim -2 (not past a `fill_cache` cache's length) |
| rank-1 `all_gather` | on [1, n] between two reshapes, its dimension moved by one |
| integer `prod` over one dimension of at most 16 | a chain of `multiply`s of its slices (the kernel computes in bf16) |
| `gather` with an si32 index | the index clamped at 0 and cast to ui32; lanes whose index was negative read NaN (integers: INT32_MIN) through a `where` (the fill mode JAX's gather has) |
| `conv1d`, `conv2d`, `conv_transpose2d` | the weight and bias moved to the host row-major (a bfp_bf8 one as bf16) for tt-metal to prepare, unless they are there; a row-major result tiled |
| `linear` with a bias that is not one row of the output's features (or a batched weight) | `matmul` (tt-metal's output shape) + `add` of the bias, a `reshape` to the linear's shape when the add's differs, the activation (relu / sigmoid / gelu / tanh / silu) as its own op; the matmul keeps the compute config and `ttcore.weight_dtype` |
| `paged_scaled_dot_product_attention_decode` on Blackhole | tt-metal's paged-decode program config with `exp_approx_mode = false` (sdpa_decode_program_config.py; applied to the whole module) |
| `slice_static` whose output rows would not fit L1 twice | between two `permute`s swapping the last dim with the nearest one whose rows fit, the slice's bounds permuted alike |

The slice's rule reads the chip's usable L1 (`l1_size - l1_unreserved_base` of the module's system desc,
wormhole_b0's without one): the slice kernel double-buffers one output row of the last dim in a
circular buffer, so a row of more than half of L1 fails in tt-metal.

Each rule returns the ops to put before and after the op (which it may rewire), or None. The new
ops are TTNN ops like any other: the operand workarounds then apply to them too.
"""

from __future__ import annotations

from math import ceil, sqrt
from typing import Any, Callable

from ttopt.device.tensor import element_dtype
from ttopt.dialects.ttcore_attrs import DataType
from ttopt.dialects.ttir import broadcast_shape
from ttopt.dialects.ttnn_layout import TTNNLayoutAttr
from ttopt.ir.attributes import ArrayAttr, BoolAttr, DenseArrayAttr, DialectAttr, FloatAttr, IntegerAttr, mlir_float_attr
from ttopt.ir.location import suffixed_location
from ttopt.ir.operation import Operation
from ttopt.ir.properties import int_values
from ttopt.ir.types import ScalarType, TensorType
from ttopt.lowering.ttnn_linear import bias_stays_fused, matmul_shape
from ttopt.optimizer.analyses import current_layout
from ttopt.optimizer.rewrite import LayoutAliaser

TILE_WIDTH = 32
INTEGER_DTYPES = frozenset({DataType.SI32, DataType.U32, DataType.U16, DataType.U8})
INT32_MIN = -(2**31)
F32, I32, SI32 = ScalarType("f32"), ScalarType("i32"), ScalarType("si32")

# (ops before, ops after) the decomposed op; after is None when the ops before replace it (its
# results' uses rewired to them and its operands dropped).
Rewrite = tuple[list[Operation], list[Operation] | None]
MAX_PROD_UNROLL = 16
LINEAR_ACTIVATIONS = frozenset({"relu", "sigmoid", "gelu", "tanh", "silu"})  # the ops a decomposed linear's activation becomes


def _i32s(values: tuple[int, ...]) -> ArrayAttr:
    return ArrayAttr(tuple(IntegerAttr(v, I32) for v in values))


def _flag(attr: Any) -> bool:
    return bool(getattr(attr.resolve(), "value", False))


def _typed(v: Any) -> tuple[TensorType, TTNNLayoutAttr, tuple[int, ...]] | None:
    """`v`'s tensor type, TTNN layout and static shape (None without a layout)."""
    lay = current_layout(v.type)
    if lay is None:
        return None
    t = v.type.resolve()
    return t, lay, tuple(int(d) for d in t.shape or ())


def _chained(op: Operation, *rules: Callable[[Operation], Rewrite | None]) -> Rewrite | None:
    """`rules` applied in turn to `op` (each rewiring it in place, none replacing it): the ops
    before it in order, those after it innermost first."""
    before: list[Operation] = []
    after: list[Operation] = []
    fired = False
    for rule in rules:
        rewrite = rule(op)
        if rewrite is None:
            continue
        assert rewrite[1] is not None, "a chained rule keeps the op"
        fired = True
        before += rewrite[0]
        after = rewrite[1] + after
    return (before, after) if fired else None


class Decomposer:
    """Builds the new ops of one function's decompositions (types through the module's layout aliases)."""

    def __init__(self, aliaser: LayoutAliaser, device: Callable[[], Any], usable_l1: Callable[[], int]) -> None:
        self.aliaser = aliaser
        self.device = device  # the function's ttnn.get_device result, made on first use
        self.usable_l1 = usable_l1  # L1 bytes per core above the reserved base, read on first use

    def new(self, name: str, operands: list[Any], like: TensorType, lay: TTNNLayoutAttr, shape: tuple[int, ...],
            props: dict[str, Any], anchor: Operation, dtype: DataType | None = None) -> Operation:  # fmt: skip
        """A `name` op of result `shape` laid out as `lay` (in `dtype` if given), at `anchor`'s place."""
        layout = lay.relayout(shape, dtype=dtype)
        # The element type the layout's data type names (si32 for a signless i32), as tt-mlir's type factory builds it.
        element = ScalarType(layout.dtype.builtin) if layout.dtype.builtin is not None else like.element_type
        op = Operation(name, operands, [self.aliaser.tensor_type(TensorType(shape, element), layout)],
                       properties={k: mlir_float_attr(a) for k, a in props.items()}, location=anchor.location)  # fmt: skip
        op.pos = anchor.pos
        return op

    def decode_sink(self, op: Operation) -> Rewrite | None:
        """Feed a 4-D [B, Hq, 1, 1] decode sink as the [Hq, 32] tile the decode kernel reads."""
        seg = list(int_values(op.properties.get("operandSegmentSizes")) or ())
        if len(seg) != 6 or not seg[5]:
            return None
        typed = _typed(op.operands[sum(seg[:5])])
        if typed is None or len(typed[2]) != 4 or typed[2][2:] != (1, 1):
            return None
        t, lay, shape = typed
        heads = shape[1]
        before: list[Operation] = []
        sink = op.operands[sum(seg[:5])]

        def step(name: str, out: tuple[int, ...], props: dict[str, Any]) -> None:
            nonlocal sink
            before.append(self.new(name, [sink], t, lay, out, props, op))
            sink = before[-1].results[0]

        if shape[0] != 1:  # one sink per head, the same for every batch entry
            step("ttnn.slice_static", (1, heads, 1, 1), {"begins": _i32s((0, 0, 0, 0)), "ends": _i32s((1, heads, 1, 1)), "step": _i32s((1, 1, 1, 1))})
        step("ttnn.reshape", (heads, 1), {"shape": _i32s((heads, 1))})
        step("ttnn.pad", (heads, TILE_WIDTH), {"padding": DenseArrayAttr("i32", (0, 0, 0, TILE_WIDTH - 1)),
                                               "value": FloatAttr(0.0, F32), "use_multicore": BoolAttr(True)})  # fmt: skip
        op.set_operand(sum(seg[:5]), sink)
        return before, []

    def sdpa_head_pad(self, op: Operation) -> Rewrite | None:
        """tt-metal's SDPA needs a head dim of whole tiles (its logical and padded last dims equal):
        query, key and value zero-padded to whole tiles along it, the result sliced back (HEAD's
        ScaledDotProductAttentionPadTileDimsRewritePattern; the sequence dims tt-metal pads itself).
        Without a scale attribute the op gets the unpadded one, 1/sqrt(D): the kernel's default
        would read the padded D (HEAD leaves it unset, and so scales by the padded D)."""
        if len(op.operands) < 3:
            return None
        q, k, v, out = (_typed(x) for x in (*op.operands[:3], op.results[0]))
        if q is None or k is None or v is None or out is None or not q[2]:
            return None
        head = q[2][-1]
        if head % TILE_WIDTH == 0:
            return None
        padded = ceil(head / TILE_WIDTH) * TILE_WIDTH
        before: list[Operation] = []
        for i, (t, lay, shape) in enumerate((q, k, v)):
            padding = [0] * (2 * len(shape))
            padding[-1] = padded - shape[-1]
            before.append(self.new("ttnn.pad", [op.operands[i]], t, lay, (*shape[:-1], padded),
                                   {"padding": DenseArrayAttr("i32", tuple(padding)), "value": FloatAttr(0.0, F32),
                                    "use_multicore": BoolAttr(True)}, op))  # fmt: skip
            op.set_operand(i, before[-1].results[0])
        if op.properties.get("scale") is None:
            op.properties["scale"] = FloatAttr(1.0 / sqrt(head), F32)
            op.properties = dict(sorted(op.properties.items()))
        (ot, olay, oshape), r = out, op.results[0]
        wide = (*oshape[:-1], padded)
        r.type = self.aliaser.tensor_type(TensorType(wide, ot.element_type), olay.relayout(wide))
        cut = self.new("ttnn.slice_static", [r], ot, olay, oshape,
                       {"begins": _i32s((0,) * len(oshape)), "ends": _i32s(oshape), "step": _i32s((1,) * len(oshape))}, op)  # fmt: skip
        cut.results[0].type = ot
        r.replace_all_uses_with(cut.results[0], except_in=cut)
        return before, [cut]

    def decode_mask_heads(self, op: Operation) -> Rewrite | None:
        """A decode mask [B or 1, 1, 1, Sk] repeated to the query's heads: tt-metal broadcasts its
        batch but not its heads (tt-metal#39946; HEAD's
        ScaledDotProductAttentionDecodeBroadcastMaskRewritePattern)."""
        seg = list(int_values(op.properties.get("operandSegmentSizes")) or ())
        if len(seg) != 6 or not seg[3]:
            return None
        q, mask = _typed(op.operands[0]), _typed(op.operands[3])
        if q is None or mask is None or len(q[2]) != 4 or len(mask[2]) != 4:
            return None
        heads = q[2][2]
        t, lay, shape = mask
        if shape[2] != 1 or heads <= 1:
            return None
        dims = (1, 1, heads, 1)
        repeat = self.new("ttnn.repeat", [op.operands[3]], t, lay, (*shape[:2], heads, shape[3]),
                          {"repeat_dims": DialectAttr("ttnn.shape", "x".join(map(str, dims)))}, op)  # fmt: skip
        op.set_operand(3, repeat.results[0])
        return [repeat], []

    def sdpa_decode(self, op: Operation) -> Rewrite | None:
        """The attention-sink rewrite, then the mask-heads one."""
        return _chained(op, self.decode_sink, self.decode_mask_heads)

    def upsample_bilinear(self, op: Operation) -> Rewrite | None:
        """Bilinear upsample reads whole tiles of channels: pad them to a multiple of 32, slice after."""
        mode = op.properties.get("mode")
        typed, out = _typed(op.operands[0]), _typed(op.results[0])
        if getattr(mode.resolve() if mode is not None else None, "value", None) != "bilinear" or typed is None or out is None:
            return None
        (t, lay, shape), (ot, olay, oshape) = typed, out
        if len(shape) != 4 or shape[3] % TILE_WIDTH == 0:
            return None
        padded = ceil(shape[3] / TILE_WIDTH) * TILE_WIDTH
        pad = self.new("ttnn.pad", [op.operands[0]], t, lay, (*shape[:3], padded),
                       {"padding": DenseArrayAttr("i32", (0,) * 7 + (padded - shape[3],)), "value": FloatAttr(0.0, F32),
                        "use_multicore": BoolAttr(False)}, op)  # fmt: skip
        op.set_operand(0, pad.results[0])
        r = op.results[0]
        wide = (*oshape[:3], padded)
        r.type = self.aliaser.tensor_type(TensorType(wide, ot.element_type), olay.relayout(wide))
        cut = self.new("ttnn.slice_static", [r], ot, olay, oshape,
                       {"begins": _i32s((0,) * 4), "ends": _i32s(oshape), "step": _i32s((1,) * 4)}, op)  # fmt: skip
        cut.results[0].type = ot
        r.replace_all_uses_with(cut.results[0], except_in=cut)
        return [pad], [cut]

    def gather_si32(self, op: Operation) -> Rewrite | None:
        """An si32 gather index clamped at 0 and read as ui32; a negative one reads the fill value."""
        index, out = _typed(op.operands[1]), _typed(op.results[0])
        if index is None or out is None or element_dtype(index[0]) is not DataType.SI32:
            return None
        (it, ilay, ishape), (ot, olay, oshape) = index, out
        out_dtype = element_dtype(ot)
        if out_dtype is None:
            return None
        device = self.device()
        zero = self.new("ttnn.full", [device], it, ilay, ishape,
                        {"shape": DialectAttr("ttnn.shape", "x".join(map(str, ishape))), "fill_value": IntegerAttr(0, I32)}, op)  # fmt: skip
        mask = self.new("ttnn.lt", [op.operands[1], zero.results[0]], ot, ilay, ishape, {}, op, dtype=out_dtype)
        safe = self.new("ttnn.maximum", [op.operands[1], zero.results[0]], it, ilay, ishape, {}, op)
        unsigned = self.new("ttnn.to_tensor_spec", [safe.results[0]], it, ilay, ishape, {}, op, dtype=DataType.U32)
        op.set_operand(1, unsigned.results[0])
        floating = out_dtype.builtin is not None and out_dtype.builtin.startswith(("f", "bf"))
        fill_value = FloatAttr(float("nan"), F32) if floating or out_dtype.builtin is None else IntegerAttr(INT32_MIN, I32)
        fill = self.new("ttnn.full", [device], ot, olay, oshape,
                        {"shape": DialectAttr("ttnn.shape", "x".join(map(str, oshape))), "fill_value": fill_value}, op)  # fmt: skip
        r = op.results[0]
        where = self.new("ttnn.where", [mask.results[0], fill.results[0], r], ot, olay, oshape, {}, op)
        where.results[0].type = ot
        r.replace_all_uses_with(where.results[0], except_in=where)
        return [zero, mask, safe, unsigned], [fill, where]

    def gather_rank1(self, op: Operation) -> Rewrite | None:
        """tt-metal's gather needs rank >= 2 (tt-metal#45155): a rank-1 input and index gain a leading
        unit dim, the gather runs on dim + 1 (a negative dim as it is), its result is reshaped back
        (HEAD's GatherOpRank1RewritePattern)."""
        x, index, out = _typed(op.operands[0]), _typed(op.operands[1]), _typed(op.results[0])
        dim = op.properties.get("dim")
        d = getattr(dim.resolve() if dim is not None else None, "value", None)
        if x is None or index is None or out is None or len(x[2]) != 1 or not isinstance(d, int):
            return None
        before: list[Operation] = []
        for i, (t, lay, shape), suffix in ((0, x, "_input_reshape"), (1, index, "_index_reshape")):
            before.append(self.new("ttnn.reshape", [op.operands[i]], t, lay, (1, *shape), {"shape": _i32s((1, *shape))}, op))
            before[-1].location = suffixed_location(op.location, suffix)
            op.set_operand(i, before[-1].results[0])
        op.properties["dim"] = IntegerAttr(d + 1 if d >= 0 else d, SI32)
        (ot, olay, oshape), r = out, op.results[0]
        r.type = self.aliaser.tensor_type(TensorType((1, *oshape), ot.element_type), olay.relayout((1, *oshape)))
        back = self.new("ttnn.reshape", [r], ot, olay, oshape, {"shape": _i32s(oshape)}, op)
        back.results[0].type = ot
        r.replace_all_uses_with(back.results[0], except_in=back)
        op.location = suffixed_location(op.location, "_gather")
        return before, [back]

    def gather(self, op: Operation) -> Rewrite | None:
        """The si32-index rewrite, then the rank-1 one on what it leaves."""
        return _chained(op, self.gather_si32, self.gather_rank1)

    def embedding_weight_4d(self, op: Operation) -> Rewrite | None:
        """An embedding table of rank > 4 (leading dims all 1) reshaped to [1, 1, rows, width]
        (HEAD's EmbeddingOpSqueezeWeightRewritePattern)."""
        typed = _typed(op.operands[1]) if len(op.operands) > 1 else None
        if typed is None or len(typed[2]) <= 4 or any(d != 1 for d in typed[2][:-2]):
            return None
        t, lay, shape = typed
        four = (1, 1, *shape[-2:])
        reshape = self.new("ttnn.reshape", [op.operands[1]], t, lay, four, {"shape": _i32s(four)}, op)
        reshape.location = suffixed_location(op.location, "_reshape")
        op.set_operand(1, reshape.results[0])
        return [reshape], []

    def sampling_rank2(self, op: Operation) -> Rewrite | None:
        """The sampling kernel reads [1, 1, B, V] values and indices and writes [1, 1, 1, B]."""
        values, indices, out = _typed(op.operands[0]), _typed(op.operands[1]), _typed(op.results[0])
        if values is None or indices is None or out is None or len(values[2]) != 2:
            return None
        batch, vocab = values[2]
        wide = (1, 1, batch, vocab)
        before = [self.new("ttnn.reshape", [op.operands[i]], t, lay, wide, {"shape": _i32s(wide)}, op)
                  for i, (t, lay, _) in enumerate((values, indices))]  # fmt: skip
        for i, r in enumerate(before):
            op.set_operand(i, r.results[0])
        (ot, olay, _), res = out, op.results[0]
        res.type = self.aliaser.tensor_type(TensorType((1, 1, 1, batch), ot.element_type), olay.relayout((1, 1, 1, batch)))
        back = self.new("ttnn.reshape", [res], ot, olay, (batch,), {"shape": _i32s((batch,))}, op)
        back.results[0].type = ot
        res.replace_all_uses_with(back.results[0], except_in=back)
        return before, [back]

    def fill_cache_pad(self, op: Operation) -> Rewrite | None:
        """A cache write's sequence (dim -2) zero-padded to whole tiles: the kernel copies the input's
        tile padding, whatever it holds, into the cache (tt-metal#42779)."""
        if len(op.operands) < 2 or (typed := _typed(op.operands[1])) is None or len(typed[2]) < 2:
            return None
        t, lay, shape = typed
        seq = len(shape) - 2
        padded = ceil(shape[seq] / TILE_WIDTH) * TILE_WIDTH
        if padded == shape[seq]:
            return None
        cache = _typed(op.operands[0])
        if op.name == "ttnn.fill_cache" and (cache is None or padded > cache[2][seq]):
            return None  # fill_cache takes no more rows than the cache holds (a paged cache's dim -2 is its block)
        padding = [0] * (2 * len(shape))
        padding[2 * seq + 1] = padded - shape[seq]
        pad = self.new("ttnn.pad", [op.operands[1]], t, lay, (*shape[:seq], padded, shape[-1]),
                       {"padding": DenseArrayAttr("i32", tuple(padding)), "value": FloatAttr(0.0, F32), "use_multicore": BoolAttr(True)}, op)  # fmt: skip
        op.set_operand(1, pad.results[0])
        return [pad], []

    def integer_prod(self, op: Operation) -> Rewrite | None:
        """An integer prod over one dimension of at most 16 entries: a chain of multiplies of its
        slices (the prod kernel computes in bf16, which rounds integers past 256)."""
        typed, out = _typed(op.operands[0]), _typed(op.results[0])
        dim = op.properties.get("dim_arg")
        d = getattr(dim.resolve(), "value", None) if dim is not None else None
        if typed is None or out is None or not isinstance(d, int) or element_dtype(typed[0]) not in INTEGER_DTYPES:
            return None
        t, lay, shape = typed
        d %= len(shape)
        if not 0 < shape[d] <= MAX_PROD_UNROLL:
            return None
        one = tuple(1 if i == d else n for i, n in enumerate(shape))
        ops: list[Operation] = []
        for i in range(shape[d]):
            begins = tuple(i if k == d else 0 for k in range(len(shape)))
            ends = tuple(i + 1 if k == d else n for k, n in enumerate(shape))
            ops.append(self.new("ttnn.slice_static", [op.operands[0]], t, lay, one,
                                {"begins": _i32s(begins), "ends": _i32s(ends), "step": _i32s((1,) * len(shape))}, op))  # fmt: skip
            if i:
                ops.append(self.new("ttnn.multiply", [ops[-2].results[0], ops[-1].results[0]], t, lay, one, {}, op))
        keep = op.properties.get("keep_dim")
        if not getattr(keep.resolve() if keep is not None else None, "value", False):
            ot, olay, oshape = out
            ops.append(self.new("ttnn.reshape", [ops[-1].results[0]], ot, olay, oshape, {"shape": _i32s(oshape)}, op))
        ops[-1].results[0].type = op.results[0].type
        op.results[0].replace_all_uses_with(ops[-1].results[0])
        op.drop_all_references()
        return ops, None

    def all_gather_1d(self, op: Operation) -> Rewrite | None:
        """A rank-1 all_gather runs on [1, n] between two reshapes (its dimension moved by one)."""
        typed, out = _typed(op.operands[0]), _typed(op.results[0])
        dim = op.properties.get("all_gather_dim")
        d = getattr(dim.resolve() if dim is not None else None, "value", None)
        if typed is None or out is None or len(typed[2]) != 1 or not isinstance(d, int):
            return None
        (t, lay, shape), (ot, olay, oshape) = typed, out
        wide = self.new("ttnn.reshape", [op.operands[0]], t, lay, (1, *shape), {"shape": _i32s((1, *shape))}, op)
        op.set_operand(0, wide.results[0])
        op.properties["all_gather_dim"] = IntegerAttr(d % len(shape) + 1, SI32)
        r = op.results[0]
        r.type = self.aliaser.tensor_type(TensorType((1, *oshape), ot.element_type), olay.relayout((1, *oshape)))
        back = self.new("ttnn.reshape", [r], ot, olay, oshape, {"shape": _i32s(oshape)}, op)
        back.results[0].type = ot
        r.replace_all_uses_with(back.results[0], except_in=back)
        return [wide], [back]

    def slice_static_l1(self, op: Operation) -> Rewrite | None:
        """A slice whose double-buffered output row (last dim) overflows L1 runs with that dim swapped
        for the nearest one whose row fits, between two permutes."""
        typed, out = _typed(op.operands[0]), _typed(op.results[0])
        bounds = [int_values(op.properties.get(k)) for k in ("begins", "ends", "step")]
        if typed is None or out is None or len(out[2]) < 2 or any(b is None or len(b) != len(out[2]) for b in bounds):
            return None
        (t, lay, shape), (ot, olay, oshape) = typed, out
        element = t.element_type
        if not isinstance(element, ScalarType) or len(shape) != len(oshape):
            return None
        size = element.bitwidth // 8  # tt-mlir's getElementSizeBytes: i1 is 0 bytes, so never decomposed
        rank, usable = len(oshape), self.usable_l1()
        if oshape[-1] * size * 2 <= usable:
            return None
        swap = next((d for d in range(rank - 2, -1, -1) if oshape[d] * size * 2 <= usable), None)
        if swap is None:
            return None
        perm = list(range(rank))
        perm[swap], perm[-1] = perm[-1], perm[swap]  # a swap is its own inverse

        def permuted(values: tuple[int, ...]) -> tuple[int, ...]:
            return tuple(values[p] for p in perm)

        forward = self.new("ttnn.permute", [op.operands[0]], t, lay, permuted(shape),
                           {"permutation": DenseArrayAttr("i64", tuple(perm))}, op)  # fmt: skip
        begins, ends, steps = (permuted(tuple(b or ())) for b in bounds)
        cut = self.new("ttnn.slice_static", [forward.results[0]], ot, olay, permuted(oshape),
                       {"begins": _i32s(begins), "ends": _i32s(ends), "step": _i32s(steps)}, op)  # fmt: skip
        back = self.new("ttnn.permute", [cut.results[0]], ot, olay, oshape, {"permutation": DenseArrayAttr("i64", tuple(perm))}, op)
        for new, suffix in ((forward, "_permute"), (cut, "_slice"), (back, "_permuteInverse")):
            new.location = suffixed_location(op.location, suffix)
        back.results[0].type = op.results[0].type
        op.results[0].replace_all_uses_with(back.results[0])
        op.drop_all_references()
        return [forward, cut, back], None

    def conv_host_weights(self, op: Operation) -> Rewrite | None:
        """A conv's weight and bias go to the host row-major (a bfp_bf8 one as bf16), where tt-metal
        prepares them, unless they are there; a row-major result becomes tiled (HEAD's Conv2dRewritePattern)."""
        before: list[Operation] = []
        for index in (1, 2) if len(op.operands) == 4 else (1,):
            typed = _typed(op.operands[index])
            if typed is None:
                continue
            t, lay, shape = typed
            if lay.is_system_memory and not lay.is_tiled:
                continue
            dtype = DataType.BF16 if lay.dtype is DataType.BFP_BF8 else None
            host = lay.relayout(shape, buffer_type="system_memory", dtype=dtype, tiled=False)
            element = ScalarType(host.dtype.builtin) if host.dtype.builtin is not None else t.element_type
            move = Operation("ttnn.to_tensor_spec", [op.operands[index]], [self.aliaser.tensor_type(TensorType(shape, element), host)],
                             location=suffixed_location(op.location, "_weight" if index == 1 else "_bias"))  # fmt: skip
            move.pos = op.pos
            before.append(move)
            op.set_operand(index, move.results[0])
        out = _typed(op.results[0])
        tiled = False
        if out is not None and not out[1].is_tiled:
            t, lay, shape = out
            op.results[0].type = self.aliaser.tensor_type(t, lay.relayout(shape, tiled=True))
            tiled = True
        return (before, []) if before or tiled else None

    def linear_bias(self, op: Operation) -> Rewrite | None:
        """A linear whose bias tt-metal's fused kernel would add wrong (it broadcasts only row 0 of the
        bias tile): a matmul of tt-metal's output shape, an add of the bias, a reshape to the
        linear's shape when the add's differs, then the activation as its own op (HEAD's
        LinearOpRewritePattern)."""
        if len(op.operands) < 3:
            return None
        a, b, bias, out = (_typed(v) for v in (*op.operands[:3], op.results[0]))
        if a is None or b is None or bias is None or out is None:
            return None
        flags = {k: op.properties.get(k, BoolAttr(False)) for k in ("transpose_a", "transpose_b")}
        mm = matmul_shape(a[2], _flag(flags["transpose_a"]), b[2], _flag(flags["transpose_b"]))
        if bias_stays_fused(b[2], bias[2], mm):
            return None
        added = broadcast_shape(mm, bias[2])
        act = op.properties.get("activation")
        kind = getattr(act.resolve(), "value", None) if act is not None else None
        if added is None:
            return None
        if kind is not None and kind not in LINEAR_ACTIVATIONS:
            raise ValueError(f"Unsupported activation type in LinearOp decomposition: {kind}")
        ot, olay, oshape = out
        mm_props = dict(flags)
        if "compute_config" in op.properties:
            mm_props["compute_config"] = op.properties["compute_config"]
        ops: list[Operation] = []

        def step(name: str, operands: list[Any], shape: tuple[int, ...], props: dict[str, Any], suffix: str) -> None:
            ops.append(self.new(name, operands, ot, olay, shape, props, op))
            ops[-1].location = suffixed_location(op.location, f"_decomp_{suffix}")

        step("ttnn.matmul", list(op.operands[:2]), mm, mm_props, "matmul")
        if "ttcore.weight_dtype" in op.attributes:
            ops[0].attributes["ttcore.weight_dtype"] = op.attributes["ttcore.weight_dtype"]
        step("ttnn.add", [ops[0].results[0], op.operands[2]], tuple(added), {}, "add")
        if tuple(added) != oshape:  # HEAD's reshape to the same shape folds away
            step("ttnn.reshape", [ops[-1].results[0]], oshape, {"shape": _i32s(oshape)}, "reshape")
        if kind is not None:
            step(f"ttnn.{kind}", [ops[-1].results[0]], oshape, {}, kind)
        ops[-1].results[0].type = op.results[0].type
        op.results[0].replace_all_uses_with(ops[-1].results[0])
        op.drop_all_references()
        return ops, None

    def rewrite(self, op: Operation) -> Rewrite | None:
        """The decomposition of `op`, None when it needs none."""
        rule = RULES.get(op.name)
        return rule(self, op) if rule is not None else None


RULES: dict[str, Callable[[Decomposer, Operation], Rewrite | None]] = {
    "ttnn.scaled_dot_product_attention_decode": Decomposer.sdpa_decode,
    "ttnn.scaled_dot_product_attention": Decomposer.sdpa_head_pad,
    "ttnn.upsample": Decomposer.upsample_bilinear,
    "ttnn.gather": Decomposer.gather,
    "ttnn.sampling": Decomposer.sampling_rank2,
    "ttnn.embedding": Decomposer.embedding_weight_4d,
    "ttnn.prod": Decomposer.integer_prod,
    "ttnn.all_gather": Decomposer.all_gather_1d,
    "ttnn.fill_cache": Decomposer.fill_cache_pad,
    "ttnn.paged_fill_cache": Decomposer.fill_cache_pad,
    "ttnn.slice_static": Decomposer.slice_static_l1,
    "ttnn.linear": Decomposer.linear_bias,
    "ttnn.conv1d": Decomposer.conv_host_weights,
    "ttnn.conv2d": Decomposer.conv_host_weights,
    "ttnn.conv_transpose2d": Decomposer.conv_host_weights,
}
