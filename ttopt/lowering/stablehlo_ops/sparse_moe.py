"""The sparse mixture-of-experts custom calls tt-xla emits (`@tt.all_to_all_dispatch`,
`@tt.moe_expert_token_remap`, `@tt.sparse_matmul`, `@tt.all_to_all_combine`) to their TTIR ops,
as tt-mlir lowers them: integer options from the frontend attributes as i64 (HEAD's defaults when
absent), the sparsity flags as booleans, `nnz` only when positive (0 means "infer at run time" in
StableHLO but "dense" in TTIR). When the expert mapping spans more devices than the combine's
cluster axis holds, the combine's result is summed over the other mesh axis (`ttir.all_reduce`),
adding the partial results of devices that hold different experts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ttopt.ir.attributes import BoolAttr, DialectAttr, IntegerAttr
from ttopt.ir.types import ScalarType
from ttopt.lowering.stablehlo_handlers import Unsupported
from ttopt.lowering.stablehlo_ops.building import emit_results
from ttopt.lowering.stablehlo_ops.custom_call import lowers_target
from ttopt.lowering.stablehlo_ops.frontend_attributes import flag, frontend_attributes

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation
    from ttopt.ir.values import Value
    from ttopt.lowering.stablehlo_to_ttir import Lowering

I64, UI32 = ScalarType("i64"), ScalarType("ui32")


def _int(attrs: dict[str, str], name: str, default: int) -> int:
    text = attrs.get(name)
    if text is None:
        return default
    try:
        return int(text.strip())
    except ValueError:
        raise Unsupported(f'{name} must be a valid integer, got "{text}"') from None


def _three_operands(op: Operation, results: int) -> list[Value]:
    if len(op.operands) != 3 or len(op.results) != results:
        raise Unsupported(f"it takes 3 operands and has {results} result{'s' if results > 1 else ''}")
    return list(op.operands)


@lowers_target("tt.all_to_all_dispatch")
def _dispatch(low: Lowering, op: Operation) -> list[Value]:
    attrs = frontend_attributes(op)
    ins = _three_operands(op, 2)
    return emit_results(low, "all_to_all_dispatch", ins, [r.type for r in op.results],
                        num_devices=IntegerAttr(_int(attrs, "num_devices", 1), I64),
                        cluster_axis=IntegerAttr(_int(attrs, "cluster_axis", 0), I64))  # fmt: skip


@lowers_target("tt.moe_expert_token_remap")
def _remap(low: Lowering, op: Operation) -> list[Value]:
    attrs = frontend_attributes(op)
    ins = _three_operands(op, 2)
    return emit_results(low, "moe_expert_token_remap", ins, [r.type for r in op.results],
                        reduction_size=IntegerAttr(_int(attrs, "reduction_size", 16), I64))  # fmt: skip


@lowers_target("tt.sparse_matmul")
def _sparse_matmul(low: Lowering, op: Operation) -> list[Value]:
    attrs = frontend_attributes(op)
    ins = _three_operands(op, 1)
    nnz = _int(attrs, "nnz", 0)
    extra = {"nnz": IntegerAttr(nnz, I64)} if nnz > 0 else {}
    return [low.emit("sparse_matmul", ins, op.results[0].type, is_input_a_sparse=BoolAttr(flag(attrs, "is_input_a_sparse", False)),
                     is_input_b_sparse=BoolAttr(flag(attrs, "is_input_b_sparse", True)), **extra)]  # fmt: skip


@lowers_target("tt.all_to_all_combine")
def _combine(low: Lowering, op: Operation) -> list[Value]:
    attrs = frontend_attributes(op)
    ins = _three_operands(op, 1)
    devices, axis = _int(attrs, "num_devices", 1), _int(attrs, "cluster_axis", 0)
    out = low.emit("all_to_all_combine", ins, op.results[0].type, num_devices=IntegerAttr(devices, I64),
                   cluster_axis=IntegerAttr(axis, I64),
                   num_experts_per_tok=IntegerAttr(_int(attrs, "num_experts_per_tok", 2), I64),
                   output_shard_dim=IntegerAttr(_int(attrs, "output_shard_dim", 2), I64))  # fmt: skip
    mapping = tuple(ins[2].type.resolve().shape)
    total = mapping[3] if len(mapping) == 4 else 1
    if devices > 1 and total // max(devices, 1) > 1:
        out = low.emit("all_reduce", [out], op.results[0].type, cluster_axis=IntegerAttr(1 if axis == 0 else 0, UI32),
                       reduce_type=DialectAttr("ttcore.reduce_type", "sum"))  # fmt: skip
    return [out]
