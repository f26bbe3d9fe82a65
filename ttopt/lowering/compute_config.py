"""The backend pipeline's `compute-cfg-*` options: a `#ttnn.device_compute_kernel_config` on every
op that takes one (tt-mlir's TTNNSetComputeKernelConfig).

Each option given (math fidelity, or a bool given as true or false) is written into the op's
compute config unless the op already sets that knob (its own value wins); options not given leave
the knob to tt-metal. A bf16 matmul or linear whose inner dimension exceeds 50000 always gets
`fp32_dest_acc_en` and `packer_l1_acc` (tt-mlir's fix for their accuracy). An op whose config ends
up with nothing set keeps no attribute.
"""

from __future__ import annotations

import re
from typing import Any

from ttopt.ir.attributes import DialectAttr
from ttopt.optimizer.analyses import current_layout, ranked_shape

CONFIG = "ttnn.device_compute_kernel_config"
# Ops with TTNN_ComputeKernelConfigOpInterface in TTNNOps.td.
CONFIGURABLE = frozenset(f"ttnn.{n}" for n in (
    "sum", "mean", "max", "min", "softmax", "linear", "matmul", "prepare_conv2d_weights", "prepare_conv2d_bias",
    "prepare_conv_transpose2d_weights", "prepare_conv_transpose2d_bias", "conv1d", "conv2d", "conv3d", "conv_transpose2d",
    "batch_norm_inference", "batch_norm_training", "rms_norm", "dit_rms_norm_unary_fused", "distributed_rms_norm",
    "rms_norm_pre_all_gather", "layer_norm_pre_all_gather", "layer_norm_post_all_gather", "reduce_scatter",
    "rotary_embedding_llama", "rotary_embedding"))  # fmt: skip
KNOBS = ("math_fidelity", "math_approx_mode", "fp32_dest_acc_en", "packer_l1_acc", "dst_full_sync_en")
LARGE_INNER_DIM = 50000


def _knobs(attr: Any) -> dict[str, str]:
    body = getattr(attr, "body", None) or ""
    return dict(re.findall(r"(\w+)\s*=\s*([\w.]+)", body))


def _inner_dim(op: Any) -> int | None:
    a, b = op.operands[0].type.resolve(), op.operands[1].type.resolve()
    try:
        sa, sb = ranked_shape(a), ranked_shape(b)
    except (AttributeError, TypeError, ValueError):
        return None
    if not sa or not sb:
        return None
    ta = getattr(op.properties.get("transpose_a"), "value", False)
    tb = getattr(op.properties.get("transpose_b"), "value", False)
    k_a = sa[-2] if ta and len(sa) > 1 else sa[-1]
    k_b = sb[-1] if tb else (sb[-2] if len(sb) > 1 else sb[-1])
    return k_a if k_a == k_b else None


def set_compute_config(module: Any, overrides: dict[str, str]) -> int:
    """Apply `overrides` (knob -> printed value, only the options given) to every configurable op;
    returns how many ops changed."""
    changed = 0
    for op in module.walk():
        if op.name not in CONFIGURABLE:
            continue
        old = op.properties.get("compute_config")
        knobs = _knobs(old) if old is not None else {}
        new = dict(knobs)
        for k, v in overrides.items():
            new.setdefault(k, v)
        if op.name in ("ttnn.matmul", "ttnn.linear") and len(op.operands) >= 2:
            inner = _inner_dim(op)
            lay = current_layout(op.results[0].type) if op.results else None
            if inner is not None and inner > LARGE_INNER_DIM and lay is not None and lay.dtype.value == "bf16":
                new["fp32_dest_acc_en"] = "true"
                new["packer_l1_acc"] = "true"
        if new == knobs or not new:
            continue
        body = ", ".join(f"{k} = {new[k]}" for k in KNOBS if k in new)
        op.properties["compute_config"] = DialectAttr(CONFIG, body)
        changed += 1
    return changed
