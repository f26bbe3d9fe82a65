"""GSPMD (`mhlo.sharding = "{devices=[2,4]<=[8]}"`) strings: parsing, the tt mesh tt-mlir derives
from them, and their meaning as sdy dimension shardings on that mesh.

GSPMD modules come in two forms (docs/sharding.md): strings on arguments/results only, which
`apply-shardy-argument-annotations` translates to `sdy.sharding` for the Shardy path, and
partitioned modules (`custom_call @Sharding` + `@SPMDFullToShardShape` / `@SPMDShardToFullShape`
around a local body, gspmd_partitioned.py), whose pairs become `ttir.mesh_shard` ops. Both read
the strings here. The mesh is tt-mlir's (GSPMDMeshSharding::generate): `[x, y]` from the device
list; each string is then mapped onto that mesh by its actual device order, so transposed
(`<=[2,4]T(1,0)`) and explicit device lists work when they are a layout of the mesh axes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import permutations, product
from math import prod
from typing import Sequence


class GspmdError(ValueError):
    """A GSPMD string ttopt cannot read or express."""


@dataclass(frozen=True)
class GspmdSharding:
    """One HloSharding string: replicated, maximal, manual, or tiled (`tile` over `devices`)."""

    kind: str  # "replicated" | "maximal" | "manual" | "tiled"
    tile: tuple[int, ...] = ()  # tile assignment dims, including a trailing replication dim
    devices: tuple[int, ...] = ()
    replicate_last: bool = False
    iota_dims: tuple[int, ...] = ()  # `<=[2,4]...`'s reshape dims; () for an explicit device list

    @property
    def data_tile(self) -> tuple[int, ...]:
        return self.tile[:-1] if self.replicate_last else self.tile

    @property
    def is_iota(self) -> bool:
        return list(self.devices) == list(range(len(self.devices)))


_TILED = re.compile(r"devices=\[([\d,\s]+)\]\s*(<=\[[\d,\s]+\](?:T\([\d,\s]+\))?|[\d,\s]+)(.*)", re.S)


def _ints(text: str) -> list[int]:
    return [int(x) for x in text.split(",") if x.strip()]


def _iota(spec: str) -> list[int]:
    m = re.fullmatch(r"<=\[([\d,\s]+)\](?:T\(([\d,\s]+)\))?", spec.strip())
    if m is None:
        raise GspmdError(f"cannot read the device list '{spec}'")
    dims = _ints(m.group(1))
    n = prod(dims)
    if m.group(2) is None:
        return list(range(n))
    perm = _ints(m.group(2))
    if sorted(perm) != list(range(len(dims))):
        raise GspmdError(f"bad transpose {perm} for device dims {dims}")
    # element at transposed index t = iota at the un-transposed index
    tdims = [dims[p] for p in perm]
    strides = [prod(dims[i + 1 :]) for i in range(len(dims))]
    out = []
    for flat in range(n):
        idx = []
        f = flat
        for d in reversed(tdims):
            idx.append(f % d)
            f //= d
        idx.reverse()
        src = [0] * len(dims)
        for k, p in enumerate(perm):
            src[p] = idx[k]
        out.append(sum(s * i for s, i in zip(strides, src)))
    return out


def parse_gspmd(text: str) -> GspmdSharding:
    """Parse one HloSharding string (tuple shardings and subgroup kinds are GspmdErrors)."""
    s = text.strip()
    if not (s.startswith("{") and s.endswith("}")):
        raise GspmdError(f"expected '{{...}}', got '{text}'")
    body = s[1:-1].strip()
    body = re.sub(r"\s*metadata=\{.*\}\s*$", "", body, flags=re.S)
    if body.startswith("{"):
        raise GspmdError("tuple shardings are not supported")
    if body == "replicated":
        return GspmdSharding("replicated")
    if body == "manual":
        return GspmdSharding("manual")
    m = re.fullmatch(r"maximal\s+device=(\d+)", body)
    if m:
        return GspmdSharding("maximal", devices=(int(m.group(1)),))
    m = _TILED.fullmatch(body)
    if m is None:
        raise GspmdError(f"cannot read '{text}'")
    tile = tuple(_ints(m.group(1)))
    dev_text = m.group(2).strip()
    devices = tuple(_iota(dev_text) if dev_text.startswith("<=") else _ints(dev_text))
    iota_dims = tuple(_ints(dev_text[3:dev_text.index("]")])) if dev_text.startswith("<=") else ()
    if len(devices) != prod(tile):
        raise GspmdError(f"tile {list(tile)} needs {prod(tile)} devices, got {len(devices)}")
    rest = m.group(3).strip()
    if rest not in ("", "last_tile_dim_replicate"):
        raise GspmdError(f"unsupported '{rest}'")
    return GspmdSharding("tiled", tile, devices, rest == "last_tile_dim_replicate", iota_dims)


def tt_mesh_shape(g: GspmdSharding) -> tuple[int, int] | None:
    """The 2-D mesh tt-mlir reads from one string (GSPMDMeshSharding::generate), None when the
    string names no devices (replicated, manual). A device list `<=[a,b]T(...)` gives `[a, b]`;
    `<=[N]` or an explicit list gives `[1, N]` when one tile dimension takes all N devices, else
    the tile's non-1 dimensions (reversed when explicit device ids are not consecutive)."""
    if g.kind == "maximal":
        raise GspmdError("maximal shardings are not supported")
    if g.kind != "tiled":
        return None
    reverse = len(g.iota_dims) > 1
    mesh = list(g.iota_dims) if g.iota_dims else [len(g.devices)]
    if not reverse:
        if any(t == mesh[0] for t in g.tile):
            mesh = [1, mesh[0]]
        else:
            mesh = [t for t in g.tile if t != 1]
            if not g.iota_dims and len(g.devices) > 1 and g.devices[0] + 1 != g.devices[1]:
                mesh.reverse()
    if len(mesh) != 2:
        raise GspmdError(f"tile {list(g.tile)} needs a {len(mesh)}-D mesh; tt devices are 2-D")
    return (mesh[0], mesh[1])


def mesh_for(shardings: Sequence[GspmdSharding]) -> tuple[int, int]:
    """tt-mlir's mesh for a module: that of the first string naming devices, `[1, 1]` if none does."""
    for g in shardings:
        shape = tt_mesh_shape(g)
        if shape is not None:
            return shape
    return (1, 1)


def _assign(tile: Sequence[int], axes: Sequence[tuple[str, int]]) -> list[list[tuple[str, int]]] | None:
    """Whole axes, in the given order, consumed by the tile dimensions in order (None when a
    dimension's size is not a product of the next axes)."""
    remaining = list(axes)
    out: list[list[tuple[str, int]]] = []
    for t in tile:
        used: list[tuple[str, int]] = []
        p = 1
        while remaining and p < t:
            used.append(remaining.pop(0))
            p *= used[-1][1]
        if p != t:
            return None
        out.append(used)
    return out if not remaining else None


def _device_order(tile: Sequence[int], per_dim: Sequence[Sequence[tuple[str, int]]], axes: Sequence[tuple[str, int]]) -> list[int]:
    """Row-major device ids of each tile position when tile dimension k spans the axes `per_dim[k]`
    (major first) of the row-major mesh `axes`."""
    names = [n for n, _ in axes]
    out = []
    for pos in product(*(range(t) for t in tile)):
        coord = dict.fromkeys(names, 0)
        for i, dim_axes in zip(pos, per_dim):
            for n, s in reversed(dim_axes):
                coord[n] = i % s
                i //= s
        d = 0
        for n, s in axes:
            d = d * s + coord[n]
        out.append(d)
    return out


def to_dim_axes(g: GspmdSharding, rank: int, axes: Sequence[tuple[str, int]]) -> list[list[str]]:
    """Per-dimension mesh axis names for `g` on the row-major mesh `axes`: the assignment of whole
    axes to tile dimensions whose device order is `g`'s (GspmdError when there is none)."""
    if g.kind == "replicated":
        return [[] for _ in range(rank)]
    if g.kind != "tiled":
        raise GspmdError(f"'{g.kind}' shardings are not supported")
    if len(g.data_tile) != rank:
        raise GspmdError(f"tile {list(g.tile)} does not match a rank-{rank} tensor")
    total = prod(s for _, s in axes)
    if prod(g.tile) != total:
        raise GspmdError(f"tile {list(g.tile)} uses {prod(g.tile)} devices but the mesh has {total}")
    big = [(n, s) for n, s in axes if s != 1]
    fits = False
    for order in permutations(big):
        per_dim = _assign(g.tile, order)
        if per_dim is None:
            continue
        fits = True
        if _device_order(g.tile, per_dim, axes) == list(g.devices):
            return [[n for n, _ in per_dim[d]] for d in range(rank)]
    if not fits:
        raise GspmdError(f"tile {list(g.tile)} does not match the mesh axes {list(axes)}")
    raise GspmdError(f"the device order of tile {list(g.tile)} is no layout of the mesh axes {list(axes)}")
