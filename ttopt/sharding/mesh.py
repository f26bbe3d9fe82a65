"""Mesh helpers: finding the module's `sdy.mesh`, device coordinates, replica groups, local shapes.

Device ids are row-major over the mesh axes (ref §4.2); a mesh with explicit non-iota `device_ids`
is rejected where device ids matter (collectives), as tt-mlir ignores them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache
from math import prod
from typing import TYPE_CHECKING, Any, Literal, Sequence, overload

from ttopt.ir.attributes import DialectAttr, StringAttr
from ttopt.ir.operation import Operation
from ttopt.sharding.diagnostics import fail, typed
from ttopt.sharding.ir_views import str_value

if TYPE_CHECKING:
    from ttopt.ir.module import Module


@dataclass(frozen=True)
class Mesh:
    """A named `sdy.mesh` with its typed MeshAttr and defining op."""

    name: str
    attr: Any  # sdy_attrs.MeshAttr
    op: Operation | None = None

    @cached_property
    def axis_names(self) -> tuple[str, ...]:
        return self.attr.axis_names

    @cached_property
    def shape(self) -> tuple[int, ...]:
        return self.attr.shape

    @cached_property
    def sizes(self) -> dict[str, int]:
        """Axis name -> size."""
        return dict(zip(self.attr.axis_names, self.attr.shape))

    @property
    def num_devices(self) -> int:
        return prod(self.shape)

    def size(self, axis: str) -> int:
        n = self.sizes.get(axis)
        return n if n is not None else self.attr.axis_size(axis)  # the latter raises for unknown axes

    def has(self, axis: str) -> bool:
        return axis in self.sizes

    def index(self, axis: str) -> int:
        return self.axis_names.index(axis)

    @property
    def iota_devices(self) -> bool:
        ids = self.attr.device_ids
        return not ids or list(ids) == list(range(len(ids)))

    def tt_shape(self) -> tuple[int, int]:
        """The 2-D device mesh tt-mlir uses: 1-D `[N]` is `1xN`, no axes is `1x1` (ref §2.4)."""
        s = self.shape
        if len(s) == 0:
            return (1, 1)
        if len(s) == 1:
            return (1, s[0])
        if len(s) == 2:
            return (s[0], s[1])
        raise ValueError(f"mesh @{self.name} has {len(s)} axes; tt devices are 1-D or 2-D meshes")

    def tt_axis_index(self, axis: str) -> int:
        """Index of `axis` in the 2-D tt mesh (a 1-D mesh's only axis is index 1)."""
        return self.index(axis) + (1 if len(self.shape) == 1 else 0)


def mesh_ops(module: Module) -> list[Operation]:
    """Top-level `sdy.mesh` ops, in order."""
    return [op for op in module.body.ops if op.name == "sdy.mesh"]


def mesh_of(module: Module, op: Operation) -> Mesh:
    return Mesh(str_value(op.properties["sym_name"]), typed(module, op, op.properties["mesh"], "sdy.mesh"), op)


@overload
def the_mesh(module: Module, *, required: Literal[True] = True, what: str = "") -> Mesh: ...
@overload
def the_mesh(module: Module, *, required: bool, what: str = "") -> Mesh | None: ...
def the_mesh(module: Module, *, required: bool = True, what: str = "") -> Mesh | None:
    """The module's single mesh; a Diagnostic for two or more (or none, when required)."""
    ops = mesh_ops(module)
    if len(ops) > 1:
        names = ", ".join("@" + str_value(o.properties["sym_name"]) for o in ops)
        raise fail(module, ops[1], f"'sdy.mesh' op: the module has {len(ops)} meshes ({names}); ttopt supports exactly one")
    if not ops:
        if required:
            raise fail(module, module.op, f"{what or 'this pass'} needs an 'sdy.mesh' but the module has none "
                       "(run apply-shardy-argument-annotations first)")
        return None
    return mesh_of(module, ops[0])


def make_mesh_op(name: str, axes: Sequence[tuple[str, int]]) -> Operation:
    """`sdy.mesh @name = <["a"=1, "b"=2]>`."""
    from ttopt.dialects.sdy_attrs import MeshAttr

    return Operation("sdy.mesh", properties={"sym_name": StringAttr(name), "mesh": DialectAttr.of(MeshAttr.of(list(axes)))})


def coords(mesh: Mesh, device: int) -> tuple[int, ...]:
    """Mesh coordinates of a (row-major) device id."""
    out = []
    for s in reversed(mesh.shape):
        out.append(device % s)
        device //= s
    return tuple(reversed(out))


def device_id(mesh: Mesh | _RowMajor, c: Sequence[int]) -> int:
    d = 0
    for x, s in zip(c, mesh.shape):
        d = d * s + x
    return d


def replica_groups(mesh: Mesh, axes: Sequence[str]) -> list[list[int]]:
    """Device groups that vary `axes` (first = major) with every other axis fixed; groups ordered
    row-major over the other axes (ref §4.2: axis A1 gives rows, axis A0 columns)."""
    return [list(g) for g in _replica_groups(tuple(mesh.axis_names), tuple(mesh.shape), tuple(axes))]


@lru_cache(maxsize=1024)
def _replica_groups(names: tuple[str, ...], shape: tuple[int, ...], axes: tuple[str, ...]) -> tuple[tuple[int, ...], ...]:
    """`replica_groups` of a row-major mesh of these axes (every collective over the same axes
    of one mesh has the same groups: computed once)."""
    mesh = _RowMajor(names, shape)
    idx = [mesh.index(a) for a in axes]
    others = [i for i in range(len(mesh.shape)) if i not in idx]
    shape = mesh.shape
    groups = []
    for o in range(prod(shape[i] for i in others)):
        oc = []
        for i in reversed(others):
            oc.append(o % shape[i])
            o //= shape[i]
        fixed = dict(zip(reversed(others), oc))
        group = []
        for g in range(prod(shape[i] for i in idx)):
            c = dict(fixed)
            for i in reversed(idx):
                c[i] = g % shape[i]
                g //= shape[i]
            group.append(device_id(mesh, [c[i] for i in range(len(shape))]))
        groups.append(tuple(group))
    return tuple(groups)


@dataclass(frozen=True)
class _RowMajor:
    """What `device_id` and the group computation read of a mesh: axis names and sizes."""

    axis_names: tuple[str, ...]
    shape: tuple[int, ...]

    def index(self, axis: str) -> int:
        return self.axis_names.index(axis)


class ShardingError(ValueError):
    """A sharding that does not fit a tensor or mesh (callers turn it into a Diagnostic)."""


def dim_shards(mesh: Mesh, dim: Any) -> int:
    """Number of pieces a DimensionSharding splits its dimension into (sub-axes included)."""
    n = 1
    for r in dim.axes:
        if not mesh.has(r.name):
            raise ShardingError(f"unknown mesh axis \"{r.name}\" (mesh @{mesh.name} has {_axes_text(mesh)})")
        n *= r.sub_axis[1] if r.sub_axis is not None else mesh.size(r.name)
    return n


def _axes_text(mesh: Mesh) -> str:
    return ", ".join(f'"{a}"={s}' for a, s in zip(mesh.axis_names, mesh.shape)) or "no axes"


def local_shape(shape: Sequence[int], sharding: Any, mesh: Mesh, keep: frozenset[int] = frozenset()) -> tuple[int, ...]:
    """Per-device shape (ref §4.1): each dimension divided by its shard count, exactly. Dimensions
    in `keep` stay global."""
    dims = sharding.dim_shardings
    if len(dims) != len(shape):
        raise ShardingError(f"sharding {sharding.op_text()} has {len(dims)} dimension(s) but the tensor has rank {len(shape)}")
    out = []
    for i, (d, ds) in enumerate(zip(shape, dims)):
        n = dim_shards(mesh, ds)
        if i in keep or n == 1:
            out.append(d)
            continue
        if d is None or d % n:
            axes = ", ".join(f'"{r.name}"' for r in ds.axes)
            raise ShardingError(f"dimension {i} of size {d} is not divisible into {n} shards (axes {axes})")
        out.append(d // n)
    return tuple(out)


def validate_sharding(sharding: Any, mesh: Mesh, rank: int | None) -> None:
    """Known axes, each axis used once, rank matches (ShardingError otherwise)."""
    from ttopt.dialects.errors import AttrError

    if sharding.mesh_name is not None and sharding.mesh_name != mesh.name:
        raise ShardingError(f"sharding {sharding.op_text()} refers to mesh @{sharding.mesh_name}, but the module's mesh is @{mesh.name}")
    if rank is not None and rank != sharding.rank:
        raise ShardingError(f"sharding {sharding.op_text()} has {sharding.rank} dimension shardings but the tensor has rank {rank}")
    try:
        sharding.verify(mesh.attr, rank)
    except AttrError as e:
        raise ShardingError(f"sharding {sharding.op_text()}: {e.message}") from None
