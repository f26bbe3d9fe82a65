"""Typed Shardy (sdy) attributes: meshes, axis refs, tensor shardings and the `#sdy<...>` lists.

Grammar and printing rules: reference/stablehlo-pipeline-upstream.md §1.2-1.3 (Shardy `attrs.td`,
`parsers.cc`, `printers.cc`); semantics §3.1. The sdy grammar is token-based (`{"x",?}`, `"x":(2)4`,
`}p1`), so it is read with a small cursor parser rather than by splitting at commas.
"""

from __future__ import annotations

import re
from enum import StrEnum
from functools import lru_cache
from math import prod
from typing import Any, ClassVar, Iterable, Iterator, Mapping, Sequence

from pydantic import field_validator, model_validator

from ttopt.dialects.errors import AttrError, attr_errors
from ttopt.dialects.model import DialectModel, register_attr
from ttopt.ir.attributes import quote
from ttopt.ir.printer import sym_text
from ttopt.parse.attr_body import Cursor

_BARE_SYM = re.compile(r"[A-Za-z_][\w$.]*")  # MLIR's `@` symbol: a bare identifier (or a string)


class SdyModel(DialectModel):
    """Base of the typed sdy attributes: frozen, validated, hashable."""


def _run(body: str, parse: Any, what: str, start: int = 0) -> Any:
    """Run a cursor parser over the whole body; validation failures of the models become AttrErrors."""
    c = Cursor(body)
    c.i = start
    with attr_errors(what):
        out = parse(c)
    c.end()
    return out


# ---------------------------------------------------------------------------------------------
# Mesh.


class MeshAxis(SdyModel):
    """`"x"=2`: a named mesh axis and its size."""

    name: str
    size: int

    @model_validator(mode="after")
    def _check(self) -> MeshAxis:
        if not self.name:
            raise ValueError("mesh axis names must not be empty")
        if self.size <= 0:
            raise ValueError(f"mesh axis \"{self.name}\" must have a positive size, got {self.size}")
        return self

    def print_body(self) -> str:
        """`"x"=2` (Shardy prints no spaces around `=`)."""
        return f"{quote(self.name)}={self.size}"


class MeshAttr(SdyModel):
    """`#sdy.mesh<["x"=2, "y"=4][, device_ids=[...]]>`; `<[]>` is empty, `<[], device_ids=[3]>` maximal."""

    attr_name: ClassVar[str] = "sdy.mesh"

    axes: tuple[MeshAxis, ...] = ()
    device_ids: tuple[int, ...] = ()

    @model_validator(mode="after")
    def _check(self) -> MeshAttr:
        names = [a.name for a in self.axes]
        dup = {n for n in names if names.count(n) > 1}
        if dup:
            raise ValueError(f"duplicate mesh axis {quote(sorted(dup)[0])}")
        if any(d < 0 for d in self.device_ids):
            raise ValueError("device ids must be non-negative")
        if self.device_ids:
            if not self.axes:
                if len(self.device_ids) != 1:
                    raise ValueError("a maximal mesh (no axes) takes exactly one device id")
            else:
                n = self.total_size
                if len(self.device_ids) != n:
                    raise ValueError(f"mesh has {n} devices but {len(self.device_ids)} device ids")
                if sorted(self.device_ids) != list(range(n)):
                    raise ValueError(f"device ids must be a permutation of 0..{n - 1}")
        return self

    @classmethod
    def of(cls, axes: Mapping[str, int] | Iterable[tuple[str, int]], device_ids: Sequence[int] = ()) -> MeshAttr:
        """Build from `{"x": 2, "y": 4}` or `[("x", 2), ("y", 4)]`."""
        items = axes.items() if isinstance(axes, Mapping) else axes
        with attr_errors("#sdy.mesh"):
            return cls(axes=tuple(MeshAxis(name=n, size=s) for n, s in items), device_ids=tuple(device_ids))

    def print_body(self) -> str:
        """`["x"=2, "y"=4]` plus `, device_ids=[...]` when given."""
        s = "[" + ", ".join(a.print_body() for a in self.axes) + "]"
        if self.device_ids:
            s += ", device_ids=[" + ", ".join(str(d) for d in self.device_ids) + "]"
        return s

    @property
    def axis_names(self) -> tuple[str, ...]:
        """Axis names, major to minor."""
        return tuple(a.name for a in self.axes)

    @property
    def shape(self) -> tuple[int, ...]:
        """Axis sizes, major to minor."""
        return tuple(a.size for a in self.axes)

    @property
    def total_size(self) -> int:
        """Number of devices (1 for an empty or maximal mesh)."""
        return prod(a.size for a in self.axes)

    @property
    def is_maximal(self) -> bool:
        """No axes: everything runs on one device."""
        return not self.axes

    def axis_size(self, name: str) -> int:
        """Size of axis `name`; AttrError when the mesh has no such axis."""
        for a in self.axes:
            if a.name == name:
                return a.size
        raise AttrError(f"unknown mesh axis {quote(name)} (mesh axes: {', '.join(quote(n) for n in self.axis_names) or 'none'})")

    def has_axis(self, name: str) -> bool:
        """True when the mesh has an axis called `name`."""
        return any(a.name == name for a in self.axes)

    def axis_index(self, name: str) -> int:
        """Position of axis `name` (major = 0)."""
        self.axis_size(name)
        return self.axis_names.index(name)

    @property
    def device_id_list(self) -> tuple[int, ...]:
        """Explicit device ids, or iota when none are given."""
        return self.device_ids or tuple(range(self.total_size))

    @classmethod
    @lru_cache(maxsize=256)
    def parse(cls, body: str) -> MeshAttr:
        """Parse `["x"=2, ...][, device_ids=[...]]`."""
        return _run(body, _mesh, "#sdy.mesh")


def _mesh(c: Cursor) -> MeshAttr:
    c.expect("[", "'[' opening the mesh axes")
    axes = []
    if not c.accept("]"):
        while True:
            name = c.string("a quoted axis name")
            c.expect("=")
            axes.append((name, c.integer("an axis size")))
            if c.accept("]"):
                break
            c.expect(",", "',' or ']'")
    ids: list[int] = []
    if c.accept(","):
        c.expect("device_ids", "'device_ids'")
        c.expect("=")
        c.expect("[")
        if not c.accept("]"):
            while True:
                ids.append(c.integer("a device id"))
                if c.accept("]"):
                    break
                c.expect(",", "',' or ']'")
    return MeshAttr.of(axes, ids)


# ---------------------------------------------------------------------------------------------
# Axis references and dimension shardings.


class AxisRef(SdyModel):
    """`"x"` or the sub-axis `"x":(pre_size)size`."""

    name: str
    sub_axis: tuple[int, int] | None = None  # (pre_size, size)

    @model_validator(mode="after")
    def _check(self) -> AxisRef:
        if not self.name:
            raise ValueError("axis names must not be empty")
        if self.sub_axis is not None:
            pre, size = self.sub_axis
            if pre < 1:
                raise ValueError(f"sub-axis pre-size must be >= 1, got {pre}")
            if size <= 1:
                raise ValueError(f"sub-axis size must be > 1, got {size}")
        return self

    @classmethod
    def of(cls, ref: AxisRef | str | tuple[str, int, int]) -> AxisRef:
        """From an AxisRef, a name, or (name, pre_size, size)."""
        if isinstance(ref, AxisRef):
            return ref
        with attr_errors("axis ref"):
            if isinstance(ref, str):
                return cls(name=ref)
            return cls(name=ref[0], sub_axis=(ref[1], ref[2]))

    def print_body(self) -> str:
        """`"x"` / `"x":(2)4`."""
        s = quote(self.name)
        if self.sub_axis is not None:
            s += f":({self.sub_axis[0]}){self.sub_axis[1]}"
        return s

    @property
    def text(self) -> str:
        return self.print_body()

    def size(self, mesh: MeshAttr) -> int:
        """Number of shards this axis (or sub-axis) splits into on `mesh`."""
        return self.sub_axis[1] if self.sub_axis is not None else mesh.axis_size(self.name)

    def interval(self, mesh: MeshAttr) -> tuple[int, int]:
        """[pre_size, pre_size * size) of the axis it covers; sub-axes of one axis nest by products."""
        if self.sub_axis is None:
            return (1, mesh.axis_size(self.name))
        return (self.sub_axis[0], self.sub_axis[0] * self.sub_axis[1])

    def overlaps(self, other: AxisRef, mesh: MeshAttr) -> bool:
        """True when both refer to a common part of the same mesh axis."""
        if self.name != other.name:
            return False
        a, b = self.interval(mesh), other.interval(mesh)
        return a[0] < b[1] and b[0] < a[1]


def _axis_ref(c: Cursor) -> AxisRef:
    name = c.string("a quoted axis name")
    if c.accept(":"):
        c.expect("(", "'(' of a sub-axis")
        pre = c.integer("a sub-axis pre-size")
        c.expect(")")
        size = c.integer("a sub-axis size")
        with attr_errors("sub-axis"):
            return AxisRef(name=name, sub_axis=(pre, size))
    return AxisRef(name=name)


def _axis_list(c: Cursor) -> tuple[AxisRef, ...]:
    c.expect("{", "'{' opening an axis list")
    refs = []
    if not c.accept("}"):
        while True:
            refs.append(_axis_ref(c))
            if c.accept("}"):
                break
            c.expect(",", "',' or '}'")
    return tuple(refs)


def _axis_list_text(refs: Sequence[AxisRef]) -> str:
    return "{" + ", ".join(r.print_body() for r in refs) + "}"


class DimensionSharding(SdyModel):
    """`{"a", "b"}` (closed), `{"a", ?}` / `{?}` (open), with an optional priority `p0`, `p1`..."""

    axes: tuple[AxisRef, ...] = ()
    is_closed: bool = True
    priority: int | None = None

    @model_validator(mode="after")
    def _check(self) -> DimensionSharding:
        if self.priority is not None:
            if self.priority < 0:
                raise ValueError(f"priority must be non-negative, got {self.priority}")
            if self.is_closed and not self.axes:
                raise ValueError("a closed empty dimension sharding '{}' cannot have a priority")
        return self

    @classmethod
    def of(cls, axes: Iterable[AxisRef | str | tuple[str, int, int]] = (), *, closed: bool = True,
           priority: int | None = None) -> DimensionSharding:  # fmt: skip
        """From axis refs or names, major to minor."""
        refs = tuple(AxisRef.of(a) for a in axes)
        with attr_errors("dimension sharding"):
            return cls(axes=refs, is_closed=closed, priority=priority)

    def print_body(self) -> str:
        """Shardy's spelling: `{"a", ?}`, `{?}`, `{}`, `{"x"}p1`."""
        items = [r.print_body() for r in self.axes]
        if not self.is_closed:
            items.append("?")
        s = "{" + ", ".join(items) + "}"
        return s if self.priority is None else f"{s}p{self.priority}"

    @property
    def text(self) -> str:
        return self.print_body()

    @property
    def axis_names(self) -> tuple[str, ...]:
        """Names of the axes, major to minor."""
        return tuple(r.name for r in self.axes)

    def num_shards(self, mesh: MeshAttr) -> int:
        """Product of the sizes of its axes on `mesh`."""
        return prod(r.size(mesh) for r in self.axes)


def _dim(c: Cursor) -> DimensionSharding:
    c.expect("{", "'{' opening a dimension sharding")
    refs = []
    closed = True
    if c.accept("?"):
        closed = False
        c.expect("}")
    elif not c.accept("}"):
        while True:
            refs.append(_axis_ref(c))
            if c.accept("}"):
                break
            # `{"x", ?}`; the comma is optional before '?' in Shardy's parser (`{"x",?}` also parses).
            comma = c.accept(",")
            if c.accept("?"):
                closed = False
                c.expect("}")
                break
            if not comma:
                raise c.fail("',', '?' or '}'")
    priority = None
    if c.s.startswith("p", c.i):
        c.i += 1
        priority = c.integer("a priority after 'p'", no_leading_zero=True)
    with attr_errors("dimension sharding"):
        return DimensionSharding(axes=tuple(refs), is_closed=closed, priority=priority)


# ---------------------------------------------------------------------------------------------
# Tensor sharding.


class TensorShardingAttr(SdyModel):
    """`#sdy.sharding<@mesh | mesh<[...]>, [dims], replicated={...}, unreduced={...}>`.

    The text names its mesh but does not hold it: `verify(mesh, rank)` and the shape helpers take
    the MeshAttr (or a {name: MeshAttr} table) from the module.
    """

    attr_name: ClassVar[str] = "sdy.sharding"

    mesh: str | MeshAttr
    dim_shardings: tuple[DimensionSharding, ...] = ()
    replicated: tuple[AxisRef, ...] = ()
    unreduced: tuple[AxisRef, ...] = ()
    unreduced_kind: str | None = None  # newer Shardy: `unreduced=sum{...}` (ref §1.2)

    @field_validator("unreduced_kind")
    @classmethod
    def _kind(cls, v: str | None) -> str | None:
        if v is not None and v not in ("max", "min", "sum"):
            raise ValueError(f"unreduced kind must be max, min or sum, got '{v}'")
        return v

    @model_validator(mode="after")
    def _check(self) -> TensorShardingAttr:
        if self.unreduced_kind is not None and not self.unreduced:
            raise ValueError("an unreduced kind needs unreduced axes")
        return self

    # -- building -------------------------------------------------------------------------------
    @classmethod
    def of(
        cls,
        mesh: str | MeshAttr,
        dims: Iterable[DimensionSharding | Iterable[AxisRef | str | tuple[str, int, int]]],
        *,
        closed: bool = True,
        replicated: Iterable[AxisRef | str] = (),
        unreduced: Iterable[AxisRef | str] = (),
    ) -> TensorShardingAttr:
        """From per-dimension axis names: `of("mesh", [["x"], []])` is `<@mesh, [{"x"}, {}]>`."""
        ds = tuple(d if isinstance(d, DimensionSharding) else DimensionSharding.of(d, closed=closed) for d in dims)
        with attr_errors("#sdy.sharding"):
            return cls(
                mesh=mesh, dim_shardings=ds,
                replicated=tuple(AxisRef.of(r) for r in replicated), unreduced=tuple(AxisRef.of(r) for r in unreduced),
            )  # fmt: skip

    @classmethod
    def fully_replicated(cls, mesh: str | MeshAttr, rank: int, *, closed: bool = True) -> TensorShardingAttr:
        """`<@mesh, [{}, {}, ...]>` (or all `{?}` when open)."""
        return cls.of(mesh, [[] for _ in range(rank)], closed=closed)

    def closed(self) -> TensorShardingAttr:
        """Every dimension closed (what `sdy-close-shardings` does), priorities kept where legal."""
        dims = tuple(
            d if d.is_closed else DimensionSharding(axes=d.axes, is_closed=True, priority=d.priority if d.axes else None)
            for d in self.dim_shardings
        )
        return self.model_copy(update={"dim_shardings": dims})

    # -- printing -------------------------------------------------------------------------------
    def print_body(self) -> str:
        """Shardy's spelling, e.g. `@mesh, [{"x", ?}, {}], replicated={"y"}`."""
        mesh = sym_text(self.mesh) if isinstance(self.mesh, str) else f"mesh<{self.mesh.print_body()}>"
        s = f"{mesh}, [" + ", ".join(d.print_body() for d in self.dim_shardings) + "]"
        if self.replicated:
            s += f", replicated={_axis_list_text(self.replicated)}"
        if self.unreduced:
            s += f", unreduced={self.unreduced_kind or ''}{_axis_list_text(self.unreduced)}"
        return s

    def op_text(self) -> str:
        """The `<@mesh, [...]>` form sdy ops write inline."""
        return f"<{self.print_body()}>"

    # -- queries --------------------------------------------------------------------------------
    @property
    def rank(self) -> int:
        """Number of dimension shardings."""
        return len(self.dim_shardings)

    @property
    def mesh_name(self) -> str | None:
        """Name of the referenced mesh; None for an inlined mesh."""
        return self.mesh if isinstance(self.mesh, str) else None

    @property
    def is_fully_replicated(self) -> bool:
        """No dimension is sharded."""
        return all(not d.axes for d in self.dim_shardings)

    @property
    def is_fully_closed(self) -> bool:
        """No dimension is open."""
        return all(d.is_closed for d in self.dim_shardings)

    def all_axis_refs(self) -> Iterator[tuple[str, AxisRef]]:
        """(where, ref) for every axis ref: `dimension i`, `replicated`, `unreduced`."""
        for i, d in enumerate(self.dim_shardings):
            for r in d.axes:
                yield f"dimension {i}", r
        for r in self.replicated:
            yield "replicated", r
        for r in self.unreduced:
            yield "unreduced", r

    def resolve_mesh(self, meshes: MeshAttr | Mapping[str, MeshAttr]) -> MeshAttr:
        """The MeshAttr this sharding uses: its inline mesh, or the named one from `meshes`."""
        if isinstance(self.mesh, MeshAttr):
            return self.mesh
        if isinstance(meshes, MeshAttr):
            return meshes
        m = meshes.get(self.mesh)
        if m is None:
            raise AttrError(f"unknown mesh {sym_text(self.mesh)}")
        return m

    def verify(self, meshes: MeshAttr | Mapping[str, MeshAttr], rank: int | None = None) -> None:
        """Check against the mesh (and tensor rank): known axes, valid sub-axes, each axis used once,
        replicated/unreduced in mesh order (ref §1.2, §3.1). Raises AttrError."""
        mesh = self.resolve_mesh(meshes)
        # Shardy: a sharding on a maximal mesh (no axes, one device id) has rank 0 whatever the tensor's.
        maximal = not mesh.axes and bool(mesh.device_ids) and self.rank == 0
        if rank is not None and rank != self.rank and not maximal:
            raise AttrError(f"sharding has {self.rank} dimension shardings but the tensor has rank {rank}")
        seen: list[tuple[str, AxisRef]] = []
        for where, ref in self.all_axis_refs():
            if not mesh.has_axis(ref.name):
                names = ", ".join(quote(n) for n in mesh.axis_names) or "none"
                raise AttrError(f"unknown axis {quote(ref.name)} in {where} (mesh axes: {names})")
            if ref.sub_axis is not None:
                full = mesh.axis_size(ref.name)
                pre, size = ref.sub_axis
                if full % (pre * size) or (pre == 1 and size == full):
                    raise AttrError(f"sub-axis {ref.print_body()} in {where} does not divide axis {quote(ref.name)} of size {full} into a proper part")
            for other_where, other in seen:
                if ref.overlaps(other, mesh):
                    where_text = where if where == other_where else f"{other_where} and {where}"
                    raise AttrError(f"axis {quote(ref.name)} is used more than once ({where_text})")
            seen.append((where, ref))
        for field, refs in (("replicated", self.replicated), ("unreduced", self.unreduced)):
            order = [(mesh.axis_index(r.name), r.interval(mesh)[0]) for r in refs]
            if order != sorted(order):
                raise AttrError(f"{field} axes must be in mesh order")

    def shards_per_dim(self, meshes: MeshAttr | Mapping[str, MeshAttr]) -> tuple[int, ...]:
        """How many pieces each dimension is split into."""
        mesh = self.resolve_mesh(meshes)
        return tuple(d.num_shards(mesh) for d in self.dim_shardings)

    def local_shape(self, shape: Sequence[int], meshes: MeshAttr | Mapping[str, MeshAttr]) -> tuple[int, ...]:
        """Per-device shape: each dim divided by its shard count; AttrError when not divisible."""
        counts = self.shards_per_dim(meshes)
        if len(shape) != len(counts):
            raise AttrError(f"sharding has {len(counts)} dimension shardings but the tensor has rank {len(shape)}")
        out = []
        for i, (d, n) in enumerate(zip(shape, counts)):
            if d % n:
                raise AttrError(f"dimension {i} of size {d} is not divisible into {n} shards")
            out.append(d // n)
        return tuple(out)

    @classmethod
    @lru_cache(maxsize=4096)
    def parse(cls, body: str) -> TensorShardingAttr:
        """Parse a sharding body (`@mesh, [...]`), as in `#sdy.sharding<...>` or an op's `<...>`."""
        return _run(body, _sharding, "#sdy.sharding")


def _sharding(c: Cursor) -> TensorShardingAttr:
    if c.accept("@"):  # `@` and its name are one token: no blank between them
        if c.s.startswith('"', c.i):
            mesh: str | MeshAttr = c.string("a mesh name")
        else:
            m = _BARE_SYM.match(c.s, c.i)
            if m is None:
                raise c.fail("a mesh name after '@'")
            c.i = m.end()
            mesh = m.group()
    elif c.accept("mesh"):
        c.expect("<", "'<' of an inlined mesh")
        mesh = _mesh(c)
        c.expect(">")
    else:
        raise c.fail("'@mesh' or an inlined 'mesh<...>'")
    c.expect(",", "',' after the mesh")
    c.expect("[", "'[' opening the dimension shardings")
    dims = []
    if not c.accept("]"):
        while True:
            dims.append(_dim(c))
            if c.accept("]"):
                break
            c.expect(",", "',' or ']'")
    replicated: tuple[AxisRef, ...] = ()
    unreduced: tuple[AxisRef, ...] = ()
    kind = None
    seen = set()
    while c.accept(","):
        c.ws()
        m = re.compile(r"(replicated|unreduced)\s*=").match(c.s, c.i)
        if m is None:
            raise c.fail("'replicated=' or 'unreduced='")
        key = m.group(1)
        if key in seen or (key == "replicated" and "unreduced" in seen):
            raise AttrError(f"'{key}=' out of order or repeated at offset {c.i}", c.i)
        seen.add(key)
        c.i = m.end()
        if key == "replicated":
            replicated = _axis_list(c)
        else:
            c.ws()
            km = re.compile(r"(max|min|sum)\b").match(c.s, c.i)
            if km:
                kind = km.group(1)
                c.i = km.end()
            unreduced = _axis_list(c)
    with attr_errors("#sdy.sharding"):
        return TensorShardingAttr(
            mesh=mesh, dim_shardings=tuple(dims), replicated=replicated, unreduced=unreduced, unreduced_kind=kind
        )


class TensorShardingPerValueAttr(SdyModel):
    """`#sdy.sharding_per_value<[<@mesh, [...]>, ...]>` (one sharding per op result)."""

    attr_name: ClassVar[str] = "sdy.sharding_per_value"

    shardings: tuple[TensorShardingAttr, ...] = ()

    def print_body(self) -> str:
        """`[<@mesh, [...]>, ...]`."""
        return "[" + ", ".join(s.op_text() for s in self.shardings) + "]"

    def __len__(self) -> int:
        return len(self.shardings)

    def __getitem__(self, i: int) -> TensorShardingAttr:
        return self.shardings[i]

    @classmethod
    @lru_cache(maxsize=1024)
    def parse(cls, body: str) -> TensorShardingPerValueAttr:
        """Parse `[<...>, ...]` (entries may also be spelled `#sdy.sharding<...>`)."""
        return _run(body, _per_value, "#sdy.sharding_per_value")


def _per_value(c: Cursor) -> TensorShardingPerValueAttr:
    c.expect("[", "'[' opening the per-value shardings")
    out = []
    if not c.accept("]"):
        while True:
            if not c.accept("#sdy.sharding<"):
                c.expect("<", "'<' opening a sharding")
            out.append(_sharding(c))
            c.expect(">", "'>' closing a sharding")
            if c.accept("]"):
                break
            c.expect(",", "',' or ']'")
    return TensorShardingPerValueAttr(shardings=tuple(out))


# ---------------------------------------------------------------------------------------------
# `#sdy<kind ...>` short forms (generic op forms, ref §1.3).


class AxisRefListAttr(SdyModel):
    """`#sdy<axis_ref_list{"x", "y"}>` (all_reduce reduction axes)."""

    attr_name: ClassVar[str] = "sdy"
    kind: ClassVar[str] = "axis_ref_list"

    axes: tuple[AxisRef, ...] = ()

    def print_body(self) -> str:
        """`axis_ref_list{"x"}`."""
        return self.kind + self.list_text()

    def list_text(self) -> str:
        """`{"x", "y"}` as written inside the op."""
        return _axis_list_text(self.axes)


class ListOfAxisRefListsAttr(SdyModel):
    """`#sdy<list_of_axis_ref_lists[{"x"}, {}]>` (all_gather / all_slice / reduce_scatter, per dim)."""

    attr_name: ClassVar[str] = "sdy"
    kind: ClassVar[str] = "list_of_axis_ref_lists"

    lists: tuple[tuple[AxisRef, ...], ...] = ()

    def print_body(self) -> str:
        """`list_of_axis_ref_lists[{"x"}, {}]`."""
        return self.kind + self.list_text()

    def list_text(self) -> str:
        """`[{"x"}, {}]` as written inside the op."""
        return "[" + ", ".join(_axis_list_text(refs) for refs in self.lists) + "]"


class ManualAxesAttr(SdyModel):
    """`#sdy<manual_axes{"x", "y"}>` (manual_computation)."""

    attr_name: ClassVar[str] = "sdy"
    kind: ClassVar[str] = "manual_axes"

    names: tuple[str, ...] = ()

    @model_validator(mode="after")
    def _check(self) -> ManualAxesAttr:
        if len(set(self.names)) != len(self.names):
            raise ValueError("manual axes must be unique")
        return self

    def print_body(self) -> str:
        """`manual_axes{"x", "y"}`."""
        return self.kind + self.list_text()

    def list_text(self) -> str:
        """`{"x", "y"}` as written inside the op."""
        return "{" + ", ".join(quote(n) for n in self.names) + "}"


class AllToAllParam(SdyModel):
    """`{"x"}: 0->2`: axes moved from the source dim to the target dim."""

    axes: tuple[AxisRef, ...]
    src_dim: int
    tgt_dim: int

    @model_validator(mode="after")
    def _check(self) -> AllToAllParam:
        if not self.axes:
            raise ValueError("an all_to_all parameter needs at least one axis")
        if self.src_dim < 0 or self.tgt_dim < 0 or self.src_dim == self.tgt_dim:
            raise ValueError(f"bad all_to_all dims {self.src_dim}->{self.tgt_dim}")
        return self

    def print_body(self) -> str:
        """`{"x"}: 0->2`."""
        return f"{_axis_list_text(self.axes)}: {self.src_dim}->{self.tgt_dim}"


class AllToAllParamListAttr(SdyModel):
    """`#sdy<all_to_all_param_list[{"x"}: 0->2, ...]>`."""

    attr_name: ClassVar[str] = "sdy"
    kind: ClassVar[str] = "all_to_all_param_list"

    params: tuple[AllToAllParam, ...] = ()

    def print_body(self) -> str:
        """`all_to_all_param_list[...]`."""
        return self.kind + self.list_text()

    def list_text(self) -> str:
        """`[{"x"}: 0->2, ...]` as written inside the op."""
        return "[" + ", ".join(p.print_body() for p in self.params) + "]"


class PropagationDirection(StrEnum):
    NONE = "NONE"
    FORWARD = "FORWARD"
    BACKWARD = "BACKWARD"
    BOTH = "BOTH"


class PropagationDirectionAttr(SdyModel):
    """`#sdy<propagation_direction NONE>` (propagation_barrier)."""

    attr_name: ClassVar[str] = "sdy"
    kind: ClassVar[str] = "propagation_direction"

    value: PropagationDirection

    def print_body(self) -> str:
        """`propagation_direction NONE`."""
        return f"{self.kind} {self.value.value}"


def _short_axis_ref_list(c: Cursor) -> AxisRefListAttr:
    return AxisRefListAttr(axes=_axis_list(c))


def _short_lists(c: Cursor) -> ListOfAxisRefListsAttr:
    c.expect("[")
    lists = []
    if not c.accept("]"):
        while True:
            lists.append(_axis_list(c))
            if c.accept("]"):
                break
            c.expect(",", "',' or ']'")
    return ListOfAxisRefListsAttr(lists=tuple(lists))


def _short_manual(c: Cursor) -> ManualAxesAttr:
    c.expect("{")
    names = []
    if not c.accept("}"):
        while True:
            names.append(c.string("a quoted axis name"))
            if c.accept("}"):
                break
            c.expect(",", "',' or '}'")
    return ManualAxesAttr(names=tuple(names))


def _short_all_to_all(c: Cursor) -> AllToAllParamListAttr:
    c.expect("[")
    out = []
    if not c.accept("]"):
        while True:
            axes = _axis_list(c)
            c.expect(":")
            src = c.integer("a source dimension")
            c.expect("->")
            tgt = c.integer("a target dimension")
            out.append(AllToAllParam(axes=axes, src_dim=src, tgt_dim=tgt))
            if c.accept("]"):
                break
            c.expect(",", "',' or ']'")
    return AllToAllParamListAttr(params=tuple(out))


def _short_direction(c: Cursor) -> PropagationDirectionAttr:
    c.ws()
    m = re.compile(r"[A-Z]+").match(c.s, c.i)
    if m is None:
        raise c.fail("a propagation direction")
    c.i = m.end()
    try:
        return PropagationDirectionAttr(value=PropagationDirection(m.group()))
    except ValueError:
        raise c.fail("a propagation direction (NONE, FORWARD, BACKWARD, BOTH)") from None


_SHORT_KINDS = {
    "axis_ref_list": _short_axis_ref_list,
    "list_of_axis_ref_lists": _short_lists,
    "manual_axes": _short_manual,
    "all_to_all_param_list": _short_all_to_all,
    "propagation_direction": _short_direction,
}


@lru_cache(maxsize=1024)
def parse_sdy_short(body: str) -> Any:
    """The typed model of a `#sdy<kind ...>` body, dispatched on its kind keyword."""
    m = re.match(r"\s*([a-z_]+)", body)
    parse = _SHORT_KINDS.get(m.group(1)) if m else None
    if m is None or parse is None:
        raise AttrError(f"unknown #sdy<...> kind '{m.group(1) if m else body[:20]}' (expected one of {', '.join(_SHORT_KINDS)})")
    return _run(body, parse, f"#sdy<{m.group(1)}>", start=m.end())


# ---------------------------------------------------------------------------------------------
# Registration.


register_attr("sdy.sharding", TensorShardingAttr.parse)
register_attr("sdy.sharding_per_value", TensorShardingPerValueAttr.parse)
register_attr("sdy.mesh", MeshAttr.parse)
register_attr("sdy", parse_sdy_short)
