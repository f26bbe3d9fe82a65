"""`ttnn-set-compute-kernel-config` (tt-mlir's TTNNSetComputeKernelConfig): a
`#ttnn.device_compute_kernel_config` on every op that takes one. The backend pipeline runs it with
its `compute-cfg-*` options.

Each knob is tri-state: a fidelity (or `undefined`), a bool as `true`, `false` or `unset`. A knob
that is set is written into the op's compute config unless the op already sets it (its own value
wins); an unset knob is left to tt-metal. A bf16 matmul or linear whose inner dimension exceeds
50000 always gets `fp32_dest_acc_en` and `packer_l1_acc` (tt-mlir's fix for their accuracy). An op
whose config ends up with nothing set keeps no attribute. The pass's defaults are HEAD's:
`math-fidelity=hifi4 fp32-dest-acc-en=true`, the rest unset.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ttopt.ir.attributes import DialectAttr
from ttopt.optimizer.analyses import ranked_shape
from ttopt.passes.base import Pass, option
from ttopt.passes.registry import register_pass

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.passes.context import PassContext

CONFIG = "ttnn.device_compute_kernel_config"
# Ops with TTNN_ComputeKernelConfigOpInterface in TTNNOps.td.
CONFIGURABLE = frozenset(f"ttnn.{n}" for n in (
    "sum", "mean", "max", "min", "softmax", "linear", "matmul", "prepare_conv2d_weights", "prepare_conv2d_bias",
    "prepare_conv_transpose2d_weights", "prepare_conv_transpose2d_bias", "conv1d", "conv2d", "conv3d", "conv_transpose2d",
    "batch_norm_inference", "batch_norm_training", "rms_norm", "dit_rms_norm_unary_fused", "distributed_rms_norm",
    "rms_norm_pre_all_gather", "layer_norm_pre_all_gather", "layer_norm_post_all_gather", "reduce_scatter",
    "rotary_embedding_llama", "rotary_embedding"))  # fmt: skip
KNOBS = ("math_fidelity", "math_approx_mode", "fp32_dest_acc_en", "packer_l1_acc", "dst_full_sync_en")
BOOL_KNOBS = KNOBS[1:]
FIDELITY_CHOICES = ("lofi", "hifi2", "hifi3", "hifi4", "undefined")
TRISTATE = ("true", "false", "unset")
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
    ta = getattr(op.get_attr("transpose_a"), "value", False)
    tb = getattr(op.get_attr("transpose_b"), "value", False)
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
        # An inherent attribute may be spelled in the attribute dictionary (generic form); it stays there.
        where = op.attributes if "compute_config" in op.attributes and "compute_config" not in op.properties else op.properties
        old = where.get("compute_config")
        knobs = _knobs(old) if old is not None else {}
        new = dict(knobs)
        for k, v in overrides.items():
            new.setdefault(k, v)
        if op.name in ("ttnn.matmul", "ttnn.linear") and len(op.operands) >= 2 and op.results:
            inner = _inner_dim(op)
            out = op.results[0].type.resolve()
            if inner is not None and inner > LARGE_INNER_DIM and getattr(getattr(out, "element_type", None), "text", "") == "bf16":
                new["fp32_dest_acc_en"] = "true"
                new["packer_l1_acc"] = "true"
        if new == knobs or not new:
            continue
        body = ", ".join(f"{k} = {new[k]}" for k in KNOBS if k in new)
        where["compute_config"] = DialectAttr(CONFIG, body)
        changed += 1
    return changed


@register_pass
@dataclass
class TTNNSetComputeKernelConfig(Pass):
    """Fill the compute config of every op that takes one."""

    name = "ttnn-set-compute-kernel-config"
    summary = "Set the compute config knobs ops leave out, and the large-K bf16 matmul fix (tt-mlir's TTNNSetComputeKernelConfig)"

    math_fidelity: str = option("hifi4", "math_fidelity of every op with a compute config that does not set it (undefined: tt-metal's)", choices=FIDELITY_CHOICES)
    math_approx_mode: str = option("unset", "math_approx_mode of every op with a compute config that does not set it (unset: tt-metal's)", choices=TRISTATE)
    fp32_dest_acc_en: str = option("true", "fp32_dest_acc_en of every op with a compute config that does not set it (unset: tt-metal's)", choices=TRISTATE)
    packer_l1_acc: str = option("unset", "packer_l1_acc of every op with a compute config that does not set it (unset: tt-metal's)", choices=TRISTATE)
    dst_full_sync_en: str = option("unset", "dst_full_sync_en of every op with a compute config that does not set it (unset: tt-metal's)", choices=TRISTATE)

    def overrides(self) -> dict[str, str]:
        """The knobs this pass writes where an op leaves them out (`undefined` / `unset`: none)."""
        out = {"math_fidelity": self.math_fidelity} if self.math_fidelity != "undefined" else {}
        out.update({k: v for k in BOOL_KNOBS if (v := getattr(self, k)) != "unset"})
        return out

    def run(self, module: Module, ctx: PassContext) -> None:
        changed = set_compute_config(module, self.overrides())
        ctx.stats.setdefault(self.name, {})["ops configured"] = changed
