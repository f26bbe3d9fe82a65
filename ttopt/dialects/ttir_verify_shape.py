"""Shape verifiers of TTIR's element-wise, data-movement and reduction ops, as HEAD's (its TTNN
reshape, permute, repeat and repeat_interleave verify the same way: ttnn_verify_data_movement.py
calls these): the
Broadcastable trait's (TTIRTraits.cpp verifyBroadcastable), ReshapeOp, PermuteOp and ConcatOp
verify(), and verifyReduceOp (sum, mean, max, min, prod, reduce_and, reduce_or, argmax). The
messages are HEAD's.
"""

from __future__ import annotations

from math import prod
from typing import Any

from ttopt.dialects.verify_common import broadcast, int_attr, ints_attr, join, result_shape, shape


def broadcastable(op: Any, operands: list[Any]) -> None:
    """HEAD's verifyBroadcastable over `operands` (the op's inputs, without a destination)."""
    shapes = [shape(v) for v in operands]
    out = result_shape(op)
    if out is None or any(s is None for s in shapes):
        return
    acc: list[int] = []
    for s in shapes:
        assert s is not None
        nxt = broadcast(acc, list(s))
        if nxt is None:
            raise ValueError(f"operand shape ({join(s, ', ')}) is not broadcast compatible with inferred operand shapes ({join(acc, ', ')})")
        acc = list(nxt)
    if list(out) != acc:
        raise ValueError(f"result shape ({join(out, ', ')}) doesn't match expected shape after broadcasting ({join(acc, ', ')})")


def reshape(op: Any, source: Any) -> None:
    """HEAD's ReshapeOp::verify: the shape attribute is the result's (one -1 allowed), elements kept."""
    a, out = shape(source), result_shape(op)
    want = ints_attr(op, "shape")
    if out is None or want is None:
        return
    if len(want) != len(out):
        raise ValueError(f"Shape attribute size {len(want)} must match output tensor rank {len(out)}")
    if a is not None and prod(a) != prod(out):
        raise ValueError(f"Input tensor number of elements {prod(a)} and output tensor number of elements {prod(out)} must be the same")
    seen_negative = False
    for i, d in enumerate(want):
        if d == -1:
            if seen_negative:
                raise ValueError("Shape attribute must have at most one -1 element")
            seen_negative = True
        elif d < 0:
            raise ValueError("All dimensions must be >= 0 except the one with -1")
        elif d != out[i]:
            raise ValueError(f"Shape attribute {d} must match the output tensor shape {out[i]} at index {i} for dimension that is not -1")


def permute(op: Any, source: Any) -> None:
    """HEAD's PermuteOp::verify: a permutation of the input's dimensions, the result permuted by it."""
    a, out = shape(source), result_shape(op)
    perm = ints_attr(op, "permutation")
    if a is None or out is None or perm is None:
        return
    if sorted(perm) != list(range(len(a))):
        raise ValueError(f"Expected a permutation of ({join(range(len(a)), ', ')}), got ({join(perm, ', ')})")
    want = [a[p] for p in perm]
    if list(out) != want:
        raise ValueError(f"Expected result shape ({join(want, ', ')}), got ({join(out, ', ')})")


def concat(op: Any, operands: list[Any]) -> None:
    """HEAD's ConcatOp::verify: one rank, equal sizes off `dim`, the result's `dim` their sum."""
    shapes = [shape(v) for v in operands]
    out = result_shape(op)
    dim_attr = op.get_attr("dim")
    dim = getattr(dim_attr.resolve(), "value", None) if dim_attr is not None else None
    if not shapes or shapes[0] is None or out is None or not isinstance(dim, int):
        return
    first = shapes[0]
    d = dim + len(first) if dim < 0 else dim
    if not 0 <= d < len(first):
        raise ValueError(f"Invalid dimension {dim} for concatenation.")
    total = first[d]
    for s in shapes[1:]:
        if s is None:
            return
        if len(s) != len(first):
            raise ValueError("All input tensors must have the same rank.")
        if any(x != y for i, (x, y) in enumerate(zip(s, first)) if i != d):
            raise ValueError(f"All input tensors must have the same dimensions, except for dimension {d}.")
        total += s[d]
    if len(out) > d and out[d] != total:
        raise ValueError(f"Output tensor dimension {d} does not match the sum of input tensor dimensions: {out[d]} vs. {total}.")


def reduction(op: Any, source: Any) -> None:
    """HEAD's verifyReduceOp: reduce dims in range and unique, the result the input with them
    removed (or kept as 1 with keep_dim)."""
    a, out = shape(source), result_shape(op)
    if a is None or out is None:
        return
    dims = ints_attr(op, "dim_arg")
    rank = len(a)
    reduced = set(range(rank))
    if dims is not None:
        for d in dims:
            if not -rank <= d < rank:
                raise ValueError(f"Reduce dimension {d} is out of range for input tensor of rank {rank}")
        if len(set(dims)) != len(dims):
            raise ValueError("Reduce dimensions are not unique")
        reduced = {(d + rank) % rank for d in dims}
    keep = op.get_attr("keep_dim")
    keep_dim = bool(getattr(keep.resolve(), "value", False)) if keep is not None else False
    want = [1 if i in reduced else s for i, s in enumerate(a) if keep_dim or i not in reduced]
    if list(out) != want:
        raise ValueError(f"Expected output shape ({join(want, ', ')}), got ({join(out, ', ')})")


def broadcast_op(op: Any, x: Any) -> None:
    """HEAD's BroadcastOp::verify: same rank, broadcastable, input x broadcast_dimensions = result."""
    a, out = shape(x), result_shape(op)
    dims = ints_attr(op, "broadcast_dimensions")
    if a is None or out is None or dims is None:
        return
    if len(a) != len(out):
        raise ValueError(f"Input tensor rank of {len(a)} does not match output tensor rank of {len(out)}")
    if broadcast(a, out) is None:
        raise ValueError(f"Input tensor shape ({join(a)}) is not broadcastable to output shape ({join(out)})")
    if len(dims) != len(a):
        raise ValueError("Input tensor rank should match output tensor rank.")
    for i, d in enumerate(dims):
        if a[i] * d != out[i]:
            raise ValueError(f"Input tensor shape ({join(a)}) index {i} does not broadcast to output ({join(out)}) using broadcast value {d}")


def repeat_interleave(op: Any, x: Any) -> None:
    """HEAD's RepeatInterleaveOp::verify: dimension `dim` of the result is `repeats` times x's."""
    a, out = shape(x), result_shape(op)
    if a is None or out is None:
        return
    repeats, dim = int_attr(op, "repeats", 1), int_attr(op, "dim", 0)
    assert repeats is not None and dim is not None
    if len(a) < 1:
        raise ValueError("Input must be at least a 1D tensor")
    if repeats == 0:
        raise ValueError("Repeats attribute must be non-zero")
    if not -len(a) <= dim < len(a):
        # HEAD's message names the rank where it means the dimension.
        raise ValueError(f"Dimension attribute must be within the bounds[{-len(a)}, {len(a)}), got {len(a)}")
    want = list(a)
    want[dim % len(a)] *= repeats
    if list(out) != want:
        raise ValueError(f"Output shape [{join(out)}] does not match the expected shape [{join(want)}]")


def upsample2d(op: Any, x: Any) -> None:
    """HEAD's Upsample2dOp::verify: NHWC in and out, H and W scaled, a mode tt-metal has."""
    a, out = shape(x), result_shape(op)
    if a is None or out is None:
        return
    if len(a) != 4:
        raise ValueError(f"Expected rank of input tensor is 4, got rank {len(a)}")
    if len(out) != 4:
        raise ValueError(f"Expected rank of output tensor is 4, got rank {len(out)}")
    attr = op.get_attr("scale_factor")
    value = getattr(attr.resolve(), "value", None) if attr is not None else None
    scales = (value, value) if isinstance(value, int) and not isinstance(value, bool) else ints_attr(op, "scale_factor")
    if scales is None:
        return
    if len(scales) != 2:
        raise ValueError(f"Expected integer or pair of integers, got tuple of size {len(scales)}")
    sh, sw = scales
    if sh <= 0 or sw <= 0:
        raise ValueError(f"Scale factors H = {sh} and W = {sw} must be positive integers")
    if a[1] * sh != out[1]:
        raise ValueError(f"Expected output H dimension to be input H dimension * scaleH = {a[1] * sh}, got {out[1]}")
    if a[2] * sw != out[2]:
        raise ValueError(f"Expected output W dimension to be input W dimension * scaleW = {a[2] * sw}, got {out[2]}")
    if a[0] != out[0]:
        raise ValueError(f"Expected output N dimension to be {a[0]}, got {out[0]}")
    if a[3] != out[3]:
        raise ValueError(f"Expected output C dimension to be {a[3]}, got {out[3]}")
    mode = op.get_attr("mode")
    m = getattr(mode.resolve(), "value", "nearest") if mode is not None else "nearest"
    if m not in ("nearest", "bilinear"):
        raise ValueError(f'Expected modes are (nearest, bilinear), got "{m}"')


def same_shape(op: Any, x: Any) -> None:
    """HEAD's ClampScalarOp::verify: the result has the input's shape."""
    a, out = shape(x), result_shape(op)
    if a is not None and out is not None and a != out:
        raise ValueError("input and output must have same shape.")


def bitcast_convert(op: Any, x: Any) -> None:
    """HEAD's BitcastConvertOp::verify: integer or float elements of one bit width."""
    widths = []
    for what, v in (("Input", x), ("Output", op.results[0] if op.results else None)):
        if v is None:
            return
        e = getattr(v.type.resolve(), "element_type", None)
        text = e.resolve().text if e is not None else ""
        bits = "".join(c for c in text.lstrip("su").lstrip("ibf") if c.isdigit()) if text.startswith(("i", "si", "ui", "f", "bf")) else ""
        if not bits:
            raise ValueError(f"{what} tensor type must be an integer or floating point type")
        widths.append(int(bits))
    if widths[0] != widths[1] and not _reinterprets_words(x, op.results[0], widths[0], widths[1]):
        raise ValueError("Input and output tensor element types must have the same bit width")


def _reinterprets_words(x: Any, out: Any, a_bits: int, b_bits: int) -> bool:
    """StableHLO's bitcast between widths: the narrow side has one more dimension, of the width
    ratio, as in `tensor<2x2xui32> -> tensor<2xui64>`. ttopt's lowering keeps this form (HEAD's
    verifier rejects any width change; its StableHLO conversion emits the op unchanged)."""
    a, b = shape(x), shape(out)
    if a is None or b is None:
        return False
    narrow, wide, ratio = (a, b, b_bits // a_bits) if a_bits < b_bits else (b, a, a_bits // b_bits)
    return max(a_bits, b_bits) % min(a_bits, b_bits) == 0 and list(narrow) == [*wide, ratio]


def repeat(op: Any, x: Any, attribute: str = "repeat_dimensions") -> None:
    """HEAD's RepeatOp::verify: one positive repeat per dimension, each result dimension x's times it
    (TTNN's op names the attribute `repeat_dims`)."""
    a, out = shape(x), result_shape(op)
    reps = ints_attr(op, attribute)
    if a is None or out is None or reps is None:
        return
    if len(a) != len(reps):
        raise ValueError(f"Input tensor rank {len(a)} doesn't match the number of repeat dimensions {len(reps)}.")
    if len(a) != len(out):
        raise ValueError(f"Input tensor rank {len(a)} doesn't match the output tensor rank {len(out)}.")
    for i, (s, r, o) in enumerate(zip(a, reps, out)):
        if r <= 0:
            raise ValueError(f"Repeat dimension at index {i} must be greater than 0.")
        if s * r != o:
            raise ValueError(f"Input tensor shape ({join(a)}) at index {i} does not repeat to output ({join(out)}) using repeat value {r}.")


def unsqueeze(op: Any, x: Any) -> None:
    """HEAD's UnsqueezeOp::verify: a size-1 dimension inserted at `dim`, the others kept."""
    a, out = shape(x), result_shape(op)
    dim = int_attr(op, "dim")
    if a is None or out is None or dim is None:
        return
    d = dim + len(a) + 1 if dim < 0 else dim
    if not 0 <= d <= len(a):
        raise ValueError("Dimension attribute must be within the bounds of the input tensor")
    if len(out) != len(a) + 1:
        raise ValueError("Output tensor must have one more dimension than the input tensor")
    if out[d] != 1:
        raise ValueError("Dimension added must be of size 1")
    if list(out[:d]) + list(out[d + 1:]) != list(a):
        raise ValueError("All dimensions of the input tensor must be the same as the output tensor except for the dimension added")
