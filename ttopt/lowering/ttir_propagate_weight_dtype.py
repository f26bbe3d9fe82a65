"""`ttir-propagate-weight-dtype`: a weight argument's `ttcore.weight_dtype` onto the matmuls that
read it (tt-mlir's TTIRPropagateWeightDtype; the backend pipeline runs it after `ttir-fusing`,
before const-eval hoisting, while the weights are still arguments of the flat function).

The weight (operand 1) of every `ttir.matmul`, `ttir.linear` and `ttir.sparse_matmul` is traced
back through ops that leave it the same weight tensor, each through its first operand: HEAD's
TensorManipulation ops (`dialects/ttir.py` TENSOR_MANIPULATION: reshape, permute, transpose,
rearrange), its CCL ops (CCL), `broadcast`, `mesh_shard`, `mesh_partition`, `typecast` and
`repeat_interleave`. When the trace ends at an argument of a `func.func` whose string
`ttcore.weight_dtype` names a ttcore data type, the op gets that string as its own
`ttcore.weight_dtype` (replacing one it had). `convert-ttir-to-ttnn` keeps it and
`ttnn-weight-dtype-conversion` gives it priority over `experimental-weight-dtype`.

A `ttir.concat` (a fused QKV weight) is resolved per operand: the operands' data types merge to the
one with the most bits (the first of equals), so no constituent loses precision, with a warning at
the op when they disagree or some operand has none. A name that is no data type is a warning at
the function and counts as none. A trace that meets any other op, or a value that is no function
argument, gives nothing and the op is left as it is.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ttopt.dialects.ttcore_attrs import DataType
from ttopt.dialects.ttir import CCL, TENSOR_MANIPULATION, inputs
from ttopt.ir.attributes import StringAttr
from ttopt.ir.values import BlockArgument, OpResult
from ttopt.passes.base import Pass
from ttopt.passes.registry import register_pass
from ttopt.sharding.diagnostics import warn
from ttopt.sharding.func_attrs import arg_attrs

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.ir.operation import Operation
    from ttopt.passes.context import PassContext

WEIGHT_DTYPE = "ttcore.weight_dtype"
WEIGHT_OPS = frozenset({"ttir.matmul", "ttir.linear", "ttir.sparse_matmul"})
# Ops that do not change which weight tensor their first operand is (HEAD's list besides the traits).
SAME_WEIGHT = TENSOR_MANIPULATION | CCL | {"ttir.broadcast", "ttir.mesh_shard", "ttir.mesh_partition", "ttir.typecast", "ttir.repeat_interleave"}


def dtype_bits(name: str) -> int | None:
    """Bits of ttcore data type `name` (HEAD's getNumberOfBits), None when it names none."""
    if name == "i1":  # HEAD's Bool, spelled as the builtin type
        return 1
    try:
        return DataType(name).element_bits
    except ValueError:
        return None


@dataclass
class _Trace:
    """What one weight's trace met besides its data type: concat operands without one, or disagreeing."""

    missing: bool = False
    disagreement: bool = False


def _argument_dtype(module: Module, arg: BlockArgument) -> str | None:
    """The valid `ttcore.weight_dtype` of function argument `arg` (a warning for an invalid one)."""
    region = arg.block.parent if arg.block is not None else None
    func = region.parent if region is not None else None
    if func is None or func.name != "func.func":
        return None
    attrs = arg_attrs(func)
    attr = attrs[arg.index].get(WEIGHT_DTYPE) if arg.index < len(attrs) else None
    value = attr.resolve() if attr is not None else None
    if not isinstance(value, StringAttr):
        return None
    if dtype_bits(value.value) is None:
        warn(module, func, f'ignoring invalid {WEIGHT_DTYPE} "{value.value}" on argument {arg.index}')
        return None
    return value.value


def resolve_weight_dtype(module: Module, weight: Any, trace: _Trace) -> str | None:
    """The data type `weight`'s originating argument(s) ask for (a concat's operands merged), or None."""
    source = weight
    while isinstance(source, OpResult):
        op = source.op
        if op.name == "ttir.concat":
            merged: str | None = None
            for operand in inputs(op):
                branch = resolve_weight_dtype(module, operand, trace)
                if branch is None:
                    trace.missing = True
                elif merged is None:
                    merged = branch
                elif branch != merged:
                    trace.disagreement = True
                    if (dtype_bits(branch) or 0) > (dtype_bits(merged) or 0):
                        merged = branch
            return merged
        if op.name not in SAME_WEIGHT or not op.operands:
            return None
        source = op.operands[0]
    return _argument_dtype(module, source) if isinstance(source, BlockArgument) else None


def propagate(module: Module, op: Operation) -> bool:
    """Set `op`'s `ttcore.weight_dtype` from its weight's argument(s); whether it got one."""
    trace = _Trace()
    dtype = resolve_weight_dtype(module, op.operands[1], trace)
    if dtype is None:
        return False
    if trace.missing or trace.disagreement:
        warn(module, op, "fusing matmuls with differing weight dtype overrides; using highest-precision dtype "
                         f"'{dtype}' for the fused weight to avoid precision loss")  # fmt: skip
    op.attributes[WEIGHT_DTYPE] = StringAttr(dtype)
    return True


@register_pass
@dataclass
class TTIRPropagateWeightDtype(Pass):
    """Give matmul / linear / sparse_matmul ops their weight argument's ttcore.weight_dtype (tt-mlir's ttir-propagate-weight-dtype)."""

    name = "ttir-propagate-weight-dtype"
    summary = "Set ttcore.weight_dtype on matmul / linear / sparse_matmul ops from their weight's function argument, traced through TMs, CCLs, broadcast, mesh ops, typecast and concat"

    def run(self, module: Module, ctx: PassContext) -> None:
        ops = [op for op in module.op.walk_list() if op.name in WEIGHT_OPS and len(op.operands) >= 2]
        count = sum(propagate(module, op) for op in ops)
        ctx.stats.setdefault(self.name, {})["annotated-ops"] = count
