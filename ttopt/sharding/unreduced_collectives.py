"""Unreduced targets: `sdy.replicated_to_unreduced` / `sdy.sharded_to_unreduced` (Shardy's
insertUnreducedCollectives, explicit_reshards_util.cc).

A value whose target sharding has unreduced axes it does not have becomes unreduced on them
without moving data: axes it is replicated on go by `replicated_to_unreduced` (each device keeps
its copy, all but one count as zero), axes it is sharded on at the minor end of a dimension that
the target drops go by `sharded_to_unreduced` (each device keeps its shard, zero elsewhere).
Relationship: out unreduced = in unreduced + r2u axes + s2u axes. Any other dimension change
is an `sdy.reshard` first (to the target's dimensions, keeping the s2u dims as they are).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ttopt.sharding.factors import Axis, Sharding, axes_overlap, axis_of, axis_ref, merge_axes, to_attr

if TYPE_CHECKING:
    from ttopt.dialects.sdy_attrs import MeshAttr
    from ttopt.ir.attributes import Attribute


def axis_set_diff(a: list[Axis], b: list[Axis]) -> list[Axis]:
    """The parts of `a`'s axes not covered by `b`, in `a`'s order (Shardy's getAxisSetDiff)."""
    out: list[Axis] = []
    for ax in a:
        rest: list[Axis] = [ax]
        for other in b:
            nxt: list[Axis] = []
            for r in rest:
                if not axes_overlap(r, other):
                    nxt.append(r)
                    continue
                end, other_end = r[1] * r[2], other[1] * other[2]
                if other[1] > r[1]:
                    nxt.append((r[0], r[1], other[1] // r[1]))
                if other_end < end:
                    nxt.append((r[0], other_end, end // other_end))
            rest = nxt
        out.extend(rest)
    return out


def sort_and_merge(axes: list[Axis], mesh: MeshAttr) -> list[Axis]:
    """Mesh order, then consecutive sub-axes joined (Shardy's sortAndMergeAxes)."""
    order = {name: k for k, name in enumerate(mesh.axis_names)}
    return merge_axes(sorted(axes, key=lambda a: (order.get(a[0], len(order)), a[1])))


def _strict_prefix(out_axes: list[Axis], in_axes: list[Axis]) -> str:
    """"equal", "strict" or "not" (Shardy's isAxisListPrefixOf(out, in))."""
    if not out_axes:
        return "equal" if not in_axes else "strict"
    if len(out_axes) > len(in_axes) or out_axes[:-1] != in_axes[: len(out_axes) - 1]:
        return "not"
    last, theirs = out_axes[-1], in_axes[len(out_axes) - 1]
    if len(out_axes) == len(in_axes) and last == theirs:
        return "equal"
    if last[0] == theirs[0] and last[1] == theirs[1] and last[2] <= theirs[2] and theirs[2] % last[2] == 0:
        return "strict"
    return "not"


def insert_unreduced_collectives(value: Any, cur: Sharding | None, want: Sharding | None, meshes: dict[str, MeshAttr],
                                 before: Any) -> tuple[Any, Sharding] | None:
    """The ops that take `value` (sharded `cur`) to `want`'s new unreduced axes, created before
    `before`: (new value, its sharding), or None when `want` adds no unreduced axis."""
    from ttopt.dialects.sdy_attrs import AxisRefListAttr, ListOfAxisRefListsAttr
    from ttopt.ir import rewriter

    if cur is None or want is None or not want.unreduced or cur.mesh != want.mesh or cur.rank != want.rank:
        return None
    mesh = meshes.get(cur.mesh) if isinstance(cur.mesh, str) else cur.mesh
    if mesh is None:
        return None
    in_u = [axis_of(r, mesh) for r in cur.unreduced]
    out_u = [axis_of(r, mesh) for r in want.unreduced]
    new_u = axis_set_diff(out_u, in_u)
    if not new_u or axis_set_diff(in_u, out_u):
        return None
    s2u: list[Axis] = []
    per_dim: list[list[Axis]] = [[] for _ in range(cur.rank)]
    tmp_dims = [list(d) for d in want.dims]
    need_reshard = False
    for d, (in_axes, out_axes) in enumerate(zip(cur.dims, want.dims)):
        status = _strict_prefix(list(out_axes), list(in_axes))
        if status == "strict":
            diff: list[Axis] = []
            if out_axes and out_axes[-1] != in_axes[len(out_axes) - 1]:
                mine, theirs = out_axes[-1], in_axes[len(out_axes) - 1]
                diff.append((theirs[0], mine[1] * mine[2], theirs[2] // mine[2]))
            diff.extend(in_axes[len(out_axes):])
            if not axis_set_diff(diff, new_u):
                per_dim[d] = diff
                s2u.extend(diff)
                tmp_dims[d] = list(in_axes)
            else:
                need_reshard = True
        elif status == "not":
            need_reshard = True
    result = value
    last = cur
    if need_reshard:
        mid = cur.copy()
        mid.dims = [list(d) for d in tmp_dims]
        mid.closed = [True] * mid.rank
        op = rewriter.create("sdy.reshard", [result], [value.type], {"sharding": to_attr(mid, meshes).to_attr()}, before=before)
        result, last = op.results[0], mid
    r2u = axis_set_diff(new_u, s2u)
    if r2u:
        mid = Sharding(cur.mesh, [list(d) for d in tmp_dims], list(want.closed), list(want.priority), want.replicated,
                       tuple(axis_ref(a, mesh) for a in sort_and_merge(in_u + r2u, mesh)), want.unreduced_kind)  # fmt: skip
        props: dict[str, Attribute] = {"axes": AxisRefListAttr(axes=tuple(axis_ref(a, mesh) for a in r2u)).to_attr(),
                                       "out_sharding": to_attr(mid, meshes).to_attr()}  # fmt: skip
        op = rewriter.create("sdy.replicated_to_unreduced", [result], [value.type], props, before=before)
        result, last = op.results[0], mid
    if s2u:
        lists = tuple(tuple(axis_ref(a, mesh) for a in d) for d in per_dim)
        props = {"axes": ListOfAxisRefListsAttr(lists=lists).to_attr(), "out_sharding": to_attr(want, meshes).to_attr()}
        op = rewriter.create("sdy.sharded_to_unreduced", [result], [value.type], props, before=before)
        result, last = op.results[0], want
    return (result, last) if result is not value else None
