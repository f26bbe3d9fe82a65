"""Typed ttcore attributes and types: data types, tiles, grids, meshes, enums, system desc, device.

Syntax follows reference/ttnn-optimizer-upstream.md §1.4 and stablehlo-pipeline-upstream.md §1.6;
the enum spellings follow seed 004 §3-4. Bodies are cut by `ttopt.parse.attr_body`.
"""

from __future__ import annotations

import re
from enum import StrEnum
from functools import lru_cache
from typing import Any, Callable, ClassVar, Iterable, Mapping, Sequence

from pydantic import field_validator, model_validator

from ttopt.dialects.errors import AttrError, attr_errors
from ttopt.dialects.model import DialectModel, body_of, register_attr
from ttopt.ir.attributes import quote, unquote
from ttopt.ir.types import DIALECT_TYPE_FACTORIES, OpaqueType
from ttopt.parse.attr_body import Part, keyword, params, parse_int, parse_shape, shape_text, unwrap, unwrap_attr

# ---------------------------------------------------------------------------------------------
# Data types and tiles (ref §1.2: tile byte sizes; §1.4).


class DataType(StrEnum):
    """ttcore DataType, spelled as in `!ttcore.tile<32x32, bf16>` and `supported_data_types`."""

    F32 = "f32"
    F16 = "f16"
    BF16 = "bf16"
    BFP_F8 = "bfp_f8"
    BFP_BF8 = "bfp_bf8"
    BFP_F4 = "bfp_f4"
    BFP_BF4 = "bfp_bf4"
    BFP_F2 = "bfp_f2"
    BFP_BF2 = "bfp_bf2"
    U32 = "u32"
    U16 = "u16"
    U8 = "u8"
    SI32 = "si32"

    @property
    def is_bfp(self) -> bool:
        """Block floating point: mantissas per element, one shared exponent byte per 16 elements."""
        return self.value.startswith("bfp_")

    @property
    def element_bits(self) -> int:
        """Storage bits per element (bfp: mantissa bits only)."""
        return _ELEMENT_BITS[self]

    @property
    def element_bytes(self) -> int:
        """Bytes per element of a row-major buffer (bfp types round up to one byte)."""
        return max(1, _ELEMENT_BITS[self] // 8)

    def tile_bytes(self, height: int = 32, width: int = 32) -> int:
        """Bytes of one tile: bf16 2048, f32 4096, bfp_bf8 1088, bfp_bf4 576, bfp_bf2 320 (ref §1.2)."""
        n = height * width
        if self.is_bfp:
            return n * _ELEMENT_BITS[self] // 8 + n // 16
        return n * _ELEMENT_BITS[self] // 8

    @property
    def builtin(self) -> str | None:
        """The builtin MLIR scalar type of this data type (`ui32` for u32), None for bfp types."""
        return _TO_BUILTIN.get(self)

    @classmethod
    def of(cls, value: DataType | str) -> DataType:
        """A DataType from its name or from a builtin scalar type name (`ui32`, `i32`, `bf16`)."""
        if isinstance(value, DataType):
            return value
        dt = _FROM_BUILTIN.get(value)
        if dt is None:
            try:
                dt = cls(value)
            except ValueError:
                raise AttrError(f"no ttcore data type for '{value}'") from None
        return dt


_ELEMENT_BITS = {
    DataType.F32: 32, DataType.F16: 16, DataType.BF16: 16,
    DataType.BFP_F8: 8, DataType.BFP_BF8: 8, DataType.BFP_F4: 4, DataType.BFP_BF4: 4,
    DataType.BFP_F2: 2, DataType.BFP_BF2: 2,
    DataType.U32: 32, DataType.U16: 16, DataType.U8: 8, DataType.SI32: 32,
}  # fmt: skip
_TO_BUILTIN = {
    DataType.F32: "f32", DataType.F16: "f16", DataType.BF16: "bf16",
    DataType.U32: "ui32", DataType.U16: "ui16", DataType.U8: "ui8", DataType.SI32: "si32",
}  # fmt: skip
_FROM_BUILTIN = {v: k for k, v in _TO_BUILTIN.items()} | {"i32": DataType.SI32}


def scalar_bytes(name: str) -> int:
    """Bytes per element of a builtin scalar type spelled `name` (`bf16` 2, `ui32` 4, `i1` 1)."""
    if name in ("bf16", "f16"):
        return 2
    m = re.fullmatch(r"(?:[su]?i|f)(\d+)", name)
    if m is None:
        dt = _FROM_BUILTIN.get(name) or (DataType(name) if name in DataType._value2member_map_ else None)
        if dt is None:
            raise AttrError(f"unknown element type '{name}'")
        return dt.element_bytes
    return max(1, (int(m.group(1)) + 7) // 8)


class TileType(DialectModel):
    """`!ttcore.tile<32x32, bf16>` (a dialect type; also accepted: `32 x 32`)."""

    attr_name: ClassVar[str] = "ttcore.tile"

    shape: tuple[int, int] = (32, 32)
    dtype: DataType

    @field_validator("shape")
    @classmethod
    def _positive(cls, v: tuple[int, int]) -> tuple[int, int]:
        if v[0] <= 0 or v[1] <= 0:
            raise ValueError(f"tile dimensions must be positive, got {v[0]}x{v[1]}")
        return v

    def print_body(self) -> str:
        """`32x32, bf16`."""
        return f"{self.shape[0]}x{self.shape[1]}, {self.dtype.value}"

    @property
    def text(self) -> str:
        """`!ttcore.tile<32x32, bf16>`."""
        return f"!ttcore.tile<{self.print_body()}>"

    @property
    def size_bytes(self) -> int:
        """Bytes of one tile of this data type."""
        return self.dtype.tile_bytes(*self.shape)

    def to_type(self) -> OpaqueType:
        """This tile as an IR type."""
        t = OpaqueType(self.text, self.attr_name, self.print_body())
        t._typed = self
        return t

    @classmethod
    @lru_cache(maxsize=256)
    def parse(cls, body: str) -> TileType:
        """Parse `32x32, bf16`."""
        parts = params(body)
        if len(parts) != 2:
            raise AttrError(f"expected '<HxW, dtype>' for !ttcore.tile, got '{body}'")
        shape = parse_shape(parts[0], "tile shape")
        if len(shape) != 2:
            raise AttrError(f"tile shape must be 2-D, got '{parts[0].text}'", parts[0].offset)
        with attr_errors("!ttcore.tile"):
            return cls(shape=shape, dtype=DataType(parts[1].text))


# ---------------------------------------------------------------------------------------------
# Enum attributes (seed 004 §3-4; ref stablehlo §1.6).


class ArgumentType(StrEnum):
    INPUT = "input"
    PARAMETER = "parameter"
    CONSTANT = "constant"
    DEFAULT = "default"


class ShardStatus(StrEnum):
    SHARDED = "sharded"
    UNSHARDED = "unsharded"
    # Spelling on the 72cb branch (ref stablehlo §1.1); means the same as `sharded`.
    PRESHARDED = "presharded"


class MeshShardType(StrEnum):
    IDENTITY = "identity"
    REPLICATE = "replicate"
    MAXIMAL = "maximal"
    DEVICES = "devices"


class MeshShardDirection(StrEnum):
    FULL_TO_SHARD = "full_to_shard"
    SHARD_TO_FULL = "shard_to_full"


class ReduceType(StrEnum):
    SUM = "sum"
    MEAN = "mean"
    MAX = "max"
    MIN = "min"
    STD = "std"
    VAR = "var"


class Arch(StrEnum):
    GRAYSKULL = "grayskull"
    WORMHOLE_B0 = "wormhole_b0"
    BLACKHOLE = "blackhole"


class EnumAttr(DialectModel):
    """Base of `#dialect.name<value>` attributes holding one enum value."""

    value: Any

    def print_body(self) -> str:
        """The enum spelling."""
        return self.value.value

    @classmethod
    @lru_cache(maxsize=64)
    def parse(cls, body: str) -> Any:
        """Parse the enum spelling."""
        with attr_errors(f"#{cls.attr_name}"):
            return cls(value=body.strip())


class ArgumentTypeAttr(EnumAttr):
    """`#ttcore.argument_type<input|parameter|constant|default>`."""

    attr_name: ClassVar[str] = "ttcore.argument_type"
    value: ArgumentType


class ShardStatusAttr(EnumAttr):
    """`#ttcore.shard_status<sharded|unsharded|presharded>` (presharded printed as written)."""

    attr_name: ClassVar[str] = "ttcore.shard_status"
    value: ShardStatus

    @property
    def is_sharded(self) -> bool:
        """True for `sharded` and its alias `presharded`."""
        return self.value is not ShardStatus.UNSHARDED


class MeshShardTypeAttr(EnumAttr):
    """`#ttcore.shard_type<identity|replicate|maximal|devices>`."""

    attr_name: ClassVar[str] = "ttcore.shard_type"
    value: MeshShardType


class MeshShardDirectionAttr(EnumAttr):
    """`#ttcore.shard_direction<full_to_shard|shard_to_full>`."""

    attr_name: ClassVar[str] = "ttcore.shard_direction"
    value: MeshShardDirection


class ReduceTypeAttr(EnumAttr):
    """`#ttcore.reduce_type<sum|mean|max|min|std|var>`."""

    attr_name: ClassVar[str] = "ttcore.reduce_type"
    value: ReduceType


class DataTypeAttr(EnumAttr):
    """`#ttcore.supportedDataTypes<bf16>` (a data type as an op attribute)."""

    attr_name: ClassVar[str] = "ttcore.supportedDataTypes"
    value: DataType


# ---------------------------------------------------------------------------------------------
# Grid and meshes.


class GridAttr(DialectModel):
    """`#ttcore.grid<8x8[, virt_to_physical_map = ..., ...]>`; the mapping parts are kept as text."""

    attr_name: ClassVar[str] = "ttcore.grid"

    shape: tuple[int, ...]
    mapping: tuple[str, ...] = ()

    @field_validator("shape")
    @classmethod
    def _shape(cls, v: tuple[int, ...]) -> tuple[int, ...]:
        if not v or any(d <= 0 for d in v):
            raise ValueError(f"grid dimensions must be positive, got {shape_text(v) or 'nothing'}")
        return v

    def print_body(self) -> str:
        """`8x8, virt_to_physical_map = ...`."""
        return ", ".join((shape_text(self.shape), *self.mapping))

    @property
    def volume(self) -> int:
        """Number of cores."""
        n = 1
        for d in self.shape:
            n *= d
        return n

    @classmethod
    @lru_cache(maxsize=64)
    def parse(cls, body: str) -> GridAttr:
        """Parse `8x8[, ...]`."""
        parts = params(body)
        if not parts:
            raise AttrError("#ttcore.grid needs a shape")
        with attr_errors("#ttcore.grid"):
            return cls(shape=parse_shape(parts[0], "grid shape"), mapping=tuple(p.text for p in parts[1:]))


class TTCoreMesh(DialectModel):
    """One `<"mesh" = 1x8>` entry of `#ttcore.meshes`."""

    name: str
    shape: tuple[int, ...]

    @field_validator("shape")
    @classmethod
    def _shape(cls, v: tuple[int, ...]) -> tuple[int, ...]:
        if not v or any(d <= 0 for d in v):
            raise ValueError("mesh dimensions must be positive")
        return v

    def print_body(self) -> str:
        """`"mesh" = 1x8`."""
        return f"{quote(self.name)} = {shape_text(self.shape)}"


_MESH_ENTRY = re.compile(r'<\s*("[^"\\\n]*(?:\\.[^"\\\n]*)*")\s*=\s*(\d+(?:\s*x\s*\d+)*)\s*>', re.S)


class MeshesAttr(DialectModel):
    """`#ttcore.meshes<[<"mesh" = 1x8>, ...]>`."""

    attr_name: ClassVar[str] = "ttcore.meshes"

    meshes: tuple[TTCoreMesh, ...] = ()

    @model_validator(mode="after")
    def _unique(self) -> MeshesAttr:
        names = [m.name for m in self.meshes]
        if len(set(names)) != len(names):
            raise ValueError(f"duplicate mesh name in {names}")
        return self

    def print_body(self) -> str:
        """`[<"mesh" = 1x8>]`."""
        return "[" + ", ".join(f"<{m.print_body()}>" for m in self.meshes) + "]"

    def get(self, name: str) -> TTCoreMesh | None:
        """The mesh called `name`, or None."""
        return next((m for m in self.meshes if m.name == name), None)

    @classmethod
    def of(cls, meshes: Mapping[str, Sequence[int]] | Iterable[tuple[str, Sequence[int]]]) -> MeshesAttr:
        """Build from `{"mesh": (1, 8)}` or `[("mesh", (1, 8))]`."""
        items = meshes.items() if isinstance(meshes, Mapping) else meshes
        with attr_errors("#ttcore.meshes"):
            return cls(meshes=tuple(TTCoreMesh(name=n, shape=tuple(s)) for n, s in items))

    @classmethod
    @lru_cache(maxsize=64)
    def parse(cls, body: str) -> MeshesAttr:
        """Parse `[<"mesh" = 1x8>, ...]`."""
        inner = unwrap(Part(body.strip(), 0), "[", "]", "a mesh list")
        out = []
        for p in params(inner.text, inner.offset):
            m = _MESH_ENTRY.fullmatch(p.text)
            if m is None:
                raise AttrError(f"expected <\"name\" = RxC>, got '{p.text}'", p.offset)
            out.append((unquote(m.group(1)), parse_shape(Part(m.group(2), p.offset))))
        return cls.of(out)


# ---------------------------------------------------------------------------------------------
# System descriptor (ref §1.4). Fields are printed in tt-mlir's fixed order; printer quirks such as
# the leading space of every `supported_tile_sizes` / chip-coordinate entry are reproduced.


class CpuDesc(DialectModel):
    """`{role = host, target_triple = "x86_64-pc-linux-gnu"}`."""

    role: str = "host"
    target_triple: str = "x86_64-pc-linux-gnu"

    def print_body(self) -> str:
        """`{role = host, target_triple = "..."}`."""
        return f"{{role = {self.role}, target_triple = {quote(self.target_triple)}}}"


def _p_arch(p: Part) -> Arch:
    inner = unwrap(p, "<", ">", "an arch")
    try:
        return Arch(inner.text)
    except ValueError:
        raise AttrError(f"unknown arch '{inner.text}'", inner.offset) from None


def _p_dtypes(p: Part) -> tuple[DataType, ...]:
    inner = unwrap(p, "[", "]", "a data type list")
    out = []
    for q in params(inner.text, inner.offset):
        d = unwrap(q, "<", ">", "a data type")
        try:
            out.append(DataType(d.text))
        except ValueError:
            raise AttrError(f"unknown data type '{d.text}'", d.offset) from None
    return tuple(out)


def _p_shapes(p: Part) -> tuple[tuple[int, ...], ...]:
    inner = unwrap(p, "[", "]", "a shape list")
    return tuple(parse_shape(q) for q in params(inner.text, inner.offset))


_COORD = re.compile(r"\(\s*(-?\d+)\s*,\s*(-?\d+)\s*\)")


def _p_coords(p: Part) -> tuple[tuple[int, int], ...]:
    inner = unwrap(p, "[", "]", "a coordinate list")
    out = []
    for q in params(inner.text, inner.offset):
        m = _COORD.fullmatch(q.text)
        if m is None:
            raise AttrError(f"expected a coordinate (a, b), got '{q.text}'", q.offset)
        out.append((int(m.group(1)), int(m.group(2))))
    return tuple(out)


def _f_shapes_spaced(v: tuple[tuple[int, ...], ...]) -> str:
    # tt-mlir prints each entry with a leading space: `[ 4x16,  16x16]` (ref §1.4).
    return "[" + ", ".join(" " + shape_text(s) for s in v) + "]"


# key -> (parser, formatter); the order is tt-mlir's printing order.
_CHIP_FIELDS: dict[str, tuple[Callable[[Part], Any], Callable[[Any], str]]] = {
    "arch": (_p_arch, lambda v: f"<{v.value}>"),
    "grid": (parse_shape, shape_text),
    "coord_translation_offsets": (parse_shape, shape_text),
    "l1_size": (lambda p: parse_int(p, "l1_size"), str),
    "num_dram_channels": (lambda p: parse_int(p, "num_dram_channels"), str),
    "dram_channel_size": (lambda p: parse_int(p, "dram_channel_size"), str),
    "noc_l1_address_align_bytes": (lambda p: parse_int(p, "noc_l1_address_align_bytes"), str),
    "pcie_address_align_bytes": (lambda p: parse_int(p, "pcie_address_align_bytes"), str),
    "noc_dram_address_align_bytes": (lambda p: parse_int(p, "noc_dram_address_align_bytes"), str),
    "l1_unreserved_base": (lambda p: parse_int(p, "l1_unreserved_base"), str),
    "erisc_l1_unreserved_base": (lambda p: parse_int(p, "erisc_l1_unreserved_base"), str),
    "dram_unreserved_base": (lambda p: parse_int(p, "dram_unreserved_base"), str),
    "dram_unreserved_end": (lambda p: parse_int(p, "dram_unreserved_end"), str),
    "supported_data_types": (_p_dtypes, lambda v: "[" + ", ".join(f"<{d.value}>" for d in v) + "]"),
    "supported_tile_sizes": (_p_shapes, _f_shapes_spaced),
    "dst_physical_size_tiles": (lambda p: parse_int(p, "dst_physical_size_tiles"), str),
    "num_cbs": (lambda p: parse_int(p, "num_cbs"), str),
    "num_compute_threads": (lambda p: parse_int(p, "num_compute_threads"), str),
    "num_datamovement_threads": (lambda p: parse_int(p, "num_datamovement_threads"), str),
    "dram_grid": (parse_shape, shape_text),
    "dram_bank_to_logical_worker_noc0": (_p_coords, lambda v: "[" + ", ".join(f"({a}, {b})" for a, b in v) + "]"),
    "dram_bank_to_logical_worker_noc1": (_p_coords, lambda v: "[" + ", ".join(f"({a}, {b})" for a, b in v) + "]"),
}
# What a device model cannot do without (OP-MODEL.md §1).
CHIP_REQUIRED = ("arch", "grid", "l1_size", "num_dram_channels", "dram_channel_size", "l1_unreserved_base")


class ChipDesc(DialectModel):
    """One chip descriptor of a system desc; unknown keys are kept verbatim in `extra`."""

    arch: Arch
    grid: tuple[int, ...]
    l1_size: int
    num_dram_channels: int
    dram_channel_size: int
    l1_unreserved_base: int
    coord_translation_offsets: tuple[int, ...] | None = None
    noc_l1_address_align_bytes: int | None = None
    pcie_address_align_bytes: int | None = None
    noc_dram_address_align_bytes: int | None = None
    erisc_l1_unreserved_base: int | None = None
    dram_unreserved_base: int | None = None
    dram_unreserved_end: int | None = None
    supported_data_types: tuple[DataType, ...] | None = None
    supported_tile_sizes: tuple[tuple[int, ...], ...] | None = None
    dst_physical_size_tiles: int | None = None
    num_cbs: int | None = None
    num_compute_threads: int | None = None
    num_datamovement_threads: int | None = None
    dram_grid: tuple[int, ...] | None = None
    dram_bank_to_logical_worker_noc0: tuple[tuple[int, int], ...] | None = None
    dram_bank_to_logical_worker_noc1: tuple[tuple[int, int], ...] | None = None
    extra: tuple[tuple[str, str], ...] = ()

    @model_validator(mode="after")
    def _check(self) -> ChipDesc:
        if len(self.grid) != 2 or min(self.grid) <= 0:
            raise ValueError(f"chip grid must be 2-D and positive, got {shape_text(self.grid)}")
        if self.l1_unreserved_base > self.l1_size:
            raise ValueError(f"l1_unreserved_base {self.l1_unreserved_base} exceeds l1_size {self.l1_size}")
        return self

    @property
    def worker_grid(self) -> tuple[int, int]:
        """(rows, cols) of the worker core grid."""
        return (self.grid[0], self.grid[1])

    def print_body(self) -> str:
        """`{arch = <wormhole_b0>, grid = 8x8, ...}` in tt-mlir's field order, unknown keys last."""
        items = []
        for key, (_, fmt) in _CHIP_FIELDS.items():
            v = getattr(self, key)
            if v is not None:
                items.append(f"{key} = {fmt(v)}")
        items.extend(f"{k} = {v}" for k, v in self.extra)
        return "{" + ", ".join(items) + "}"

    @classmethod
    def parse_part(cls, part: Part) -> ChipDesc:
        """Parse one `{key = value, ...}` chip descriptor."""
        inner = unwrap(part, "{", "}", "a chip descriptor")
        values: dict[str, Any] = {}
        extra = []
        for p in params(inner.text, inner.offset):
            kv = keyword(p)
            if kv is None:
                raise AttrError(f"expected 'key = value' in chip descriptor, got '{p.text}'", p.offset)
            key, val = kv
            if key in values:
                raise AttrError(f"duplicate chip descriptor field '{key}'", p.offset)
            spec = _CHIP_FIELDS.get(key)
            if spec is None:
                extra.append((key, val.text))
            else:
                values[key] = spec[0](val)
        for key in CHIP_REQUIRED:
            if key not in values:
                raise AttrError(f"chip descriptor is missing required field '{key}'", part.offset)
        with attr_errors("chip descriptor"):
            return cls(**values, extra=tuple(extra))


class SystemDescAttr(DialectModel):
    """`#ttcore.system_desc<[cpus], [chips], [chip ids], [capabilities], [chip coords][, [channels]]>`."""

    attr_name: ClassVar[str] = "ttcore.system_desc"

    cpu_descs: tuple[CpuDesc, ...] = (CpuDesc(),)
    chip_descs: tuple[ChipDesc, ...]
    chip_desc_indices: tuple[int, ...] = (0,)
    chip_capabilities: tuple[str, ...] = ("1 : i32",)
    chip_coords: tuple[tuple[int, ...], ...] = ((0, 0, 0, 0),)
    chip_channels: str | None = None  # the optional sixth list, kept as text

    @model_validator(mode="after")
    def _check(self) -> SystemDescAttr:
        if not self.chip_descs:
            raise ValueError("a system desc needs at least one chip descriptor")
        for i in self.chip_desc_indices:
            if not 0 <= i < len(self.chip_descs):
                raise ValueError(f"chip desc index {i} out of range (have {len(self.chip_descs)})")
        return self

    def chip(self, index: int = 0) -> ChipDesc:
        """Descriptor of chip `index` (through the chip index table)."""
        return self.chip_descs[self.chip_desc_indices[index] if self.chip_desc_indices else index]

    def print_body(self) -> str:
        """tt-mlir's spelling, e.g. `[{role = host, ...}], [{arch = ...}], [0], [1 : i32], [ 0x0x0x0]`."""
        parts = [
            "[" + ", ".join(c.print_body() for c in self.cpu_descs) + "]",
            "[" + ", ".join(c.print_body() for c in self.chip_descs) + "]",
            "[" + ", ".join(str(i) for i in self.chip_desc_indices) + "]",
            "[" + ", ".join(self.chip_capabilities) + "]",
            _f_shapes_spaced(self.chip_coords),
        ]
        if self.chip_channels is not None:
            parts.append(self.chip_channels)
        return ", ".join(parts)

    @classmethod
    @lru_cache(maxsize=16)
    def parse(cls, body: str) -> SystemDescAttr:
        """Parse a system desc body."""
        parts = params(body)
        if len(parts) not in (5, 6):
            raise AttrError(
                f"#ttcore.system_desc needs 5 or 6 lists (cpus, chips, chip ids, capabilities, chip coords"
                f"[, channels]), got {len(parts)}"
            )
        cpus = []
        inner = unwrap(parts[0], "[", "]", "the cpu descriptor list")
        for p in params(inner.text, inner.offset):
            d = unwrap(p, "{", "}", "a cpu descriptor")
            fields = {}
            for q in params(d.text, d.offset):
                kv = keyword(q)
                if kv is None:
                    raise AttrError(f"expected 'key = value' in cpu descriptor, got '{q.text}'", q.offset)
                fields[kv[0]] = kv[1]
            for key in ("role", "target_triple"):
                if key not in fields:
                    raise AttrError(f"cpu descriptor is missing required field '{key}'", p.offset)
            triple = fields["target_triple"].text
            cpus.append(CpuDesc(role=fields["role"].text, target_triple=unquote(triple) if triple.startswith('"') else triple))
        inner = unwrap(parts[1], "[", "]", "the chip descriptor list")
        chips = tuple(ChipDesc.parse_part(p) for p in params(inner.text, inner.offset))
        inner = unwrap(parts[2], "[", "]", "the chip index list")
        indices = tuple(parse_int(p, "chip index") for p in params(inner.text, inner.offset))
        inner = unwrap(parts[3], "[", "]", "the chip capability list")
        caps = tuple(p.text for p in params(inner.text, inner.offset))
        coords = _p_shapes(parts[4])
        channels = parts[5].text if len(parts) == 6 else None
        with attr_errors("#ttcore.system_desc"):
            return cls(
                cpu_descs=tuple(cpus), chip_descs=chips, chip_desc_indices=indices,
                chip_capabilities=caps, chip_coords=coords, chip_channels=channels,
            )  # fmt: skip


class DeviceAttr(DialectModel):
    """`#ttcore.device<workerGrid = #ttcore.grid<8x8, ...>, dramGrid = ..., l1Map = ..., ...>`.

    Only the worker grid is typed (ref §1.4: the only part the optimizer uses); every other
    parameter is kept as text in order.
    """

    attr_name: ClassVar[str] = "ttcore.device"

    worker_grid: GridAttr
    rest: tuple[tuple[str, str], ...] = ()

    def print_body(self) -> str:
        """`workerGrid = #ttcore.grid<...>, key = value, ...` (an empty value prints as `key = `)."""
        items = [f"workerGrid = {self.worker_grid.text}"]
        items.extend(f"{k} = {v}" for k, v in self.rest)
        return ", ".join(items)

    def get(self, key: str) -> str | None:
        """Text of parameter `key` (other than workerGrid), or None."""
        return next((v for k, v in self.rest if k == key), None)

    @property
    def dram_grid(self) -> GridAttr | None:
        """The `dramGrid` parameter, when present."""
        v = self.get("dramGrid")
        return None if v is None else GridAttr.parse(unwrap_attr(Part(v, 0), "ttcore.grid").text)

    @classmethod
    @lru_cache(maxsize=16)
    def parse(cls, body: str) -> DeviceAttr:
        """Parse a device body."""
        grid = None
        rest = []
        for p in params(body):
            kv = keyword(p)
            if kv is None:
                raise AttrError(f"expected 'key = value' in #ttcore.device, got '{p.text}'", p.offset)
            key, val = kv
            if key == "workerGrid":
                try:
                    grid = GridAttr.parse(unwrap_attr(val, "ttcore.grid").text)
                except AttrError as e:
                    raise e.prefixed("workerGrid") from None
            else:
                rest.append((key, val.text))
        if grid is None:
            raise AttrError("#ttcore.device is missing required field 'workerGrid'")
        return cls(worker_grid=grid, rest=tuple(rest))


# ---------------------------------------------------------------------------------------------
# Registration.

def _tile_type_factory(t: OpaqueType) -> TileType:
    return TileType.parse(body_of(t))


DIALECT_TYPE_FACTORIES["ttcore.tile"] = _tile_type_factory
for _cls in (
    ArgumentTypeAttr, ShardStatusAttr, MeshShardTypeAttr, MeshShardDirectionAttr, ReduceTypeAttr,
    DataTypeAttr, GridAttr, MeshesAttr, SystemDescAttr, DeviceAttr,
):  # fmt: skip
    register_attr(_cls.attr_name, _cls.parse)
