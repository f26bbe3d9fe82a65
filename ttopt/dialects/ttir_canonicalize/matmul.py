"""TTIR matmul and linear canonicalizations (tt-mlir's LinearOp and MatmulOp patterns).

* a `linear` without a bias is a `matmul` (same transposes);
* `reshape(matmul(reshape(a), reshape(b)))` where both input reshapes merge the same leading
  dimensions into one batch dimension (`[D0, D1, M, K] -> [D0*D1, M, K]`) and the output reshape
  splits it back (`[D0*D1, M, N] -> [D0, D1, M, N]`) is one `matmul` of `a` and `b` (the matmul
  read only by that reshape; `a` and `b` of one rank, the output's).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ttopt.dialects.ttir import inputs
from ttopt.dialects.ttir_canonicalize.constants import tensor_of
from ttopt.dialects.ttir_canonicalize.edits import producer, replace_with_new, single_input

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation
    from ttopt.ir.values import Value

_TRANSPOSES = ("transpose_a", "transpose_b")


def linear_without_bias_is_matmul(op: Operation) -> list[Operation] | None:
    """A `linear` of two operands is a `matmul`."""
    ins = inputs(op)
    if len(ins) != 2 or len(op.results) != 1:
        return None
    props = {k: op.properties[k] for k in _TRANSPOSES if k in op.properties}
    return replace_with_new(op, "ttir.matmul", ins, op.results[0].type, props)


def _merged(reshape: Operation) -> tuple[int, ...] | None:
    """The leading input dimensions a reshape merges into its first output dimension (None if it
    is not such a merge)."""
    src = single_input(reshape)
    shapes = (tensor_of(src), tensor_of(reshape.results[0])) if src is not None else (None, None)
    if shapes[0] is None or shapes[1] is None:
        return None
    ins, out = shapes[0][1], shapes[1][1]
    if len(out) >= len(ins) or not out:
        return None
    n = len(ins) - len(out) + 1
    lead = ins[:n]
    if ins[n:] != out[1:] or any(d <= 0 for d in lead):
        return None
    total = 1
    for d in lead:
        total *= d
    return lead if total == out[0] else None


def absorb_leading_merge(op: Operation) -> list[Operation] | None:
    """A matmul between leading-dimension merges and the split back is one matmul."""
    ins = inputs(op)
    if len(ins) != 2 or len(op.results) != 1 or len(op.results[0].uses) != 1:
        return None
    split = op.results[0].uses[0]
    if split.name != "ttir.reshape" or single_input(split) is not op.results[0]:
        return None
    merges = [producer(v, "ttir.reshape") for v in ins]
    if merges[0] is None or merges[1] is None:
        return None
    lead_a, lead_b = _merged(merges[0]), _merged(merges[1])
    mid, out = tensor_of(op.results[0]), tensor_of(split.results[0])
    if lead_a is None or lead_a != lead_b or mid is None or out is None:
        return None
    n = len(out[1]) - len(mid[1]) + 1
    if n < 2 or out[1][:n] != lead_a or out[1][n:] != mid[1][1:]:
        return None
    new_a: Value | None = single_input(merges[0])
    new_b: Value | None = single_input(merges[1])
    info_a, info_b = (tensor_of(v) if v is not None else None for v in (new_a, new_b))
    if new_a is None or new_b is None or info_a is None or info_b is None:
        return None
    if len(info_a[1]) != len(info_b[1]) or len(info_a[1]) != len(out[1]):
        return None
    props = {k: op.properties[k] for k in _TRANSPOSES if k in op.properties}
    return [op] + replace_with_new(split, "ttir.matmul", [new_a, new_b], split.results[0].type, props)
