"""Sharding rules of `stablehlo.custom_call`, by call target: Shardy's registry of custom-call
targets (op_sharding_rule_registry.cc at a0277a83). Targets it does not know get no rule."""

from __future__ import annotations

from typing import Callable

from ttopt.dialects.sdy_rule import OpShardingRule, check_rule
from ttopt.ir.operation import Operation
from ttopt.sharding.rule_registry import N, P, builder, register, shape_of, static_shape

# Custom-call targets of Shardy's registry (op_sharding_rule_registry.cc at a0277a83).
CUSTOM_NO_RULE = frozenset({
    "sdy_testonly", "tpu_custom_call", "xla_python_cpu_callback", "xla_python_gpu_callback",
    "xla_ffi_python_cpu_callback", "xla_ffi_python_gpu_callback", "xla.debug.Log",
})  # fmt: skip
CUSTOM_POINTWISE = frozenset({
    "annotate_device_placement", "Cholesky", "CompactWyHelper", "InspectSharding",
    "InvertDiagBlocksLowerTriangular", "InvertDiagBlocksUpperTriangular", "LayoutConstraint", "mhlo.erf",
    "MoveToDevice", "MoveToHost", "X64SplitHigh", "X64SplitLow", "xla.megascale.provide_metadata",
    "_SPMDInternalOp_MultiPad", "_SPMDInternalOp_RotateRight", "_SPMDInternalOp_MultiRotate",
    "_SPMDInternalOp_MultiSlice", "_SPMDInternalOp_Wrap", "Sharding",
})  # fmt: skip


def custom_call_target(op: Operation) -> str:
    """A custom call's target name ('' when absent)."""
    return str(getattr(op.properties.get("call_target_name"), "value", ""))


def custom_call_is_known(op: Operation) -> bool:
    """Whether Shardy's registry knows the target (an unknown one gets a warning and no rule)."""
    return custom_call_target(op) in (CUSTOM_NO_RULE | CUSTOM_POINTWISE | set(_CUSTOM))


def _custom_pointwise(op: Operation) -> OpShardingRule | None:
    """Shardy's `buildPointwise`: the first result's dims shared by every ranked tensor."""
    if not op.results or shape_of(op.results[0]) is None:
        return None
    b = builder(op)
    shape = static_shape(op.results[0])
    ranked = [len(s) > 0 for s in (*b.operand_shapes, *b.result_shapes)]
    for d, n in enumerate(shape):
        dims = [d if r else -1 for r in ranked]
        b.add_factor(dims[: b.num_operands], dims[b.num_operands :], n)
    return b.build()


def _eigh(op: Operation) -> OpShardingRule:
    """Batch dims P; the matrix dims pass through to the eigenvectors, the last also to the eigenvalues."""
    ins = static_shape(op.operands[0])
    d1, d2 = len(ins) - 2, len(ins) - 1
    b = builder(op)
    b.add_pointwise(ins[:d1])
    b.add_factor([d1], [d1, -1], ins[d1])
    b.add_factor([d2], [d2, d1], ins[d2])
    return b.build()


def _qr(op: Operation) -> OpShardingRule:
    """Batch dims P; the matrix dims and the taus' dim need replication."""
    ins, taus = static_shape(op.operands[0]), static_shape(op.results[1])
    d1, d2 = len(ins) - 2, len(ins) - 1
    b = builder(op)
    b.add_pointwise(ins[:d1])
    b.add_factor([d1], [d1, -1], ins[d1], N)
    b.add_factor([d2], [d2, -1], ins[d2], N)
    b.add_factor([-1], [-1, d1], taus[d1], N)
    return b.build()


def _householder(op: Operation) -> OpShardingRule:
    """Batch dims P; the matrix dims and the taus' dim need replication."""
    ins, taus = static_shape(op.operands[0]), static_shape(op.operands[1])
    d1, d2 = len(ins) - 2, len(ins) - 1
    b = builder(op)
    b.add_pointwise(ins[:d1])
    b.add_factor([d1, -1], [d1], ins[d1], N)
    b.add_factor([d2, -1], [d2], ins[d2], N)
    b.add_factor([-1, d1], [-1], taus[d1], N)
    return b.build()


def _mhlo_topk(op: Operation) -> OpShardingRule:
    """Dims of equal operand/result size pass through; the top-k dim needs replication, blocked."""
    ins, outs = static_shape(op.operands[0]), static_shape(op.results[0])
    b = builder(op)
    for d, (n, k) in enumerate(zip(ins, outs)):
        b.add_factor_all(d, n, P if n == k else N, blocked=n != k)
    return b.build()


def _approx_topk(op: Operation) -> OpShardingRule:
    """ApproxTopK / PartialReduce (operand, iota, two scalar inits): equal dims pass through; the
    reduced dim is an operand factor plus a blocked need-replication result factor."""
    ins, outs = static_shape(op.operands[0]), static_shape(op.results[0])
    b = builder(op)
    for d, (n, k) in enumerate(zip(ins, outs)):
        if n == k:
            b.add_factor_all(d, n)
        else:
            b.add_factor([d, d, -1, -1], [-1, -1], n)
            b.add_factor([-1, -1, -1, -1], [d, d], k, N, blocked=True)
    return b.build()


def _x64_combine(op: Operation) -> OpShardingRule | None:
    """Pointwise, but replicated and blocked when it feeds an rng_bit_generator (whose ui64 state
    must stay replicated and cannot be resharded)."""
    if any(u.name == "stablehlo.rng_bit_generator" for r in op.results for u in r.users):
        b = builder(op)
        b.add_factor_all(0, static_shape(op.results[0])[0], N, blocked=True)
        return b.build()
    return _custom_pointwise(op)


_CUSTOM: dict[str, Callable[[Operation], OpShardingRule | None]] = {
    "Eigh": _eigh, "Qr": _qr, "QrDecompositionBlock": _qr, "ProductOfElementaryHouseholderReflectors": _householder,
    "mhlo.topk": _mhlo_topk, "ApproxTopK": _approx_topk, "PartialReduce": _approx_topk, "X64Combine": _x64_combine,
}  # fmt: skip


@register("stablehlo.custom_call")
def _custom_call(op: Operation, conservative: bool) -> OpShardingRule | None:
    """Shardy's table of custom-call targets; other targets have no rule (propagation is blocked)."""
    target = custom_call_target(op)
    fn = _custom_pointwise if target in CUSTOM_POINTWISE else _CUSTOM.get(target)
    if fn is None:
        return None
    # Shardy asserts the target's operand/result contract; a call that breaks it gets no rule.
    try:
        rule = fn(op)
        if rule is not None:
            check_rule(rule, [static_shape(v) for v in op.operands], [static_shape(r) for r in op.results])
    except (IndexError, ValueError):
        return None
    return rule
