"""Permutes and reshapes up through `ttir.broadcast` (tt-mlir's BroadcastCommutePatterns).

A broadcast's readers, when they are all the same TM, read a broadcast of the TM'd operand instead:

* a **permute** moves above with the broadcast factors permuted alike;
* a **reshape** moves above when it never puts broadcast copies and original data along one axis:
  the broadcast result's volume is a sequence of runs of original and of broadcast data, and
  each dimension of the reshape's target (read from the innermost) must lie within one run. The
  moved reshape keeps the dimensions drawn from original data and has 1 where the data was
  broadcast; the new broadcast restores those sizes. `2048x1x1 -> broadcast 1x2048x1 -> reshape
  2048x32x1x64` becomes `reshape 2048x1x1x1 -> broadcast 1x32x1x64`.

Either only when the broadcast stays foldable into its readers' implicit broadcast (HEAD's
isImplicitBroadcastSupported: rank 6 or less, or no factor above the six innermost dimensions).
HEAD has no downward commutes through a broadcast (never viable there): the pass runs these
upward commutes in both of its runs, so that reshapes an elementwise op moved down onto a
broadcast are taken up before the elementwise upward commute pulls them back.

Where HEAD asserts (a well-formed broadcast: factors of the operand's rank, a factor above 1 only
on a size-1 dimension), ttopt checks and leaves a malformed broadcast alone; a run whose size a
target dimension does not divide stops the reshape too (HEAD would only compare sizes).
"""

from __future__ import annotations

from ttopt.ir.attributes import DenseArrayAttr
from ttopt.ir.operation import Operation
from ttopt.ir.properties import int_values
from ttopt.ir.rewriter import insert_before
from ttopt.lowering.erase_inverse_ops.commute import (
    PERMUTE,
    RESHAPE,
    Commute,
    ConstevalAnalysis,
    Direction,
    all_users_identical_tms,
    apply_permutation,
    new_tm,
    permutation,
    readers_used,
    replace_readers,
    shape_of,
    with_shape,
)

BROADCAST = "ttir.broadcast"
# tt-metal broadcasts implicitly over at most this many innermost dimensions.
IMPLICIT_BROADCAST_RANK = 6


def broadcast_factors(op: Operation) -> tuple[int, ...] | None:
    """A well-formed broadcast's factors (one per dimension, above 1 only on a size-1 dimension), else None."""
    factors = int_values(op.properties.get("broadcast_dimensions"))
    if len(op.operands) != 1 or len(op.results) != 1 or factors is None:
        return None
    src, out = shape_of(op.operands[0]), shape_of(op.results[0])
    if src is None or out is None or not len(src) == len(factors) == len(out):
        return None
    if any(f < 1 or (f > 1 and s != 1) or s * f != o for s, f, o in zip(src, factors, out)):
        return None
    return tuple(factors)


def implicit_broadcast_supported(factors: tuple[int, ...]) -> bool:
    """The broadcast folds into its readers' implicit broadcast (HEAD's isImplicitBroadcastSupported)."""
    return all(f == 1 for f in factors[:-IMPLICIT_BROADCAST_RANK])


def reshape_above_broadcast(src: tuple[int, ...], target: tuple[int, ...],
                            factors: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """The reshape of `src` and the broadcast factors after it that make the reshape to `target` of
    `src` broadcast by `factors`, or None when the target mixes original and broadcast data on one
    axis (HEAD's getNewReshapeAndBroadcastDims)."""
    # Runs [size, is original data] of the broadcast result, outermost first; size-1 dimensions
    # belong to neither.
    runs: list[list] = []
    for s, f in zip(src, factors):
        original = f == 1
        size = s if original else f
        if size == 1:
            continue
        if runs and runs[-1][1] == original:
            runs[-1][0] *= size
        else:
            runs.append([size, original])
    reshape, new_factors = list(target), [1] * len(target)
    run = len(runs) - 1
    for i in range(len(target) - 1, -1, -1):
        d = target[i]
        if d == 1:
            continue
        if run < 0 or runs[run][0] % d:
            return None
        runs[run][0] //= d
        if not runs[run][1]:
            new_factors[i], reshape[i] = d, 1
        if runs[run][0] == 1:
            run -= 1
    if run != -1:
        return None
    return tuple(reshape), tuple(new_factors)


def _factor_props(op: Operation, factors: tuple[int, ...]) -> dict:
    props = dict(op.properties)
    props["broadcast_dimensions"] = DenseArrayAttr("i64", factors)
    return props


def _broadcast_after(op: Operation, tm: Operation, moved: Operation, factors: tuple[int, ...]) -> Operation:
    out = shape_of(tm.results[0])
    assert out is not None
    return insert_before(op, Operation(BROADCAST, [moved.results[0]], [with_shape(op.results[0], out)], _factor_props(op, factors),
                                       dict(op.attributes), location=op.location))  # fmt: skip


def _favorable(op: Operation, tm: Operation, analysis: ConstevalAnalysis) -> bool:
    factors = broadcast_factors(op)
    return factors is not None and implicit_broadcast_supported(factors) and all_users_identical_tms(op) and readers_used(op)


def _reshape_split(op: Operation, tm: Operation) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """(reshape of the broadcast's input, its new factors) that put `tm` above `op`, if any."""
    factors, src, target = broadcast_factors(op), shape_of(op.operands[0]), shape_of(tm.results[0])
    if factors is None or src is None or target is None:
        return None
    return reshape_above_broadcast(src, target, factors)


def _reshape_viable(op: Operation, tm: Operation) -> bool:
    return _reshape_split(op, tm) is not None


def _reshape_up(op: Operation, tm: Operation) -> list[Operation]:
    split = _reshape_split(op, tm)
    assert split is not None  # `_reshape_viable`
    reshape, new_factors = split
    moved = new_tm(RESHAPE, op.operands[0], reshape, like=tm, location=tm.location, before=op)
    new = _broadcast_after(op, tm, moved, new_factors)
    return [moved, new, *replace_readers(op, new.results[0])]


def _permute_viable(op: Operation, tm: Operation) -> bool:
    factors, order = broadcast_factors(op), permutation(tm)
    return factors is not None and order is not None and len(order) == len(factors)


def _permute_up(op: Operation, tm: Operation) -> list[Operation]:
    factors, order, src = broadcast_factors(op), permutation(tm), shape_of(op.operands[0])
    assert factors is not None and order is not None and src is not None
    moved = new_tm(PERMUTE, op.operands[0], apply_permutation(src, order), like=tm, location=tm.location, before=op)
    new = _broadcast_after(op, tm, moved, apply_permutation(factors, order))
    return [moved, new, *replace_readers(op, new.results[0])]


def commutes(direction: Direction) -> list[Commute]:
    """Permutes and reshapes through a broadcast, in `direction` (none downwards, as in HEAD)."""
    if direction is not Direction.UPWARDS:
        return []
    ops = frozenset({BROADCAST})
    return [
        Commute("reshape-through-broadcast", RESHAPE, ops, direction, _reshape_viable, _favorable, _reshape_up),
        Commute("permute-through-broadcast", PERMUTE, ops, direction, _permute_viable, _favorable, _permute_up),
    ]
