"""`ttnn-weight-dtype-conversion`: matmul and linear weights stored in a block-float type (tt-mlir's
TTNNWeightDtypeConversion; the backend pipeline's `experimental-weight-dtype`).

The weight (operand 1) of a `ttnn.matmul` / `ttnn.linear` / `ttnn.sparse_matmul` whose values come only from parameter or
constant arguments (every function argument its def chain reaches is one, and it reaches at least
one) and whose data type is bf16 or f32 gets a cast to the target type: for bfp_bf4 on the host
(`ttnn.from_device`, `ttnn.typecast`, `ttnn.to_device`: tt-metal's host packer is the more accurate
one), otherwise one `ttnn.typecast` on the device. The cast depends only on parameters, so
const-eval hoists it. An op's own `ttcore.weight_dtype` (bfp_bf8, bfp_bf4 or bf16; set by
`ttir-propagate-weight-dtype` from the weight argument's, kept by `convert-ttir-to-ttnn`) wins over
the option, which may be none; another string is ignored with a warning at the op. The backend
pipeline always runs the pass, as tt-mlir does, so per-op types apply without the option.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ttopt.ir.attributes import StringAttr
from ttopt.ir.operation import Operation
from ttopt.lowering.const_eval import const_args, reached_arguments
from ttopt.lowering.dtype_types import dtype_of, with_dtype
from ttopt.lowering.trace import get_or_insert_device, is_forward
from ttopt.optimizer.rewrite import LayoutAliaser
from ttopt.passes.base import Pass, option
from ttopt.passes.registry import register_pass
from ttopt.sharding.diagnostics import warn

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.passes.context import PassContext

WEIGHT_OPS = frozenset({"ttnn.matmul", "ttnn.linear", "ttnn.sparse_matmul"})
OP_DTYPE = "ttcore.weight_dtype"
LEGAL_OP_DTYPES = ("bfp_bf8", "bfp_bf4", "bf16")
CONVERTIBLE = ("bf16", "f32")
BFP_DTYPES = ("none", "bfp_bf8", "bfp_bf4")


def traces_to_const_args(v: Any, consts: set[int]) -> bool:
    """Whether every function argument `v`'s def chain reaches is a parameter / constant one (and there is one)."""
    args = reached_arguments(v)
    return bool(args) and args is not None and args <= consts


def _target(module: Module, op: Operation, default: str) -> str:
    """The op's own legal `ttcore.weight_dtype`, else `default` (with HEAD's warning for an illegal name)."""
    own = op.attributes.get(OP_DTYPE)
    value = own.resolve() if own is not None else None
    if not isinstance(value, StringAttr):
        return default
    if value.value in LEGAL_OP_DTYPES:
        return value.value
    warn(module, op, f'ignoring invalid {OP_DTYPE} "{value.value}"; legal values are: {", ".join(LEGAL_OP_DTYPES)}')
    return default


def convert_weights(module: Module, func: Any, dtype: str, aliaser: LayoutAliaser) -> int:
    """Cast the parameter-only weights of `func`'s matmuls / linears to their target type; returns how many."""
    block = func.regions[0].entry
    consts = const_args(func)
    count = 0
    for op in list(block.ops):
        if op.name not in WEIGHT_OPS or len(op.operands) < 2:
            continue
        w = op.operands[1]
        if not traces_to_const_args(w, consts):
            continue
        target = _target(module, op, dtype)
        have = dtype_of(w.type)
        if target == "none" or have is None or have == target or have not in CONVERTIBLE:
            continue
        loc = op.location
        if target == "bfp_bf4":
            device = get_or_insert_device(module, block)
            host = Operation("ttnn.from_device", [w], [with_dtype(w.type, have, aliaser, buffer_type="system_memory")], location=loc)
            cast = Operation("ttnn.typecast", [host.results[0]], [with_dtype(host.results[0].type, target, aliaser)], location=loc)
            back = Operation("ttnn.to_device", [cast.results[0], device], [with_dtype(w.type, target, aliaser)], location=loc)
            new = [host, cast, back]
        else:
            new = [Operation("ttnn.typecast", [w], [with_dtype(w.type, target, aliaser)], location=loc)]
        at = block.index(op)
        for i, n in enumerate(new):
            block.insert(at + i, n)
        op.set_operand(1, new[-1].results[0])
        count += 1
    return count


@register_pass
@dataclass
class TTNNWeightDtypeConversion(Pass):
    """Store matmul / linear weights in a block-float type (tt-mlir's ttnn-weight-dtype-conversion)."""

    name = "ttnn-weight-dtype-conversion"
    summary = "Cast the parameter-only weights of matmul / linear ops to the target block-float type (bfp_bf4 on the host)"

    target_dtype: str = option("none", "Block-float type of the weights (none: only ops' own ttcore.weight_dtype)", choices=BFP_DTYPES)

    def run(self, module: Module, ctx: PassContext) -> None:
        aliaser = LayoutAliaser(module)
        count = sum(convert_weights(module, f, self.target_dtype, aliaser) for f in list(module.functions()) if is_forward(f))
        ctx.stats.setdefault(self.name, {})["converted-weights"] = count
