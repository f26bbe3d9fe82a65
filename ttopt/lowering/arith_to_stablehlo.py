"""`convert-arith-to-stablehlo` (tt-mlir's ArithToStableHLOPass): `arith.constant` becomes
`stablehlo.constant` with the same value (some frontends emit arith constants in StableHLO
programs). Any other arith op is a diagnostic at the op, as tt-mlir's full conversion fails on it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ttopt.ir.diagnostics import Diagnostic, op_position
from ttopt.ir.operation import Operation
from ttopt.passes.base import Pass
from ttopt.passes.registry import register_pass

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.passes.context import PassContext


@register_pass
@dataclass
class ConvertArithToStableHLO(Pass):
    """arith.constant -> stablehlo.constant; other arith ops are diagnostics."""

    name = "convert-arith-to-stablehlo"
    summary = "arith.constant -> stablehlo.constant (other arith ops: an error at the op)"

    def run(self, module: Module, ctx: PassContext) -> None:
        n = 0
        for op in [o for o in module.walk() if o.dialect == "arith"]:
            if op.name != "arith.constant" or "value" not in op.properties:
                raise Diagnostic(f"{self.name}: failed to legalize operation '{op.name}'", op_position(module.source, op))
            new = Operation("stablehlo.constant", [], [op.results[0].type], properties={"value": op.properties["value"]},
                            location=op.location, result_names=[op.results[0].name_hint])  # fmt: skip
            new.pos = op.pos
            block = op.parent
            assert block is not None
            block.insert(block.index(op), new)
            op.results[0].replace_all_uses_with(new.results[0])
            op.erase()
            n += 1
        ctx.stats.setdefault(self.name, {})["constants"] = n
