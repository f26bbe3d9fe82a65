"""GSPMD (`mhlo.sharding = "{devices=[2,4]<=[8]}"`) strings: parsing, a mesh for them, and their
translation to sdy shardings.

ttopt runs the Shardy path only. A module whose arguments and results carry GSPMD strings is
translated to sdy (a mesh `["x"=a, "y"=b]` as tt-mlir derives it, ref §2.4 step 3, and one
`sdy.sharding` per string); GSPMD sharding *ops* (`custom_call @Sharding`, `@SPMDFullToShardShape`,
`@SPMDShardToFullShape`) and strings that no 2-D row-major mesh can express are diagnostics.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from math import prod
from typing import Sequence

GSPMD_TARGETS = ("Sharding", "SPMDFullToShardShape", "SPMDShardToFullShape")


class GspmdError(ValueError):
    """A GSPMD string ttopt cannot read or express."""


@dataclass(frozen=True)
class GspmdSharding:
    """One HloSharding string: replicated, maximal, manual, or tiled (`tile` over `devices`)."""

    kind: str  # "replicated" | "maximal" | "manual" | "tiled"
    tile: tuple[int, ...] = ()  # tile assignment dims, including a trailing replication dim
    devices: tuple[int, ...] = ()
    replicate_last: bool = False

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
    if len(devices) != prod(tile):
        raise GspmdError(f"tile {list(tile)} needs {prod(tile)} devices, got {len(devices)}")
    rest = m.group(3).strip()
    if rest not in ("", "last_tile_dim_replicate"):
        raise GspmdError(f"unsupported '{rest}'")
    return GspmdSharding("tiled", tile, devices, rest == "last_tile_dim_replicate")


def mesh_for(shardings: Sequence[GspmdSharding]) -> tuple[int, int]:
    """tt-mlir's 2-D mesh for the module: the non-1 tile dims of the first tiled string (`[a, b]`,
    or `[1, n]` for one), `[1, 1]` when nothing is tiled."""
    for g in shardings:
        if g.kind != "tiled":
            continue
        big = [t for t in g.tile if t != 1]
        if len(big) > 2:
            raise GspmdError(f"tile {list(g.tile)} needs a {len(big)}-D mesh; tt devices are 2-D")
        if not big:
            continue
        return (1, big[0]) if len(big) == 1 else (big[0], big[1])
    return (1, 1)


def to_dim_axes(g: GspmdSharding, rank: int, axes: Sequence[tuple[str, int]]) -> list[list[str]]:
    """Per-dimension mesh axis names for `g` on the row-major mesh `axes` (GspmdError if the tiling
    does not map onto consecutive mesh axes in order)."""
    if g.kind == "replicated":
        return [[] for _ in range(rank)]
    if g.kind != "tiled":
        raise GspmdError(f"'{g.kind}' shardings are not supported")
    if len(g.data_tile) != rank:
        raise GspmdError(f"tile {list(g.tile)} does not match a rank-{rank} tensor")
    if not g.is_iota:
        raise GspmdError("only row-major device orders (`<=[N]`) are supported")
    total = prod(s for _, s in axes)
    if prod(g.tile) != total:
        raise GspmdError(f"tile {list(g.tile)} uses {prod(g.tile)} devices but the mesh has {total}")
    remaining = [(n, s) for n, s in axes if s != 1]
    out: list[list[str]] = [[] for _ in range(rank)]
    for pos, t in enumerate(g.tile):
        if t == 1:
            continue
        used, p = [], 1
        while remaining and p < t:
            n, s = remaining.pop(0)
            used.append(n)
            p *= s
        if p != t:
            raise GspmdError(f"tile dimension {pos} of size {t} does not match the mesh axes {list(axes)}")
        if pos < rank:
            out[pos] = used
    return out
