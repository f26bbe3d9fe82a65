"""Shardy's factor propagation: one op's tensor shardings projected onto its rule's factors, the
axes each factor should get (basic or aggressive strategy), and the projection written back as
dimension shardings.

This follows Shardy's `sharding_projection.cc`, `basic_factor_propagation.cc` and
`aggressive_factor_propagation.cc` (openxla/shardy a0277a83) step for step, on plain tuples:

- Projection: a dimension's axes go to its factors major to minor; a non-minor-most factor takes
  axes (or the sub-axis that fits) while their size shares a divisor with what is left of it, the
  rest become overflow axes and every later factor of the dimension is closed; the minor-most
  factor takes every axis left (possibly non-divisible, which Shardy pads).
- Compatible major axes of a factor: the longest list every tensor's axes are prefix-compatible
  with, expandable only by the tensors of the allowed direction.
- Truncation: at the first axis that is replicated or unreduced in a tensor, used by another
  factor (or its overflow), goes into a closed or overflowing factor, or breaks divisibility of a
  non-minor-most factor (cut to the sub-axis that divides, non-conservatively).
- Basic: each factor's axes must suit every tensor. Aggressive: the factors are served per tensor
  in order of source-tensor size (then, for elementwise ops, the most sharded factor), results
  before operands, so a conflict across factors goes to the preferred factor.

`conservative` (ttopt's default, DECISIONS.md) rejects every sub-axis and non-divisible axis the
truncation would add.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import gcd
from typing import TYPE_CHECKING, Any, Callable, Sequence

from ttopt.dialects.sdy_rule import TensorMapping
from ttopt.sharding.factors import Axis, merge_axes
from ttopt.sharding.sub_axes import can_coexist, contains, is_sub, prefix_of, prefix_without_overlap

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation
    from ttopt.ir.values import Value

# Directions along a factor (Shardy's PropagationDirection).
BOTH, FORWARD, BACKWARD, NONE = "BOTH", "FORWARD", "BACKWARD", "NONE"

# Shardy's isElementwise: ops with MLIR's Elementwise or BroadcastingElementwise trait, and the sdy
# ops it treats as elementwise (the rest of the list comes from rules.py's pointwise ops).
_SDY_ELEMENTWISE = frozenset({"sdy.propagation_barrier", "sdy.sharding_constraint", "sdy.reshard"})


def union(a: str, b: str) -> str:
    """Shardy's unionOfPropagationDirections (FORWARD with BACKWARD is BOTH)."""
    return BOTH if {a, b} == {FORWARD, BACKWARD} else max(a, b, key=_RANK.__getitem__)


def intersect(a: str, b: str) -> str:
    """Shardy's intersectionOfPropagationDirections (FORWARD with BACKWARD is NONE)."""
    return NONE if {a, b} == {FORWARD, BACKWARD} else min(a, b, key=_RANK.__getitem__)


_RANK = {NONE: 0, FORWARD: 1, BACKWARD: 2, BOTH: 3}


@dataclass(slots=True)
class FactorSharding:
    """One factor in one tensor: its axes, overflow axes, closed flag, minor-most flag."""

    axes: list[Axis] = field(default_factory=list)
    overflow: list[Axis] = field(default_factory=list)
    closed: bool = False
    minor_most: bool = True


@dataclass(slots=True)
class TensorFactors:
    """A tensor's projection: factor index -> sharding, plus its replicated and unreduced axes."""

    factors: dict[int, FactorSharding]
    replicated: tuple[Axis, ...] = ()
    unreduced: tuple[Axis, ...] = ()
    # Per axis name, (factor, axis) for each overflow then sharding axis of that name, factor by
    # factor (`_axes_by_name`; None: not built yet, or a factor's sharding was replaced since).
    by_name: dict[str, list[tuple[int, Axis]]] | None = field(default=None, compare=False, repr=False)


def _common_prefix(a: Axis, b: Axis) -> Axis | None:
    if not can_coexist(a, b):
        return None
    if prefix_of(a, b):
        return a
    if prefix_of(b, a):
        return b
    return None


def is_prefix(first: Sequence[Axis], second: Sequence[Axis]) -> str:
    """Shardy's isAxisListPrefixOf: "equal", "strict" or "not"."""
    if not first:
        return "equal" if not second else "strict"
    n = len(first)
    if n > len(second):
        return "not"
    for i in range(n - 1):
        if first[i] != second[i]:
            return "not"
    if n == len(second) and first[-1] == second[-1]:
        return "equal"
    return "strict" if prefix_of(first[-1], second[n - 1]) else "not"


def _size(axes: Sequence[Axis]) -> int:
    n = 1
    for a in axes:
        n *= a[2]
    return n


# ---- projection ---------------------------------------------------------------------------------
def build(mapping: TensorMapping, sizes: Sequence[int], dims: Sequence[Sequence[Axis]] | None,
          closed: Sequence[bool] | None, replicated: Sequence[Axis] = (), unreduced: Sequence[Axis] = ()) -> TensorFactors:  # fmt: skip
    """A tensor sharding (None: no sharding, every factor open and empty) projected onto factors."""
    factors: dict[int, FactorSharding] = {}
    for d, fs in enumerate(mapping):
        given: Sequence[Axis] = dims[d] if dims is not None else ()
        is_closed = closed[d] if closed is not None else False
        if len(fs) == 1:  # the common case: the dimension's one factor takes all its axes
            # (The dimension's list itself when it needs no merging: factor axes are replaced, never changed in place.)
            one = given if isinstance(given, list) else list(given)
            factors[fs[0]] = FactorSharding(merge_axes(one) if len(one) > 1 else one, [], is_closed, True)
            continue
        axes = list(given)  # split below
        i = 0
        overflowed = False
        for k, f in enumerate(fs):
            sh = factors[f] = FactorSharding(minor_most=k == len(fs) - 1)
            if overflowed:
                sh.closed = True
                break
            sh.closed = is_closed
            if sh.minor_most:
                sh.axes = merge_axes(axes[i:])
                break
            rem = sizes[f]
            while i < len(axes):
                a = axes[i]
                g = gcd(rem, a[2])
                if a[2] != 1 and g == 1:
                    break
                if a[2] > g:
                    sh.axes.append((a[0], a[1], g))
                    axes[i] = (a[0], a[1] * g, a[2] // g)
                    rem //= g
                else:
                    sh.axes.append(a)
                    rem //= max(a[2], 1)
                    i += 1
            if rem > 1 and i < len(axes):
                overflowed = True
                sh.overflow = merge_axes(axes[i:])
    return TensorFactors(factors, tuple(replicated), tuple(unreduced))


def dim_shardings(tensor: TensorFactors, mapping: TensorMapping, sizes: Sequence[int]) -> tuple[list[list[Axis]], list[bool]]:
    """Shardy's createTensorShardingAttr: per dimension the axes of its factors major to minor,
    up to the first factor with overflow axes (included) or not fully sharded; closed when any
    factor visited is."""
    dims: list[list[Axis]] = []
    closed: list[bool] = []
    for fs in mapping:
        if len(fs) == 1:  # the common case, as the loop below does it
            sh = tensor.factors[fs[0]]
            axes = merge_axes(sh.axes) if len(sh.axes) > 1 else list(sh.axes)
            if sh.overflow:
                axes = merge_axes([*axes, *sh.overflow])
            dims.append(axes)
            closed.append(sh.closed)
            continue
        axes = []
        is_closed = False
        for f in fs:
            sh = tensor.factors[f]
            is_closed |= sh.closed
            axes = merge_axes([*axes, *sh.axes])
            if sh.overflow:
                axes = merge_axes([*axes, *sh.overflow])
                break
            if _size(sh.axes) < sizes[f]:
                break
        dims.append(axes)
        closed.append(is_closed)
    return dims, closed


# ---- conflicts ------------------------------------------------------------------------------------
def _without(a: Axis, others: Sequence[Axis]) -> Axis | None:
    """`prefix_without_any`, passing over the axes of other names (which leave `a` whole)."""
    r: Axis | None = a
    for b in others:
        if b[0] == a[0]:
            r = prefix_without_overlap(r, b)  # type: ignore[arg-type]
            if r is None:
                return None
    return r


def _no_conflict_across(a: Axis, tensor: TensorFactors, f: int) -> Axis | None:
    """`a` without what other factors of `tensor` use (overflow then axes, factor by factor)."""
    by_name = tensor.by_name
    if by_name is None:
        by_name = tensor.by_name = _axes_by_name(tensor)
    same = by_name.get(a[0])
    if same is None:  # the common case: no other factor uses an axis of that name
        return a
    r: Axis | None = a
    for g, b in same:
        if g != f:
            r = prefix_without_overlap(r, b)  # type: ignore[arg-type]
            if r is None:
                return None
    return r


def _axes_by_name(tensor: TensorFactors) -> dict[str, list[tuple[int, Axis]]]:
    """`TensorFactors.by_name`: built once per projection (truncation asks it per axis and tensor)."""
    out: dict[str, list[tuple[int, Axis]]] = {}
    for g, sh in tensor.factors.items():
        for b in sh.overflow:
            out.setdefault(b[0], []).append((g, b))
        for b in sh.axes:
            out.setdefault(b[0], []).append((g, b))
    return out


def open_part(r: Axis, size: int, prev: int, conservative: bool, minor_most: bool) -> Axis | None:
    """The part of axis `r` an open factor of `size`, already sharded `prev` ways, can take: all of
    it for a minor-most factor (not conservatively: ttopt keeps a minor-most factor divisible too),
    else as much as keeps the factor divisible (None: none of it)."""
    if minor_most and not conservative:
        return r
    if size % prev == 0:
        g = gcd(size // prev, r[2])
        if g == r[2]:
            return r
        if g != 1:
            return (r[0], r[1], g)
    return None


def _no_conflict_within(a: Axis, tensor: TensorFactors, sh: FactorSharding, prev: int, size: int,
                        conservative: bool) -> Axis | None:  # fmt: skip
    r = _without(a, tensor.replicated) if tensor.replicated else a
    if r is not None and tensor.unreduced:
        r = _without(r, tensor.unreduced)
    if r is None:
        return None
    for x in sh.axes:
        if contains(x, r):
            return r
    if not sh.closed and not sh.overflow:
        part = open_part(r, size, prev, conservative, sh.minor_most)
        if part is not None:
            return part
    if sh.axes and prefix_of(sh.axes[-1], r):
        return sh.axes[-1]
    return None


def _truncate(axes: list[Axis], remove: Callable[..., Axis | None], conservative: bool, full: dict[str, int],
              *args: Any) -> None:  # fmt: skip
    """Cut `axes` at the first axis `remove(axis, size of the axes before it, *args)` changes."""
    prev = 1
    for i, cur in enumerate(axes):
        new = remove(cur, prev, *args)
        if new is None or (conservative and is_sub(new, full)):
            del axes[i:]
            return
        if new != cur:
            axes[i] = new
            del axes[i + 1 :]
            return
        prev *= new[2]


def _merge_compatible(old: list[Axis], new: Sequence[Axis], can_expand: bool) -> tuple[list[Axis], bool]:
    """Shardy's getCompatibleMajorAxesInternal."""
    result: list[Axis] = []
    i = 0
    while i < len(old) and i < len(new):
        o, n = old[i], new[i]
        i += 1
        if o[0] != n[0]:
            return result, False
        if o == n:
            result.append(n)
            continue
        if prefix_of(n, o):
            if i < len(new):
                result.append(n)
                return result, False
            result.append(o)
        elif prefix_of(o, n):
            if not can_expand or i < len(old):
                result.append(o)
                return result, False
            result.append(n)
        else:
            return result, False
    result.extend(old[i:])
    if can_expand:
        result.extend(new[i:])
    return result, can_expand


def compatible_major_axes(tensors: list[TensorFactors], n_operands: int, f: int, direction: str) -> list[Axis]:
    """The longest axes every tensor's sharding of `f` is prefix-compatible with; only tensors on
    the expanding side of `direction` may lengthen it."""
    if direction == NONE:
        return []
    if direction == BOTH:  # one group, operands then results, every tensor may expand
        return _merge_group(tensors, f, [], True)[0]
    ops, res = tensors[:n_operands], tensors[n_operands:]
    first, second = (res, ops) if direction == BACKWARD else (ops, res)
    result, _ = _merge_group(first, f, [], True)
    return _merge_group(second, f, result, False)[0]


def _merge_group(group: list[TensorFactors], f: int, result: list[Axis], can_expand: bool) -> tuple[list[Axis], bool]:
    """`result` merged with each tensor's axes of `f` in turn (see `compatible_major_axes`)."""
    for t in group:
        sh = t.factors.get(f)
        if sh is None:
            continue
        axes = sh.axes
        # No axes, or the same axes, leave the result as it is; the first ones expand it.
        if not axes or axes == result:
            continue
        if not result and can_expand:
            result = list(axes)
            continue
        result, can_expand = _merge_compatible(result, axes, can_expand)
    return result, can_expand


def _expand(tensors: list[TensorFactors], k: int, f: int, axes: list[Axis], updated: list[bool]) -> None:
    """Extend tensor `k`'s axes of `f` to `axes` when they are a strict prefix of them. The list
    may hold shared projections: a tensor is replaced by its `fresh` copy before its first
    change (`updated[k]` False), and the list entry is what the caller reads afterwards."""
    tensor = tensors[k]
    sh = tensor.factors.get(f)
    if sh is None or sh.axes == axes or is_prefix(sh.axes, axes) != "strict":
        return
    if not updated[k]:
        tensor = tensors[k] = fresh(tensor)
        updated[k] = True
    # A new factor sharding: projections may share theirs (`fresh`).
    tensor.factors[f] = FactorSharding(list(axes), sh.overflow, sh.closed, sh.minor_most)
    tensor.by_name = None


def fresh(tensor: TensorFactors) -> TensorFactors:
    """A projection to propagate on that leaves `tensor` as it is (the factor shardings are
    shared: propagation replaces them, never changes them)."""
    return TensorFactors(dict(tensor.factors), tensor.replicated, tensor.unreduced)


# ---- strategies ---------------------------------------------------------------------------------------
def propagate_basic(tensors: list[TensorFactors], n_operands: int, sizes: Sequence[int],
                    direction: Callable[[int], str], full: dict[str, int], conservative: bool,
                    extendable: list[bool] | None = None) -> list[bool]:  # fmt: skip
    """Each factor gets the compatible axes every tensor accepts; returns which tensors changed.

    `extendable[0]` becomes True when some tensor's axes of a factor are a strict prefix of the
    factor's compatible axes as first computed. When none is and nothing changed, the aggressive
    strategy changes nothing either: it extends a tensor's axes only to a strict extension within
    a prefix of those same compatible axes."""
    updated = [False] * len(tensors)
    for f, size in enumerate(sizes):
        # Every tensor with the same axes of `f` (none, often): those are the compatible axes
        # (or none) and no tensor's are a strict prefix of them, so nothing changes; most
        # factors of a node are so, and this is cheaper than working the axes out.
        if _one_axes(tensors, f):
            continue
        axes = compatible_major_axes(tensors, n_operands, f, direction(f))
        if not axes:
            continue
        # Truncating only shortens `axes`, and a tensor's axes that are no strict prefix of them are
        # none of a prefix either: without such a tensor the factor changes nothing.
        for t in tensors:
            sh = t.factors.get(f)
            if sh is not None and sh.axes != axes and is_prefix(sh.axes, axes) == "strict":
                break
        else:
            continue
        if extendable is not None:
            extendable[0] = True

        def remove(a: Axis, prev: int, f: int = f, size: int = size) -> Axis | None:
            r: Axis | None = a
            for t in tensors:
                if r is None:
                    return None
                r = _no_conflict_across(r, t, f)
                sh = t.factors.get(f)
                if r is not None and sh is not None:
                    r = _no_conflict_within(r, t, sh, prev, size, conservative)
            return r

        _truncate(axes, remove, conservative, full)
        if axes:  # no tensor's axes are a strict prefix of none
            for k in range(len(tensors)):
                _expand(tensors, k, f, axes, updated)
    return updated


def propagate_aggressive(tensors: list[TensorFactors], n_operands: int, sizes: Sequence[int],
                         direction: Callable[[int], str], full: dict[str, int], conservative: bool,
                         elementwise: bool) -> list[bool]:  # fmt: skip
    """Conflicts across factors go to the factor of the largest source tensor (for elementwise ops
    then the most sharded one); results are updated before operands."""
    updated = [False] * len(tensors)
    wanted = [_wanted(tensors, n_operands, f, direction(f)) for f in range(len(sizes))]
    # Only factors with wanted axes can change a tensor: the order below is of those alone (the
    # others are passed over wherever they would stand).
    active = [f for f, w in enumerate(wanted) if w]
    if not active:
        return updated
    source = [(-1, -1)] * len(sizes)  # (tensor size, tensor index)
    for k, t in enumerate(tensors):
        tsize = 1
        for f in t.factors:
            tsize *= sizes[f]
        factors = t.factors
        for f in active:
            sh = factors.get(f)
            if sh is not None and tsize > source[f][0]:
                w = wanted[f]
                if w == sh.axes or is_prefix(w, sh.axes) != "not":
                    source[f] = (tsize, k)
    order = sorted(active, key=lambda f: (-source[f][0], -_size(wanted[f]) if elementwise else 0, source[f][1], f))
    for k in (*range(n_operands, len(tensors)), *range(n_operands)):
        t = tensors[k]
        for f in order:
            sh = t.factors.get(f)
            if sh is None or not wanted[f] or sh.axes == wanted[f] or is_prefix(sh.axes, wanted[f]) != "strict":
                # Not a strict prefix of the wanted axes, so of no truncation of them either.
                continue
            new = list(wanted[f])

            def within(a: Axis, prev: int, t: TensorFactors = t, sh: FactorSharding = sh, f: int = f) -> Axis | None:
                return _no_conflict_within(a, t, sh, prev, sizes[f], conservative)

            def across(a: Axis, prev: int, t: TensorFactors = t, f: int = f) -> Axis | None:
                return _no_conflict_across(a, t, f)

            _truncate(new, within, conservative, full)
            if is_prefix(sh.axes, new) != "strict":
                continue
            # Across factors against this tensor as already updated for the factors served before.
            _truncate(new, across, conservative, full)
            if not new:
                continue
            if k < n_operands and elementwise:
                # Sideways into an operand only what some result also takes (Shardy: a closed
                # replicated result must not make a replicated operand sharded).
                for r in tensors[n_operands:]:  # as updated above
                    rs = r.factors.get(f)
                    if rs is not None and is_prefix(rs.axes, new) == "strict":
                        new = list(rs.axes)
            _expand(tensors, k, f, new, updated)
            t = tensors[k]  # its own copy once changed
    return updated


def _wanted(tensors: list[TensorFactors], n_operands: int, f: int, direction: str) -> list[Axis]:
    """The aggressive strategy's wanted axes of `f`: `compatible_major_axes`, or none when every
    tensor with the factor has the same axes along it (most factors of a node). Those merge to
    that list or to none, of which no tensor's axes are a strict prefix: the factor changes no
    tensor, and a factor without wanted axes is passed over alike (its place in the order, the
    only other thing its axes decide, matters to no factor that does change)."""
    return [] if _one_axes(tensors, f) else compatible_major_axes(tensors, n_operands, f, direction)


def _one_axes(tensors: list[TensorFactors], f: int) -> bool:
    """Whether every tensor that has factor `f` has the same axes along it."""
    first = None
    for t in tensors:
        sh = t.factors.get(f)
        if sh is not None:
            if first is None:
                first = sh.axes
            elif sh.axes != first:
                return False
    return True


def is_elementwise(op: Operation) -> bool:
    """Shardy's isElementwise (the aggressive strategy's tie-break and sideways rule)."""
    name = op.name
    if name == "stablehlo.bitcast_convert":
        return _shape(op.operands[0]) == _shape(op.results[0])
    known = _ELEMENTWISE.get(name)
    if known is None:
        known = _ELEMENTWISE[name] = _elementwise_name(name)
    return known


# Op name -> whether `is_elementwise` holds for it (bitcast_convert aside, which depends on shapes).
_ELEMENTWISE: dict[str, bool] = {}


def _elementwise_name(name: str) -> bool:
    from ttopt.sharding.rules import BINARY, CHLO_BROADCAST, CHLO_POINTWISE, UNARY

    if name.startswith("stablehlo."):
        short = name[len("stablehlo."):]
        return short in UNARY or short in BINARY or short in ("select", "clamp")
    return name in _SDY_ELEMENTWISE or name in CHLO_POINTWISE or name in CHLO_BROADCAST


def _shape(v: Value) -> tuple[int, ...]:
    return tuple(getattr(v.type.resolve(), "shape", ()) or ())
