"""Override strings of the ttnn-optimizer options (reference §2.14).

* `override-output-layout=NAME=p1:p2:...,NAME2=...` where each `p` is a grid `AxB`, a buffer type
  (`dram`, `l1`, `system_memory`, `l1_small`, `trace`), a memory layout (`interleaved`,
  `height_sharded`, `width_sharded`, `block_sharded`), a page layout (`tile`, `row_major`) or a
  data type (`bf16`, `f32`, ...); each kind at most once.
* `insert-memreconfig=NAME=idx[:idx...]`: reshard operands `idx` of op NAME.
* `override-conv2d-config=NAME=key#value:key#value...` (keys of `#ttnn.conv2d_config`).

NAME is an op's NameLoc name (`loc("add_1")`). Errors are `OverrideError`s naming the bad piece;
the pass turns them into diagnostics.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterable

from ttopt.dialects.ttcore_attrs import DataType
from ttopt.dialects.ttnn_attrs import BufferType, TensorMemoryLayout

_GRID = re.compile(r"(\d+)x(\d+)")
_PAGE = {"tile": True, "row_major": False}
CONV2D_KEYS = (
    "weights_dtype", "activation", "deallocate_activation", "reallocate_halo_output", "act_block_h_override",
    "act_block_w_div", "reshard_if_not_optimal", "override_sharding_config", "shard_layout", "core_grid",
    "transpose_shards", "output_layout", "enable_act_double_buffer", "enable_weights_double_buffer",
)  # fmt: skip


class OverrideError(ValueError):
    """A malformed override string (the message names the option and the offending part)."""


@dataclass(frozen=True, slots=True)
class OutputLayoutOverride:
    """The fields one `override-output-layout` entry fixes (None: not given)."""

    name: str
    grid: tuple[int, int] | None = None
    buffer: BufferType | None = None
    memory_layout: TensorMemoryLayout | None = None
    tiled: bool | None = None
    dtype: DataType | None = None

    @property
    def is_full(self) -> bool:
        """Grid, buffer, memory layout and page layout all given: exactly one layout (reference §2.3)."""
        return None not in (self.grid, self.buffer, self.memory_layout, self.tiled)

    def matches(self, info: Any) -> bool:
        """Does a candidate layout (`LayoutInfo`) agree with every given field?"""
        if self.buffer is not None and info.buffer is not self.buffer:
            return False
        if self.memory_layout is not None and info.memory_layout is not self.memory_layout:
            return False
        if self.tiled is not None and info.tiled is not self.tiled:
            return False
        if self.grid is not None and info.grid != self.grid:
            return False
        return self.dtype is None or info.dtype is self.dtype

    def text(self) -> str:
        """The entry as the user would write it."""
        parts = []
        if self.grid is not None:
            parts.append(f"{self.grid[0]}x{self.grid[1]}")
        for v in (self.buffer, self.memory_layout):
            if v is not None:
                parts.append(v.value)
        if self.tiled is not None:
            parts.append("tile" if self.tiled else "row_major")
        if self.dtype is not None:
            parts.append(self.dtype.value)
        return f"{self.name}={':'.join(parts)}"


@dataclass(frozen=True, slots=True)
class MemReconfigOverride:
    """`insert-memreconfig`: reshard these operand indices of op `name`."""

    name: str
    operands: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Conv2dConfigOverride:
    """`override-conv2d-config`: conv2d_config keys for op `name`."""

    name: str
    values: tuple[tuple[str, str], ...]


def override_entries(option: str, values: Iterable[str], form: str = "NAME=VALUE") -> list[tuple[str, str]]:
    """`NAME=body` items of a list option (each value may itself hold comma-separated items)."""
    out: list[tuple[str, str]] = []
    seen: set[str] = set()
    for value in values:
        for item in (p.strip() for p in str(value).split(",")):
            if not item:
                continue
            name, eq, body = item.partition("=")
            name = name.strip().strip('"')
            if not eq or not name or not body.strip():
                raise OverrideError(f"--{option}: expected {form}, got '{item}'")
            if name in seen:
                raise OverrideError(f"--{option}: op '{name}' is overridden twice")
            seen.add(name)
            out.append((name, body.strip()))
    return out


def parse_output_layout_overrides(values: Iterable[str]) -> dict[str, OutputLayoutOverride]:
    """Parse `override-output-layout` values (reference §2.14)."""
    out: dict[str, OutputLayoutOverride] = {}
    buffers = {b.value: b for b in BufferType}
    layouts = {m.value: m for m in TensorMemoryLayout if m is not TensorMemoryLayout.ND_SHARDED}
    for name, body in override_entries("override-output-layout", values):
        fields: dict[str, Any] = {}

        def put(kind: str, value: Any, part: str, name: str = name) -> None:
            if kind in fields:
                raise OverrideError(f"--override-output-layout: '{name}' gives the {kind} twice ('{part}')")
            fields[kind] = value

        for part in (p.strip() for p in body.split(":")):
            m = _GRID.fullmatch(part)
            if m:
                g = (int(m.group(1)), int(m.group(2)))
                if min(g) <= 0:
                    raise OverrideError(f"--override-output-layout: '{name}': grid dimensions must be positive, got '{part}'")
                put("grid", g, part)
            elif part in buffers:
                put("buffer", buffers[part], part)
            elif part in layouts:
                put("memory_layout", layouts[part], part)
            elif part in _PAGE:
                put("tiled", _PAGE[part], part)
            else:
                try:
                    dt = DataType.of(part)
                except Exception:  # noqa: BLE001  (AttrError and friends: an unknown word)
                    raise OverrideError(
                        f"--override-output-layout: '{name}': unknown part '{part}' (expected a grid like 8x8, "
                        f"a buffer {'/'.join(buffers)}, a memory layout {'/'.join(layouts)}, tile/row_major, or a dtype)"
                    ) from None
                put("dtype", dt, part)
        out[name] = OutputLayoutOverride(name, **fields)
    return out


def parse_mem_reconfig_overrides(values: Iterable[str]) -> dict[str, MemReconfigOverride]:
    """Parse `insert-memreconfig` values: `NAME=0:1`."""
    out: dict[str, MemReconfigOverride] = {}
    for name, body in override_entries("insert-memreconfig", values):
        idx = []
        for part in (p.strip() for p in body.split(":")):
            if not part.isdigit():
                raise OverrideError(f"--insert-memreconfig: '{name}': operand indices must be integers, got '{part}'")
            if int(part) in idx:
                raise OverrideError(f"--insert-memreconfig: '{name}': operand {part} given twice")
            idx.append(int(part))
        out[name] = MemReconfigOverride(name, tuple(idx))
    return out


def parse_conv2d_config_overrides(values: Iterable[str]) -> dict[str, Conv2dConfigOverride]:
    """Parse `override-conv2d-config` values: `NAME=key#value:key#value`."""
    out: dict[str, Conv2dConfigOverride] = {}
    for name, body in override_entries("override-conv2d-config", values):
        kv: dict[str, str] = {}
        for part in (p.strip() for p in body.split(":")):
            key, hash_, value = part.partition("#")
            if not hash_ or not key or not value:
                raise OverrideError(f"--override-conv2d-config: '{name}': expected key#value, got '{part}'")
            if key not in CONV2D_KEYS:
                raise OverrideError(f"--override-conv2d-config: '{name}': unknown key '{key}' (expected one of {', '.join(CONV2D_KEYS)})")
            if key in kv:
                raise OverrideError(f"--override-conv2d-config: '{name}': key '{key}' given twice")
            kv[key] = value
        out[name] = Conv2dConfigOverride(name, tuple(kv.items()))
    return out


def check_names(option: str, names: Iterable[str], known: set[str]) -> None:
    """Every overridden name must be an op's NameLoc name (reference §2.0: fatal otherwise)."""
    unknown = sorted(n for n in names if n not in known)
    if unknown:
        hint = ", ".join(sorted(known)[:8]) + (", ..." if len(known) > 8 else "")
        raise OverrideError(
            f"--{option}: no op named {', '.join(repr(n) for n in unknown)} in the forward functions"
            + (f" (op names: {hint})" if known else " (no op has a loc(\"name\") location)")
        )
