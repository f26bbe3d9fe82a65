"""`ttir.linear` -> `ttnn.linear`, or `ttnn.matmul` + `ttnn.add` (+ `ttnn.reshape`) when tt-metal's
fused-bias linear would compute it wrong (HEAD's conversion followed by its LinearOpRewritePattern
workaround, which the backend pipeline always runs).

The fused bias kernel broadcasts only row 0 of the bias tile, so the bias stays fused only when
the weight is not batched (no dimension before its last two above 1), every bias dimension but the
last is 1, and the bias's last dimension is the matmul's output feature size. Otherwise: a matmul of
tt-metal's output shape, an add broadcasting it with the bias, and a reshape to the linear's result
shape when the two differ.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ttopt.dialects.ttir import broadcast_shape, inputs
from ttopt.ir.attributes import BoolAttr
from ttopt.ir.properties import props
from ttopt.ir.types import TensorType

if TYPE_CHECKING:
    from ttopt.lowering.ttir_to_ttnn import _Lowering


def matmul_shape(a: tuple[int, ...], ta: bool, b: tuple[int, ...], tb: bool) -> tuple[int, ...]:
    """tt-metal's matmul output shape (HEAD's computeMatmulOutputShape)."""
    if len(a) == 1 and len(b) == 1:
        return (1,)
    if len(a) == 1:
        return (*b[:-2], b[-2] if tb else b[-1])
    if len(b) == 1:
        return (*a[:-2], a[-1]) if ta else a[:-1]
    batch = broadcast_shape(a[:-2], b[:-2]) or ()
    return (*batch, a[-1] if ta else a[-2], b[-2] if tb else b[-1])


def bias_stays_fused(b: tuple[int, ...], bias: tuple[int, ...], out: tuple[int, ...]) -> bool:
    """Whether tt-metal's fused-bias linear computes this bias right (HEAD's canKeepBiasFusedInLinear)."""
    batched = len(b) > 2 and any(d > 1 for d in b[:-2])
    if batched or not bias:
        return False
    if len(bias) > 1 and any(d > 1 for d in bias[:-1]):
        return False
    return bias[-1] == out[-1]


def _linear(lw: _Lowering, op: Any) -> Any:
    p = props(op)
    ins = inputs(op)
    flags = {"transpose_a": BoolAttr(p.transpose_a), "transpose_b": BoolAttr(p.transpose_b)}
    rt = lw.layout_type(op.results[0].type, op)
    if len(ins) < 3:
        return lw.emit("ttnn.linear", ins, rt, flags, op.location)
    a, b, bias = (tuple(v.type.resolve().shape) for v in ins[:3])
    mm = matmul_shape(a, bool(p.transpose_a), b, bool(p.transpose_b))
    if bias_stays_fused(b, bias, mm):
        return lw.emit("ttnn.linear", ins, rt, flags, op.location)
    elem = op.results[0].type.resolve().element_type
    product = lw.emit("ttnn.matmul", ins[:2], lw.layout_type(TensorType(mm, elem), op), flags, op.location)
    added = broadcast_shape(mm, bias)
    if added is None:
        raise ValueError(f"bias shape {list(bias)} does not broadcast with the matmul's {list(mm)}")
    total = lw.emit("ttnn.add", [product, ins[2]], lw.layout_type(TensorType(tuple(added), elem), op), {}, op.location)
    return lw.reshape(total, tuple(op.results[0].type.resolve().shape), op, op.location)


LINEAR_RULES = {"linear": _linear}
