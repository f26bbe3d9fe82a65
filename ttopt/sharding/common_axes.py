"""The axes each factor of an op is sharded on when its tensors disagree (Shardy's
`findCommonAxes`, explicit_reshards_util.cc).

In order: if every tensor has the same axes for every factor, no need-replication factor is
sharded and no two factors share an axis, those axes. Else, for a unary op (two non-scalar
tensors, no need-replication factor, one factor per dimension) the preferred tensor's axes
(no sharded permutation factor, then larger, then more sharded), plus the other tensor's axes for
factors the preferred one lacks, cut where they meet the preferred one's axes. Else the greedy
heuristic: every (factor, axes prefix) any tensor has is a candidate, counted with the total size
of the tensors whose axes for the factor start with it; the best candidate (total size, factor
type — pass-through, reduction, permutation, need-replication —, sharding size it adds, factor
index, axes) is assigned, the other candidates of its factor survive only if they extend it,
and the others are cut before the first axis they share with it. A factor that follows another
in some dimension may only be picked once that one is fully sharded (no strided views). Last,
need-replication factors give their axes to the batching factors (pass-through factors every
non-scalar tensor has), whole axes in order while they divide what is left of each.

Axes are `(name, pre_size, size)` tuples (factors.py); a mesh axis is whole when `pre_size` is
1 and `size` its full size.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Container, Sequence

from ttopt.dialects.sdy_rule import FactorType
from ttopt.sharding.factors import Axis, TensorProjection, axes_overlap, axes_size, merge_axes
from ttopt.sharding.sub_axes import is_sub, prefix_without_any

if TYPE_CHECKING:
    from ttopt.dialects.sdy_rule import OpShardingRule

AxesPerFactor = dict[int, list[Axis]]
def _precedence(rule: OpShardingRule, f: int) -> int:
    """Shardy's FactorAxesCandidate::precedence of the factor's type (ties on source size go to
    pass-through factors): pass-through 3, reduction 2, permutation 1, need-replication 0. The
    types are tested in `factor_type`'s order without building the enum member (hashing one is
    a Python-level call, and the heuristic ranks every candidate)."""
    if f in rule.reduction:
        return 2
    if f in rule.need_replication:
        return 0
    if f in rule.permutation:
        return 1
    return 3


def _axis_key(a: Axis, full: dict[str, int]) -> tuple:
    """AxisRefAttr's order: by name; a whole axis sorts after its sub-axes of pre-size 1 and
    before those of larger pre-size; sub-axes by (pre-size, size)."""
    return (a[0], a[1], a[2] if is_sub(a, full) else float("inf"))


def _list_key(axes: tuple[Axis, ...], full: dict[str, int]) -> tuple:
    """AxisListRef's order: shorter lists first, then axis by axis."""
    return (len(axes), tuple(_axis_key(a, full) for a in axes))


def _strict_prefix(a: tuple[Axis, ...], b: tuple[Axis, ...]) -> bool:
    """True when `a` is a strict prefix of `b`, its last axis possibly a prefix sub-axis of b's
    axis at that position (AxisListRef::strictPrefixOf)."""
    if not a:
        return bool(b)
    if len(a) > len(b) or a[:-1] != b[: len(a) - 1]:
        return False
    x, y = a[-1], b[len(a) - 1]
    prefix = x[0] == y[0] and x[1] == y[1] and x[2] <= y[2] and y[2] % x[2] == 0
    return prefix and (x != y or len(a) < len(b))


def truncate_without_overlap(axes: Sequence[Axis], others: Sequence[Axis], names: Container[str] | None = None) -> tuple[Axis, ...]:
    """`axes` up to (and including the part without overlap of) the first axis `others` share
    (`names`: the names of `others`' axes, when the caller has them)."""
    if names is None:
        names = {b[0] for b in others}
    for i, a in enumerate(axes):
        if a[0] not in names:
            continue  # only parts of one mesh axis overlap
        p = prefix_without_any(a, others)
        if p != a:
            return tuple(axes[:i]) + ((p,) if p is not None else ())
    return tuple(axes)


@dataclass(slots=True)
class _Candidate:
    factor: int
    axes: tuple[Axis, ...]
    size: int  # sharding size it adds to the factor's current assignment
    precedence: int
    total: int = 0  # global size of the tensors holding it (or an extension of it)


def compatible_axes(rule: OpShardingRule, projs: list[TensorProjection]) -> AxesPerFactor | None:
    """Each factor's axes when every tensor agrees, no need-replication factor is sharded and
    no two factors share an axis (getCompatibleFactorShardings); else None."""
    out: AxesPerFactor = {}
    seen: list[Axis] = []
    per_tensor = [p.factors for p in projs]
    need_replication = rule.need_replication
    for f in range(rule.num_factors):
        # The axes every tensor having the factor gives it (compared as lists: no sets built).
        first = None
        for factors in per_tensor:
            fs = factors.get(f)
            if fs is None:
                continue
            if first is None:
                first = fs.axes
            elif fs.axes != first:
                return None
        axes = list(first) if first else []
        if f in need_replication:
            if axes:
                return None
            out[f] = []
            continue
        if axes and seen and any(axes_overlap(a, b) for a in axes for b in seen):
            return None
        out[f] = axes
        seen.extend(axes)
    return out


def _non_scalar(rule: OpShardingRule) -> list[int]:
    return [t for t, m in enumerate(rule.tensors) if m]


def _unary(rule: OpShardingRule, projs: list[TensorProjection], sizes: Sequence[int]) -> AxesPerFactor:
    """findCommonAxesOnUnaryOperation: the preferred tensor's axes, then the other's for
    factors only it has, cut where they meet the preferred tensor's axes."""
    lhs, rhs = _non_scalar(rule)

    permutation = rule.permutation

    def preference(t: int) -> tuple:
        perm = False
        sharded = 1  # the size of all its factors' axes, overflow included
        for f, fs in projs[t].factors.items():
            if fs.axes:
                if f in permutation:
                    perm = True
                sharded *= axes_size(fs.axes)
            if fs.overflow:
                sharded *= axes_size(fs.overflow)
        return (not perm, sizes[t], sharded)

    best, other = (lhs, rhs) if preference(lhs) >= preference(rhs) else (rhs, lhs)
    out: AxesPerFactor = {f: [] for f in range(rule.num_factors)}
    used: list[Axis] = []
    for f, fs in projs[best].factors.items():
        out[f] = list(fs.axes)
        used.extend(fs.axes)
    for f, fs in projs[other].factors.items():
        if f not in projs[best].factors:
            kept: list[Axis] = []
            for a in fs.axes:
                p = prefix_without_any(a, used)
                if p is not None:
                    kept.append(p)
                if p != a:
                    break
            out[f] = kept
    return out


# Per-rule tables are dropped past this many rules.
_DEPS_LIMIT = 10_000


def _best(valid: list[_Candidate], full: dict[str, int]) -> _Candidate:
    """The best candidate: by (total, precedence, size, factor, axes in AxisListRef's order),
    the first of equal ones; the axes are compared only between candidates tied on the rest."""
    if len(valid) == 1:
        return valid[0]
    keys = [(c.total, c.precedence, c.size, c.factor) for c in valid]
    top = max(keys)
    tied = [c for c, k in zip(valid, keys) if k == top]
    return tied[0] if len(tied) == 1 else max(tied, key=lambda c: _list_key(c.axes, full))


def heuristic_axes(rule: OpShardingRule, projs: list[TensorProjection], sizes: Sequence[int], full: dict[str, int]) -> AxesPerFactor:
    """findCommonAxesHeuristic: greedy (factor, axes) picks by the size of the tensors that hold them."""
    precedence, waits, _ = _rule_tables(rule)
    # Each (factor, axes prefix) any tensor has (first seen first), with its sharding size.
    pairs: dict[tuple[int, tuple[Axis, ...]], int] = {}
    sources: list[tuple[int, int, tuple[Axis, ...]]] = []  # (tensor, factor, its axes) for sharded factors
    for t, p in enumerate(projs):
        for f, fs in p.factors.items():
            if not fs.axes:
                continue  # candidates have axes: none is a prefix of nothing
            axes = src = tuple(fs.axes)
            sources.append((t, f, src))
            n = axes_size(src)
            while axes:
                pairs[(f, axes)] = n
                n //= axes[-1][2]
                axes = axes[:-1]
    cands = [_Candidate(f, axes, n, precedence[f]) for (f, axes), n in pairs.items()]
    of_factor: dict[int, list[_Candidate]] = {}
    for c in cands:
        of_factor.setdefault(c.factor, []).append(c)
    for t, f, src in sources:
        for c in of_factor[f]:
            prefix = c.axes
            # `c.axes == src or _strict_prefix(c.axes, src)`: a tuple prefix of `src` (itself
            # included) at once; a last axis that is a prefix sub-axis of src's is tested.
            k = len(prefix)
            if src[:k] == prefix or (k <= len(src) and prefix[-1][0] == src[k - 1][0] and _strict_prefix(prefix, src)):
                c.total += sizes[t]
    deps = {f: set(prevs) for f, prevs in waits.items()} if waits else {}
    assigned: dict[int, tuple[Axis, ...]] = {}
    factor_sizes = rule.factor_sizes
    while cands:
        valid = [c for c in cands if not deps.get(c.factor)] if deps else cands
        if not valid:
            break
        best = _best(valid, full)
        picked, picked_axes = best.factor, best.axes
        assigned[picked] = picked_axes
        picked_size = axes_size(picked_axes)
        if deps and picked_size == factor_sizes[picked]:
            for waiting in deps.values():
                waiting.discard(picked)
        kept: list[_Candidate] = []
        names = {a[0] for a in picked_axes}
        for c in cands:
            if c.factor == picked:
                if _strict_prefix(picked_axes, c.axes):
                    c.size = axes_size(c.axes) // picked_size
                    kept.append(c)
                continue
            for a in c.axes:
                if a[0] in names:  # only parts of one mesh axis overlap
                    cut = truncate_without_overlap(c.axes, picked_axes, names)
                    break
            else:
                cut = c.axes
            if cut != c.axes:
                c.axes = cut
                current = assigned.get(c.factor, ())
                if cut == current:
                    continue
                c.size = axes_size(cut) // axes_size(current)
            else:
                # Shardy resets an untouched candidate to its whole sharding size.
                c.size = axes_size(c.axes)
            kept.append(c)
        cands = kept
    get = assigned.get
    return {f: list(get(f, ())) for f in range(len(factor_sizes))}


# Per rule object (rules are frozen and shared by the ops of one shape; the entry holds the
# rule, so its id stays its own): each factor's precedence, per factor the factors right
# before it in some dimension (it waits until they are full), and whether the rule is unary
# for findCommonAxesOnUnaryOperation.
_TABLES: dict[int, tuple[OpShardingRule, tuple[int, ...], dict[int, frozenset[int]], bool]] = {}


def _rule_tables(rule: OpShardingRule) -> tuple[tuple[int, ...], dict[int, frozenset[int]], bool]:
    """The rule's factors' `_precedence`s, the factors each waits for (frozen: callers copy
    them) and whether it is unary (two non-scalar tensors, no need-replication factor, one
    factor per dimension)."""
    hit = _TABLES.get(id(rule))
    if hit is None or hit[0] is not rule:
        if len(_TABLES) > _DEPS_LIMIT:
            _TABLES.clear()
        deps: dict[int, set[int]] = {}
        for m in rule.tensors:
            for dim in m:
                for prev, f in zip(dim, dim[1:]):
                    deps.setdefault(f, set()).add(prev)
        precedence = tuple(_precedence(rule, f) for f in range(rule.num_factors))
        unary = len(_non_scalar(rule)) == 2 and not rule.need_replication and not any(len(d) > 1 for m in rule.tensors for d in m)
        hit = _TABLES[id(rule)] = (rule, precedence, {f: frozenset(prevs) for f, prevs in deps.items()}, unary)
    return hit[1], hit[2], hit[3]


def batching_factors(rule: OpShardingRule) -> list[int]:
    """Pass-through factors every non-scalar tensor has."""
    tensors = [m for m in rule.tensors if m]
    return [f for f in range(rule.num_factors)
            if rule.factor_type(f) is FactorType.PASS_THROUGH and all(any(f in d for d in m) for m in tensors)]  # fmt: skip


def distribute_to_batching(rule: OpShardingRule, chosen: AxesPerFactor) -> None:
    """Need-replication factors' axes move to the batching factors, whole axes in order while
    they divide what is left of each (distributeAxisRefsToBatchingFactors)."""
    tensors = [m for m in rule.tensors if m]
    batching = batching_factors(rule)
    for f in sorted(rule.need_replication):
        todo = list(chosen.get(f, []))
        chosen[f] = []
        if not todo or not all(any(f in d for d in m) for m in tensors):
            continue
        for g in batching:
            size = rule.factor_sizes[g]
            if size == 0:
                continue
            have = chosen.get(g, [])
            if size % axes_size(have) != 0:
                continue
            room = size // axes_size(have)
            while todo and room % todo[0][2] == 0:
                have = merge_axes([*have, todo[0]])
                room //= todo.pop(0)[2]
            chosen[g] = have
            if not todo:
                break


def find_common_axes(rule: OpShardingRule, projs: list[TensorProjection], sizes: Sequence[int], full: dict[str, int]) -> AxesPerFactor:
    """Shardy's findCommonAxes: the axes per factor the op is computed on."""
    same = compatible_axes(rule, projs)
    if same is not None:
        return same
    return incompatible_common_axes(rule, projs, sizes, full)


def incompatible_common_axes(rule: OpShardingRule, projs: list[TensorProjection], sizes: Sequence[int],
                             full: dict[str, int]) -> AxesPerFactor:  # fmt: skip
    """`find_common_axes` for projections `compatible_axes` has already found incompatible."""
    if _rule_tables(rule)[2]:
        return _unary(rule, projs, sizes)
    chosen = heuristic_axes(rule, projs, sizes, full)
    if rule.need_replication:
        distribute_to_batching(rule, chosen)
    return chosen
