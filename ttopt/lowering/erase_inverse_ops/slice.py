"""Permutes and reshapes through `ttir.slice_static` (tt-mlir's SliceCommutePatterns).

* A **permute** moves through a slice either way with the slice's begins, ends and steps
  permuted alike (upwards by the permutation, downwards by its inverse).
* A **reshape** moves through a slice either way when it changes only dimensions outside the ones
  the slice cuts: counting from the innermost dimension, the reshape's first changed dimension
  lies further out than the slice's outermost cut one (`1x160x160x128` cut to `...x64` then
  reshaped to `1x1x25600x64` is the reshape to `1x1x25600x128` cut to `...x64`). The moved slice
  keeps the cut dimensions' ranges and takes the whole of every dimension further out.

Upwards when every reader of the slice is the same TM; downwards always (the slice reads nothing
else). HEAD's assumptions, checked by ttopt: one static operand and result, no destination-passing
output, begins / ends / steps of the operand's rank and a permute of that rank.
"""

from __future__ import annotations

from ttopt.ir.attributes import ArrayAttr, Attribute, IntegerAttr
from ttopt.ir.operation import Operation
from ttopt.ir.properties import int_values
from ttopt.ir.rewriter import insert_before
from ttopt.ir.types import ScalarType
from ttopt.ir.values import Value
from ttopt.lowering.erase_inverse_ops.commute import (
    PERMUTE,
    RESHAPE,
    Commute,
    ConstevalAnalysis,
    Direction,
    all_users_identical_tms,
    apply_permutation,
    inverse_permutation,
    new_tm,
    permutation,
    readers_used,
    replace_readers,
    replace_results,
    shape_of,
    with_shape,
)

SLICE = "ttir.slice_static"
RANGE = ("begins", "ends", "step")


def _ranges(op: Operation) -> tuple[tuple[Attribute, ...], ...] | None:
    """A well-formed slice's begins, ends and steps as attribute tuples, else None."""
    if len(op.operands) != 1 or len(op.results) != 1:
        return None
    src, out = shape_of(op.operands[0]), shape_of(op.results[0])
    if src is None or out is None or len(src) != len(out):
        return None
    ranges = []
    for key in RANGE:
        a = op.properties.get(key)
        a = a.resolve() if a is not None else None
        if not isinstance(a, ArrayAttr) or len(a.items) != len(src) or int_values(a) is None:
            return None
        ranges.append(tuple(a.items))
    return tuple(ranges)


def _with_ranges(op: Operation, ranges: tuple[tuple[Attribute, ...], ...]) -> dict:
    props = dict(op.properties)
    for key, items in zip(RANGE, ranges):
        props[key] = ArrayAttr(items)
    return props


def _new_slice(op: Operation, src: Value, ranges: tuple[tuple[Attribute, ...], ...], shape: tuple[int, ...]) -> Operation:
    """`op`'s slice with `ranges` of `src`, giving `shape`, before `op`."""
    return insert_before(op, Operation(SLICE, [src], [with_shape(op.results[0], shape)], _with_ranges(op, ranges), dict(op.attributes),
                                       location=op.location))  # fmt: skip


def _favorable_up(op: Operation, tm: Operation, analysis: ConstevalAnalysis) -> bool:
    return all_users_identical_tms(op) and readers_used(op)


def _favorable_down(op: Operation, tm: Operation, analysis: ConstevalAnalysis) -> bool:
    return True


# -- permute -------------------------------------------------------------------------------------
def _permute_viable(op: Operation, tm: Operation) -> bool:
    order, ranges = permutation(tm), _ranges(op)
    return order is not None and ranges is not None and len(order) == len(ranges[0])


def _permuted_ranges(op: Operation, order: tuple[int, ...]) -> tuple[tuple[Attribute, ...], ...]:
    ranges = _ranges(op)
    assert ranges is not None
    return tuple(tuple(r[p] for p in order) for r in ranges)


def _permute_up(op: Operation, tm: Operation) -> list[Operation]:
    order, src, out = permutation(tm), shape_of(op.operands[0]), shape_of(op.results[0])
    assert order is not None and src is not None and out is not None
    moved = new_tm(PERMUTE, op.operands[0], apply_permutation(src, order), like=tm, location=tm.location, before=op)
    new = _new_slice(op, moved.results[0], _permuted_ranges(op, order), apply_permutation(out, order))
    return [moved, new, *replace_readers(op, new.results[0])]


def _permute_down(op: Operation, tm: Operation) -> list[Operation]:
    order, out = permutation(tm), shape_of(op.results[0])
    assert order is not None and out is not None
    inverse = inverse_permutation(order)
    new = _new_slice(op, tm.operands[0], _permuted_ranges(op, inverse), apply_permutation(out, inverse))
    after = new_tm(PERMUTE, new.results[0], out, like=tm, location=tm.location, before=op)
    return [new, after, *replace_results(op, [after.results[0]]), tm]


# -- reshape -------------------------------------------------------------------------------------
def first_changed_dim(src: tuple[int, ...], dst: tuple[int, ...]) -> int | None:
    """Counting from the innermost dimension, the first one a reshape of `src` to `dst` changes
    (the shorter rank when the overlap is unchanged); None for no change (HEAD's
    getRightmostReshapeDimRTL)."""
    n = min(len(src), len(dst))
    for i in range(n):
        if src[len(src) - 1 - i] != dst[len(dst) - 1 - i]:
            return i
    return None if src == dst else n


def outermost_cut_dim(src: tuple[int, ...], ranges: tuple[tuple[int, ...], ...]) -> int | None:
    """Counting from the innermost dimension, the outermost one a slice of `src` does not take
    whole; None when it takes all (HEAD's getLeftmostSlicedDimRTL)."""
    begins, ends, steps = ranges
    n = len(src)
    for i in range(n):
        size = src[i]
        begin = begins[i] + size if begins[i] < 0 else begins[i]
        end = ends[i] + size if ends[i] < 0 else ends[i]
        if begin != 0 or end != size or steps[i] != 1:
            return n - 1 - i
    return None


def _int_ranges(op: Operation) -> tuple[tuple[int, ...], ...]:
    return tuple(int_values(op.properties[key]) or () for key in RANGE)


def _reshape_commutes(op: Operation, tm: Operation) -> bool:
    """`tm`'s change lies further out than `op`'s cut dimensions."""
    tm_src, tm_dst, src = shape_of(tm.operands[0]), shape_of(tm.results[0]), shape_of(op.operands[0])
    if _ranges(op) is None or tm_src is None or tm_dst is None or src is None:
        return False
    changed, cut = first_changed_dim(tm_src, tm_dst), outermost_cut_dim(src, _int_ranges(op))
    return changed is not None and cut is not None and changed > cut


def _reshaped_slice(op: Operation, value: Value) -> Operation:
    """`op` cutting its cut dimensions (counted from the innermost) out of `value`, a reshape of its
    operand, and taking the whole of every other dimension."""
    shape = shape_of(value)
    ranges, src, out = _ranges(op), shape_of(op.operands[0]), shape_of(op.results[0])
    assert ranges is not None and src is not None and out is not None and shape is not None
    cut = outermost_cut_dim(src, _int_ranges(op))
    assert cut is not None
    i32 = ScalarType("i32")
    n, m = len(shape), len(src)
    new_ranges: list[list[Attribute]] = [[], [], []]
    new_shape = []
    for d in range(n):
        rtl = n - 1 - d
        if rtl > cut:
            whole = (IntegerAttr(0, i32), IntegerAttr(shape[d], i32), IntegerAttr(1, i32))
            new_shape.append(shape[d])
        else:
            whole = tuple(r[m - 1 - rtl] for r in ranges)  # type: ignore[assignment]
            new_shape.append(out[m - 1 - rtl])
        for k in range(3):
            new_ranges[k].append(whole[k])
    return _new_slice(op, value, tuple(tuple(r) for r in new_ranges), tuple(new_shape))


def _reshape_up(op: Operation, tm: Operation) -> list[Operation]:
    tm_src, target, src = shape_of(tm.operands[0]), shape_of(tm.results[0]), shape_of(op.operands[0])
    assert tm_src is not None and target is not None and src is not None
    changed = first_changed_dim(tm_src, target)
    assert changed is not None
    n = len(target)
    # The dimensions the reshape keeps take the slice operand's sizes: the reshape moves above the cut.
    shape = tuple(src[len(src) - n + d] if n - 1 - d < changed else target[d] for d in range(n))
    moved = new_tm(RESHAPE, op.operands[0], shape, like=tm, location=tm.location, before=op)
    new = _reshaped_slice(op, moved.results[0])
    return [moved, new, *replace_readers(op, new.results[0])]


def _reshape_down(op: Operation, tm: Operation) -> list[Operation]:
    src, out = shape_of(tm.operands[0]), shape_of(op.results[0])
    assert src is not None and out is not None
    new = _reshaped_slice(op, tm.operands[0])
    after = new_tm(RESHAPE, new.results[0], out, like=tm, location=tm.location, before=op)
    return [new, after, *replace_results(op, [after.results[0]]), tm]


def commutes(direction: Direction) -> list[Commute]:
    """Permutes and reshapes through a slice, in `direction`."""
    ops = frozenset({SLICE})
    up = direction is Direction.UPWARDS
    favorable = _favorable_up if up else _favorable_down
    return [
        Commute("permute-through-slice", PERMUTE, ops, direction, _permute_viable, favorable, _permute_up if up else _permute_down),
        Commute("reshape-through-slice", RESHAPE, ops, direction, _reshape_commutes, favorable, _reshape_up if up else _reshape_down),
    ]
