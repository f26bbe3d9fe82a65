"""`ttnn-fusing`: an activation that is the only reader of a matmul, linear or conv2d runs inside it
(tt-mlir's TTNNFusing), instead of as its own program:

* `ttnn.matmul` / `ttnn.linear` + `ttnn.sigmoid`, `silu` or `gelu` -> the op's `activation`
  attribute (TTNNMatmulAndLinearWithActivation);
* `ttnn.conv2d` (possibly through the reshape back from the flattened NHWC form) + `ttnn.relu`,
  `relu6`, `silu` or `sigmoid` -> `activation = <op_type = ...>` in its `conv2d_config`, with the
  weights' dtype (TTNNConv2dWithActivation).

Preconditions, as HEAD: the op has no activation yet, its result (and the reshape's) has one use,
and that use is the activation, of the same type. The cost model's estimate of a matmul or conv
does not depend on its activation, so each fold saves the activation op's estimate; `--trace`
prints it per fold and `--stats` the totals. (HEAD's op-model-validated TTNN patterns -- RoPE, SDPA
decode, split QKV, fused RMS norm with activation -- are not done here.)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ttopt.device.cost_model import CostModel, op_name
from ttopt.device.device import DeviceError, load_device
from ttopt.ir.attributes import DialectAttr, StringAttr
from ttopt.passes.base import Pass
from ttopt.passes.registry import register_pass

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.ir.operation import Operation
    from ttopt.passes.context import PassContext

ACTIVATIONS = ("ttnn.sigmoid", "ttnn.silu", "ttnn.gelu")
CONV_ACTIVATIONS = ("ttnn.relu", "ttnn.relu6", "ttnn.silu", "ttnn.sigmoid")
TARGETS = ("ttnn.matmul", "ttnn.linear", "ttnn.conv2d")


def _activation_of(op: Operation) -> Operation | None:
    """The activation that alone reads `op` (a conv2d's through its one reshape), or None."""
    res = op.results[0]
    if len(res.uses) != 1:
        return None
    user = res.uses[0]
    if op.name != "ttnn.conv2d":
        return user if user.name in ACTIVATIONS else None
    if user.name == "ttnn.reshape" and len(user.results[0].uses) == 1:
        user = user.results[0].uses[0]
    return user if user.name in CONV_ACTIVATIONS else None


def _conv_config(op: Operation, kind: str) -> Any:
    """The conv's `conv2d_config` with `activation = <op_type = kind>` and the weights' dtype."""
    from ttopt.dialects.ttnn_attrs import Conv2dConfigAttr

    attr = op.get_attr("conv2d_config")
    typed = getattr(attr.resolve(), "typed", None) if attr is not None else None
    params = dict(getattr(typed, "params", ()) or ())
    if "activation" in params:
        return None
    weight = op.operands[1].type.resolve().element_type.resolve().text
    params["weights_dtype"] = {"f32": "f32", "bf16": "bf16"}.get(weight, params.get("weights_dtype", "bf16"))
    params["activation"] = f"<op_type = {kind}>"
    # tt-mlir's parameter order puts these two first; the others keep theirs.
    first = [(k, params.pop(k)) for k in ("weights_dtype", "activation")]
    return DialectAttr.of(Conv2dConfigAttr.of([*first, *params.items()]))


@register_pass
@dataclass
class TTNNFusing(Pass):
    """Fold an activation into the matmul, linear or conv2d it is the only reader of."""

    name = "ttnn-fusing"
    summary = "Fold an activation into the matmul / linear (sigmoid, silu, gelu) or conv2d (relu, relu6, silu, sigmoid) it alone reads"

    def run(self, module: Module, ctx: PassContext) -> None:
        try:
            cost = CostModel(load_device(ctx.device, module))
        except DeviceError:
            cost = CostModel(load_device(None))
        folded: dict[str, int] = {}
        saved = 0.0
        for op in list(module.walk()):
            if op.name not in TARGETS or op.parent is None or "activation" in op.properties or not op.results:
                continue
            act = _activation_of(op)
            if act is None:
                continue
            src = act.operands[0]
            if act.results[0].type.resolve().text != src.type.resolve().text:
                continue
            kind = act.name[5:]
            if op.name == "ttnn.conv2d":
                cfg = _conv_config(op, kind)
                if cfg is None:
                    continue
                op.properties["conv2d_config"] = cfg
            else:
                op.properties["activation"] = StringAttr(kind)
            try:
                c = cost.current_op_cost(act)
            except (TypeError, ValueError, ArithmeticError):
                c = None
            act.results[0].replace_all_uses_with(src)
            act.erase()
            folded[kind] = folded.get(kind, 0) + 1
            saved += c.ns if c is not None else 0.0
            if ctx.trace.enabled:
                est = f", saves {c.ns / 1000:.2f} us (the {kind}'s estimate)" if c is not None else ""
                ctx.trace.print(f'ttnn-fusing: {kind} into {op.name} at "{op_name(op)}": [green]applied[/]{est}')
        stats = ctx.stats.setdefault(self.name, {})
        stats.update({f"{k}.applied": v for k, v in sorted(folded.items())})
        stats["saved_ns"] = round(saved, 1)
