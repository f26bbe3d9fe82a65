"""Reshapes upwards through `ttir.rms_norm` and `ttir.distributed_rms_norm` (tt-mlir's
RMSNormCommutePatterns).

Both normalize along the last dimension, so `rms_norm(x) -> reshape` is `reshape(x) -> rms_norm`
when the reshape keeps the last dimension (HEAD's preservesDim(-1), which for a reshape is the
last dimensions being equal) and every reader of the norm is that reshape. The weight and bias
are of the normalized shape and stay; a distributed norm's residual, of the input's shape, gets
the reshape too. A reshape added above the norm may then meet its inverse and fold. Reshapes do
not move downwards through them (HEAD neither).

Where HEAD checks only the last dimension, ttopt checks the whole normalized shape: the reshape's
result must end in it (HEAD's RMSNormOp verifier wants that of the input), so a multi-dimension
`normalized_shape` still covers the same elements. The norm must have static shapes, `rms_norm`
a `normalized_shape`, and a residual the input's shape (HEAD's verifier).
"""

from __future__ import annotations

from ttopt.ir.operation import Operation
from ttopt.ir.properties import int_values
from ttopt.ir.rewriter import insert_before
from ttopt.lowering.erase_inverse_ops.commute import (
    RESHAPE,
    Commute,
    ConstevalAnalysis,
    Direction,
    all_users_identical_tms,
    new_tm,
    replace_results,
    shape_of,
    users,
)

RMS_NORM = "ttir.rms_norm"
DISTRIBUTED_RMS_NORM = "ttir.distributed_rms_norm"
# Operand order of each op (its segments: HEAD's AttrSizedOperandSegments).
SEGMENTS = {RMS_NORM: ("input", "weight", "bias"), DISTRIBUTED_RMS_NORM: ("input", "weight", "residual")}


def operand_roles(op: Operation) -> list[str] | None:
    """The role of each of `op`'s operands (by its operandSegmentSizes), None if they disagree."""
    names = SEGMENTS[op.name]
    sizes = int_values(op.properties.get("operandSegmentSizes"))
    if sizes is None:
        sizes = (1,) * len(op.operands) + (0,) * (len(names) - len(op.operands))
    if len(sizes) != len(names) or sizes[0] != 1 or any(n not in (0, 1) for n in sizes) or sum(sizes) != len(op.operands):
        return None
    return [name for name, n in zip(names, sizes) if n]


def _normalized_shape(op: Operation) -> tuple[int, ...] | None:
    """What the norm normalizes over: `normalized_shape`, or the last dimension of a distributed norm."""
    if op.name == DISTRIBUTED_RMS_NORM:
        shape = shape_of(op.operands[0])
        return shape[-1:] if shape else None
    dims = int_values(op.properties.get("normalized_shape"))
    return tuple(dims) if dims else None


def _up_viable(op: Operation, tm: Operation) -> bool:
    roles = operand_roles(op)
    if len(op.results) != 1 or roles is None:
        return False
    src, out, dst = shape_of(op.operands[0]), shape_of(op.results[0]), shape_of(tm.results[0])
    normalized = _normalized_shape(op)
    if src is None or out != src or dst is None or not normalized or not dst:
        return False
    if any(role == "residual" and shape_of(v) != src for role, v in zip(roles, op.operands)):
        return False
    return src[-1] == dst[-1] and dst[len(dst) - len(normalized) :] == normalized and src[len(src) - len(normalized) :] == normalized


def _up_favorable(op: Operation, tm: Operation, analysis: ConstevalAnalysis) -> bool:
    return all_users_identical_tms(op)


def _up(op: Operation, tm: Operation) -> list[Operation]:
    dst = shape_of(tm.results[0])
    roles = operand_roles(op)
    assert dst is not None and roles is not None  # `_up_viable`
    touched: list[Operation] = []
    operands = []
    for role, v in zip(roles, op.operands):
        if role in ("input", "residual"):
            moved = new_tm(RESHAPE, v, dst, location=op.location, before=op)
            touched.append(moved)
            v = moved.results[0]
        operands.append(v)
    new = insert_before(op, Operation(op.name, operands, [tm.results[0].type], dict(op.properties), location=op.location))
    touched.append(new)
    for reader in users(op):
        touched += replace_results(reader, [new.results[0]])
    return touched


def commutes(direction: Direction) -> list[Commute]:
    """Reshapes upwards through the RMS norms; nothing moves downwards."""
    if direction is Direction.DOWNWARDS:
        return []
    return [
        Commute("reshape-through-rms-norm", RESHAPE, frozenset({RMS_NORM, DISTRIBUTED_RMS_NORM}), direction, _up_viable, _up_favorable, _up)
    ]
