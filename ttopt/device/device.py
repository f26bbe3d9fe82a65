"""The device: worker grid, L1/DRAM sizes and the usable-L1 budget (OP-MODEL.md §1).

A Device comes from the module's `ttcore.system_desc` (chip 0) when there is one, else from a
`--device` preset (`wormhole_b0`, `n150`, `blackhole`) or a file holding a system desc (`.mlir`,
or YAML/JSON with the chip fields). The L1 budget follows reference §2.13 exactly:
`usable = floor(cap * (l1_size - l1_unreserved_base)) - reserved`.
"""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass, field, replace
from typing import Any, Mapping

from ttopt.datafiles import DataFileError, load_yaml, read_text
from ttopt.device.limits import LimitError, check_limits
from ttopt.device.presets import CHIP_PRESETS, COST_TABLE, DEFAULT_L1_USAGE_CAP, DEFAULT_PRESET, cost_arch

CAP_ATTR = "ttnn.tensor_l1_usage_cap"
RESERVED_ATTR = "ttnn.l1_const_eval_usage"
SYSTEM_DESC_ATTR = "ttcore.system_desc"
# What the device model cannot do without (same list as the system-desc parser's CHIP_REQUIRED).
REQUIRED_FIELDS = ("arch", "grid", "l1_size", "num_dram_channels", "dram_channel_size", "l1_unreserved_base")


class DeviceError(ValueError):
    """A device that cannot be built: unknown preset, incomplete system desc, bad cap.

    `usage` is True when the problem is in a command-line value (exit 2), False when it is in the
    input file (exit 1).
    """

    def __init__(self, message: str, usage: bool = True, pos: Any = None) -> None:
        super().__init__(message)
        self.message = message
        self.usage = usage
        self.pos = pos  # SourcePos of the system desc the message is about, when there is one


@dataclass(frozen=True)
class Device:
    """One chip as the op model sees it; hashable, so it can key caches."""

    name: str
    arch: str
    worker_grid: tuple[int, int]
    l1_size: int
    l1_unreserved_base: int
    num_dram_channels: int
    dram_channel_size: int
    dram_grid: tuple[int, int] = (1, 12)
    dst_physical_size_tiles: int = 16
    l1_usage_cap: float = DEFAULT_L1_USAGE_CAP
    l1_reserved: int = 0
    source: str = ""
    usable_l1: int = field(init=False, compare=False)

    def __post_init__(self) -> None:
        if len(self.worker_grid) != 2 or min(self.worker_grid) <= 0:
            raise DeviceError(f"worker grid must be 2-D and positive, got {self.worker_grid}")
        try:
            check_limits(self.worker_grid, self.dram_grid, self.l1_size, self.num_dram_channels, self.dram_channel_size,
                         self.dst_physical_size_tiles)  # fmt: skip
        except LimitError as e:
            raise DeviceError(str(e)) from None
        if not 0 <= self.l1_unreserved_base < self.l1_size:
            raise DeviceError(f"l1_unreserved_base {self.l1_unreserved_base} must be below l1_size {self.l1_size}")
        check_cap(self.l1_usage_cap)
        if self.l1_reserved < 0:
            raise DeviceError(f"{RESERVED_ATTR} must be >= 0, got {self.l1_reserved}", usage=False)
        if self.l1_reserved > self.l1_size - self.l1_unreserved_base:
            raise DeviceError(
                f"{RESERVED_ATTR} {self.l1_reserved} exceeds the {self.l1_size - self.l1_unreserved_base} B of L1 per core",
                usage=False,
            )
        # Reference §2.13: floor(cap * (l1_size - l1_unreserved_base)) - const-eval reservation.
        usable = math.floor(self.l1_usage_cap * (self.l1_size - self.l1_unreserved_base)) - self.l1_reserved
        object.__setattr__(self, "usable_l1", usable)

    @property
    def num_cores(self) -> int:
        """Worker cores (grid rows x cols)."""
        return self.worker_grid[0] * self.worker_grid[1]

    @property
    def l1_per_core(self) -> int:
        """L1 bytes per core available to tensors and CBs before the cap (l1_size - unreserved base)."""
        return self.l1_size - self.l1_unreserved_base

    @property
    def max_subblock(self) -> int:
        """Largest out_subblock_h * out_subblock_w of a matmul (half the DST register, ref §2.4)."""
        return max(1, self.dst_physical_size_tiles // 2)

    def cost_param(self, name: str) -> float:
        """The value of cost-table row `name` for this chip's architecture."""
        return getattr(COST_TABLE[name], cost_arch(self.arch))

    def with_budget(self, cap: float | None = None, reserved: int | None = None) -> Device:
        """The same chip with another L1 usage cap and/or const-eval reservation."""
        return replace(
            self,
            l1_usage_cap=self.l1_usage_cap if cap is None else cap,
            l1_reserved=self.l1_reserved if reserved is None else reserved,
        )

    def describe(self) -> str:
        """One line: name, grid, L1 budget."""
        r, c = self.worker_grid
        return (
            f"{self.name} ({self.arch}, {r}x{c} cores, L1 {self.l1_size} B, unreserved base {self.l1_unreserved_base}, "
            f"cap {self.l1_usage_cap:g} -> usable {self.usable_l1} B/core)"
        )


def check_cap(cap: float, what: str = "tensor L1 usage cap", usage: bool = True) -> float:
    """`cap` if it lies in (0, 1] (OP-MODEL §1), else a DeviceError naming it."""
    if not isinstance(cap, (int, float)) or math.isnan(cap) or not 0 < cap <= 1:
        raise DeviceError(f"{what} must be in (0, 1], got {cap}", usage=usage)
    return float(cap)


def check_device_options(spec: str | None, cap: float | None, max_legal_layouts: int | None = None) -> Device | None:
    """Check the device flags shared by `opt --ttnn-optimizer`, `layouts` and `analyze` before any
    input is read (DeviceError, always a usage error); the `--device` Device when one is given."""
    if max_legal_layouts is not None and max_legal_layouts < 0:
        raise DeviceError(f"--max-legal-layouts must be >= 0, got {max_legal_layouts}")
    if cap is not None:
        check_cap(cap, "--tensor-l1-usage-cap")
    if not spec:
        return None
    try:
        return load_device(spec)
    except DeviceError as e:
        where = ""
        if e.pos is not None:  # a usage error is one line: the file position goes in front
            line, col = e.pos.source.line_col(e.pos.offset)
            where = f"{e.pos.source.name}:{line}:{col}: "
        raise DeviceError(f"--device: {where}{e.message}") from None


def preset(name: str) -> Device:
    """The Device of a named preset, with the default cap."""
    p = CHIP_PRESETS.get(name)
    if p is None:
        raise DeviceError(f"unknown device preset '{name}' (expected {', '.join(CHIP_PRESETS)} or a system-desc file)")
    return Device(
        name=p.name, arch=p.arch, worker_grid=p.grid, l1_size=p.l1_size, l1_unreserved_base=p.l1_unreserved_base,
        num_dram_channels=p.num_dram_channels, dram_channel_size=p.dram_channel_size, dram_grid=p.dram_grid,
        dst_physical_size_tiles=p.dst_physical_size_tiles, source=f"preset {p.name}",
    )  # fmt: skip


def from_chip_desc(chip: Any, name: str, source: str) -> Device:
    """A Device from a typed `ChipDesc` (of a parsed `#ttcore.system_desc`)."""
    dram_grid = tuple(chip.dram_grid) if chip.dram_grid else (1, chip.num_dram_channels)
    return Device(
        name=name, arch=chip.arch.value, worker_grid=(chip.grid[0], chip.grid[1]), l1_size=chip.l1_size,
        l1_unreserved_base=chip.l1_unreserved_base, num_dram_channels=chip.num_dram_channels,
        dram_channel_size=chip.dram_channel_size, dram_grid=(dram_grid[0], dram_grid[-1]),
        dst_physical_size_tiles=chip.dst_physical_size_tiles or 16, source=source,
    )  # fmt: skip


def from_mapping(data: Mapping[str, Any], source: str) -> Device:
    """A Device from YAML/JSON chip fields: top level, or `chip_descs: [...]` (chip 0)."""
    if not isinstance(data, Mapping):
        raise DeviceError(f"{source}: expected a mapping of system-desc fields")
    chip = data
    if "system_desc" in chip and isinstance(chip["system_desc"], Mapping):
        chip = chip["system_desc"]
    if "chip_descs" in chip:
        descs = chip["chip_descs"]
        if not isinstance(descs, list) or not descs or not isinstance(descs[0], Mapping):
            raise DeviceError(f"{source}: chip_descs must be a non-empty list of mappings")
        chip = descs[0]
    missing = [k for k in REQUIRED_FIELDS if k not in chip]
    if missing:
        raise DeviceError(f"{source}: system desc is missing required field(s) {', '.join(repr(k) for k in missing)}")

    def grid(key: str, default: tuple[int, int] | None = None) -> tuple[int, int]:
        v = chip.get(key, default)
        if isinstance(v, str):
            parts = v.lower().split("x")
        elif isinstance(v, (list, tuple)):
            parts = list(v)
        else:
            parts = []
        # Only integers (or their digits): int() would take True as 1 and 1.5 as 1 silently.
        ok = all((isinstance(p, int) and not isinstance(p, bool)) or (isinstance(p, str) and p.strip().isascii() and p.strip().isdigit()) for p in parts)
        g = tuple(int(p) for p in parts) if ok else ()
        if len(g) != 2 or min(g) <= 0:
            raise DeviceError(f"{source}: {key} must be RxC (e.g. 8x8), got {v!r}")
        return (g[0], g[1])

    def integer(key: str, default: int | None = None) -> int:
        v = chip.get(key, default)
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise DeviceError(f"{source}: {key} must be a non-negative integer, got {v!r}")
        return v

    arch = str(chip["arch"]).strip("<>")
    if arch not in ("wormhole_b0", "blackhole", "grayskull"):
        raise DeviceError(f"{source}: unknown arch {arch!r}")
    try:
        return _mapping_device(chip, arch, source, grid, integer)
    except DeviceError as e:
        raise DeviceError(e.message if e.message.startswith(f"{source}: ") else f"{source}: {e.message}") from None


def _mapping_device(chip: Mapping[str, Any], arch: str, source: str, grid: Any, integer: Any) -> Device:
    return Device(
        name=os.path.basename(source), arch=arch, worker_grid=grid("grid"), l1_size=integer("l1_size"),
        l1_unreserved_base=integer("l1_unreserved_base"), num_dram_channels=integer("num_dram_channels"),
        dram_channel_size=integer("dram_channel_size"),
        dram_grid=grid("dram_grid", (1, integer("num_dram_channels"))),
        dst_physical_size_tiles=integer("dst_physical_size_tiles", 16), source=source,
    )  # fmt: skip


def system_desc_of(module: Any) -> Any:
    """The (unresolved) `ttcore.system_desc` attribute of the module or a nested module, or None."""
    found = _system_desc_site(module)
    return found[1] if found is not None else None


def _system_desc_site(module: Any) -> tuple[Any, Any] | None:
    for op in module.op.walk():
        if op.name != "builtin.module":
            continue
        attr = op.attributes.get(SYSTEM_DESC_ATTR) or op.properties.get(SYSTEM_DESC_ATTR)
        if attr is not None:
            return op, attr
    return None


def _desc_body_offset(module: Any, op: Any, attr: Any) -> int | None:
    """Offset in the source of the system desc's body (after `#ttcore.system_desc<`), else of
    the attribute entry; None without a source. An alias points at its definition."""
    source = getattr(module, "source", None)
    text = getattr(source, "text", None)
    if not isinstance(text, str):
        return None
    start = None
    name = getattr(attr, "name", None)
    if attr.text.startswith("#") and isinstance(name, str) and not attr.text.startswith(f"#{SYSTEM_DESC_ATTR}"):
        d = module.aliases.defs.get(("attr", name))
        start = d.pos if d is not None and isinstance(d.pos, int) else None
    elif isinstance(op.pos, int):
        i = text.find(SYSTEM_DESC_ATTR, op.pos)
        start = i if i >= 0 else op.pos
    if start is None:
        return None
    opener = f"#{SYSTEM_DESC_ATTR}<"
    j = text.find(opener, start)
    # Only the body of this very attribute: nothing but the alias name / key may come before it.
    if j < 0 or "\n" in text[start:j]:
        return start
    return j + len(opener)


def _desc_error(module: Any, op: Any, attr: Any, message: str, offset: int | None = None, field_name: str = "") -> DeviceError:
    """A DeviceError about the module's system desc, positioned at it (or at its bad field)."""
    from ttopt.ir.diagnostics import SourcePos

    base = _desc_body_offset(module, op, attr)
    pos = None
    if base is not None:
        text = module.source.text
        at = base
        if offset is not None:
            at = base + offset
        elif field_name and text.startswith(f"#{SYSTEM_DESC_ATTR}<", base - len(SYSTEM_DESC_ATTR) - 2):
            m = re.compile(rf"(?<![\w]){re.escape(field_name)}\s*=").search(text, base)
            if m is not None:
                at = m.start()
        pos = SourcePos(module.source, min(at, len(text)))
    return DeviceError(f"{SYSTEM_DESC_ATTR}: {message}", usage=False, pos=pos)


def from_module_desc(module: Any, source: str = "module") -> Device | None:
    """A Device from the module's system desc (chip 0), None when the module has none.

    Errors carry the position of the attribute (of its bad field where known).
    """
    from ttopt.dialects.errors import AttrError

    site = _system_desc_site(module)
    if site is None:
        return None
    op, attr = site
    try:
        # Only a dialect attribute has a typed form: a string or number here is not a system desc.
        desc = getattr(attr.resolve(), "typed", None)
    except AttrError as e:
        raise _desc_error(module, op, attr, e.message, e.offset) from None
    except KeyError as e:
        raise _desc_error(module, op, attr, f"undefined alias {e}") from None
    if desc is None or not hasattr(desc, "chip"):
        raise _desc_error(module, op, attr, f"{attr.text} is not a #ttcore.system_desc")
    chip = desc.chip(0)
    try:
        check_limits(tuple(chip.grid), tuple(chip.dram_grid) if chip.dram_grid else None, chip.l1_size,
                     chip.num_dram_channels, chip.dram_channel_size, chip.dst_physical_size_tiles)  # fmt: skip
        return from_chip_desc(chip, f"{chip.arch.value} (from {source})", f"system desc of {source}")
    except LimitError as e:
        raise _desc_error(module, op, attr, str(e), field_name=e.field) from None
    except DeviceError as e:
        raise _desc_error(module, op, attr, e.message) from None


def from_file(path: str) -> Device:
    """A Device from a system-desc file: `.mlir` (module attribute) or YAML/JSON chip fields."""
    try:
        text = read_text(path)
    except DataFileError as e:
        raise DeviceError(f"cannot read device file '{path}': {e.detail[len('cannot read: '):]}" if e.detail.startswith("cannot read") else str(e)) from None
    if path.endswith(".mlir"):
        from ttopt.ir.diagnostics import Diagnostic
        from ttopt.parse.parser import parse_module

        try:
            module = parse_module(text, path)
        except Diagnostic as d:
            raise DeviceError(d.render(path).splitlines()[0].replace(": error: ", ": ", 1)) from None  # one line
        dev = from_module_desc(module, path)
        if dev is None:
            raise DeviceError(f"device file '{path}' has no {SYSTEM_DESC_ATTR} module attribute")
        return dev
    return from_mapping(_load_yaml(text, path), path)


def _load_yaml(text: str, path: str) -> Any:
    """YAML/JSON chip fields (ttopt/datafiles.py: duplicate keys, deep nesting are errors)."""
    try:
        return load_yaml(text, path)
    except DataFileError as e:
        raise DeviceError(str(e)) from None


def _module_attr_pos(module: Any, key: str) -> Any:
    """Where module attribute `key` is written (for diagnostics), None without a source."""
    from ttopt.ir.diagnostics import SourcePos

    text = getattr(getattr(module, "source", None), "text", None)
    start = module.op.pos
    if not isinstance(text, str) or not isinstance(start, int):
        return None
    i = text.find(key, start)
    return SourcePos(module.source, i if i >= 0 else start)


def _module_float(module: Any, key: str) -> float | None:
    a = module.op.attributes.get(key)
    if a is None:
        return None
    a = a.resolve()
    v = getattr(a, "value", None)
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise DeviceError(f"module attribute {key} must be a number, got {a.text}", usage=False, pos=_module_attr_pos(module, key))
    return float(v)


def load_device(
    spec: str | None = None,
    module: Any = None,
    cap: float | None = None,
    reserved: int | None = None,
) -> Device:
    """The device for a run (OP-MODEL.md §1).

    Chip: the module's `ttcore.system_desc` (chip 0) when present, else `spec` (a preset name or a
    file path; default wormhole_b0). Cap: `cap`, else the module attribute
    `ttnn.tensor_l1_usage_cap`, else 1.0. Reservation: `reserved`, else the module attribute
    `ttnn.l1_const_eval_usage`, else 0. Raises DeviceError.
    """
    if cap is not None:
        check_cap(cap, "--tensor-l1-usage-cap")
    dev = from_module_desc(module) if module is not None else None
    if dev is None:
        name = spec or DEFAULT_PRESET
        if name in CHIP_PRESETS:
            dev = preset(name)
        elif os.path.exists(name):
            dev = from_file(name)
        elif os.sep in name or name.endswith((".mlir", ".yaml", ".yml", ".json")):
            raise DeviceError(f"device file '{name}' does not exist")
        else:
            dev = preset(name)  # raises "unknown device preset"
    if cap is None and module is not None:
        mcap = _module_float(module, CAP_ATTR)
        if mcap is not None:
            try:
                cap = check_cap(mcap, f"module attribute {CAP_ATTR}", usage=False)
            except DeviceError as e:
                raise DeviceError(e.message, usage=False, pos=_module_attr_pos(module, CAP_ATTR)) from None
    if reserved is None and module is not None:
        r = _module_float(module, RESERVED_ATTR)
        if r is not None:
            if r < 0 or r != int(r):
                raise DeviceError(f"module attribute {RESERVED_ATTR} must be a non-negative integer, got {r:g}", usage=False,
                                  pos=_module_attr_pos(module, RESERVED_ATTR))  # fmt: skip
            reserved = int(r)
    try:
        return dev.with_budget(cap=cap if cap is not None else DEFAULT_L1_USAGE_CAP, reserved=reserved or 0)
    except DeviceError as e:
        pos = _module_attr_pos(module, RESERVED_ATTR) if module is not None and reserved else None
        raise DeviceError(e.message, usage=e.usage and module is None, pos=pos) from None
