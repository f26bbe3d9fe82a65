"""The sharding model: op sharding rules (factors, their types, `#sdy.op_sharding_rule<...>` text),
projections of tensor shardings onto factors, and where shardings live in the IR.

A rule (ref §3.2) maps every operand and result dimension to a list of factor indices (several for
a dimension that reshape splits), with one size per factor. A factor missing from a tensor means
the tensor does not take part in it. Factor types matter only to explicit-reshard insertion;
propagation reads the mapping and the blocked flags.

`RuleBuilder` mirrors Shardy's `OpShardingRuleBuilder`: factors are added in order, and `build()`
gives every dimension left without a factor its own size-1 factor (operands first, then results),
which is how Shardy numbers them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import gcd
from operator import is_
from typing import TYPE_CHECKING, Any, Mapping, Sequence, cast

from ttopt.dialects.sdy_rule import OpShardingRule, TensorMapping
from ttopt.ir.attributes import ArrayAttr, Attribute, DialectAttr, DictAttr
from ttopt.ir.diagnostics import Diagnostic, SourcePos
from ttopt.ir.values import BlockArgument, OpResult
from ttopt.sharding.func_attrs import func_type
from ttopt.sharding.ir_views import str_value

if TYPE_CHECKING:
    from ttopt.dialects.sdy_attrs import MeshAttr, TensorShardingAttr
    from ttopt.ir.module import Module
    from ttopt.ir.operation import Operation
    from ttopt.ir.values import Value


# ---- axes and projections ---------------------------------------------------------------------
# An axis inside the algorithms is a plain tuple (name, pre_size, size): the whole axis "x" of
# size 4 is ("x", 1, 4), the sub-axis "x":(2)2 is ("x", 2, 2). No pydantic in the inner loops.
Axis = tuple[str, int, int]


def axes_overlap(a: Axis, b: Axis) -> bool:
    """True when both cover a common part of the same mesh axis."""
    return a[0] == b[0] and a[1] < b[1] * b[2] and b[1] < a[1] * a[2]


def any_overlap(a: Axis, axes) -> bool:
    return any(axes_overlap(a, b) for b in axes)


def axes_size(axes) -> int:
    n = 1
    for a in axes:
        n *= a[2]
    return n


def merge_axes(axes: list[Axis]) -> list[Axis]:
    """Join consecutive sub-axes of one axis ("x":(1)2, "x":(2)2 -> "x":(1)4)."""
    out: list[Axis] = []
    for a in axes:
        if out and out[-1][0] == a[0] and out[-1][1] * out[-1][2] == a[1]:
            p = out.pop()
            a = (a[0], p[1], p[2] * a[2])
        out.append(a)
    return out


def is_sub_axis(a: Axis, full: dict[str, int]) -> bool:
    """True for a proper sub-axis ("x":(1)2 of an axis of size 4); `full` maps axis names to sizes."""
    return a[1] != 1 or a[2] != full.get(a[0], a[2])


def factor_dims(mapping: TensorMapping, sizes: Sequence[int], axes_of) -> list[list[Axis]]:
    """A tensor's per-dimension axes from its factors' axes (`axes_of(f)`, major to minor).

    A dimension lists its factors' axes major to minor, but only while each factor is fully
    sharded: axes of a later factor cannot be written after a factor whose axes do not cover its
    size (a dim `[ij]` with i=4 on "x"=2 and j on "y" would read back as i={"x", "y":(1)2}), so a
    dimension ends at the first factor its axes do not fill (Shardy's `createTensorShardingAttr`).
    """
    dims = []
    for fs in mapping:
        axes: list[Axis] = []
        for f in fs:
            own = axes_of(f)
            axes.extend(own)
            if axes_size(own) != sizes[f]:
                break
        dims.append(merge_axes(axes))
    return dims


def consistent_factor_axes(rule: OpShardingRule, chosen: dict[int, list[Axis]]) -> list[int]:
    """Empty every factor that follows, in some tensor dimension, a factor its axes do not fill
    (see `factor_dims`), until none does; returns the factors emptied."""
    cleared: list[int] = []
    changed = True
    while changed:
        changed = False
        for m in rule.tensors:
            for fs in m:
                if len(fs) < 2:
                    continue
                for k, f in enumerate(fs[:-1]):
                    if axes_size(chosen.get(f, [])) != rule.factor_sizes[f]:
                        for g in fs[k + 1 :]:
                            if chosen.get(g):
                                chosen[g] = []
                                cleared.append(g)
                                changed = True
                        break
    return cleared


@dataclass
class FactorSharding:
    """One factor's sharding in one tensor: axes major to minor, closed flag, overflow axes."""

    axes: list[Axis] = field(default_factory=list)
    closed: bool = False
    overflow: list[Axis] = field(default_factory=list)
    minor_most: bool = True


@dataclass
class TensorProjection:
    """A tensor sharding projected onto the rule's factors (ref §3.4 'Projection')."""

    factors: dict[int, FactorSharding]
    replicated: tuple[Axis, ...] = ()

    def used_axes(self, except_factor: int) -> list[Axis]:
        out: list[Axis] = []
        for f, fs in self.factors.items():
            if f != except_factor:
                out.extend(fs.axes)
                out.extend(fs.overflow)
        out.extend(self.replicated)
        return out


def project(mapping: TensorMapping, factor_sizes: Sequence[int], dims, closed: Sequence[bool] | None,
            replicated: tuple[Axis, ...] = (), minor_most_takes_rest: bool = False) -> TensorProjection:  # fmt: skip
    """Assign each dimension's axes to its factors major to minor. A factor takes whole axes
    while they divide what is left of its size, a sub-axis when only part of an axis fits;
    axes that fit no factor become overflow axes of the factor where they stopped. `dims` is
    None for a tensor without a sharding (every factor open and empty). With
    `minor_most_takes_rest` a dimension's minor-most factor takes all axes left, unsplit (as
    Shardy's buildTensorFactorShardings: a dim of 4 on {"x"=2, "z"=4} is one factor on
    {"x", "z"}, not {"x", "z":(1)2} with "z":(2)2 overflowing)."""
    factors: dict[int, FactorSharding] = {}
    for d, fs in enumerate(mapping):
        axes = list(dims[d]) if dims is not None else []
        is_closed = closed[d] if closed is not None else False
        for k, f in enumerate(fs):
            sh = FactorSharding(closed=is_closed, minor_most=k == len(fs) - 1)
            factors[f] = sh
            if not axes:
                continue
            if minor_most_takes_rest and sh.minor_most:
                sh.axes.extend(axes)
                axes = []
                continue
            rem = factor_sizes[f]
            while axes:
                a = axes[0]
                if rem % a[2] == 0 and rem > 1:
                    sh.axes.append(a)
                    rem //= a[2]
                    axes.pop(0)
                    continue
                g = gcd(rem, a[2])
                if g > 1:
                    sh.axes.append((a[0], a[1], g))
                    axes[0] = (a[0], a[1] * g, a[2] // g)
                    rem //= g
                    continue
                break
            if axes and (rem > 1 or k == len(fs) - 1):
                if sh.minor_most and rem > 1:
                    # The minor-most factor may be sharded non-divisibly (Shardy pads such shardings).
                    sh.axes.extend(axes)
                else:
                    sh.overflow.extend(axes)
                axes = []
    return TensorProjection(factors, replicated)


# ---- where shardings live in the IR -----------------------------------------------------------
# A value's sharding is read from (ref §2.6, §3.4): the `sdy.sharding` argument attribute of a
# function argument; the `sharding` property of `sdy.sharding_constraint` / `sdy.reshard`; the
# `out_sharding` of sdy collectives; a manual computation's `in_shardings` (its block arguments)
# or `out_shardings` (its results); otherwise the defining op's `sdy.sharding` per-value
# attribute. Function results have their own `sdy.sharding` result attribute. None means "no
# sharding" (fully open). Inside the algorithms a sharding is a plain `Sharding`.
SDY_COLLECTIVES = ("sdy.all_gather", "sdy.all_slice", "sdy.all_to_all", "sdy.collective_permute",
                   "sdy.all_reduce", "sdy.reduce_scatter", "sdy.replicated_to_unreduced", "sdy.sharded_to_unreduced")  # fmt: skip
_OWN_SHARDING = {"sdy.sharding_constraint": "sharding", "sdy.reshard": "sharding", "sdy.data_flow_edge": "sharding",
                 **{n: "out_sharding" for n in SDY_COLLECTIVES}}  # fmt: skip


@dataclass(slots=True)
class Sharding:
    """A tensor sharding as plain data: per dim the axes (major to minor), closed flag, priority."""

    mesh: Any  # mesh name (str) or an inline MeshAttr
    dims: list[list[Axis]]
    closed: list[bool]
    priority: list[int | None] = field(default_factory=list)
    replicated: tuple[Axis, ...] = ()
    unreduced: tuple = ()  # AxisRefs, kept as read
    unreduced_kind: str | None = None
    # What propagation derived from this sharding, tagged with its graph (shardings are replaced,
    # never changed in place, so it stays true); not part of the value.
    memo: Any = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not self.priority:
            self.priority = [None] * len(self.dims)

    @classmethod
    def open(cls, mesh: Any, rank: int) -> Sharding:
        return cls(mesh, [[] for _ in range(rank)], [False] * rank)

    @classmethod
    def replicated_closed(cls, mesh: Any, rank: int) -> Sharding:
        return cls(mesh, [[] for _ in range(rank)], [True] * rank)

    def copy(self) -> Sharding:
        return Sharding(self.mesh, [list(d) for d in self.dims], list(self.closed), list(self.priority),
                        self.replicated, self.unreduced, self.unreduced_kind)  # fmt: skip

    @property
    def rank(self) -> int:
        return len(self.dims)

    def used_axes(self) -> list[Axis]:
        return [a for d in self.dims for a in d]

    def same_axes(self, other: Sharding | None) -> bool:
        """Equal dimension axes (closedness and priorities ignored); None counts as replicated."""
        mine = [tuple(d) for d in self.dims]
        theirs = [tuple(d) for d in other.dims] if other is not None else [()] * len(mine)
        return mine == theirs

    def is_replicated(self) -> bool:
        return not any(self.dims)

    def text(self, meshes: dict[str, MeshAttr] | None = None) -> str:
        return to_attr(self, meshes or {}).op_text()


def axis_of(ref: Any, mesh: MeshAttr) -> Axis:
    """AxisRef -> (name, pre_size, size)."""
    if ref.sub_axis is not None:
        return (ref.name, ref.sub_axis[0], ref.sub_axis[1])
    return (ref.name, 1, mesh.axis_size(ref.name))


def axis_ref(a: Axis, mesh: MeshAttr | None) -> Any:
    from ttopt.dialects.sdy_attrs import AxisRef

    full = mesh is not None and mesh.has_axis(a[0]) and a[1] == 1 and a[2] == mesh.axis_size(a[0])
    return AxisRef(name=a[0]) if full or mesh is None else AxisRef(name=a[0], sub_axis=(a[1], a[2]))


# Attribute models are frozen, so equal shardings share one: propagation and explicit reshards
# write the same few shardings on thousands of ops, and building and printing a pydantic model
# per op was most of their write-back. Keys hold plain data and the ids of meshes the entry keeps
# alive; the tables are dropped when they grow past _MEMO_LIMIT.
_MEMO_LIMIT = 100_000
_ATTRS: dict[tuple, tuple[Any, Any, TensorShardingAttr]] = {}
_BODIES: dict[int, tuple[Any, str]] = {}
_PER_VALUE: dict[tuple[int, ...], tuple[tuple, Any, DialectAttr]] = {}
_SHARDINGS: dict[tuple[int, int], tuple[Any, Any, Sharding]] = {}


def from_attr(attr: TensorShardingAttr, meshes: dict[str, MeshAttr]) -> Sharding:
    """The plain `Sharding` of a sharding model (a fresh copy: callers may change it)."""
    return shared_sharding(attr, meshes).copy()


def shared_sharding(attr: TensorShardingAttr, meshes: dict[str, MeshAttr]) -> Sharding:
    """`from_attr` without the copy: one object per attribute, for callers that only read it."""
    mesh = attr.resolve_mesh(meshes)
    key = (id(attr), id(mesh))
    hit = _SHARDINGS.get(key)
    if hit is None or hit[0] is not attr or hit[1] is not mesh:
        if len(_SHARDINGS) > _MEMO_LIMIT:
            _SHARDINGS.clear()
        hit = _SHARDINGS[key] = (attr, mesh, _build_sharding(attr, mesh))
    return hit[2]


def _build_sharding(attr: TensorShardingAttr, mesh: MeshAttr) -> Sharding:
    return Sharding(
        attr.mesh,
        [[axis_of(r, mesh) for r in d.axes] for d in attr.dim_shardings],
        [d.is_closed for d in attr.dim_shardings],
        [d.priority for d in attr.dim_shardings],
        tuple(axis_of(r, mesh) for r in attr.replicated),
        attr.unreduced,
        attr.unreduced_kind,
    )


def to_attr(sh: Sharding, meshes: dict[str, MeshAttr]) -> TensorShardingAttr:
    """The `#sdy.sharding` model of a sharding (one shared model per distinct sharding and mesh)."""
    mesh = sh.mesh if not isinstance(sh.mesh, str) else meshes.get(sh.mesh)
    try:
        key = (id(mesh), sh.mesh if isinstance(sh.mesh, str) else id(sh.mesh), tuple(map(tuple, sh.dims)),
               tuple(sh.closed), tuple(sh.priority), sh.replicated, sh.unreduced, sh.unreduced_kind)  # fmt: skip
        hit = _ATTRS.get(key)
    except TypeError:  # an unhashable field: build it afresh
        return _build_attr(sh, mesh)
    if hit is None or hit[0] is not mesh:
        if len(_ATTRS) > _MEMO_LIMIT:
            _ATTRS.clear()
        hit = _ATTRS[key] = (mesh, sh.mesh, _build_attr(sh, mesh))
    return hit[2]


def dialect_attr(model: Any) -> DialectAttr:
    """`model.to_attr()` (a new IR attribute wrapping the model), printing each model's body once."""
    hit = _BODIES.get(id(model))
    if hit is None or hit[0] is not model:
        if len(_BODIES) > _MEMO_LIMIT:
            _BODIES.clear()
        hit = _BODIES[id(model)] = (model, model.print_body())
    body = hit[1]
    return DialectAttr(model.attr_name, body, f"#{model.attr_name}<{body}>", typed=model)


def _build_attr(sh: Sharding, mesh: Any) -> TensorShardingAttr:
    from ttopt.dialects.sdy_attrs import DimensionSharding, TensorShardingAttr

    dims = tuple(
        DimensionSharding(axes=tuple(axis_ref(a, mesh) for a in d), is_closed=c, priority=p if (d or not c) else None)
        for d, c, p in zip(sh.dims, sh.closed, sh.priority)
    )
    return TensorShardingAttr(
        mesh=sh.mesh, dim_shardings=dims, replicated=tuple(axis_ref(a, mesh) for a in sh.replicated),
        unreduced=sh.unreduced, unreduced_kind=sh.unreduced_kind,
    )  # fmt: skip


def collect_meshes(module: Module) -> dict[str, MeshAttr]:
    """`sdy.mesh @name = <...>` ops of the module by name, once every sdy sharding in the module is
    known to parse (the Shardy passes start here; a malformed body is a Diagnostic at its op)."""
    check_sharding_bodies(module)
    out = {}
    for op in module.op.regions[0].entry.ops if module.op.regions else []:
        if op.name == "sdy.mesh":
            out[str_value(op.properties["sym_name"])] = op.properties["mesh"].resolve().typed
    return out


def diag(module: Module, op: Operation | None, message: str) -> Diagnostic:
    """A Diagnostic at `op`'s source position, naming the op."""
    pos = None
    if op is not None and op.pos is not None and module.source is not None:
        pos = op.pos if isinstance(op.pos, SourcePos) else SourcePos(module.source, op.pos)
    where = f"'{op.name}': " if op is not None else ""
    return Diagnostic(where + message, pos)


def check_sharding_bodies(module: Module) -> None:
    """Parse every `sdy.sharding` on function arguments/results and ops (Diagnostic at the first bad one)."""
    from ttopt.sharding.diagnostics import typed
    from ttopt.sharding.func_attrs import argument_label, result_label

    # A dialect attribute whose typed model is already built parsed before (the verifier, or an
    # earlier pass, built it) and is not parsed again: every sharding pass starts here.
    for op in module.op.walk_list():  # (no op list is edited while checking)
        if op.name == "func.func":
            for key, label in (("arg_attrs", argument_label), ("res_attrs", result_label)):
                arr = op.properties.get(key)
                for i, d in enumerate(getattr(arr, "items", ())):
                    a = d.entries.get("sdy.sharding") if isinstance(d, DictAttr) else None
                    if a is not None and (type(a) is not DialectAttr or a._typed is None):
                        typed(module, op, a, f"{label(op, i)}: sdy.sharding")
        attrs = op.attributes
        if attrs:
            a = attrs.get("sdy.sharding")
            if a is not None and (type(a) is not DialectAttr or a._typed is None):
                typed(module, op, a, f"'{op.name}' op: sdy.sharding")


# ---- reading and writing shardings in the IR ------------------------------------------------------
def _typed(attr: Any) -> Any:
    """The typed model of a sharding attribute (None for no attribute)."""
    if type(attr) is DialectAttr:  # the common case, its model already built: no call
        t = attr._typed
        if t is not None:
            return t
    return attr.resolve().typed if attr is not None else None


def func_of_arg(v: Value) -> Operation | None:
    """The func.func whose entry-block argument `v` is, or None."""
    block = getattr(v, "block", None)
    if block is None or block.parent is None or block.parent.parent is None:
        return None
    owner = block.parent.parent
    return owner if owner.name == "func.func" and block is owner.regions[0].blocks[0] else None


def _dicts(arr: Attribute) -> list[DictAttr]:
    """The dictionaries of an `arg_attrs` / `res_attrs` array (no runtime check)."""
    return [cast(DictAttr, d) for d in cast(ArrayAttr, arr).items]


def _dict_list(func: Operation, key: str, n: int) -> list[dict]:
    arr = func.properties.get(key)
    items = [dict(d.entries) for d in _dicts(arr)] if arr is not None else []
    return items + [{} for _ in range(n - len(items))]


def get_arg_attr(func: Operation, i: int, key: str = "arg_attrs") -> TensorShardingAttr | None:
    arr = func.properties.get(key)
    items = cast(ArrayAttr, arr).items if arr is not None else ()
    if i >= len(items):  # one lookup, not a copy of the array: a function may have 100k arguments
        return None
    return _typed(cast(DictAttr, items[i]).entries.get("sdy.sharding"))


def set_arg_attr(func: Operation, i: int, attr: TensorShardingAttr | None, key: str = "arg_attrs") -> None:
    """Set (or, with None, drop) the sharding of argument `i` (of result `i` with "res_attrs")."""
    set_arg_attrs_at(func, {i: attr}, key)


def set_arg_attrs_at(func: Operation, attrs: Mapping[int, TensorShardingAttr | None], key: str = "arg_attrs") -> None:
    """`set_arg_attr` for many indices with one rebuild of the array (one per index would make
    writing back every argument of a function quadratic in its argument count)."""
    ft = func_type(func)
    n = len(ft.inputs) if key == "arg_attrs" else len(ft.results)
    items = _dict_list(func, key, n)
    for i, attr in attrs.items():
        if attr is None:
            items[i].pop("sdy.sharding", None)
        else:
            items[i]["sdy.sharding"] = attr.to_attr()
    func.properties[key] = ArrayAttr(tuple(DictAttr(d) for d in items))


# Ops whose results' shardings live in their properties (sdy ops with their own sharding, manual
# computations), not in a per-value `sdy.sharding` attribute.
RESULT_SHARDINGS_ELSEWHERE = frozenset({*_OWN_SHARDING, "sdy.manual_computation"})


def get_sharding_attr(v: Value) -> TensorShardingAttr | None:
    """The sharding attribute of a value (see the module docstring), or None."""
    if not isinstance(v, OpResult):
        arg = cast(BlockArgument, v)  # the only other kind of value
        func = func_of_arg(arg)
        if func is not None:
            return get_arg_attr(func, arg.index)
        owner = arg.block.parent.parent if arg.block is not None and arg.block.parent is not None else None
        if owner is not None and owner.name == "sdy.manual_computation":
            per = _typed(owner.properties.get("in_shardings"))
            return per.shardings[arg.index] if per is not None and arg.index < len(per) else None
        return None
    op = v.op
    own = _OWN_SHARDING.get(op.name)
    if own is not None:
        return _typed(op.properties.get(own))
    if op.name == "sdy.manual_computation":
        per = _typed(op.properties.get("out_shardings"))
        return per.shardings[v.index] if per is not None and v.index < len(per) else None
    per = _typed(op.attributes.get("sdy.sharding"))
    if per is None or v.index >= len(per):
        return None
    return per.shardings[v.index]


def set_op_result_shardings(op: Operation, attrs: list[TensorShardingAttr]) -> None:
    """Write an op's `sdy.sharding = #sdy.sharding_per_value<[...]>`."""
    own = _OWN_SHARDING.get(op.name)
    if own is not None:
        op.properties[own] = dialect_attr(attrs[0])
        return
    op.attributes["sdy.sharding"] = per_value_attr(attrs)


def per_value_attr(attrs: list[TensorShardingAttr]) -> DialectAttr:
    """The `sdy.sharding` attribute of an op whose results have shardings `attrs` (IR attributes
    are never changed in place: ops with equal shardings share one)."""
    key = tuple(map(id, attrs))
    hit = _PER_VALUE.get(key)
    if hit is None or not all(map(is_, hit[0], attrs)):
        from ttopt.dialects.sdy_attrs import TensorShardingPerValueAttr

        if len(_PER_VALUE) > _MEMO_LIMIT:
            _PER_VALUE.clear()
        model = TensorShardingPerValueAttr(shardings=tuple(attrs))
        hit = _PER_VALUE[key] = (tuple(attrs), model, dialect_attr(model))
    return hit[2]


def set_sharding_attr(v: Value, attr: TensorShardingAttr, rank_of=None) -> None:
    """Write the sharding of one value (other results of its op keep theirs, or get open ones)."""
    from ttopt.dialects.sdy_attrs import TensorShardingAttr

    if not isinstance(v, OpResult):
        arg = cast(BlockArgument, v)  # the only other kind of value
        func = func_of_arg(arg)
        if func is not None:
            set_arg_attr(func, arg.index, attr)
        return
    op = v.op
    cur = [get_sharding_attr(r) for r in op.results]
    cur[v.index] = attr
    out = [c if c is not None else TensorShardingAttr.fully_replicated(attr.mesh, _rank(r), closed=False)
           for c, r in zip(cur, op.results)]  # fmt: skip
    set_op_result_shardings(op, out)


def _rank(v: Value) -> int:
    return len(getattr(v.type.resolve(), "shape", ()) or ())


def rank_of(v: Value) -> int:
    """Rank of a tensor value (0 for scalars and non-tensors)."""
    return _rank(v)


def verify_sharding(module: Module, op: Operation, attr: TensorShardingAttr, meshes: dict[str, MeshAttr],
                    rank: int | None, what: str) -> None:  # fmt: skip
    """Bad input (unknown mesh / axes, duplicate axes, wrong rank) -> Diagnostic naming the op."""
    from ttopt.dialects.errors import AttrError

    try:
        attr.verify(meshes, rank)
    except AttrError as e:
        raise diag(module, op, f"invalid sharding {attr.op_text()} for {what}: {e}") from None
