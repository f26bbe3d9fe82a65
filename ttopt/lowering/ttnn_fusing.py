"""`ttnn-fusing`: an activation that is the only reader of a `ttnn.matmul` / `ttnn.linear` becomes
the op's `activation` attribute (tt-mlir's TTNNFusing, TTNNMatmulAndLinearWithActivation), so the
activation runs in the matmul's packer instead of as its own program.

Preconditions, as HEAD: the matmul/linear has no activation yet, its result has one use, and that
use is a `ttnn.sigmoid`, `ttnn.silu` or `ttnn.gelu` of the same type. The cost model's estimate of
a matmul does not depend on its activation, so each fold saves the activation op's estimate;
`--trace` prints it per fold and `--stats` the totals. (HEAD's conv2d + activation fold into the
conv2d config, and its op-model-validated TTNN patterns -- RoPE, SDPA decode, split QKV, fused
RMS norm -- are not done here.)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ttopt.device.cost_model import CostModel, op_name
from ttopt.device.device import DeviceError, load_device
from ttopt.ir.attributes import StringAttr
from ttopt.passes.base import Pass
from ttopt.passes.registry import register_pass

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.passes.context import PassContext

ACTIVATIONS = ("ttnn.sigmoid", "ttnn.silu", "ttnn.gelu")
TARGETS = ("ttnn.matmul", "ttnn.linear")


@register_pass
@dataclass
class TTNNFusing(Pass):
    """Fold sigmoid / silu / gelu into the matmul or linear they are the only reader of."""

    name = "ttnn-fusing"
    summary = "Fold an activation (sigmoid, silu, gelu) into the ttnn.matmul / ttnn.linear it alone reads (its activation attribute)"

    def run(self, module: Module, ctx: PassContext) -> None:
        try:
            cost = CostModel(load_device(ctx.device, module))
        except DeviceError:
            cost = CostModel(load_device(None))
        folded: dict[str, int] = {}
        saved = 0.0
        for op in list(module.walk()):
            if op.name not in TARGETS or op.parent is None or "activation" in op.properties:
                continue
            res = op.results[0]
            if len(res.uses) != 1:
                continue
            act = res.uses[0]
            if act.name not in ACTIVATIONS or act.results[0].type.resolve().text != res.type.resolve().text:
                continue
            try:
                c = cost.current_op_cost(act)
            except (TypeError, ValueError, ArithmeticError):
                c = None
            kind = act.name[5:]
            op.properties["activation"] = StringAttr(kind)
            act.results[0].replace_all_uses_with(res)
            act.erase()
            folded[kind] = folded.get(kind, 0) + 1
            saved += c.ns if c is not None else 0.0
            if ctx.trace.enabled:
                est = f", saves {c.ns / 1000:.2f} us (the {kind}'s estimate)" if c is not None else ""
                ctx.trace.print(f'ttnn-fusing: {kind} into {op.name} at "{op_name(op)}": [green]applied[/]{est}')
        stats = ctx.stats.setdefault(self.name, {})
        stats.update({f"{k}.applied": v for k, v in sorted(folded.items())})
        stats["saved_ns"] = round(saved, 1)
