"""Verifiers of the TTNN normalizations (HEAD's RMSNormOp, RMSNormPreAllGatherOp,
LayerNormPreAllGatherOp and LayerNormPostAllGatherOp::verify), with HEAD's messages."""

from __future__ import annotations

from typing import Any

from ttopt.dialects.verify_common import TILE, operands_named, shape


def _affine(named: dict[str, Any], x: tuple[int, ...]) -> None:
    """A weight and bias of the input's last dim (0-D for a 0-D input)."""
    for name in ("weight", "bias"):
        v = named.get(name)
        s = shape(v) if v is not None else None
        if s is None:
            continue
        if not x:
            if s:
                raise ValueError(f"{name} tensor must be 0D for 0D input tensor")
        elif len(s) != 1 or s[0] != x[-1]:
            raise ValueError(f"{name} tensor must be 1D with size matching the last dimension of input")


def verify_rms_norm(op: Any) -> None:
    """HEAD's RMSNormOp::verify."""
    named = operands_named(op, ("input", "weight", "bias"))
    x = shape(named["input"])
    out = shape(op.results[0]) if op.results else None
    if x is None or out is None:
        return
    if x != out:
        raise ValueError("input and output must have the same shape")
    _affine(named, x)


def _leading_dims(x: tuple[int, ...], out: tuple[int, ...]) -> None:
    for i in range(len(x) - 1):
        if x[i] != out[i]:
            raise ValueError(f"output dimension {i} ({out[i]}) must match input dimension ({x[i]})")


def verify_rms_norm_pre_all_gather(op: Any) -> None:
    """HEAD's RMSNormPreAllGatherOp::verify: per-row statistics of a rank >= 2 input."""
    named = operands_named(op, ("input", "residual"))
    x = shape(named["input"])
    out = shape(op.results[0]) if op.results else None
    if x is None or out is None:
        return
    if len(x) < 2:
        raise ValueError("input tensor must have rank greater than 1")
    if len(x) != len(out):
        raise ValueError("input rank must match the output rank")
    _leading_dims(x, out)
    r = named.get("residual")
    if r is not None and shape(r) is not None and shape(r) != x:
        raise ValueError("residual tensor shape must match the input tensor shape")


def verify_layer_norm_pre_all_gather(op: Any) -> None:
    """HEAD's LayerNormPreAllGatherOp::verify: the statistics are two tiles wide."""
    named = operands_named(op, ("input", "residual_input", "recip"))
    x = shape(named["input"])
    out = shape(op.results[0]) if op.results else None
    if x is None or out is None:
        return
    if len(x) < 2:
        raise ValueError("input tensor must have rank >= 2")
    r = named.get("residual_input")
    if r is not None and shape(r) is not None and shape(r) != x:
        raise ValueError("residual_input shape must match input shape")
    if len(x) != len(out):
        raise ValueError("input and output must have the same rank")
    _leading_dims(x, out)
    if out[-1] != 2 * TILE:
        raise ValueError(f"output last dimension must be {2 * TILE} (2 * TILE_WIDTH) for layernorm partial statistics, got {out[-1]}")


def verify_layer_norm_post_all_gather(op: Any) -> None:
    """HEAD's LayerNormPostAllGatherOp::verify."""
    named = operands_named(op, ("input", "stats", "weight", "bias"))
    x = shape(named["input"])
    stats = shape(named["stats"]) if "stats" in named else None
    out = shape(op.results[0]) if op.results else None
    if x is None or out is None:
        return
    if len(x) < 2:
        raise ValueError("input must have rank >= 2")
    if stats is not None and len(stats) < 2:
        raise ValueError("stats must have rank >= 2")
    if x != out:
        raise ValueError("input and output must have the same shape")
    _affine(named, x)


VERIFIERS = {
    "ttnn.rms_norm": verify_rms_norm,
    "ttnn.rms_norm_pre_all_gather": verify_rms_norm_pre_all_gather,
    "ttnn.layer_norm_pre_all_gather": verify_layer_norm_pre_all_gather,
    "ttnn.layer_norm_post_all_gather": verify_layer_norm_post_all_gather,
}
