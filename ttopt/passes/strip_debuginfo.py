"""`strip-debuginfo`: replace every location by `loc(unknown)` and drop location aliases."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ttopt.ir.location import UNKNOWN_LOC
from ttopt.passes.base import Pass
from ttopt.passes.registry import register_pass

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.passes.context import PassContext


@register_pass
@dataclass
class StripDebugInfo(Pass):
    """Strip debug info, as mlir-opt's pass of the same name."""

    name = "strip-debuginfo"
    summary = "Replace all locations with loc(unknown)"

    def run(self, module: Module, ctx: PassContext) -> None:
        for op in module.walk():
            if op.location is not None:
                op.location = UNKNOWN_LOC
            for region in op.regions:
                for block in region.blocks:
                    for arg in block.args:
                        if arg.location is not None:
                            arg.location = UNKNOWN_LOC
        defs = module.aliases.defs
        for key in [k for k, d in defs.items() if d.is_location]:
            del defs[key]
