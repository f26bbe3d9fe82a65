"""`ttir.matmul` and `ttir.linear` verifiers, as HEAD's MatmulOp::verify and LinearOp::verify: the
inner dimensions agree (after the transpose flags; a 1-D A gains a leading 1, a 1-D B a trailing
1), the batch dimensions broadcast, a linear's bias broadcasts with the product, and the result
has exactly the expected shape. The messages are HEAD's.
"""

from __future__ import annotations

from typing import Any

from ttopt.dialects.verify_common import bool_attr, broadcast, join, shape


def matmul(op: Any) -> None:
    """HEAD's MatmulOp::verify (LinearOp::verify when the op has a bias)."""
    shapes = [shape(v) for v in op.operands]
    out = shape(op.results[0]) if op.results else None
    if len(shapes) < 2 or shapes[0] is None or shapes[1] is None or out is None:
        return
    a, b = list(shapes[0]), list(shapes[1])
    if len(a) < 1:
        raise ValueError("Input A must be at least a 1D tensor")
    if len(b) < 1:
        raise ValueError("Input B must be at least a 1D tensor")
    rank_a, rank_b = len(a), len(b)
    if rank_a == 1:
        a.insert(0, 1)
    elif bool_attr(op, "transpose_a"):
        a[-1], a[-2] = a[-2], a[-1]
    if rank_b == 1:
        b.append(1)
    elif bool_attr(op, "transpose_b"):
        b[-1], b[-2] = b[-2], b[-1]
    if a[-1] != b[-2]:
        raise ValueError(f"Input A[-1]({a[-1]}) and B[-2]({b[-2]}) must have matching inner dimensions")
    want: list[int] = []
    if len(a) > 2 or len(b) > 2:
        batch = broadcast(a[:-2], b[:-2])
        if batch is None:
            raise ValueError(f"Batch dimensions of input A({join(a[:-2])}) and B({join(b[:-2])}) are not broadcast compatible")
        want = list(batch)
    if rank_a > 1:
        want.append(a[-2])
    if rank_b > 1:
        want.append(b[-1])
    if op.name == "ttir.linear" and len(shapes) > 2:
        bias = shapes[2]
        if bias is None:
            return
        if len(bias) < 1:
            raise ValueError("Bias must be at least a 1D tensor")
        with_bias = broadcast(want, list(bias))
        if with_bias is None:
            raise ValueError(f"Bias shape({join(list(bias))}) is not broadcast compatible with the matmul output shape({join(want)})")
        want = list(with_bias)
    if not want:
        if len(out) < 1:
            raise ValueError("Scalar output is not supported, output must be at least a 1D tensor")
        if len(out) > 1 or out[0] != 1:
            raise ValueError("Scalar output must be a 1D tensor of size 1")
        return
    if len(out) != len(want):
        raise ValueError(f"Output shape rank({len(out)}) must match the expected output shape rank({len(want)})")
    for i, (o, w) in enumerate(zip(out, want)):
        if o != w:
            raise ValueError(f"Output shape dimension[{i}]({o}) doesn't match the expected output shape dimension[{i}]({w})")
