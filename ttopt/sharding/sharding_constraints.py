"""`apply-sharding-constraints` (Shardy `sdy-apply-sharding-constraints`, ref §2.5).

For each `sdy.sharding_constraint %x <S>`, S is copied onto %x (its defining op's `sdy.sharding`
or its argument attribute) when %x has no sharding yet, S is fully closed, and no other
constraint or manual computation uses %x with a different sharding. Otherwise the constraint
acts only through propagation.
"""

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
class ApplyShardingConstraints(Pass):
    """Move closed sharding constraints onto the values they constrain."""

    name = "apply-sharding-constraints"
    summary = "Apply closed sdy.sharding_constraint shardings to their unsharded inputs"
    aliases = ("sdy-apply-sharding-constraints",)

    def run(self, module: Module, ctx: PassContext) -> None:
        from ttopt.sharding.factors import get_sharding_attr, set_sharding_attr

        applied = 0
        for op in list(module.walk()):
            if op.name != "sdy.sharding_constraint":
                continue
            x = op.operands[0]
            s = get_sharding_attr(op.results[0])
            why = None
            if s is None:
                continue
            if get_sharding_attr(x) is not None:
                why = "the input already has a sharding"
            elif not s.is_fully_closed:
                why = "the constraint is open"
            else:
                for user in x.users:
                    if user is op:
                        continue
                    if user.name == "sdy.sharding_constraint" and get_sharding_attr(user.results[0]) != s:
                        why = "another constraint on the same value differs"
                    elif user.name == "sdy.manual_computation":
                        why = "a manual computation uses the value"
            if why is None:
                set_sharding_attr(x, s)
                applied += 1
            if ctx.trace.enabled:
                from rich.markup import escape

                what = f"applied {s.op_text()}" if why is None else f"kept ({why})"
                ctx.trace.print(escape(f"sharding_constraint {s.op_text()}: {what}"))
        ctx.stats.setdefault(self.name, {})["applied"] = applied
