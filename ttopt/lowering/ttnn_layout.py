"""`ttnn-layout` (tt-mlir's TTNNLayout) on TTNN input: every tensor type of a TTNN function that has
no layout gets the one tt-mlir's type converter gives it, DRAM interleaved in tiles, with the
element type normalized (si32 for i32, ...): its signature, block arguments and op results. Types
that have a layout keep it.

On TTIR, tt-mlir's pass is the first half of the conversion (layouts, then `convert-ttir-to-ttnn`);
ttopt's `convert-ttir-to-ttnn` assigns those layouts itself, so a function holding TTIR ops is left
for it as it is.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ttopt.ir.diagnostics import Diagnostic, op_position
from ttopt.ir.types import TensorType
from ttopt.lowering.ttir_to_ttnn import default_layout_type
from ttopt.optimizer.rewrite import LayoutAliaser, update_function_type
from ttopt.passes.base import Pass
from ttopt.passes.registry import register_pass

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.passes.context import PassContext


def _without_layout(t: Any) -> bool:
    t = t.resolve() if hasattr(t, "resolve") else t
    return isinstance(t, TensorType) and t.encoding is None


@register_pass
@dataclass
class TTNNLayout(Pass):
    """Give the encoding-less tensor types of TTNN functions tt-mlir's default TTNN layout."""

    name = "ttnn-layout"
    summary = "Give every tensor type of a TTNN function without a layout tt-mlir's default (DRAM interleaved tiles); TTIR functions are left to convert-ttir-to-ttnn"

    def run(self, module: Module, ctx: PassContext) -> None:
        aliaser = LayoutAliaser(module)
        changed = 0
        for func in module.functions():
            if not func.regions or not func.regions[0].blocks or any(op.name.startswith("ttir.") for op in func.walk()):
                continue
            for op in [func, *func.walk()]:
                values = list(op.results) + [a for r in op.regions for b in r.blocks for a in b.args]
                for v in values:
                    if not _without_layout(v.type):
                        continue
                    try:
                        v.type = default_layout_type(v.type, aliaser)
                    except ValueError as e:
                        raise Diagnostic(f"ttnn-layout: '{op.name}' {e}", op_position(module.source, op)) from None
                    changed += 1
            update_function_type(func)
        ctx.stats.setdefault(self.name, {})["tensors"] = changed
