"""`ttir.group_norm` -> `ttnn.group_norm` (HEAD's GroupNormOpConversionPattern): TTNN normalizes an
`[N, 1, H*W, C]` tensor, so the channel dimension is permuted last when it is not, every spatial
dimension is collapsed into one by a reshape (when the rank is above 4 or dimension 1 is not 1),
and both are undone after the op. A missing weight or bias is materialized (`ttnn.ones` /
`ttnn.zeros` of the other's type, else a `[C]` tensor like the input), as HEAD does to avoid
tt-metal's optional-affine path; the op has operand segments (input, input_mask, weight, bias),
`num_groups` and `epsilon` (1e-12 when the TTIR op has none). Channels that are not a multiple of
the tile width are padded as HEAD's GroupNormChannelPadRewritePattern workaround does (input,
1-D weight and bias padded with zeros to a multiple of lcm(32, channels per group), num_groups
scaled, the result sliced back), and tile-aligned 1-D weight and bias are reshaped to
`(1, 1, C/32, 32)` (GroupNormAffineReshapeRewritePattern).
"""

from __future__ import annotations

import struct
from math import lcm, prod
from typing import TYPE_CHECKING, Any

from ttopt.dialects.ttir import inputs
from ttopt.ir.attributes import ArrayAttr, BoolAttr, DenseArrayAttr, DialectAttr, FloatAttr, IntegerAttr
from ttopt.ir.properties import int_values
from ttopt.ir.types import ScalarType, TensorType

if TYPE_CHECKING:
    from ttopt.lowering.ttir_to_ttnn import _Lowering

SEGMENTS = ("input", "input_mask", "weight", "bias")
TILE_WIDTH = 32


def _operands(op: Any) -> dict[str, Any]:
    """The op's operands by name, from its operand segments (positional without them)."""
    ins = inputs(op)
    seg = int_values(op.properties.get("operandSegmentSizes"))
    if seg is None:
        return dict(zip(("input", "weight", "bias"), ins)) if len(ins) <= 3 else dict(zip(SEGMENTS, ins))
    if len(seg) != 4 or sum(seg) != len(ins):
        raise ValueError(f"operandSegmentSizes {list(seg)} does not describe its {len(ins)} operands (input, input_mask, weight, bias)")
    out, i = {}, 0
    for name, n in zip(SEGMENTS, seg):
        if n:
            out[name] = ins[i]
        i += n
    return out


def _permute(lw: _Lowering, op: Any, v: Any, perm: list[int]) -> Any:
    t = v.type.resolve()
    shape = tuple(t.shape[p] for p in perm)
    return lw.emit("ttnn.permute", [v], lw.layout_type(TensorType(shape, t.element_type), op),
                   {"permutation": DenseArrayAttr("i64", tuple(perm))}, op.location)  # fmt: skip


def _padded_channels(c: int, groups: int) -> int:
    """Channels padded to a multiple of lcm(tile width, channels per group) (HEAD's workaround)."""
    align = lcm(TILE_WIDTH, c // groups)
    return -(-c // align) * align


def _i32s(values: tuple[int, ...]) -> ArrayAttr:
    return ArrayAttr(tuple(IntegerAttr(int(v), ScalarType("i32")) for v in values))


def _pad(lw: _Lowering, op: Any, v: Any, padding: tuple[int, ...]) -> Any:
    t = v.type.resolve()
    shape = tuple(s + padding[2 * i] + padding[2 * i + 1] for i, s in enumerate(t.shape))
    return lw.emit("ttnn.pad", [v], lw.layout_type(TensorType(shape, t.element_type), op),
                   {"padding": DenseArrayAttr("i32", padding), "use_multicore": BoolAttr(False), "value": FloatAttr(0.0, ScalarType("f32"))},
                   op.location)  # fmt: skip


def _affine4(lw: _Lowering, op: Any, v: Any) -> Any:
    shape = tuple(v.type.resolve().shape)
    if len(shape) != 1 or shape[0] <= 0 or shape[0] % TILE_WIDTH:
        return v
    return lw.reshape(v, (1, 1, shape[0] // TILE_WIDTH, TILE_WIDTH), op, op.location)


def _group_norm(lw: _Lowering, op: Any) -> Any:
    named = _operands(op)
    x = named["input"]
    shape = tuple(x.type.resolve().shape)
    rank = len(shape)
    if rank < 4:
        raise ValueError(f"input has rank {rank}; group_norm takes rank 4 or more")
    channel = getattr(op.get_attr("channel_dim"), "value", None) if op.get_attr("channel_dim") is not None else None
    channel = rank - 1 if channel is None else int(channel) % rank
    loc = op.location
    perm = [d for d in range(rank) if d != channel] + [channel]
    if channel != rank - 1:
        x = _permute(lw, op, x, perm)
    permuted = tuple(x.type.resolve().shape)
    reshaped = rank > 4 or permuted[1] != 1
    if reshaped:
        x = lw.reshape(x, (permuted[0], 1, prod(permuted[1:-1]), permuted[-1]), op, loc)
    flat_t = x.type.resolve()
    c = permuted[-1]
    weight, bias = named.get("weight"), named.get("bias")
    if weight is None or bias is None:
        like = weight if weight is not None else bias
        affine = like.type.resolve() if like is not None else lw.layout_type(TensorType((c,), flat_t.element_type), op).resolve()
        shape_attr = DialectAttr("ttnn.shape", "x".join(map(str, affine.shape)))
        if weight is None:
            weight = lw.emit("ttnn.ones", [lw.get_device()], affine, {"shape": shape_attr}, loc)
        if bias is None:
            bias = lw.emit("ttnn.zeros", [lw.get_device()], affine, {"shape": shape_attr}, loc)
    mask = named.get("input_mask")
    groups = op.get_attr("num_groups")
    flat = tuple(flat_t.shape)
    if _decomposes(lw.group_norm_decomposition, flat, int(groups.resolve().value), mask):
        y = _decomposed(lw, op, x, weight, bias, int(groups.resolve().value))
        return _restored(lw, op, y, permuted, perm, reshaped, channel)
    padded_c = _padded_channels(c, int(groups.resolve().value))
    if padded_c != c and mask is None and all(len(v.type.resolve().shape) == 1 for v in (weight, bias)):
        # HEAD's GroupNormChannelPadRewritePattern workaround: the padded channels form whole new
        # trailing groups, sliced off after the op.
        x = _pad(lw, op, x, (0,) * 7 + (padded_c - c,))
        weight, bias = (_pad(lw, op, v, (0, padded_c - c)) if tuple(v.type.resolve().shape) == (c,) else v for v in (weight, bias))
        groups = IntegerAttr(padded_c // (c // int(groups.resolve().value)), ScalarType("i64"))
        flat = (*flat[:-1], padded_c)
    # HEAD's GroupNormAffineReshapeRewritePattern workaround: tile-aligned 1-D affine parameters
    # as (1, 1, C/32, 32).
    weight, bias = (_affine4(lw, op, v) for v in (weight, bias))
    operands = [x, *([mask] if mask is not None else []), weight, bias]
    properties = {
        "epsilon": op.get_attr("epsilon") or FloatAttr(1e-12, ScalarType("f32")),
        "num_groups": groups,
        "operandSegmentSizes": DenseArrayAttr("i32", (1, int(mask is not None), 1, 1)),
    }
    y = lw.emit("ttnn.group_norm", operands, lw.layout_type(TensorType(flat, flat_t.element_type), op), properties, loc)
    if flat[-1] != c:
        y = lw.emit("ttnn.slice_static", [y], lw.layout_type(flat_t, op),
                    {"begins": _i32s((0,) * 4), "ends": _i32s(tuple(flat_t.shape)), "step": _i32s((1,) * 4)}, loc)  # fmt: skip
    return _restored(lw, op, y, permuted, perm, reshaped, channel)


def _restored(lw: _Lowering, op: Any, y: Any, permuted: tuple[int, ...], perm: list[int], reshaped: bool, channel: int) -> Any:
    """`y` ([N, 1, H*W, C]) back in the op's own shape: the spatial dimensions and the channel's place."""
    if reshaped:
        y = lw.reshape(y, permuted, op, op.location)
    if channel != len(perm) - 1:
        y = _permute(lw, op, y, [perm.index(d) for d in range(len(perm))])
    return y


def _decomposes(policy: str, flat: tuple[int, ...], groups: int, mask: Any) -> bool:
    """Whether HEAD's TTNN decomposition replaces this group norm ([N, 1, S, C]) by primitives:
    every one without the op model (`all`), one whose per-sample height S is not whole tiles with it
    (`non-tile-aligned`: tt-metal's kernel reduces over the tile-padded height). A masked one stays
    fused (the decomposition has no mask), as does one whose groups do not divide the channels."""
    if policy == "none" or mask is not None or groups <= 0 or flat[-1] % groups:
        return False
    return policy == "all" or flat[2] % TILE_WIDTH != 0


def _decomposed(lw: _Lowering, op: Any, x: Any, weight: Any, bias: Any, groups: int) -> Any:
    """HEAD's GroupNormDecompositionRewritePattern on `x` ([N, 1, S, C]): per-group mean and variance
    over (S, C/G) of a [N, S, G, C/G] view, `(x - mean) * rsqrt(var + eps)`, then the affine
    weight and bias, each read as [1, 1, 1, C]."""
    loc = op.location
    n, _, s, c = (int(d) for d in x.type.resolve().shape)
    elem = x.type.resolve().element_type

    def t(shape: tuple[int, ...]) -> Any:
        return lw.layout_type(TensorType(shape, elem), op)

    grouped_shape, stats = (n, s, groups, c // groups), (n, 1, groups, 1)
    reduce = {"dim_arg": _i32s((1, 3)), "keep_dim": BoolAttr(True)}
    grouped = lw.reshape(x, grouped_shape, op, loc)
    mean = lw.emit("ttnn.mean", [grouped], t(stats), dict(reduce), loc)
    centered = lw.emit("ttnn.subtract", [grouped, mean], t(grouped_shape), {}, loc)
    squared = lw.emit("ttnn.multiply", [centered, centered], t(grouped_shape), {}, loc)
    variance = lw.emit("ttnn.mean", [squared], t(stats), dict(reduce), loc)
    eps_attr = op.get_attr("epsilon")
    eps = float(eps_attr.resolve().value) if eps_attr is not None else 1e-12
    fill = {"fill_value": FloatAttr(_f32(eps), ScalarType("f32")), "shape": DialectAttr("ttnn.shape", "x".join(map(str, stats)))}
    eps_t = lw.emit("ttnn.full", [lw.get_device()], t(stats), fill, loc)
    stable = lw.emit("ttnn.add", [variance, eps_t], t(stats), {}, loc)
    inv_std = lw.emit("ttnn.rsqrt", [stable], t(stats), {}, loc)
    y = lw.emit("ttnn.multiply", [centered, inv_std], t(grouped_shape), {}, loc)
    y = lw.reshape(y, (n, 1, s, c), op, loc)
    y = lw.emit("ttnn.multiply", [y, lw.reshape(weight, (1, 1, 1, c), op, loc)], t((n, 1, s, c)), {}, loc)
    return lw.emit("ttnn.add", [y, lw.reshape(bias, (1, 1, 1, c), op, loc)], t((n, 1, s, c)), {}, loc)


def _f32(value: float) -> float:
    """`value` rounded to f32, as HEAD's getF32FloatAttr holds it."""
    return float(struct.unpack("f", struct.pack("f", value))[0])


GROUP_NORM_RULES = {"group_norm": _group_norm}
