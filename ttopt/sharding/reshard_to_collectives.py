"""`reshard-to-collectives` (Shardy `sdy-reshard-to-collectives`, ref §2.10, §3.6).

Every `sdy.reshard %x <T>` becomes a chain of sdy collectives taking %x's sharding S to T. Per
dimension, `in` is what S has beyond the common prefix with T and `out` what T wants beyond it.
Each round tries, in order:
1. `all_slice`: target axes present nowhere in the input are sliced in (onto dims whose `in` is
   empty, where they land in the right place);
2. `collective_permute`: when every dim already has its target's sharded size but axes are
   replaced or reordered (a same-size swap);
3. `all_to_all`: a suffix of `in[src]` whose axes T wants on another dim moves there
   (`{axes}: src->tgt`), landing in the right position;
4. `all_gather`: the minor suffix of `in[d]` that T does not want anywhere is gathered.
A reshard never yields an all_reduce (those come only from reduction factors). If the rounds stop
making progress the rest is gathered and re-sliced, which is always correct.

Axes of size 1 split nothing. As in Shardy (seed 004 case 6), they are never sliced in at the end of
a dimension: a target `[{"y"}, {"x"}]` with "x"=1 is reached as `[{"y"}, {}]`, and a reshard that
only adds them vanishes. Size-1 axes of the input that the target lacks are gathered with the rest.
No collective ever creates a sub-axis: the axes come whole from the input and target shardings.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any

from ttopt.ir.edit_journal import untrack_op
from ttopt.ir.operation import Operation
from ttopt.passes.base import Pass, option
from ttopt.passes.registry import register_pass
from ttopt.sharding.collective_inserter import shardy_collectives
from ttopt.sharding.factors import (
    Axis,
    Sharding,
    axes_size,
    axis_ref,
    collect_meshes,
    diag,
    dialect_attr,
    from_attr,
    get_sharding_attr,
    rank_of,
    shared_sharding,
    to_attr,
)
from ttopt.sharding.ir_views import tensor_type
from ttopt.sharding.reshard_steps import Step

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.passes.context import PassContext


def _prefix(a: list[Axis], b: list[Axis]) -> int:
    if not a or not b:  # most dims hold no axis
        return 0
    n = min(len(a), len(b))
    k = 0
    while k < n and a[k] == b[k]:
        k += 1
    return k


def _done(cur: list[list[Axis]], dst: list[list[Axis]]) -> bool:
    """Reached: each dim holds a prefix of its target and the rest of the target has size 1. As in
    Shardy, a size-1 axis the target adds is never sliced in (it splits nothing), so the result
    keeps the sharding reached (`[{"y"}, {}]` for a target `[{"y"}, {"x"}]` with "x"=1)."""
    for c, t in zip(cur, dst):
        n = len(c)
        if c != t[:n] or (len(t) > n and axes_size(t[n:]) != 1):
            return False
    return True


def _no_unit(dims: list[list[Axis]]) -> list[list[Axis]]:
    return [[a for a in d if a[2] != 1] for d in dims]


def plan(src: list[list[Axis]], dst: list[list[Axis]]) -> list[Step]:
    """The collectives taking per-dim axes `src` to `dst` (pure: no IR)."""
    cur = [list(d) for d in src]
    steps: list[Step] = []
    for _ in range(8):
        if _done(cur, dst):
            return steps
        progressed = False
        # 1. all_slice: axes wanted but present nowhere, where the dim has nothing extra; never
        # the trailing axes of size 1 (nothing to slice).
        present = {a for d in cur for a in d}
        lists: list[list[Axis]] = [[] for _ in cur]
        for d in range(len(cur)):
            p = _prefix(cur[d], dst[d])
            if p == len(cur[d]):
                for k in range(p, len(dst[d])):
                    a = dst[d][k]
                    if a in present or any(a[0] == x[0] for x in present) or axes_size(dst[d][k:]) == 1:
                        break
                    lists[d].append(a)
        if any(lists):
            cur = [c + lst for c, lst in zip(cur, lists)]
            steps.append(Step("all_slice", lists=lists, after=[list(d) for d in cur]))
            progressed = True
            if _done(cur, dst):
                return steps
        # Only size-1 axes differ: no data moves. Gather size-1 axes the target lacks (as Shardy
        # does), or else one collective_permute to the target's spelling.
        if _no_unit(cur) == _no_unit(dst):
            g = [c[_prefix(c, t):] for c, t in zip(cur, dst)]
            after = [c[: len(c) - len(x)] for c, x in zip(cur, g)]
            if all(a[2] == 1 for x in g for a in x) and _done(after, dst):
                steps.append(Step("all_gather", lists=g, after=after))
            else:
                steps.append(Step("collective_permute", after=[list(d) for d in dst]))
            return steps
        # 2. collective_permute: every dim has its target size, the axes differ.
        if all(axes_size(c) == axes_size(t) for c, t in zip(cur, dst)):
            steps.append(Step("collective_permute", after=[list(d) for d in dst]))
            return steps
        # 2b. collective_permute: axes another dim wants, held in the wrong order.
        for s in range(len(cur)):
            p = _prefix(cur[s], dst[s])
            extra = cur[s][p:]
            if not extra:
                continue
            for t in range(len(cur)):
                pt = _prefix(cur[t], dst[t])
                want = dst[t][pt : pt + len(extra)]
                if t != s and pt == len(cur[t]) and want != extra and sorted(want) == sorted(extra):
                    cur[s] = cur[s][:p] + want
                    steps.append(Step("collective_permute", after=[list(d) for d in cur]))
                    break
        # 3. all_to_all: move a suffix of in[src] to the dim that wants it next.
        for s in range(len(cur)):
            p = _prefix(cur[s], dst[s])
            extra = cur[s][p:]
            if not extra:
                continue
            # The dims that hold a prefix of their target, and its length (cur changes only
            # once a suffix moves, which ends this s).
            open_at = [len(c) if _prefix(c, t) == len(c) else -1 for c, t in zip(cur, dst)]
            for k in range(len(extra)):
                moved = extra[k:]
                for t in range(len(cur)):
                    if t == s:
                        continue
                    pt = open_at[t]
                    if pt >= 0 and dst[t][pt : pt + len(moved)] == moved:
                        cur[s] = cur[s][: len(cur[s]) - len(moved)]
                        cur[t] = cur[t] + moved
                        steps.append(Step("all_to_all", params=[(moved, s, t)], after=[list(d) for d in cur]))
                        progressed = True
                        break
                else:
                    continue
                break
        if _done(cur, dst):
            return steps
        # 4. all_gather: the suffix of in[d] that nothing wants where it is (an axis of size 1 in
        # the way is gathered too: that moves no data).
        wanted = {a for d in dst for a in d}
        lists = [[] for _ in cur]
        for d in range(len(cur)):
            p = _prefix(cur[d], dst[d])
            extra = cur[d][p:]
            k = len(extra)
            while k > 0 and (extra[k - 1] not in wanted or extra[k - 1][2] == 1):
                k -= 1
            lists[d] = extra[k:]
        if any(lists):
            cur = [c[: len(c) - len(lst)] for c, lst in zip(cur, lists)]
            steps.append(Step("all_gather", lists=lists, after=[list(d) for d in cur]))
            progressed = True
        if not progressed:
            break
    if not _done(cur, dst):
        # Fallback: gather down to the common prefix, then slice up to the target.
        g = [c[_prefix(c, t):] for c, t in zip(cur, dst)]
        if any(g):
            cur = [c[: len(c) - len(x)] for c, x in zip(cur, g)]
            steps.append(Step("all_gather", lists=g, after=[list(d) for d in cur]))
        s_ = [_unit_trimmed(t[len(c):]) for c, t in zip(cur, dst)]
        if any(s_):
            cur = [c + x for c, x in zip(cur, s_)]
            steps.append(Step("all_slice", lists=s_, after=[list(d) for d in cur]))
    return steps


def _unit_trimmed(axes: list[Axis]) -> list[Axis]:
    """`axes` without its trailing axes of size 1."""
    k = len(axes)
    while k and axes[k - 1][2] == 1:
        k -= 1
    return axes[:k]


def _is_maximal(sharding: Sharding | None, meshes: dict) -> bool:
    mesh = None if sharding is None else meshes.get(sharding.mesh) if isinstance(sharding.mesh, str) else sharding.mesh
    return mesh is not None and not mesh.axes and bool(mesh.device_ids)


def _reordered(a: Any, b: Any) -> bool:
    """Two meshes with the same axes but their devices in another order."""
    return a is not None and b is not None and a is not b and a.axes == b.axes and a.device_id_list != b.device_id_list


def source(op: Any) -> tuple[Any, Any]:
    """The value an sdy.reshard moves data from, past propagation barriers (which move none),
    and its sharding attribute: a while's block argument has the while's result sharding."""
    v = op.operands[0]
    while getattr(v, "op", None) is not None and v.op.name == "sdy.propagation_barrier":
        v = v.op.operands[0]
    attr = get_sharding_attr(v)
    if attr is not None:
        return v, attr
    block = getattr(v, "block", None)
    owner = block.parent.parent if block is not None and block.parent is not None else None
    if owner is not None and owner.name == "stablehlo.while" and v.index < len(owner.results):
        attr = get_sharding_attr(owner.results[v.index])
    return v, attr


def _mesh_of(sharding: Sharding, meshes: dict) -> Any:
    return meshes.get(sharding.mesh) if isinstance(sharding.mesh, str) else sharding.mesh


def kept(op: Any, meshes: dict, keep_redundant: bool, src_attr: Any = False, memo: dict | None = None,
         target_attr: Any = None) -> str | None:  # fmt: skip
    """Why `op` (an sdy.reshard) stays as it is, or None when it is lowered (Shardy's legality
    check): either side on a single-device (maximal) mesh, meshes with other axes (unless the
    target is replicated: the source is gathered on its own mesh), or a redundant reshard when
    asked. `src_attr`: the source's sharding when already read; `memo`: answers per pair of
    attribute objects (a function of the two and the meshes), shared by one pass run;
    `target_attr`: the reshard's sharding when already read."""
    if target_attr is None:
        target_attr = get_sharding_attr(op.results[0])
    if src_attr is False:
        src_attr = source(op)[1]
    if memo is None:
        return _kept(src_attr, target_attr, meshes, keep_redundant)
    key = (id(src_attr), id(target_attr))
    hit = memo.get(key)
    if hit is None or hit[0] is not src_attr or hit[1] is not target_attr:
        hit = memo[key] = (src_attr, target_attr, _kept(src_attr, target_attr, meshes, keep_redundant))
    return hit[2]


def _kept(src_attr: Any, target_attr: Any, meshes: dict, keep_redundant: bool) -> str | None:
    target = shared_sharding(target_attr, meshes) if target_attr is not None else None
    src = shared_sharding(src_attr, meshes) if src_attr is not None else None
    if _is_maximal(src, meshes) or _is_maximal(target, meshes):
        return "a single-device (maximal) sharding"
    if src is not None and target is not None and not target.is_replicated():
        a, b = _mesh_of(src, meshes), _mesh_of(target, meshes)
        if a is not None and b is not None and a.axes != b.axes:
            return "a reshard between meshes with other axes"
    if keep_redundant and target is not None:
        same_mesh = src is None or src.mesh == target.mesh
        src_dims = [list(d) for d in src.dims] if src is not None else [[] for _ in target.dims]
        if same_mesh and src_dims == [list(d) for d in target.dims] and (src is None or src.unreduced == target.unreduced):
            return "redundant (keep-redundant-reshards)"
    return None


def _shardy_steps(x: Any, src: Sharding, target: Sharding, meshes: dict) -> tuple[list[Step], Sharding, str]:
    """Shardy's route (sub-axes allowed): its collectives, the target they reach, and a note when
    Shardy's own route was replaced by the gather-permute-slice one."""
    if target.is_replicated():
        if src.is_replicated():
            return [], target, ""
        # Replicated is the same data on every mesh: gather on the source's own mesh (Shardy).
        target = Sharding.replicated_closed(src.mesh, target.rank)
    mesh = _mesh_of(src, meshes)
    full = {a.name: a.size for a in mesh.axes} if mesh is not None else {}
    shape = tuple(tensor_type(x).shape or ())
    steps, used = shardy_collectives(src.dims, target.dims, shape, full, src.mesh, target.mesh)
    return steps, target, "" if used else " (Shardy's route would not reach it: gather, permute, slice)"


def _whole_axis_steps(src: Sharding, target: Sharding, meshes: dict, rank: int) -> tuple[list[Step], Sharding]:
    """The conservative route: whole axes only, each step on its mesh."""
    if target.is_replicated() and src.mesh != target.mesh and not target.unreduced:
        # Replicated is the same data on every mesh: gather on the source's own mesh (Shardy).
        target = Sharding.replicated_closed(src.mesh, target.rank)
    mesh = target.mesh if not isinstance(target.mesh, str) else meshes.get(target.mesh)
    steps = plan(src.dims, target.dims) if rank else []
    src_mesh = src.mesh if not isinstance(src.mesh, str) else meshes.get(src.mesh)
    if _reordered(src_mesh, mesh) and any(src.dims):  # replicated data is the same on every device
        # Same axes, other device order: sharded data must move even where the axes agree. As Shardy:
        # steps up to the plan's collective_permute stay on the source mesh and that permute moves
        # to the target's devices; with no permute in the plan, one comes first.
        at = next((i for i, s in enumerate(steps) if s.kind == "collective_permute"), None)
        if at is None:
            steps.insert(0, Step("collective_permute", after=[list(d) for d in src.dims]))
            at = 0
        for i, st in enumerate(steps):
            st.mesh = src.mesh if i < at else target.mesh
    return steps, target


def collectives_for(op: Any, meshes: dict, trace: Any = None, conservative: bool = True, found: tuple | None = None,
                    target_attr: Any = None) -> list[Any]:  # fmt: skip
    """Turn one `sdy.reshard` into its chain of collectives (see `_build`): the new ops that go
    before it (built, in no block yet). `found`: the reshard's `source` and `target_attr` its
    sharding when already read."""
    x, src_attr = found if found is not None else source(op)
    if target_attr is None:
        target_attr = get_sharding_attr(op.results[0])
    assert target_attr is not None, "an sdy.reshard has its (required) sharding"
    return _build(op, x, _plan_steps(x, src_attr, target_attr, meshes, trace, conservative))


def _build(op: Any, x: Any, steps: list[tuple[str, dict]]) -> list[Any]:
    """`collectives_for` once its collectives are known: the new ops (built, in no block yet);
    the reshard's uses move to the chain's last value, the reshard keeps none."""
    made = []
    value = x
    vtype = x.type
    for kind, props in steps:
        new = Operation.parsed(kind, [value], vtype, None, dict(props), {}, None)
        made.append(new)
        value = new.results[0]
    op.results[0].replace_all_uses_with(value)
    return made


def _route(op: Any, x: Any, src_attr: Any, target_attr: Any, run: _Run) -> list[tuple[str, dict]] | None:
    """The collectives (as `_plan_steps`) of a reshard from `x` (sharded `src_attr`) to
    `target_attr`, or None when it is kept; shared with every reshard of the run with the same
    contents (and value rank, or shape on Shardy's route)."""
    if kept(op, run.meshes, run.keep_redundant, src_attr, run.memo, target_attr) is not None:
        return None
    assert target_attr is not None, "an sdy.reshard has its (required) sharding"
    plans = run.plans
    # The whole-axis route reads the value's rank only; Shardy's also its shape.
    shape = tuple(getattr(x.type.resolve(), "shape", ()) or ())
    key = (_content(src_attr, plans), _content(target_attr, plans), len(shape) if run.conservative else shape)
    steps = plans.get(key)
    if steps is None:
        steps = plans[key] = _plan_steps(x, src_attr, target_attr, run.meshes, None, run.conservative, plans)
    return steps


def _lower_block(block: Any, run: _Run) -> None:
    """Lower the reshards of `block` and of the regions nested in it, in the order of a
    pre-order walk; the block's op list is rebuilt once (not edited per reshard), from slices of
    the ops between the reshards lowered and the collectives that replace each."""
    ops = block.ops
    out: list[Any] | None = None  # the new op list, up to ops[done]
    done = 0
    tracing = run.trace.enabled
    routes = run.routes
    for i, op in enumerate(ops):
        if op.regions:
            for region in op.regions:
                for inner in region.blocks:
                    _lower_block(inner, run)
        if op.name != "sdy.reshard":
            continue
        x, src_attr = source(op)
        a = op.properties.get("sharding")  # the reshard's own sharding (`get_sharding_attr` of its result)
        target_attr = a.resolve().typed if a is not None else None
        if tracing:  # each reshard says what it became
            why = kept(op, run.meshes, run.keep_redundant, src_attr, run.memo, target_attr)
            if why is not None:
                run.trace.print(f"keep sdy.reshard: {why}")
                continue
            made = collectives_for(op, run.meshes, run.trace, run.conservative, (x, src_attr), target_attr)
        else:
            # By the objects themselves first (reshards of one layer share them; the entry keeps
            # them alive, so the ids stay theirs), then (`_route`) by content.
            vtype = x.type
            key = (id(src_attr), id(target_attr), id(vtype))
            hit = routes.get(key)
            if hit is None or hit[0] is not src_attr or hit[1] is not target_attr or hit[2] is not vtype:
                hit = routes[key] = (src_attr, target_attr, vtype, _route(op, x, src_attr, target_attr, run))
            steps = hit[3]
            if steps is None:
                continue
            made = _build(op, x, steps)
        run.reshards += 1
        run.collectives += len(made)
        for new in made:
            new.parent = block
        if out is None:
            out = []
        out += ops[done:i]
        out += made
        done = i + 1
        untrack_op(op)  # out of the block (its new op list reports that): its own writes need no report
        op.drop_all_references()
        op.parent = None
    if out is not None:
        out += ops[done:]
        block.ops = out


@dataclass
class _Run:
    """One run of the pass: its options, the module's meshes, what is shared between reshards."""

    meshes: dict
    trace: Any
    conservative: bool
    keep_redundant: bool
    plans: dict = field(default_factory=dict)  # `_route`'s plans by content
    memo: dict = field(default_factory=dict)  # `kept`'s answers
    routes: dict = field(default_factory=dict)  # `_route`'s answers by the objects read
    reshards: int = 0
    collectives: int = 0


def _content(attr: Any, plans: dict) -> Any:
    """What of a sharding attribute its collectives depend on, as a key (kept in `plans` per
    attribute object): its mesh (a name, or an inline mesh by identity while the entry keeps it
    alive), per-dimension axes and unreduced axes. Equal shardings spelled by other objects share
    their plan."""
    if attr is None:
        return None
    hit = plans.get(id(attr))
    if hit is None or hit[0] is not attr:
        mesh = attr.mesh if isinstance(attr.mesh, str) else ("inline", id(attr.mesh))
        dims = tuple(tuple((r.name, r.sub_axis) for r in d.axes) for d in attr.dim_shardings)
        hit = plans[id(attr)] = (attr, (mesh, dims, tuple((r.name, r.sub_axis) for r in attr.unreduced)))
    return hit[1]


@cache
def _parameter_models() -> tuple[Any, Any, Any]:
    """sdy's models of collective parameters, imported once, when a reshard is first lowered (the
    pydantic models load only when a pass needs them)."""
    from ttopt.dialects.sdy_attrs import AllToAllParam, AllToAllParamListAttr, ListOfAxisRefListsAttr

    return AllToAllParam, AllToAllParamListAttr, ListOfAxisRefListsAttr


def _plan_steps(x: Any, src_attr: Any, target_attr: Any, meshes: dict, trace: Any,
                conservative: bool, plans: dict | None = None) -> list[tuple[str, dict]]:  # fmt: skip
    """The collectives (op name and properties) taking `x` from `src_attr` to `target_attr`;
    `plans` (as `_route`'s) also keeps their axis-list attributes by content."""
    AllToAllParam, AllToAllParamListAttr, ListOfAxisRefListsAttr = _parameter_models()
    target = from_attr(target_attr, meshes)
    src = from_attr(src_attr, meshes) if src_attr is not None else Sharding.replicated_closed(target.mesh, target.rank)
    if conservative:
        steps, target = _whole_axis_steps(src, target, meshes, rank_of(x))
        note = ""
    else:
        steps, target, note = _shardy_steps(x, src, target, meshes)
    # Unreduced axes are not moved by these collectives: every step keeps the target's.
    unreduced = target.unreduced
    mesh = target.mesh if not isinstance(target.mesh, str) else meshes.get(target.mesh)
    if trace is not None and trace.enabled:
        from rich.markup import escape

        kinds = ", ".join(s.kind for s in steps) or "nothing (same sharding)"
        trace.print(escape(f"reshard {src.text(meshes)} -> {target_attr.op_text()}: {kinds}{note}"))
    out_steps = []
    for st in steps:
        assert st.after is not None, "every step has the axes after it"
        out = Sharding(target.mesh if st.mesh is None else st.mesh, st.after, [True] * target.rank, unreduced=unreduced)
        props: dict = {}
        if st.lists is not None:
            key = "gathering_axes" if st.kind == "all_gather" else "slicing_axes"
            content = ("lists", id(mesh), tuple(map(tuple, st.lists)))
            made = plans.get(content) if plans is not None else None
            if made is None:
                lists = tuple(tuple(axis_ref(a, mesh) for a in d) for d in st.lists)
                # Attributes are never changed in place: reshards that gather or slice the same
                # axes share one. The entry holds the mesh whose id it is keyed by.
                made = (ListOfAxisRefListsAttr(lists=lists).to_attr(), mesh)
                if plans is not None:
                    plans[content] = made
            props[key] = made[0]
        if st.params is not None:
            moves = ("params", id(mesh), tuple((tuple(ax), s, t) for ax, s, t in st.params))
            made = plans.get(moves) if plans is not None else None
            if made is None:
                params = tuple(AllToAllParam(axes=tuple(axis_ref(a, mesh) for a in ax), src_dim=s, tgt_dim=t) for ax, s, t in st.params)
                made = (AllToAllParamListAttr(params=params).to_attr(), mesh)  # shared as the lists above
                if plans is not None:
                    plans[moves] = made
            props["params"] = made[0]
        props["out_sharding"] = dialect_attr(to_attr(out, meshes))
        out_steps.append((f"sdy.{st.kind}", props))
    return out_steps


MAX_DEVICES = 1 << 20


@register_pass
@dataclass
class ReshardToCollectives(Pass):
    """Lower sdy.reshard to all_slice / collective_permute / all_to_all / all_gather."""

    name = "reshard-to-collectives"
    summary = "Replace sdy.reshard with sdy collectives"
    aliases = ("sdy-reshard-to-collectives",)

    keep_redundant_reshards: bool = option(False, "Keep reshards whose input already has the target sharding (as Shardy's option)")
    conservative: bool = option(True, "Whole axes only (TTIR/TTNN take no sub-axes); false: Shardy's collectives, "
                                      "sub-axes and all (collective_inserter.py)")

    def run(self, module: Module, ctx: PassContext) -> None:
        meshes = collect_meshes(module)
        for op in module.op.regions[0].entry.ops if module.op.regions else []:
            total = getattr(op.properties["mesh"].resolve().typed, "total_size", 0) if op.name == "sdy.mesh" else 0
            if total > MAX_DEVICES:  # collectives list every device of their groups
                raise diag(module, op, f"the mesh has {total} devices; {self.name} lowers reshards on meshes of at most {MAX_DEVICES}")
        run = _Run(meshes, ctx.trace, self.conservative, self.keep_redundant_reshards)
        for region in module.op.regions:
            for block in region.blocks:
                _lower_block(block, run)
        ctx.stats.setdefault(self.name, {}).update({"reshards": run.reshards, "collectives": run.collectives})
