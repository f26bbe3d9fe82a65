"""Factor propagation for rules whose every dimension is one factor, each at most once per tensor.

Most ops' rules are so (pointwise ops, transpose, broadcast, dot_general, reduce). Then a tensor's
projection is its dimensions' axes re-indexed by factor (no factor splits a dimension, none has
overflow axes, every one is minor-most) and writing it back is re-indexing again, so this module
takes the same decisions as `factor_propagation.py`'s `propagate_basic` and
`propagate_aggressive` (same order, same truncation) on per-tensor lists indexed by factor
instead of projection objects: per tensor, per factor its axes (None: the tensor does not have
the factor) and closed flag.
"""

from __future__ import annotations

from typing import Callable, Sequence

from ttopt.dialects.sdy_rule import TensorMapping
from ttopt.sharding.factor_propagation import (
    BACKWARD,
    BOTH,
    NONE,
    _merge_compatible,
    _truncate,
    _without,
    is_prefix,
    open_part,
)
from ttopt.sharding.factors import Axis, merge_axes
from ttopt.sharding.sub_axes import contains, prefix_of, prefix_without_overlap

# Per tensor, per factor: its axes (None: the tensor has no such factor).
Axes = list[Sequence[list[Axis] | None]]
# A tensor's projection: per factor its axes and closed flag, its replicated and unreduced axes, and
# its axes by name (`by_name`).
Projection = tuple[tuple[list[Axis] | None, ...], tuple[bool, ...], tuple[Axis, ...], tuple[Axis, ...], dict]


def simple_mapping(tensors: Sequence[TensorMapping]) -> list[tuple[int, ...]] | None:
    """Per tensor its factors in dimension order, when every dimension is one factor and no tensor
    has a factor twice (None otherwise: the general projection applies)."""
    out = []
    for m in tensors:
        fs = []
        for d in m:
            if len(d) != 1:
                return None
            fs.append(d[0])
        if len(set(fs)) != len(fs):
            return None
        out.append(tuple(fs))
    return out


def project(factors: tuple[int, ...], n_factors: int, dims: Sequence[Sequence[Axis]] | None, closed: Sequence[bool] | None,
            replicated: tuple[Axis, ...] = (), unreduced: tuple[Axis, ...] = ()) -> Projection:  # fmt: skip
    """A tensor's projection (`factors`: its factor per dimension; None dims: no sharding, every
    factor open and empty), as `factor_propagation.build` projects it."""
    axes: list[list[Axis] | None] = [None] * n_factors
    flags = [False] * n_factors
    for d, f in enumerate(factors):
        given = list(dims[d]) if dims is not None else []
        axes[f] = merge_axes(given) if len(given) > 1 else given
        flags[f] = closed[d] if closed is not None else False
    return tuple(axes), tuple(flags), replicated, unreduced, by_name(axes, factors)


def dim_shardings(axes: Sequence[list[Axis] | None], closed: Sequence[bool], factors: tuple[int, ...]) -> tuple[tuple, tuple]:
    """A tensor's dimension axes and closed flags from its factors' (`factor_propagation.dim_shardings`)."""
    dims = []
    flags = []
    for f in factors:
        a = axes[f]
        dims.append(tuple(merge_axes(a) if len(a) > 1 else a))  # type: ignore[arg-type]
        flags.append(closed[f])
    return tuple(dims), tuple(flags)


def by_name(axes: Sequence[list[Axis] | None], factors: tuple[int, ...]) -> dict[str, list[tuple[int, Axis]]]:
    """A tensor's axes by name, each as (its factor, the axis), factor by factor: what `_across`
    looks an axis up in (a projection holds its own; a tensor changed since needs a new one)."""
    out: dict[str, list[tuple[int, Axis]]] = {}
    for g in factors:
        for b in axes[g]:  # type: ignore[union-attr]
            out.setdefault(b[0], []).append((g, b))
    return out


def _across(a: Axis, _prev: int, named: dict[str, list[tuple[int, Axis]]], f: int) -> Axis | None:
    """`a` without what the tensor's other factors use (`factor_propagation._no_conflict_across`);
    `named`: the tensor's `by_name` (`_prev`: as `_truncate` calls it)."""
    same = named.get(a[0])
    if same is None:  # the common case: no factor of the tensor uses an axis of that name
        return a
    r: Axis | None = a
    for g, b in same:
        if g != f:
            r = prefix_without_overlap(r, b)  # type: ignore[arg-type]
            if r is None:
                return None
    return r


def _within(a: Axis, prev: int, own: list[Axis], closed: bool, replicated: tuple, unreduced: tuple, size: int,
            conservative: bool) -> Axis | None:  # fmt: skip
    """`factor_propagation._no_conflict_within` for a factor without overflow axes, minor-most."""
    r: Axis | None = _without(a, replicated) if replicated else a
    if r is not None and unreduced:
        r = _without(r, unreduced)
    if r is None:
        return None
    if r in own:  # (the common case of the loop below)
        return r
    for x in own:
        if contains(x, r):
            return r
    if not closed:
        part = open_part(r, size, prev, conservative, True)
        if part is not None:
            return part
    if own and prefix_of(own[-1], r):
        return own[-1]
    return None


def _differing(axes: Axes, n_factors: int) -> list[int]:
    """The factors along which the tensors that have them do not all have the same axes (along
    the others nothing changes: `factor_propagation._one_axes`), found for all factors at once."""
    out = []
    for f in range(n_factors):
        first = None
        for t in axes:
            a = t[f]
            if a is not None:
                if first is None:
                    first = a
                elif a != first:
                    out.append(f)
                    break
    return out


def _compatible(axes: Axes, n_operands: int, f: int, direction: str) -> list[Axis]:
    """`factor_propagation.compatible_major_axes` of factor `f`."""
    if direction == NONE:
        return []
    if direction == BOTH:
        return _merge_group(axes, f, [], True)[0]
    ops, res = axes[:n_operands], axes[n_operands:]
    first, second = (res, ops) if direction == BACKWARD else (ops, res)
    result, _ = _merge_group(first, f, [], True)
    return _merge_group(second, f, result, False)[0]


def _merge_group(group: Axes, f: int, result: list[Axis], can_expand: bool) -> tuple[list[Axis], bool]:
    for t in group:
        a = t[f]
        if not a or a == result:  # absent, no axes or the same: the result stays
            continue
        if not result and can_expand:
            result = list(a)
            continue
        result, can_expand = _merge_compatible(result, a, can_expand)
    return result, can_expand


def propagate_basic(axes: Axes, projections: Sequence[Projection], factors: list[tuple[int, ...]], n_operands: int,
                    sizes: Sequence[int], direction: Callable[[int], str], full: dict[str, int], conservative: bool,
                    extendable: list[bool]) -> list[bool]:  # fmt: skip
    """`factor_propagation.propagate_basic` on per-factor lists. `axes[t]` starts as the tensor's
    projection's (shared): it is replaced by its own copy before its first change. Returns which
    tensors changed."""
    n = len(axes)
    updated = [False] * n
    # (Serving a factor changes only its own axes: the factors that differ are known up front.)
    for f in _differing(axes, len(sizes)):
        size = sizes[f]
        want = _compatible(axes, n_operands, f, direction(f))
        if not want:
            continue
        for t in axes:  # an empty list is a strict prefix of any other
            a = t[f]
            if a is not None and a != want and (not a or is_prefix(a, want) == "strict"):
                break
        else:
            continue
        extendable[0] = True
        _truncate(want, _basic_part, conservative, full, axes, projections, factors, updated, f, size, conservative)
        if want:
            for k in range(n):
                a = axes[k][f]
                if a is not None and a != want and (not a or is_prefix(a, want) == "strict"):
                    own = axes[k] = list(axes[k]) if not updated[k] else axes[k]
                    own[f] = list(want)  # type: ignore[index]
                    updated[k] = True
    return updated


def _basic_part(cur: Axis, prev: int, axes: Axes, projections: Sequence[Projection], factors: list[tuple[int, ...]],
                updated: list[bool], f: int, size: int, conservative: bool) -> Axis | None:  # fmt: skip
    """The part of `cur` every tensor can take, across its other factors, then within `f`
    (`_truncate`'s `remove` for the basic strategy)."""
    r: Axis = cur
    for u, own in enumerate(axes):
        p = projections[u]
        named = p[4] if not updated[u] else by_name(own, factors[u])
        # (The common cases, where `_across` and `_within` return `r` itself, tested here first.)
        if r[0] in named:
            r = _across(r, prev, named, f)  # type: ignore[assignment]
            if r is None:
                return None
        a = own[f]
        if a is not None and (p[2] or p[3] or r not in a):
            r = _within(r, prev, a, p[1][f], p[2], p[3], size, conservative)  # type: ignore[assignment]
            if r is None:
                return None
    return r


def propagate_aggressive(axes: Axes, projections: Sequence[Projection], factors: list[tuple[int, ...]],
                         tensor_sizes: Sequence[int], n_operands: int, sizes: Sequence[int],
                         direction: Callable[[int], str], full: dict[str, int], conservative: bool,
                         elementwise: bool) -> list[bool]:  # fmt: skip
    """`factor_propagation.propagate_aggressive` on per-factor lists (`axes` as for
    `propagate_basic`; `tensor_sizes`: each tensor's number of elements over its factors)."""
    n = len(axes)
    updated = [False] * n
    # (Most factors) none where every tensor has one axes list: the one empty list, read only.
    wanted: list[list[Axis]] = [[]] * len(sizes)
    active = []  # the factors wanting axes, in order
    for f in _differing(axes, len(sizes)):
        w = _compatible(axes, n_operands, f, direction(f))
        if w:
            wanted[f] = w
            active.append(f)
    if not active:
        return updated
    order = active if len(active) == 1 else _served_order(axes, active, wanted, tensor_sizes, len(sizes), elementwise)
    for k in (*range(n_operands, n), *range(n_operands)):
        fk = factors[k]
        p = projections[k]
        for f in order:
            t = axes[k]  # as updated for the factors served before
            a = t[f]
            w = wanted[f]
            if a is None or a == w or is_prefix(a, w) != "strict":
                continue
            new = list(w)
            # Truncated within the tensor, then across its factors as already updated for the
            # factors served before.
            _truncate(new, _within, conservative, full, a, p[1][f], p[2], p[3], sizes[f], conservative)
            if is_prefix(a, new) != "strict":
                continue
            named = p[4] if not updated[k] else by_name(t, fk)
            _truncate(new, _across, conservative, full, named, f)
            if not new:
                continue
            if k < n_operands and elementwise:
                for r in axes[n_operands:]:
                    ra = r[f]
                    if ra is not None and is_prefix(ra, new) == "strict":
                        new = list(ra)
            if a != new and is_prefix(a, new) == "strict":
                mine = axes[k] = list(t) if not updated[k] else t
                mine[f] = list(new)  # type: ignore[index]
                updated[k] = True
    return updated


def _served_order(axes: Axes, active: list[int], wanted: list[list[Axis]], tensor_sizes: Sequence[int], n_factors: int,
                  elementwise: bool) -> list[int]:  # fmt: skip
    """The factors wanting axes in the order the aggressive strategy serves them: by the size of
    their largest source tensor (one whose axes are prefix-compatible with the wanted ones), then,
    for elementwise ops, the most sharded first."""
    source = [(-1, -1)] * n_factors
    for k, t in enumerate(axes):
        tsize = tensor_sizes[k]
        for f in active:
            a = t[f]
            if a is not None and tsize > source[f][0]:
                w = wanted[f]
                if w == a or is_prefix(w, a) != "not":
                    source[f] = (tsize, k)
    return sorted(active, key=lambda f: (-source[f][0], -_size(wanted[f]) if elementwise else 0, source[f][1], f))


def _size(axes: Sequence[Axis]) -> int:
    n = 1
    for a in axes:
        n *= a[2]
    return n


def tensor_sizes(factors: list[tuple[int, ...]], sizes: Sequence[int]) -> list[int]:
    """Per tensor the product of its factors' sizes (the aggressive strategy's source order)."""
    out = []
    for fs in factors:
        n = 1
        for f in fs:
            n *= sizes[f]
        out.append(n)
    return out

