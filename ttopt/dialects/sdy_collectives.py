"""Shardy's checks of what an sdy collective says it does (`verifySymbolUses` of the collective ops
in Shardy's verifiers.cc): its own axes exist and are listed once, and applying them to the
operand's sharding gives the `out_sharding`. ValueErrors in Shardy's words.

Axes here are `(name, pre_size, size)` over a mesh; a whole axis is `(name, 1, n)` and prints
without its sub-axis part. The sub-axis algebra the sharding passes share (`contains`,
`can_coexist`, `is_sub`, `add_or_merge`) lives here, below them; `_overlaps` is Shardy's
verifier's, for which a whole axis overlaps all of itself even when it has size 1.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from ttopt.ir.spelled import quote

Axis = tuple[str, int, int]


def _text(a: Axis, full: dict[str, int]) -> str:
    name = quote(a[0])
    return name if (a[1], a[2]) == (1, full[a[0]]) else f"{name}:({a[1]}){a[2]}"


def _list_text(axes: Sequence[Axis], full: dict[str, int]) -> str:
    return "[" + ", ".join(_text(a, full) for a in axes) + "]"


def _axes(refs: Sequence[Any], full: dict[str, int]) -> list[Axis]:
    return [(r.name, *(r.sub_axis if r.sub_axis is not None else (1, full.get(r.name, 1)))) for r in refs]


def is_sub(a: Axis, full: dict[str, int]) -> bool:
    """A proper sub-axis (not the whole mesh axis)."""
    return a[1] != 1 or a[2] != full.get(a[0], a[2])


def contains(a: Axis, b: Axis) -> bool:
    """`a` covers all of `b`."""
    return a[0] == b[0] and a[1] <= b[1] and a[1] * a[2] >= b[1] * b[2]


def _overlaps(a: Axis, b: Axis, full: dict[str, int]) -> bool:
    """Shardy's AxisRefAttr::overlaps: a whole axis overlaps every part of itself (even of size 1)."""
    if a[0] != b[0]:
        return False
    return not is_sub(a, full) or not is_sub(b, full) or (a[1] < b[1] * b[2] and b[1] < a[1] * a[2])


def can_coexist(a: Axis, b: Axis) -> bool:
    """Both can be sub-axes of one mesh axis at once (their pieces tile it)."""
    if a[0] != b[0]:
        return True
    lo_pre, hi_pre = sorted((a[1], b[1]))
    lo_end, hi_end = sorted((a[1] * a[2], b[1] * b[2]))
    if lo_end > hi_pre:
        return lo_end % hi_pre == 0 and hi_pre % lo_pre == 0 and hi_end % lo_end == 0
    return hi_pre % lo_end == 0


def _prefix_without_overlap(a: Axis, b: Axis, full: dict[str, int]) -> Axis | None:
    if not can_coexist(a, b):
        return None
    if not _overlaps(a, b, full):
        return a
    return None if a[1] >= b[1] else (a[0], a[1], b[1] // a[1])


def add_or_merge(axes: list[Axis], a: Axis, full: dict[str, int]) -> None:
    """Append `a`, joined with the last axis when both are sub-axes of one axis that meet."""
    if axes:
        last = axes[-1]
        if last[0] == a[0] and is_sub(last, full) and is_sub(a, full) and last[1] * last[2] == a[1]:
            axes[-1] = (a[0], last[1], last[2] * a[2])
            return
    axes.append(a)


def axis_list_problem(axes: Sequence[Axis], full: dict[str, int], seen: set[Axis]) -> str | None:
    """Shardy's verifyAxisRefList: axes of the mesh, each once, no two mergeable sub-axes in a row."""
    prev: Axis | None = None
    for a in axes:
        if a[0] not in full:
            return f'unknown axis name: "{a[0]}"'
        if a in seen:
            return f"duplicate axis ref: {_text(a, full)}"
        seen.add(a)
        if not is_sub(a, full):
            prev = a
            continue
        if prev is not None and prev[0] == a[0] and is_sub(prev, full) and prev[1] * prev[2] == a[1]:
            return f"two consecutive sub-axes can be merged: {_text(prev, full)}, {_text(a, full)}"
        prev = a
    return None


def _gather(dim: list[Axis], gathering: Sequence[Axis], d: int, kind: str, full: dict[str, int]) -> list[Axis]:
    """Remove `gathering` from the end of a dimension's axes (Shardy's gatherAxesAlongDim)."""
    out = list(dim)
    for g in reversed(gathering):
        last = out[-1] if out else None
        if last is None or not (contains(last, g) and g[1] * g[2] == last[1] * last[2]):
            raise ValueError(f"can't apply {kind} axis {_text(g, full)} to operand sharding on dimension {d}")
        out.pop()
        rest = _prefix_without_overlap(last, g, full)
        if rest is not None:
            out.append(rest)
    return out


def _slice(dim: list[Axis], slicing: Sequence[Axis], full: dict[str, int]) -> list[Axis]:
    out = list(dim)
    for a in slicing:
        add_or_merge(out, a, full)
    return out


def _per_dim(operand: list[list[Axis]], result: list[list[Axis]], per_dim: list[list[Axis]],
             full: dict[str, int], apply: Callable[[list[Axis], list[Axis], int], list[Axis]]) -> None:  # fmt: skip
    seen: set[Axis] = set()
    for axes in per_dim:
        problem = axis_list_problem(axes, full, seen)
        if problem:
            raise ValueError(problem)
    if len(result) != len(per_dim):
        raise ValueError(f"result sharding has rank {len(result)} but collective axes has rank {len(per_dim)}")
    for d, (dim, axes) in enumerate(zip(operand, per_dim)):
        want = apply(dim, axes, d)
        if want != result[d]:
            raise ValueError(f"result sharding doesn't match expected sharding {_list_text(want, full)} on dimension {d}")


# Attribute models are frozen and reshards that repeat a route share their attributes, so a
# check that passed is remembered per tuple of objects (held by the entry, so their ids stay
# theirs) and not run again; the table is dropped when it grows past _PASSED_LIMIT.
_PASSED_LIMIT = 100_000
_PASSED: dict[tuple, tuple] = {}


def check_collective(kind: str, params: Any, operand: Any, result: Any, mesh: Any) -> None:
    """Check sdy.`kind`'s own parameters against its operand's and result's TensorShardingAttrs."""
    key = (kind, id(params), id(operand), id(result), id(mesh))
    hit = _PASSED.get(key)
    if hit is not None and hit[0] is params and hit[1] is operand and hit[2] is result and hit[3] is mesh:
        return
    _check_collective(kind, params, operand, result, mesh)
    if len(_PASSED) > _PASSED_LIMIT:
        _PASSED.clear()
    _PASSED[key] = (params, operand, result, mesh)


# A mesh's axis sizes and a sharding's axes per dimension, kept per model object (with the objects,
# so their ids stay theirs): collectives built from one plan share their out_sharding models, and
# a chain's next collective reads the previous one's as its operand's.
_FULL: dict[int, tuple[Any, dict[str, int]]] = {}
_DIMS: dict[tuple[int, int], tuple[Any, Any, list[list[Axis]] | None]] = {}


def _full_sizes(mesh: Any) -> dict[str, int]:
    """Each axis of `mesh` by name: its size."""
    hit = _FULL.get(id(mesh))
    if hit is None or hit[0] is not mesh:
        if len(_FULL) > _PASSED_LIMIT:
            _FULL.clear()
        hit = _FULL[id(mesh)] = (mesh, {a.name: a.size for a in mesh.axes})
    return hit[1]


def _dims(s: Any, mesh: Any, full: dict[str, int]) -> list[list[Axis]] | None:
    """The axes of each dimension of sharding `s` on `mesh` (never changed by the checks: they copy),
    or None when `s` names an axis the mesh lacks (anywhere, replicated and unreduced included)."""
    key = (id(s), id(mesh))
    hit = _DIMS.get(key)
    if hit is not None and hit[0] is s and hit[1] is mesh:
        return hit[2]
    dims = None if any(r.name not in full for _, r in s.all_axis_refs()) else [_axes(d.axes, full) for d in s.dim_shardings]
    if len(_DIMS) > _PASSED_LIMIT:
        _DIMS.clear()
    _DIMS[key] = (s, mesh, dims)
    return dims


def _check_collective(kind: str, params: Any, operand: Any, result: Any, mesh: Any) -> None:
    full = _full_sizes(mesh)
    dims_out = _dims(result, mesh, full)
    dims_in = _dims(operand, mesh, full) if dims_out is not None else None
    if dims_out is None or dims_in is None:
        return  # reported by the sharding checks, in their words
    if len(dims_in) != len(dims_out):
        raise ValueError(f"result sharding has rank {len(dims_out)} but operand sharding has rank {len(dims_in)}")
    if kind in ("all_gather", "sharded_to_unreduced"):
        label = "gathering" if kind == "all_gather" else "shard-to-unreduce"
        per_dim = [_axes(refs, full) for refs in params.lists]
        _per_dim(dims_in, dims_out, per_dim, full, lambda dim, axes, d: _gather(dim, axes, d, label, full))
    elif kind in ("all_slice", "reduce_scatter"):
        per_dim = [_axes(refs, full) for refs in params.lists]
        _per_dim(dims_in, dims_out, per_dim, full, lambda dim, axes, d: _slice(dim, axes, full))
    elif kind == "all_to_all":
        _all_to_all(params.params, dims_in, dims_out, full)
    elif kind == "all_reduce":
        _all_reduce(params.axes, operand, full, mesh)
    elif kind == "collective_permute":
        for d, (a, b) in enumerate(zip(dims_in, dims_out)):
            size_in, size_out = _shards(a), _shards(b)
            if a != b and size_in != size_out:
                raise ValueError(f"sharded size of result doesn't match operand on dimension {d}: {size_out} != {size_in}")


def _shards(axes: Sequence[Axis]) -> int:
    n = 1
    for a in axes:
        n *= a[2]
    return n


def _all_to_all(params: Sequence[Any], dims_in: list[list[Axis]], dims_out: list[list[Axis]], full: dict[str, int]) -> None:
    if not params:
        raise ValueError("parameter list is empty")
    rank = len(dims_out)
    seen_dims: set[int] = set()
    seen: set[Axis] = set()
    prev_src = -1
    for p in params:
        problem = axis_list_problem(_axes(p.axes, full), full, seen)
        if problem:
            raise ValueError(problem)
        for dim, label in ((p.src_dim, "source"), (p.tgt_dim, "target")):
            if not 0 <= dim < rank:
                raise ValueError(f"{label} dimension {dim} is out of range [0, {rank})")
        for dim in (p.src_dim, p.tgt_dim):
            if dim in seen_dims:
                raise ValueError(f"overlapping source/target dimensions in all-to-all params: {dim}")
            seen_dims.add(dim)
        if prev_src >= p.src_dim:
            raise ValueError(f"source dimensions are not sorted in ascending order: {p.src_dim} appears after {prev_src}")
        prev_src = p.src_dim

    def expect(dim: int, want: list[Axis]) -> None:
        if want != dims_out[dim]:
            raise ValueError(f"result sharding doesn't match expected sharding {_list_text(want, full)} on dimension {dim}")

    for p in params:
        axes = _axes(p.axes, full)
        expect(p.src_dim, _gather(dims_in[p.src_dim], axes, p.src_dim, "all-to-all", full))
        expect(p.tgt_dim, _slice(dims_in[p.tgt_dim], axes, full))
    for d in range(rank):
        if d not in seen_dims:
            expect(d, dims_in[d])


def _all_reduce(refs: Sequence[Any], operand: Any, full: dict[str, int], mesh: Any) -> None:
    axes = _axes(refs, full)
    order = {n: i for i, n in enumerate(mesh.axis_names)}
    keys = [(order.get(a[0], -1), a[1], a[2]) for a in axes]
    if all(a[0] in full for a in axes) and keys != sorted(keys):
        raise ValueError("reduction axes are not ordered w.r.t. mesh")
    problem = axis_list_problem(axes, full, set())
    if problem:
        raise ValueError(problem)
    taken = [a for d in operand.dim_shardings for a in _axes(d.axes, full)] + _axes(operand.replicated, full)
    for a in axes:
        if any(_overlaps(a, b, full) for b in taken):
            raise ValueError(f"reduction axis {_text(a, full)} overlaps with operand dimension sharding or replicated axes")
