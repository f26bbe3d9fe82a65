"""A reshape whose sharding has overflow axes (Shardy's processReshapeWithOverflowAxes).

An overflow axis is one a dimension's non-minor-most factor cannot take (12 = [ij] with i=6,
j=2 on {"x"=4, "y"=2}: i takes "x":(1)2, and "x":(2)2, "y" fit no factor in order). The axes
of the more sharded side (operand or result) are handed out again, axis first, to the factors
of each side in dimension order: each (sub-)axis goes to the first factor with room for part
of it, and what no factor takes overflows at the end. Both sides are re-projected from the
resulting shardings and each factor keeps the longest prefix the two sides agree on; the
reshards to and from those factor shardings follow as for any op.
"""

from __future__ import annotations

from math import gcd
from typing import TYPE_CHECKING

from ttopt.sharding.factors import Axis, TensorProjection, axes_size, merge_axes, project

if TYPE_CHECKING:
    from ttopt.dialects.sdy_rule import OpShardingRule, TensorMapping


def distribute(sizes: list[int], axes: list[Axis]) -> tuple[list[list[Axis]], list[Axis]]:
    """Per factor (of the given sizes, in order) the axes it takes, and the overflow axes
    (Shardy's distributeAxesAcrossFactors)."""
    taken: list[list[Axis]] = [[] for _ in sizes]
    room = list(sizes)
    rest = list(axes)
    while rest:
        a = rest[0]
        used = False
        for i in range(len(room)):
            if room[i] <= 1:
                continue
            g = gcd(room[i], a[2])
            if g == 1 and a[2] != 1:
                continue
            used = True
            if a[2] > g:
                taken[i] = merge_axes([*taken[i], (a[0], a[1], g)])
                a = (a[0], a[1] * g, a[2] // g)
                rest[0] = a
                room[i] //= g
            else:
                taken[i] = merge_axes([*taken[i], a])
                room[i] //= a[2]
                rest.pop(0)
                break
        if not used:
            return taken, rest
    return taken, []


def _dims_from(mapping: TensorMapping, proj: TensorProjection, sizes: tuple[int, ...], all_axes: list[Axis]) -> list[list[Axis]]:
    """The tensor's dimension shardings after redistributing `all_axes` over its factors."""
    order = [f for dim in mapping for f in dim if f in proj.factors]
    taken, overflow = distribute([sizes[f] for f in order], all_axes)
    per = dict(zip(order, taken))
    last = order[-1] if order else None
    dims: list[list[Axis]] = []
    for dim in mapping:
        axes: list[Axis] = []
        for f in dim:
            axes.extend(per.get(f, []))
            if f == last and overflow:
                # Shardy's createTensorShardingAttr: a factor's overflow axes end its dimension.
                axes.extend(overflow)
                break
        dims.append(merge_axes(axes))
    return dims


def _common_prefix(a: list[Axis], b: list[Axis]) -> list[Axis]:
    out: list[Axis] = []
    for x, y in zip(a, b):
        if x == y:
            out.append(x)
            continue
        if x[0] == y[0] and x[1] == y[1]:
            out.append(x if x[2] < y[2] else y)  # one is a prefix sub-axis of the other
        break
    return out


def reshape_overflow_axes(rule: OpShardingRule, operand: TensorProjection, result: TensorProjection) -> dict[int, list[Axis]]:
    """The factor shardings a reshape with overflow axes runs on."""
    sizes = rule.factor_sizes

    def total(p: TensorProjection) -> int:
        return axes_size([a for fs in p.factors.values() for a in (*fs.axes, *fs.overflow)])

    best = operand if total(operand) >= total(result) else result
    all_axes = [a for f in range(len(sizes)) if f in best.factors for a in (*best.factors[f].axes, *best.factors[f].overflow)]
    legal = []
    for mapping, proj in ((rule.tensors[0], operand), (rule.tensors[-1], result)):
        dims = _dims_from(mapping, proj, sizes, all_axes)
        legal.append(project(mapping, sizes, dims, [True] * len(mapping), minor_most_takes_rest=True))
    chosen: dict[int, list[Axis]] = {}
    for p in legal:
        for f, fs in p.factors.items():
            chosen[f] = _common_prefix(chosen[f], list(fs.axes)) if f in chosen else list(fs.axes)
    return chosen
