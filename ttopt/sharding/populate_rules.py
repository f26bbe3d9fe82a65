"""`populate-op-sharding-rules`: write each op's rule as `sdy.sharding_rule = #sdy.op_sharding_rule<...>`.

The same text Shardy's `sdy-populate-op-sharding-rules` writes, so rules can be compared with
jaxlib's op by op (testdata/shardy/rules/).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ttopt.ir.attributes import DialectAttr
from ttopt.passes.base import Pass, option
from ttopt.passes.registry import register_pass

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.passes.context import PassContext


@register_pass
@dataclass
class PopulateOpShardingRules(Pass):
    """Attach every op's sharding rule (ops without a rule are left alone)."""

    name = "populate-op-sharding-rules"
    summary = "Attach #sdy.op_sharding_rule<...> to every op that has a sharding rule"
    aliases = ("sdy-populate-op-sharding-rules",)

    conservative_propagation: bool = option(False, "Conservative variants of the rules (no concat/conv-spatial factors, blocked slices)")

    def run(self, module: Module, ctx: PassContext) -> None:
        from ttopt.sharding.diagnostics import warn
        from ttopt.sharding.rules import custom_call_is_known, custom_call_target, rule_for

        count = 0
        warned = False
        for op in module.walk():
            if op.name == "func.func" or "sdy.sharding_rule" in op.attributes:
                continue
            rule = rule_for(op, self.conservative_propagation)
            if rule is None:
                # As Shardy, once per run: the first custom call whose target has no rule.
                if op.name == "stablehlo.custom_call" and not warned and not custom_call_is_known(op):
                    warn(module, op, f"custom call @{custom_call_target(op)} is unknown to SDY sharding rule registry")
                    warned = True
                continue
            body = rule.print_body()
            op.attributes["sdy.sharding_rule"] = DialectAttr("sdy.op_sharding_rule", body, f"#sdy.op_sharding_rule<{body}>")
            count += 1
            if ctx.trace.enabled:
                ctx.trace.print(f"[bold]{op.name}[/]: {rule.text}")
        ctx.stats.setdefault(self.name, {})["rules"] = count
