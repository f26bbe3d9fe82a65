"""`cpu-hoist-non-lowerable-shlo-ops`: the StableHLO ops of tt-mlir's CPU fallback allow-list move
from the device program to host functions of a `ttcore.cpu_module` (tt-mlir's
CPUHoistNonLowerableSHLOOpsTransform, lib/Dialect/TTIR/Transforms/HoistCPUOps/).

It runs in `stablehlo-to-ttir-pipeline` under `enable-cpu-fallback=true`, after the partial
conversion and the device-module wrapping: each allow-listed op of a function of the device module
becomes a call of `@cpu_hoisted_stablehlo_<op>_<hash>`, whose definition holds the StableHLO op,
with cpu_hoist.py's machinery (32-bit types, `ttir.to_layout` around the call, a private
declaration in the device module, one definition per hash). Without a device module it does
nothing, as tt-mlir. The CPU module's StableHLO is lowered by `convert-cpu-module-to-llvm`
(cpu_llvm/hoisted_stablehlo.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ttopt.lowering.cpu_hoist import Segment, hoist_segment
from ttopt.lowering.device_module import DEVICE_MODULE, cpu_inner_module, device_inner_module
from ttopt.passes.base import Pass
from ttopt.passes.registry import register_pass

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.passes.context import PassContext

# tt-mlir's allow-list (isNonLowerableSHLOOp): ops its StableHLO-to-TTIR conversion has no pattern
# for and its host lowering (StableHLO to Linalg) takes.
CPU_FALLBACK_OPS = frozenset({"stablehlo.dynamic_update_slice", "stablehlo.einsum"})


@register_pass
@dataclass
class CPUHoistNonLowerableSHLOOps(Pass):
    """Hoist the allow-listed StableHLO ops to host functions (tt-mlir's cpu-hoist-non-lowerable-shlo-ops)."""

    name = "cpu-hoist-non-lowerable-shlo-ops"
    summary = ("Move each stablehlo.dynamic_update_slice / stablehlo.einsum of the device module into its own "
               "@cpu_hoisted_stablehlo_<op>_<hash> function of a ttcore.cpu_module (after ttcore-wrap-device-module)")  # fmt: skip

    def run(self, module: Module, ctx: PassContext) -> None:
        if not any(op.name == DEVICE_MODULE for op in module.body.ops):
            return
        device = device_inner_module(module)
        # Found first, then hoisted, as tt-mlir collects every descriptor before it rewrites.
        found = [op for f in device.regions[0].entry.ops if f.name == "func.func" for op in f.walk() if op.name in CPU_FALLBACK_OPS]
        if not found:
            return
        cpu = cpu_inner_module(module, create=True)
        assert cpu is not None
        for op in found:
            hoist_segment(module, Segment([op], list(op.results), op.name), device, cpu)
        ctx.stats.setdefault(self.name, {})["hoisted-ops"] = len(found)
