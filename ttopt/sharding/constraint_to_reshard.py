"""`sharding-constraint-to-reshard` (Shardy `sdy-sharding-constraint-to-reshard`, ref §2.7):
every `sdy.sharding_constraint %x <S>` becomes `sdy.reshard %x <S>`, one for one."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ttopt.passes.base import Pass
from ttopt.passes.registry import register_pass

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.passes.context import PassContext


@register_pass
@dataclass
class ShardingConstraintToReshard(Pass):
    """Turn sharding constraints into reshards (same operand, sharding and result)."""

    name = "sharding-constraint-to-reshard"
    summary = "Replace sdy.sharding_constraint with sdy.reshard"
    aliases = ("sdy-sharding-constraint-to-reshard",)

    def run(self, module: Module, ctx: PassContext) -> None:
        n = 0
        for op in module.walk():
            if op.name == "sdy.sharding_constraint":
                op.name = "sdy.reshard"
                op._opdef = False  # re-resolve the op definition under the new name
                n += 1
        ctx.stats.setdefault(self.name, {})["replaced"] = n
