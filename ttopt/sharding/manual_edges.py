"""Shardings across a manual computation's data-flow edges (Shardy's
ManualComputationOp::transformTargetSharding).

Inside a `sdy.manual_computation` the manual axes are gone from a sharding; outside they lead
each dimension. An edge on a block argument holds the body's (local) sharding and meets the
operand's global one: propagation sees the in_sharding's manual axes followed by the edge's
axes, and what it writes back loses the manual axes again. An edge on a result holds the
global sharding and meets the body's returned value: propagation sees it without the manual
axes, and what it writes back gets the out_sharding's manual axes in front.
"""

from __future__ import annotations

from typing import Any, Sequence

from ttopt.sharding.factors import Axis, Sharding


def _manual_prefix(axes: Sequence[Axis], manual: Sequence[str]) -> int:
    """How many leading axes of a dimension are manual."""
    n = 0
    while n < len(axes) and axes[n][0] in manual:
        n += 1
    return n


def erase_manual_axes(sh: Sharding, manual: Sequence[str]) -> Sharding:
    """The sharding a manual computation's body sees (Shardy's eraseManualAxes): each
    dimension's leading manual axes and the manual replicated and unreduced axes dropped."""
    if not manual:
        return sh
    out = sh.copy()
    out.dims = [list(d[_manual_prefix(d, manual):]) for d in sh.dims]
    out.replicated = tuple(a for a in sh.replicated if a[0] not in manual)
    out.unreduced = tuple(a for a in sh.unreduced if _axis_name(a) not in manual)
    if not out.unreduced:
        out.unreduced_kind = None
    return out


def _axis_name(ref: Axis | Any) -> str:
    """An unreduced entry's mesh axis name (an Axis tuple, or an axis reference)."""
    return ref[0] if isinstance(ref, tuple) else ref.name


def add_free_axes(outer: Sharding, new: Sharding, manual: Sequence[str]) -> Sharding:
    """`outer`'s manual axes in front of each dimension of `new` (closedness and priorities of
    `new`, replicated axes of `outer`)."""
    out = new.copy()
    out.mesh = new.mesh
    out.dims = [list(o[:_manual_prefix(o, manual)]) + list(d) for o, d in zip(outer.dims, new.dims)]
    out.replicated = outer.replicated
    return out
