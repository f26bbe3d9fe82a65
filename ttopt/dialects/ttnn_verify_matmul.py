"""Verifiers of `ttnn.matmul`, `ttnn.linear` and `ttnn.sparse_matmul` (HEAD's MatmulOp, LinearOp
and SparseMatmulOp::verify in lib/Dialect/TTNN/IR/TTNNOps.cpp), with HEAD's messages."""

from __future__ import annotations

from typing import Any

from ttopt.dialects.verify_common import TILE, bool_attr, int_attr, join, shape, tensors
from ttopt.dialects.verify_common import broadcast as broadcast_shape


def _adjusted(op: Any, a: tuple[int, ...], b: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """getMatmulAdjustedInputShapes: a vector operand is promoted (a: 1xK, b: Kx1), a matrix one
    transposed when its flag says so."""
    pa: tuple[int, ...]
    pb: tuple[int, ...]
    if len(a) == 1:
        pa = (1, *a)
    else:
        pa = (*a[:-2], a[-1], a[-2]) if bool_attr(op, "transpose_a") else a
    if len(b) == 1:
        pb = (*b, 1)
    else:
        pb = (*b[:-2], b[-1], b[-2]) if bool_attr(op, "transpose_b") else b
    return pa, pb


def _product_shape(op: Any, a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    """The shape of a @ b, the promoted vector dims dropped (empty for a vector-vector product)."""
    if len(a) < 1:
        raise ValueError("Input A must be at least a 1D tensor")
    if len(b) < 1:
        raise ValueError("Input B must be at least a 1D tensor")
    pa, pb = _adjusted(op, a, b)
    if pa[-1] != pb[-2]:
        raise ValueError(f"Input A[-1]({pa[-1]}) and B[-2]({pb[-2]}) must have matching inner dimensions")
    out: tuple[int, ...] = ()
    if len(pa) > 2 or len(pb) > 2:
        batch = broadcast_shape(pa[:-2], pb[:-2])
        if batch is None:
            raise ValueError(f"Batch dimensions of input A({join(pa[:-2])}) and B({join(pb[:-2])}) are not broadcast compatible")
        out = batch
    if len(a) > 1:
        out = (*out, pa[-2])
    if len(b) > 1:
        out = (*out, pb[-1])
    return out


def matmul_result_shape(op: Any) -> tuple[int, ...] | None:
    """The result shape `a @ b` must have (tt-mlir MatmulOp rules); None when an operand is not static.

    Rank-1 operands are promoted (a: 1xK, b: Kx1) and the promoted dim dropped from the result;
    `transpose_a` / `transpose_b` swap the last two dims; batch dims broadcast. Raises ValueError
    with HEAD's message when the operands do not multiply.
    """
    a, b = shape(op.operands[0]), shape(op.operands[1])
    if a is None or b is None:
        return None
    return _product_shape(op, a, b)


def verify_matmul(op: Any) -> None:
    """HEAD's MatmulOp::verify: operand ranks, inner dims, batch broadcast, the result shape."""
    want = matmul_result_shape(op)
    got = shape(op.results[0]) if op.results else None
    if want is None or got is None:
        return
    if not want:
        # A vector-vector product: TTNN has no rank-0 tensors, so it is written as tensor<1>.
        if len(got) < 1:
            raise ValueError("Scalar output is not supported, output must be at least a 1D tensor")
        if len(got) > 1 or got[0] != 1:
            raise ValueError("Scalar output must be a 1D tensor of size 1")
        return
    if len(got) != len(want):
        raise ValueError(f"Output shape rank({len(got)}) must match the expected output shape rank({len(want)})")
    for i, (g, w) in enumerate(zip(got, want)):
        if g != w:
            raise ValueError(f"Output shape dimension[{i}]({g}) doesn't match the expected output shape dimension[{i}]({w})")


def verify_linear(op: Any) -> None:
    """HEAD's LinearOp::verify: matmul's rules, then the result is broadcast(a @ b, bias), or
    a @ b itself when the tile-padded bias is one tile high (tt-metal's fused kernel)."""
    a, b = shape(op.operands[0]), shape(op.operands[1])
    got = shape(op.results[0]) if op.results else None
    ts = tensors(op.operands[2:])
    bias = shape(ts[0]) if ts else None
    if a is None or b is None or got is None or (ts and bias is None):
        return
    product = _product_shape(op, a, b) or (1,)
    broadcast, fused = product, None
    if bias is not None:
        if len(bias) < 1:
            raise ValueError("Bias must be at least a 1D tensor")
        out = broadcast_shape(product, bias)
        if out is None:
            raise ValueError(f"Bias shape({join(bias)}) is not broadcast compatible with the matmul output shape({join(product)})")
        broadcast = out
        if len(bias) > 1 and -(-bias[-2] // TILE) * TILE == TILE:
            fused = product
    if got != broadcast and got != fused:
        alt = f" or the matmul output shape({join(fused)})" if fused is not None else ""
        raise ValueError(f"Output shape({join(got)}) must match the broadcasted shape({join(broadcast)}){alt}")


def verify_sparse_matmul(op: Any) -> None:
    """HEAD's SparseMatmulOp::verify: [A.., M, K] x [1, E, K, N] with a sparsity [.., E] tensor,
    the result laid out by which side is sparse."""
    nnz = int_attr(op, "nnz")
    if nnz is not None and nnz <= 0:
        raise ValueError("nnz must be greater than 0 when set")
    a, b, sp = (shape(v) for v in op.operands[:3])
    out = shape(op.results[0]) if op.results else None
    if a is None or b is None or sp is None or out is None:
        return
    if len(a) < 4:
        raise ValueError("Input A must be at least a 4D tensor")
    if len(b) != 4:
        raise ValueError("Input B must be a 4D tensor [1, E, K, N]")
    if len(sp) != 4:
        raise ValueError("Sparsity tensor must be a 4D tensor")
    a_sparse, b_sparse = bool_attr(op, "is_input_a_sparse"), bool_attr(op, "is_input_b_sparse", True)
    if not a_sparse and not b_sparse:
        raise ValueError("At least one of is_input_a_sparse or is_input_b_sparse must be true")
    _, e, k, n = b
    m = a[-2]
    if b[0] != 1:
        raise ValueError("Input B first dimension must be 1")
    if a[-1] != k:
        raise ValueError("Input A inner dimension must match Input B K dimension")
    if sp[-1] != e:
        raise ValueError("Sparsity tensor last dimension must match number of experts in Input B")
    if a_sparse and b_sparse:
        if len(out) != 4:
            raise ValueError("Output must be 4D for sparse-sparse mode")
        if out != (1, e, m, n):
            raise ValueError("Output shape must be [1, E, M, N] for sparse-sparse mode")
    elif b_sparse:
        if len(out) != 6:
            raise ValueError("Output must be 6D for dense-sparse mode")
        if out != (a[0], a[1], 1, e, m, n):
            raise ValueError("Output shape must be [A, B, 1, E, M, N] for dense-sparse mode")
    else:
        if len(out) != 4:
            raise ValueError("Output must be 4D for sparse-dense mode")
        if out != (a[0], e, m, n):
            raise ValueError("Output shape must be [A, E, M, N] for sparse-dense mode")


VERIFIERS = {
    "ttnn.matmul": verify_matmul,
    "ttnn.linear": verify_linear,
    "ttnn.sparse_matmul": verify_sparse_matmul,
}
