"""Sharding rules of gather, scatter and convolution: Shardy's `addGatherScatterFactors` and
convolution factoring (op_sharding_rule_registry.cc at a0277a83; gather's collapsed dims are
reduction factors, as jaxlib's Shardy)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Sequence

from ttopt.dialects.sdy_rule import FactorType, OpShardingRule, RuleBuilder
from ttopt.ir.operation import Operation
from ttopt.ir.properties import props
from ttopt.ir.values import OpResult
from ttopt.sharding.rule_registry import M, N, P, R, builder, int_attr, register, static_shape

if TYPE_CHECKING:
    from ttopt.dialects.stablehlo_attrs import ConvDimensionNumbers, GatherDimensionNumbers, ScatterDimensionNumbers


# ---- gather / scatter / convolution -----------------------------------------------------------
# Shardy's `addGatherScatterFactors`: the slices (gather result / scatter updates) are walked in
# order; then the collapsed (inserted) operand dims, then the index-vector dim.
GatherFactorFn = Callable[[int, int, int, int, FactorType, bool], None]


def _gather_scatter_factors(
    add: GatherFactorFn,
    scatter_reduction: FactorType | None,
    ins: tuple[int, ...],
    idx: tuple[int, ...],
    slices: tuple[int, ...],
    ivd: int,
    offset: Sequence[int],
    collapsed: Sequence[int],
    in_batch: Sequence[int],
    idx_batch: Sequence[int],
) -> None:
    """`add(input_dim, indices_dim, slices_dim, size, type, blocked)` per factor; a scatter passes
    the type of its implicit batch dims (R for a supported reduction body, else N)."""
    in_dim = batch_pos = 0
    for s, n in enumerate(slices):
        if s in offset:
            while in_dim in collapsed or in_dim in in_batch:
                in_dim += 1
            size = ins[in_dim]
            if size == n:
                add(in_dim, -1, s, size, P, False)
            elif scatter_reduction is not None:
                add(in_dim, -1, -1, size, N, False)
                add(-1, -1, s, n, N, False)
            elif n == 1:
                # A size-1 slice of a sharded operand dim: each device gathers its part, all-reduced.
                add(in_dim, -1, -1, size, R, False)
                add(-1, -1, s, n, N, False)
            else:
                add(in_dim, -1, s, size, N, True)
            in_dim += 1
        else:
            idim = batch_pos if batch_pos < ivd else batch_pos + 1
            explicit = idim in idx_batch
            kind = scatter_reduction if scatter_reduction is not None and not explicit else P
            add(in_batch[idx_batch.index(idim)] if explicit else -1, idim, s, n, kind, False)
            batch_pos += 1
    for d in collapsed:
        kind = P if scatter_reduction is not None else (N if ins[d] == 1 else R)
        add(d, -1, -1, ins[d], kind, False)
    if ivd < len(idx):
        add(-1, ivd, -1, idx[ivd], N, False)


@register("stablehlo.gather")
def _gather(op: Operation, conservative: bool) -> OpShardingRule:
    """Result batch dims shared with the indices (and the operand for explicit batching); offset
    dims P when the slice is the whole operand dim, else N and blocked (R on the operand for a
    size-1 slice); collapsed operand dims R (N when of size 1); the index-vector dim N."""
    dn: GatherDimensionNumbers = props(op).dimension_numbers
    ins, idx, out = static_shape(op.operands[0]), static_shape(op.operands[1]), static_shape(op.results[0])
    b = builder(op)

    def add(in_dim: int, idx_dim: int, out_dim: int, size: int, kind: FactorType, blocked: bool) -> None:
        b.add_factor([in_dim, idx_dim], [out_dim], size, kind, blocked)

    _gather_scatter_factors(
        add,
        None,
        ins,
        idx,
        out,
        dn.vector_dim(len(idx)),
        dn.offset_dims,
        dn.collapsed_slice_dims,
        dn.operand_batching_dims,
        dn.start_indices_batching_dims,
    )
    return b.build()


_SCATTER_REDUCERS = ("stablehlo.add", "stablehlo.multiply", "stablehlo.maximum", "stablehlo.minimum")


def _scatter_reducer(op: Operation) -> str | None:
    """Shardy's `getCommonSupportedReductionOp`: one add/multiply/max/min (and/or on i1) of
    (input k, update k) per result, the same kind for all; None otherwise."""
    n_in = (len(op.operands) - 1) // 2
    if not op.regions or not op.regions[0].blocks:
        return None
    block = op.regions[0].blocks[0]
    if len(block.args) != 2 * n_in or not block.ops or block.ops[-1].name != "stablehlo.return":
        return None
    ret = block.ops[-1]
    if len(ret.operands) != n_in:
        return None
    kind = None
    for k, v in enumerate(ret.operands):
        cur = v.owner if isinstance(v, OpResult) else None
        if cur is None or len(cur.operands) != 2:
            return None
        logical = cur.name in ("stablehlo.and", "stablehlo.or") and str(getattr(v.type.resolve(), "element_type", "")) == "i1"
        if not logical and cur.name not in _SCATTER_REDUCERS:
            return None
        if kind is not None and kind != cur.name:
            return None
        kind = cur.name
        args = {block.args[k], block.args[k + n_in]}
        if set(cur.operands) != args or len(args) != 2:
            return None
    return kind


@register("stablehlo.scatter")
def _scatter(op: Operation, conservative: bool) -> OpShardingRule:
    """Update dims in order: implicit batch dims shared with the indices — R for a supported
    reduction body, else N; explicit batch dims shared with the operand too; window dims shared
    with the operand/result when unsliced, else N on both sides. Then the inserted operand dims
    P, then the index-vector dim N."""
    dn: ScatterDimensionNumbers = props(op).scatter_dimension_numbers
    n_in = (len(op.operands) - 1) // 2
    ins, idx, upd = static_shape(op.operands[0]), static_shape(op.operands[n_in]), static_shape(op.operands[n_in + 1])
    b = builder(op)

    def add(in_dim: int, idx_dim: int, upd_dim: int, size: int, kind: FactorType, blocked: bool) -> None:
        b.add_factor([in_dim] * n_in + [idx_dim] + [upd_dim] * n_in, [in_dim] * n_in, size, kind, blocked)

    reduction = R if _scatter_reducer(op) is not None else N
    _gather_scatter_factors(
        add,
        reduction,
        ins,
        idx,
        upd,
        dn.vector_dim(len(idx)),
        dn.update_window_dims,
        dn.inserted_window_dims,
        dn.input_batching_dims,
        dn.scatter_indices_batching_dims,
    )
    return b.build()


def _add_factor_unless_unit(b: RuleBuilder, operand_dims: list[int], result_dims: list[int], size: int, kind: FactorType = P) -> None:
    """Shardy's `addFactor`: a size-1 factor is not added to a dim that already has a factor."""
    if size == 1:
        n = b.num_operands
        operand_dims = [d if d < 0 or not b.maps[t][d] else -1 for t, d in enumerate(operand_dims)]
        result_dims = [d if d < 0 or not b.maps[n + t][d] else -1 for t, d in enumerate(result_dims)]
    b.add_factor(operand_dims, result_dims, size, kind)


@register("stablehlo.convolution")
def _convolution(op: Operation, conservative: bool) -> OpShardingRule:
    """Batch groups (lhs batch <-> rhs out feature <-> out feature) and per-group batch P; per
    spatial dim (omitted when conservative) a num-windows factor M (lhs <-> result) and a window
    factor R (lhs <-> rhs), the larger one major, each capped by what is left of the lhs dim;
    feature groups; input feature R (lhs <-> rhs); output feature P (rhs <-> result) if > 1."""
    ls, rs, os_ = static_shape(op.operands[0]), static_shape(op.operands[1]), static_shape(op.results[0])
    d: ConvDimensionNumbers = props(op).dimension_numbers
    lb, lf, ob, of = d.input_batch_dimension, d.input_feature_dimension, d.output_batch_dimension, d.output_feature_dimension
    ri, ro = d.kernel_input_feature_dimension, d.kernel_output_feature_dimension
    fg = int_attr(op, "feature_group_count", 1)
    bg = int_attr(op, "batch_group_count", 1)
    b = builder(op)
    if bg > 1:
        _add_factor_unless_unit(b, [lb, ro], [of], bg)
    _add_factor_unless_unit(b, [lb, -1], [ob], os_[ob])
    if not conservative:
        for lsd, rsd, osd in zip(d.input_spatial_dimensions, d.kernel_spatial_dimensions, d.output_spatial_dimensions):
            remaining = ls[lsd]
            num_windows, window = os_[osd], rs[rsd]
            order = ((num_windows, False), (window, True)) if num_windows >= window else ((window, True), (num_windows, False))
            for size, contracting in order:
                size = min(remaining, size)
                if size > 1:
                    if contracting:
                        _add_factor_unless_unit(b, [lsd, rsd], [-1], size, R)
                    else:
                        _add_factor_unless_unit(b, [lsd, -1], [osd], size, M)
                    remaining //= size
    if fg > 1:
        _add_factor_unless_unit(b, [lf, ro], [of], fg)
    _add_factor_unless_unit(b, [lf, ri], [-1], rs[ri], R)
    out_feat = os_[of] // (bg * fg)
    if out_feat > 1:
        _add_factor_unless_unit(b, [-1, ro], [of], out_feat)
    return b.build()
