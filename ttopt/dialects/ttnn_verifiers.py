"""Op verifiers of the TTNN dialect (tt-mlir's `verify()` of the same ops): shape rules that hold
for any TTNN module, with or without layouts. Each raises ValueError(message); the IR verifier
reports it at the op."""

from __future__ import annotations

from typing import Any, Callable

from ttopt.ir.types import TensorType


def _shape(value: Any) -> tuple[int | None, ...] | None:
    t = value.type.resolve()
    return tuple(t.shape) if isinstance(t, TensorType) and t.shape is not None else None


def _flag(op: Any, name: str) -> bool:
    a = op.get_attr(name)
    return bool(getattr(a.resolve(), "value", False)) if a is not None else False


def _same(a: int | None, b: int | None) -> bool:
    return a is None or b is None or a == b


def _broadcast(a: tuple[int | None, ...], b: tuple[int | None, ...]) -> tuple[int | None, ...] | None:
    """NumPy broadcast of two batch shapes (`?` matches anything); None when they do not broadcast."""
    out: list[int | None] = []
    for i in range(1, max(len(a), len(b)) + 1):
        x = a[-i] if i <= len(a) else 1
        y = b[-i] if i <= len(b) else 1
        if x == 1:
            out.append(y)
        elif y == 1 or _same(x, y):
            out.append(x if x is not None else y)
        else:
            return None
    return tuple(reversed(out))


def _text(shape: tuple[int | None, ...]) -> str:
    return "x".join("?" if d is None else str(d) for d in shape) or "scalar"


def matmul_result_shape(op: Any) -> tuple[int | None, ...] | None:
    """The result shape `a @ b` must have (tt-mlir MatmulOp rules); None when an operand is unranked.

    Rank-1 operands are promoted (a: 1xK, b: Kx1) and the promoted dim dropped from the result;
    `transpose_a` / `transpose_b` swap the last two dims; batch dims broadcast.
    """
    a, b = _shape(op.operands[0]), _shape(op.operands[1])
    if a is None or b is None:
        return None
    if not a or not b:
        raise ValueError(f"operands must have rank >= 1, got {_text(a)} and {_text(b)}")
    pa = (1, *a) if len(a) == 1 else a
    pb = (*b, 1) if len(b) == 1 else b
    if _flag(op, "transpose_a") and len(a) > 1:
        pa = (*pa[:-2], pa[-1], pa[-2])
    if _flag(op, "transpose_b") and len(b) > 1:
        pb = (*pb[:-2], pb[-1], pb[-2])
    if not _same(pa[-1], pb[-2]):
        raise ValueError(
            f"contracting dimensions differ: {pa[-1]} (operand 0, {_text(a)}) vs {pb[-2]} (operand 1, {_text(b)})"
        )
    batch = _broadcast(pa[:-2], pb[:-2])
    if batch is None:
        raise ValueError(f"batch dimensions {_text(pa[:-2])} and {_text(pb[:-2])} do not broadcast")
    return (*batch, *((pa[-2],) if len(a) > 1 else ()), *((pb[-1],) if len(b) > 1 else ()))


def _linear_shapes(op: Any, want: tuple[int | None, ...]) -> list[tuple[int | None, ...]]:
    """The result shapes a `ttnn.linear` may have (tt-mlir LinearOp): broadcast(a @ b, bias), and
    a @ b itself when the tile-padded bias is one tile high (tt-metal's fused kernel)."""
    bias = next((v for v in op.operands[2:] if _shape(v) is not None), None)
    if bias is None:
        return [want]
    shape = _shape(bias)
    assert shape is not None
    if not shape:
        raise ValueError("bias must be at least a 1D tensor")
    out = _broadcast(want, shape)
    if out is None:
        raise ValueError(f"bias shape {_text(shape)} does not broadcast with the matmul result {_text(want)}")
    shapes = [out]
    if len(shape) > 1 and shape[-2] is not None and -(-shape[-2] // 32) * 32 == 32:
        shapes.append(want)
    return shapes


def verify_matmul(op: Any) -> None:
    """`ttnn.matmul` / `ttnn.linear`: contracting dims agree, batch dims broadcast, result shape."""
    want = matmul_result_shape(op)
    got = _shape(op.results[0]) if op.results else None
    if want is None or got is None:
        return
    want = want or (1,)  # a vector-vector product is tensor<1> (tt-mlir's MatmulOp: TTNN has no rank-0 tensors)
    allowed = _linear_shapes(op, want) if op.name == "ttnn.linear" else [want]
    if not any(len(w) == len(got) and all(_same(x, y) for x, y in zip(w, got)) for w in allowed):
        a, b = _shape(op.operands[0]), _shape(op.operands[1])
        shapes = " or ".join(_text(w) for w in allowed)
        raise ValueError(
            f"result shape {_text(got)} does not match the operands: {_text(a or ())} x {_text(b or ())} gives {shapes}"
        )


def verify_prod(op: Any) -> None:
    """`ttnn.prod`: tt-metal reduces tensors of rank 4 at most (HEAD's ProdOp verifier)."""
    shape = _shape(op.operands[0]) if op.operands else None
    if shape is not None and len(shape) > 4:
        raise ValueError("Input tensor rank is greater than 4 for reduce(product).")


VERIFIERS: dict[str, Callable[[Any], None]] = {
    "ttnn.prod": verify_prod,
    "ttnn.matmul": verify_matmul,
    "ttnn.linear": verify_matmul,
}
