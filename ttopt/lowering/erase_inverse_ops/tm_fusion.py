"""permute -> reshape -> permute that only regroups dimensions is one reshape (tt-mlir's
PermuteReshapePermuteFusionPattern, which ttir-erase-inverse-ops runs with its commutes).

With x of shape [A_1 .. A_k], `permute(p)` then `reshape` to the same rank k then `permute(q)`:
when each dimension of the reshape's result is one dimension of its input, a product of
consecutive ones, or a 1, each result dimension names the group of original axes it holds; if
`q` puts the groups back so that, flattened, they read 0 .. k-1, the data never moved and the
chain is `reshape(x)` to the last permute's shape. Not when all three ops have other readers
(nothing would be erased).
"""

from __future__ import annotations

from ttopt.ir.operation import Operation
from ttopt.ir.rewriter import insert_before
from ttopt.lowering.erase_inverse_ops.commute import (
    PERMUTE,
    RESHAPE,
    defining_op,
    i32_array,
    permutation,
    replace_results,
    shape_of,
)
from ttopt.passes.patterns import Pattern


def _group_axes(src: tuple[int, ...], dst: tuple[int, ...], axes: tuple[int, ...]) -> list[list[int]] | None:
    """The original axes each dimension of `dst` holds (a reshape of `src`, whose dims are the
    axes `axes`), or None when a dimension is not a run of consecutive ones."""
    groups: list[list[int]] = []
    rank = len(src)
    i = 0
    for d in dst:
        if i < rank and src[i] == d:
            groups.append([axes[i]])
            i += 1
        elif d == 1:
            groups.append([])
        else:
            group: list[int] = []
            consumed = 1
            while i < rank and d % (consumed * src[i]) == 0:
                group.append(axes[i])
                consumed *= src[i]
                i += 1
            if consumed != d:
                return None
            groups.append(group)
    return groups if i == rank else None


def _one_use(op: Operation) -> bool:
    return len(op.results[0].uses) == 1


def fuse_permute_reshape_permute(op: Operation) -> list[Operation] | None:
    """`op`, a permute of a reshape of a permute that only regroups, becomes one reshape."""
    reshape = defining_op(op.operands[0]) if op.operands else None
    first = defining_op(reshape.operands[0]) if reshape is not None and reshape.name == RESHAPE and reshape.operands else None
    if reshape is None or first is None or first.name != PERMUTE:
        return None
    if not (_one_use(first) or _one_use(reshape) or _one_use(op)):
        return None
    src, dst, out = shape_of(reshape.operands[0]), shape_of(reshape.results[0]), shape_of(op.results[0])
    p, q = permutation(first), permutation(op)
    if src is None or dst is None or out is None or p is None or q is None or len(src) != len(dst) or len(q) != len(dst):
        return None
    groups = _group_axes(src, dst, p)
    if groups is None:
        return None
    flat = [a for i in q for a in groups[i]]
    if flat != list(range(len(src))):
        return None
    new = insert_before(op, Operation(RESHAPE, [first.operands[0]], [op.results[0].type], {"shape": i32_array(out)}, location=op.location))
    return [new, *replace_results(op, [new.results[0]]), reshape, first]


PATTERN = Pattern("ttir-permute-reshape-permute-fusion", fuse_permute_reshape_permute, frozenset({PERMUTE}))
