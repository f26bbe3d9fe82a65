"""`ttir.batch_norm_inference` / `batch_norm_training` -> `ttnn.batch_norm_inference` / `batch_norm_training`.

`ttir.batch_norm_inference` -> `ttnn.batch_norm_inference` (tt-mlir's BatchNormInference
decomposition and conversion): a rank-4 input normalized over dimension 1 (what HEAD lowers), the
1-D statistics and affine parameters reshaped to (1, C, 1, 1), passed in TTNN's operand order
(input, running_mean, running_var, weight, bias) with `operandSegmentSizes` and the epsilon."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ttopt.dialects.ttir import inputs
from ttopt.ir.attributes import DenseArrayAttr

if TYPE_CHECKING:
    from ttopt.lowering.ttir_to_ttnn import _Lowering


def _batch_norm_inference(lw: _Lowering, op: Any) -> Any:
    ins = inputs(op)
    if len(ins) != 5:
        raise ValueError(f"has {len(ins)} operands; expected operand, scale, offset, mean, variance")
    x, scale, offset, mean, variance = ins
    shape = tuple(x.type.resolve().shape)
    dim = getattr(op.get_attr("dimension"), "value", None)
    if len(shape) != 4 or dim not in (1, -3):
        raise ValueError("lowers to ttnn.batch_norm_inference only for a rank-4 input normalized over dimension 1")
    channels = shape[1]
    params = []
    for v in (mean, variance, scale, offset):
        if v.type.resolve().shape not in ((channels,), (1, channels, 1, 1)):
            raise ValueError(f"parameters must have {channels} elements (1-D or 1x{channels}x1x1)")
        params.append(lw.reshape(v, (1, channels, 1, 1), op, op.location))
    properties = {"epsilon": op.get_attr("epsilon"), "operandSegmentSizes": DenseArrayAttr("i32", (1, 1, 1, 1, 1))}
    return lw.emit("ttnn.batch_norm_inference", [x, *params], lw.layout_type(op.results[0].type, op), properties, op.location)


def _batch_norm_training(lw: _Lowering, op: Any) -> list[Any]:
    """HEAD's BatchNormTrainingPattern and conversion: the 1-D parameters reshaped to (1, C, 1, 1)
    (scale, offset, mean, variance), `ttnn.batch_norm_training` (input, running mean, running
    variance, weight, bias) updating the running statistics in place, and those 4-D statistics
    reshaped back to (C) as the op's batch mean and variance results."""
    ins = inputs(op)
    if len(ins) != 5:
        raise ValueError(f"has {len(ins)} operands; expected operand, scale, offset, running_mean, running_variance")
    x, *rest = ins
    shape = tuple(x.type.resolve().shape)
    dim = getattr(op.get_attr("dimension"), "value", None)
    if len(shape) != 4 or dim not in (1, -3):
        raise ValueError("lowers to ttnn.batch_norm_training only for a rank-4 input normalized over dimension 1")
    channels = shape[1]
    scale, offset, mean, variance = (_param4(lw, op, v, channels) for v in rest)
    properties = {"epsilon": op.get_attr("epsilon"), "momentum": op.get_attr("momentum"),
                  "operandSegmentSizes": DenseArrayAttr("i32", (1, 1, 1, 1, 1))}  # fmt: skip
    properties = {k: v for k, v in properties.items() if v is not None}
    y = lw.emit("ttnn.batch_norm_training", [x, mean, variance, scale, offset], lw.layout_type(op.results[0].type, op), properties, op.location)
    stats = [lw.reshape(v, tuple(r.type.resolve().shape), op, op.location) for v, r in zip((mean, variance), op.results[1:])]
    return [y, *stats]


def _param4(lw: _Lowering, op: Any, v: Any, channels: int) -> Any:
    if v.type.resolve().shape not in ((channels,), (1, channels, 1, 1)):
        raise ValueError(f"parameters must have {channels} elements (1-D or 1x{channels}x1x1)")
    return lw.reshape(v, (1, channels, 1, 1), op, op.location)


BATCH_NORM_RULES = {"batch_norm_inference": _batch_norm_inference, "batch_norm_training": _batch_norm_training}
MULTI_RESULT = frozenset({"batch_norm_training"})
