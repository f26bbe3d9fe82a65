"""`ttir.adamw` -> `ttnn.adamw` (HEAD's AdamWOpConversionPattern): the fused ttml optimizer step
writes `param`, `exp_avg`, `exp_avg_sq` and the optional `max_exp_avg_sq` (AMSGrad) in place, so the
TTNN op has no results and each TTIR result is replaced by the operand it updates. An updated
operand read after the step is an error (HEAD's pattern does not match it: the read would see the
written value). The ttml kernel takes a bf16 gradient, so another data type is typecast to bf16
before the op (the f32 state tensors stay f32). The seven f32 hyper-parameters and
`stochastic_rounding` are copied."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ttopt.ir.attributes import mlir_float_attr
from ttopt.ir.operation import Operation
from ttopt.ir.types import ScalarType, TensorType

if TYPE_CHECKING:
    from ttopt.lowering.ttir_to_ttnn import _Lowering

BF16 = ScalarType("bf16")
KEYS = ("lr", "beta1", "beta2", "beta1_pow", "beta2_pow", "epsilon", "weight_decay", "stochastic_rounding")
UPDATED = (0, 2, 3, 4)  # param, exp_avg, exp_avg_sq, max_exp_avg_sq: the operands written in place


def _adamw(lw: _Lowering, op: Any) -> list[Any]:
    ins = list(op.operands)
    if len(ins) not in (4, 5):
        raise ValueError(f"has {len(ins)} operands; expected param, grad, exp_avg, exp_avg_sq and an optional max_exp_avg_sq")
    if len(op.results) != len(ins) - 1:
        raise ValueError(f"has {len(op.results)} results; expected one per updated operand ({len(ins) - 1})")
    shape = tuple(ins[0].type.resolve().shape)
    if any(tuple(v.type.resolve().shape) != shape for v in ins[1:]):
        raise ValueError("every operand must have the shape of param")
    emitted = {id(o) for o in lw.out}
    for i in UPDATED[: len(ins) - 1]:
        if any(u is not op and id(u) not in emitted for u in ins[i].users):
            raise ValueError(f"operand {i} is updated in place but read after the step")
    missing = [k for k in KEYS[:-1] if op.get_attr(k) is None]
    if missing:
        raise ValueError(f"needs the f32 attribute '{missing[0]}'")
    grad = ins[1]
    gt = grad.type.resolve()
    if gt.element_type.resolve().text != BF16.text:
        grad = lw.emit("ttnn.typecast", [grad], lw.layout_type(TensorType(tuple(gt.shape), BF16), op), {}, op.location)
    properties = {k: mlir_float_attr(op.get_attr(k)) for k in KEYS if op.get_attr(k) is not None}
    lw.out.append(Operation("ttnn.adamw", [ins[0], grad, *ins[2:]], [], properties=properties, location=op.location))
    return [ins[i] for i in UPDATED[: len(ins) - 1]]


ADAMW_RULES = {"adamw": _adamw}
# A result per updated operand (the lowering's one-result check does not apply).
MULTI_RESULT = frozenset(ADAMW_RULES)
