"""`ttir.sdpa_fw` / `ttir.sdpa_bw` -> `ttnn.sdpa_fw` / `ttnn.sdpa_bw` (HEAD's SDPAForwardOp /
SDPABackwardOp conversions) with HEAD's data-type workarounds for the ttml kernels, which the
backend pipeline always applies: query, key, value, the optional mask (and for the backward op the
gradient and forward output) and the data results are bf16 -- other data types are typecast to
bf16 before the op and its results back after it -- while the log-sum-exp intermediates are f32.
The attributes (`mask_type`, `dropout_probability`, `return_intermediates`) are copied."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ttopt.ir.operation import Operation
from ttopt.ir.types import ScalarType, TensorType

if TYPE_CHECKING:
    from ttopt.lowering.ttir_to_ttnn import _Lowering

BF16, F32 = ScalarType("bf16"), ScalarType("f32")


def _cast(lw: _Lowering, op: Any, v: Any, element: ScalarType) -> Any:
    t = v.type.resolve()
    if t.element_type.resolve().text == element.text:
        return v
    return lw.emit("ttnn.typecast", [v], lw.layout_type(TensorType(tuple(t.shape), element), op), {}, op.location)


def _sdpa(name: str, operands: int, f32_operand: int | None, keys: tuple[str, ...]) -> Any:
    """A rule for `name`: `operands` required operands (the one at `f32_operand` kept f32), then an
    optional mask; bf16 data results, an f32 intermediates result (sdpa_fw's second)."""

    def rule(lw: _Lowering, op: Any) -> list[Any]:
        ins = list(op.operands)
        if len(ins) not in (operands, operands + 1):
            raise ValueError(f"has {len(ins)} operands; expected {operands} and an optional attention mask")
        cast = [_cast(lw, op, v, F32 if i == f32_operand else BF16) for i, v in enumerate(ins)]
        declared = [r.type.resolve() for r in op.results]
        kernel = [TensorType(tuple(t.shape), F32 if (name == "sdpa_fw" and i == 1) else BF16) for i, t in enumerate(declared)]
        properties = {k: op.get_attr(k) for k in keys if op.get_attr(k) is not None}
        new = Operation(f"ttnn.{name}", cast, [lw.layout_type(t, op) for t in kernel], properties=properties, location=op.location)
        lw.out.append(new)
        return [_cast(lw, op, r, t.element_type.resolve()) for r, t in zip(new.results, declared)]

    return rule


SDPA_TRAINING_RULES = {
    "sdpa_fw": _sdpa("sdpa_fw", 3, None, ("dropout_probability", "mask_type", "return_intermediates")),
    "sdpa_bw": _sdpa("sdpa_bw", 6, 5, ("dropout_probability", "mask_type")),
}
MULTI_RESULT = frozenset(SDPA_TRAINING_RULES)
