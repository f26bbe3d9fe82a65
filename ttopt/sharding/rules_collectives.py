"""Sharding rules of the StableHLO collectives JAX's shard_map emits (all_gather, reduce_scatter,
all_to_all; Shardy's registry at a0277a83): untouched dims pass through, moved dims need replication."""

from __future__ import annotations

from ttopt.dialects.sdy_rule import FactorType, OpShardingRule, RuleBuilder
from ttopt.ir.operation import Operation
from ttopt.sharding.rule_registry import N, P, builder, int_attr, register, static_shape


def _same_for_all(b: RuleBuilder, operands: bool, dim: int, size: int, kind: FactorType = P) -> None:
    """A factor at `dim` of every operand (or every result) of a variadic collective."""
    n_ops, n_res = b.num_operands, len(b.result_shapes)
    ranked = [len(s) > 0 for s in (*b.operand_shapes, *b.result_shapes)]
    dims = [dim if r else -1 for r in ranked]
    b.add_factor(dims[:n_ops] if operands else [-1] * n_ops, [-1] * n_res if operands else dims[n_ops:], size, kind)


def _collective(op: Operation, special: list[int]) -> OpShardingRule:
    """Variadic collectives: the untouched dims are shared by all tensors; each moved dim (in the
    op's own order: split before concat) is one N factor over the operands and one over the results."""
    ins, outs = static_shape(op.operands[0]), static_shape(op.results[0])
    b = builder(op)
    for d, n in enumerate(ins):
        if d not in special:
            b.add_factor_all(d, n)
    for d in dict.fromkeys(special):
        _same_for_all(b, True, d, ins[d], N)
        _same_for_all(b, False, d, outs[d], N)
    return b.build()


@register("stablehlo.all_gather")
def _all_gather(op: Operation, conservative: bool) -> OpShardingRule:
    """The gathered dim needs replication (operand and result sizes differ); the rest pass through."""
    return _collective(op, [int_attr(op, "all_gather_dim")])


@register("stablehlo.reduce_scatter")
def _reduce_scatter(op: Operation, conservative: bool) -> OpShardingRule:
    """The scattered dim needs replication; the rest pass through."""
    return _collective(op, [int_attr(op, "scatter_dimension")])


@register("stablehlo.all_to_all")
def _all_to_all(op: Operation, conservative: bool) -> OpShardingRule:
    """Split and concat dims need replication; the rest pass through."""
    return _collective(op, [int_attr(op, "split_dimension"), int_attr(op, "concat_dimension")])
