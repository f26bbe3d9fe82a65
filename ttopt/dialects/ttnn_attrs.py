"""Typed ttnn attributes other than the layout: buffer/memory-layout enums, cores, shard spec,
memory config, shapes, mesh shape/offset, and the keyword-style op configs (conv2d, matmul).

Syntax: reference/ttnn-optimizer-upstream.md §1.3. `TTNNLayoutAttr` lives in `ttnn_layout.py`.
"""

from __future__ import annotations

import re
from enum import StrEnum
from functools import lru_cache
from typing import Any, ClassVar, Iterable

from pydantic import field_validator, model_validator

from ttopt.dialects.errors import AttrError, attr_errors
from ttopt.dialects.model import register_attr
from ttopt.dialects.ttcore_attrs import (
    DataType,
    DialectModel,
    EnumAttr,
)
from ttopt.ir.attributes import DIALECT_ATTR_FACTORIES, DialectAttr
from ttopt.parse.attr_body import Part, keyword, params, parse_int, parse_shape, shape_text, unwrap, unwrap_attr

# ---------------------------------------------------------------------------------------------
# Enums (ref §1.2-1.3).


class BufferType(StrEnum):
    DRAM = "dram"
    L1 = "l1"
    SYSTEM_MEMORY = "system_memory"
    L1_SMALL = "l1_small"
    TRACE = "trace"


class TensorMemoryLayout(StrEnum):
    INTERLEAVED = "interleaved"
    HEIGHT_SHARDED = "height_sharded"
    WIDTH_SHARDED = "width_sharded"
    BLOCK_SHARDED = "block_sharded"
    ND_SHARDED = "nd_sharded"

    @property
    def is_sharded(self) -> bool:
        """Every layout except interleaved distributes shards over a core grid."""
        return self is not TensorMemoryLayout.INTERLEAVED


class Layout(StrEnum):
    TILE = "tile"
    ROW_MAJOR = "row_major"


class ShardOrientation(StrEnum):
    ROW_MAJOR = "row_major"
    COL_MAJOR = "col_major"


class ShardMode(StrEnum):
    PHYSICAL = "physical"
    LOGICAL = "logical"


class BufferTypeAttr(EnumAttr):
    """`#ttnn.buffer_type<dram|l1|system_memory|l1_small|trace>`; printer aliases it as `#dram` etc."""

    attr_name: ClassVar[str] = "ttnn.buffer_type"
    value: BufferType


class TensorMemoryLayoutAttr(EnumAttr):
    """`#ttnn.tensor_memory_layout<interleaved|height_sharded|...>` (written `<...>` inside other attrs)."""

    attr_name: ClassVar[str] = "ttnn.tensor_memory_layout"
    value: TensorMemoryLayout


class LayoutAttr(EnumAttr):
    """`#ttnn.layout<tile|row_major>` (page layout)."""

    attr_name: ClassVar[str] = "ttnn.layout"
    value: Layout


class ShardOrientationAttr(EnumAttr):
    """`#ttnn.shard_orientation<row_major|col_major>`."""

    attr_name: ClassVar[str] = "ttnn.shard_orientation"
    value: ShardOrientation


class ShardModeAttr(EnumAttr):
    """`#ttnn.shard_mode<physical|logical>`."""

    attr_name: ClassVar[str] = "ttnn.shard_mode"
    value: ShardMode


def buffer_text(buffer: BufferType, alias: bool = False) -> str:
    """`#ttnn.buffer_type<dram>`, or the alias tt-mlir's printer hoists it into (`#dram`, ref §1.7)."""
    return f"#{buffer.value}" if alias else f"#ttnn.buffer_type<{buffer.value}>"


def resolve_attr(part: Part, scope: Any, what: str) -> DialectAttr:
    """The dialect attribute a part spells, following `#alias` references through `scope`."""
    text = part.text
    if re.fullmatch(r"#[A-Za-z_][\w$\-]*", text):
        if scope is None:
            raise AttrError(f"alias {text} used in {what} cannot be resolved (no alias scope)", part.offset)
        try:
            target = scope.attr(text[1:]).resolve()
        except KeyError:
            raise AttrError(f"undefined alias {text} in {what}", part.offset) from None
        if not isinstance(target, DialectAttr):
            raise AttrError(f"alias {text} does not name a dialect attribute (in {what})", part.offset)
        return target
    m = re.match(r"#([A-Za-z_][\w$.\-]*)<", text)
    if m is None or not text.endswith(">"):
        raise AttrError(f"expected an attribute for {what}, got '{text}'", part.offset)
    return DialectAttr(m.group(1), text[m.end() : -1], text, scope=scope)


def typed_as(part: Part, scope: Any, cls: Any, what: str) -> Any:
    """The typed model of the attribute a part spells, which must be of class `cls`."""
    attr = resolve_attr(part, scope, what)
    if attr.name != cls.attr_name:
        raise AttrError(f"expected #{cls.attr_name} for {what}, got #{attr.name}", part.offset)
    try:
        return attr.typed
    except AttrError as e:
        raise e.prefixed(what, part.offset) from None


def parse_buffer_type(part: Part, scope: Any) -> BufferType:
    """`#dram` (alias), `#ttnn.buffer_type<dram>` or the stripped `<dram>`."""
    if part.text.startswith("<"):
        inner = unwrap(part, "<", ">", "a buffer type")
        try:
            return BufferType(inner.text)
        except ValueError:
            raise AttrError(f"unknown buffer type '{inner.text}'", inner.offset) from None
    return typed_as(part, scope, BufferTypeAttr, "buffer type").value


def parse_memory_layout(part: Part) -> TensorMemoryLayout:
    """`<height_sharded>` or `#ttnn.tensor_memory_layout<height_sharded>`."""
    inner = unwrap_attr(part, TensorMemoryLayoutAttr.attr_name) if part.text.startswith("#") else unwrap(
        part, "<", ">", "a tensor memory layout"
    )
    try:
        return TensorMemoryLayout(inner.text)
    except ValueError:
        raise AttrError(f"unknown tensor memory layout '{inner.text}'", inner.offset) from None


def _stripped_enum(part: Part, enum: type, what: str) -> Any:
    inner = unwrap(part, "<", ">", what)
    try:
        return enum(inner.text)
    except ValueError:
        raise AttrError(f"unknown {what} '{inner.text}'", inner.offset) from None


# ---------------------------------------------------------------------------------------------
# Cores (ref §1.2: coordinates are (x, y) = (column, row)).


class CoreCoord(DialectModel):
    """`#ttnn.core_coord<x, y>`."""

    attr_name: ClassVar[str] = "ttnn.core_coord"

    x: int
    y: int

    @model_validator(mode="after")
    def _check(self) -> CoreCoord:
        if self.x < 0 or self.y < 0:
            raise ValueError(f"core coordinates must be non-negative, got ({self.x}, {self.y})")
        return self

    def print_body(self) -> str:
        """`x, y`."""
        return f"{self.x}, {self.y}"

    @classmethod
    @lru_cache(maxsize=256)
    def parse(cls, body: str) -> CoreCoord:
        """Parse `x, y`."""
        m = re.fullmatch(r"\s*(-?\d+)\s*,\s*(-?\d+)\s*", body)
        if m is None:
            raise AttrError(f"expected 'x, y' for #ttnn.core_coord, got '{body}'")
        with attr_errors("#ttnn.core_coord"):
            return cls(x=int(m.group(1)), y=int(m.group(2)))


_RANGE = re.compile(r"\(\s*(-?\d+)\s*,\s*(-?\d+)\s*\)\s*,\s*\(\s*(-?\d+)\s*,\s*(-?\d+)\s*\)")


class CoreRange(DialectModel):
    """`#ttnn.core_range<(x0, y0), (x1, y1)>`: an inclusive rectangle of cores."""

    attr_name: ClassVar[str] = "ttnn.core_range"

    start: CoreCoord
    end: CoreCoord

    @model_validator(mode="after")
    def _check(self) -> CoreRange:
        if self.end.x < self.start.x or self.end.y < self.start.y:
            raise ValueError(f"core range end {self.end.print_body()} is before its start {self.start.print_body()}")
        return self

    @classmethod
    def of(cls, x0: int, y0: int, x1: int, y1: int) -> CoreRange:
        """Range from (x0, y0) to (x1, y1) inclusive."""
        with attr_errors("#ttnn.core_range"):
            return cls(start=CoreCoord(x=x0, y=y0), end=CoreCoord(x=x1, y=y1))

    def print_body(self) -> str:
        """`(x0, y0), (x1, y1)`."""
        return f"({self.start.x}, {self.start.y}), ({self.end.x}, {self.end.y})"

    @property
    def num_cores(self) -> int:
        """Cores in the rectangle."""
        return (self.end.x - self.start.x + 1) * (self.end.y - self.start.y + 1)

    def overlaps(self, other: CoreRange) -> bool:
        """True when the two rectangles share a core."""
        return not (
            self.end.x < other.start.x or other.end.x < self.start.x
            or self.end.y < other.start.y or other.end.y < self.start.y
        )  # fmt: skip

    @classmethod
    @lru_cache(maxsize=256)
    def parse(cls, body: str) -> CoreRange:
        """Parse `(x0, y0), (x1, y1)` (spaces optional)."""
        m = _RANGE.fullmatch(body.strip())
        if m is None:
            raise AttrError(f"expected '(x0, y0), (x1, y1)' for #ttnn.core_range, got '{body}'")
        return cls.of(*(int(g) for g in m.groups()))


class CoreRangeSet(DialectModel):
    """`#ttnn.core_range_set<[#ttnn.core_range<...>, ...]>`, empty as `#ttnn.core_range_set<>`.

    Inside other ttnn attributes it is written in the stripped form `<[...]>` (`short_text`).
    """

    attr_name: ClassVar[str] = "ttnn.core_range_set"

    ranges: tuple[CoreRange, ...] = ()

    @model_validator(mode="after")
    def _disjoint(self) -> CoreRangeSet:
        rs = self.ranges
        for i in range(len(rs)):
            for j in range(i + 1, len(rs)):
                if rs[i].overlaps(rs[j]):
                    raise ValueError(f"core ranges <{rs[i].print_body()}> and <{rs[j].print_body()}> overlap")
        return self

    @classmethod
    def of(cls, ranges: Iterable[CoreRange | tuple[int, int, int, int]]) -> CoreRangeSet:
        """From CoreRanges or (x0, y0, x1, y1) tuples."""
        rs = tuple(r if isinstance(r, CoreRange) else CoreRange.of(*r) for r in ranges)
        with attr_errors("#ttnn.core_range_set"):
            return cls(ranges=rs)

    def print_body(self) -> str:
        """`[#ttnn.core_range<(0, 0), (7, 0)>, ...]`, or nothing when empty (tt-mlir prints `<>`)."""
        if not self.ranges:
            return ""
        return "[" + ", ".join(r.text for r in self.ranges) + "]"

    def short_text(self) -> str:
        """Stripped spelling used as a parameter of other attributes: `<[...]>`."""
        return f"<{self.print_body()}>"

    @property
    def num_cores(self) -> int:
        """Total cores covered."""
        return sum(r.num_cores for r in self.ranges)

    @property
    def bounding_box(self) -> tuple[int, int]:
        """(rows, cols) of the smallest origin-anchored grid containing every range."""
        if not self.ranges:
            return (0, 0)
        return (max(r.end.y for r in self.ranges) + 1, max(r.end.x for r in self.ranges) + 1)

    @classmethod
    def parse(cls, body: str, scope: Any = None) -> CoreRangeSet:
        """Parse `[range, ...]`, `[]` or the empty body; ranges may be aliases."""
        if not body.strip():
            return cls()
        return _parse_crs(body, scope) if "#" in body and scope is not None else _parse_crs_cached(body)

    @classmethod
    def from_part(cls, part: Part, scope: Any = None) -> CoreRangeSet:
        """A core range set written as `<[...]>`, `#ttnn.core_range_set<...>` or an alias."""
        if part.text.startswith("<"):
            inner = unwrap(part, "<", ">", "a core range set")
        elif part.text.startswith(f"#{cls.attr_name}<"):
            inner = unwrap_attr(part, cls.attr_name)
        else:
            return typed_as(part, scope, cls, "core ranges")
        try:
            return cls.parse(inner.text, scope)
        except AttrError as e:
            raise AttrError(e.message, inner.offset + (e.offset or 0)) from None


def _parse_crs(body: str, scope: Any) -> CoreRangeSet:
    inner = unwrap(Part(body.strip(), len(body) - len(body.lstrip())), "[", "]", "a core range list")
    ranges = []
    for p in params(inner.text, inner.offset):
        if p.text.startswith(f"#{CoreRange.attr_name}<"):
            try:
                ranges.append(CoreRange.parse(unwrap_attr(p, CoreRange.attr_name).text))
            except AttrError as e:
                raise AttrError(e.message, p.offset) from None
        else:
            ranges.append(typed_as(p, scope, CoreRange, "core range"))
    return CoreRangeSet.of(ranges)


@lru_cache(maxsize=256)
def _parse_crs_cached(body: str) -> CoreRangeSet:
    return _parse_crs(body, None)


# ---------------------------------------------------------------------------------------------
# Shapes, shard spec, memory config.


class ShapeAttr(DialectModel):
    """`#ttnn.shape<32x32>` (`#ttnn.shape<>` for rank 0)."""

    attr_name: ClassVar[str] = "ttnn.shape"

    shape: tuple[int, ...]

    def print_body(self) -> str:
        """`32x32`."""
        return shape_text(self.shape)

    @classmethod
    @lru_cache(maxsize=256)
    def parse(cls, body: str) -> ShapeAttr:
        """Parse `32x32`."""
        return cls(shape=parse_shape(Part(body.strip(), 0)) if body.strip() else ())


class ShardSpecAttr(DialectModel):
    """`#ttnn.shard_spec<CRS, <HxW>, <row_major|col_major>[, <physical|logical>[, <HxW>]]>`."""

    attr_name: ClassVar[str] = "ttnn.shard_spec"

    core_ranges: CoreRangeSet
    shape: tuple[int, ...]
    orientation: ShardOrientation = ShardOrientation.ROW_MAJOR
    mode: ShardMode | None = None
    physical_shard_shape: tuple[int, ...] | None = None

    @model_validator(mode="after")
    def _check(self) -> ShardSpecAttr:
        if self.physical_shard_shape is not None and self.mode is None:
            raise ValueError("a physical shard shape needs a shard mode before it")
        return self

    def print_body(self) -> str:
        """`<[...]>, <32x32>, <row_major>[, <physical>[, <HxW>]]`."""
        items = [self.core_ranges.short_text(), f"<{shape_text(self.shape)}>", f"<{self.orientation.value}>"]
        if self.mode is not None:
            items.append(f"<{self.mode.value}>")
        if self.physical_shard_shape is not None:
            items.append(f"<{shape_text(self.physical_shard_shape)}>")
        return ", ".join(items)

    @classmethod
    def parse(cls, body: str, scope: Any = None) -> ShardSpecAttr:
        """Parse a shard spec body."""
        parts = params(body)
        if not 3 <= len(parts) <= 5:
            raise AttrError(f"#ttnn.shard_spec takes 3 to 5 parameters, got {len(parts)}")
        crs = CoreRangeSet.from_part(parts[0], scope)
        shape_part = unwrap_attr(parts[1], ShapeAttr.attr_name) if parts[1].text.startswith("#") else unwrap(
            parts[1], "<", ">", "a shard shape"
        )
        shape = parse_shape(shape_part, "shard shape")
        orientation = _stripped_enum(parts[2], ShardOrientation, "shard orientation")
        mode = _stripped_enum(parts[3], ShardMode, "shard mode") if len(parts) > 3 else None
        phys = parse_shape(unwrap(parts[4], "<", ">", "a physical shard shape")) if len(parts) > 4 else None
        with attr_errors("#ttnn.shard_spec"):
            return cls(core_ranges=crs, shape=shape, orientation=orientation, mode=mode, physical_shard_shape=phys)


class MemoryConfigAttr(DialectModel):
    """`#ttnn.memory_config<BUFFER[, <MEMLAYOUT>][, SHARD_SPEC]>`, e.g. `#ttnn.memory_config<#dram, <interleaved>>`."""

    attr_name: ClassVar[str] = "ttnn.memory_config"

    buffer_type: BufferType
    memory_layout: TensorMemoryLayout | None = None
    shard_spec: ShardSpecAttr | None = None

    @model_validator(mode="after")
    def _check(self) -> MemoryConfigAttr:
        if self.shard_spec is not None and not (self.memory_layout and self.memory_layout.is_sharded):
            raise ValueError("a shard spec needs a sharded memory layout")
        return self

    def print_body(self, alias_buffer: bool = False) -> str:
        """Body with the buffer type inline, or as `#dram`/`#l1` when `alias_buffer` (ref §1.7)."""
        items = [buffer_text(self.buffer_type, alias_buffer)]
        if self.memory_layout is not None:
            items.append(f"<{self.memory_layout.value}>")
        if self.shard_spec is not None:
            items.append(self.shard_spec.text)
        return ", ".join(items)

    @classmethod
    def parse(cls, body: str, scope: Any = None) -> MemoryConfigAttr:
        """Parse a memory config body."""
        parts = params(body)
        if not 1 <= len(parts) <= 3:
            raise AttrError(f"#ttnn.memory_config takes 1 to 3 parameters, got {len(parts)}")
        buffer = parse_buffer_type(parts[0], scope)
        layout = spec = None
        for p in parts[1:]:
            if p.text.startswith("<") or p.text.startswith(f"#{TensorMemoryLayoutAttr.attr_name}<"):
                if layout is not None or spec is not None:
                    raise AttrError("the memory layout must come once, before the shard spec", p.offset)
                layout = parse_memory_layout(p)
            else:
                if spec is not None:
                    raise AttrError("duplicate shard spec", p.offset)
                spec = typed_as(p, scope, ShardSpecAttr, "shard spec")
        with attr_errors("#ttnn.memory_config"):
            return cls(buffer_type=buffer, memory_layout=layout, shard_spec=spec)


# ---------------------------------------------------------------------------------------------
# `#ttnn<mesh_shape 1x1>` / `#ttnn<mesh_offset 0x0>` (short dialect-attribute form, ref §1.3).


class MeshShapeAttr(DialectModel):
    """`#ttnn<mesh_shape 1x1>`."""

    attr_name: ClassVar[str] = "ttnn"
    kind: ClassVar[str] = "mesh_shape"

    shape: tuple[int, ...]

    def print_body(self) -> str:
        """`mesh_shape 1x1`."""
        return f"{self.kind} {shape_text(self.shape)}"


class MeshOffsetAttr(MeshShapeAttr):
    """`#ttnn<mesh_offset 0x0>`."""

    kind: ClassVar[str] = "mesh_offset"


_SHORT_FORMS: dict[str, type[MeshShapeAttr]] = {"mesh_shape": MeshShapeAttr, "mesh_offset": MeshOffsetAttr}


@lru_cache(maxsize=64)
def parse_ttnn_short(body: str) -> Any:
    """`mesh_shape 1x1` / `mesh_offset 0x0`; None for other `#ttnn<...>` kinds (kept opaque)."""
    kind, _, rest = body.strip().partition(" ")
    cls = _SHORT_FORMS.get(kind)
    if cls is None:
        return None
    return cls(shape=parse_shape(Part(rest.strip(), len(kind) + 1), kind.replace("_", " ")))


# ---------------------------------------------------------------------------------------------
# Keyword-style op configurations: kept as ordered `key = value` texts with typed accessors.


def format_value(v: Any) -> str:
    """MLIR spelling of a Python value used as a keyword parameter."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, StrEnum):
        return v.value
    if isinstance(v, DialectModel):
        return v.text
    return str(v)


class KeywordParamsAttr(DialectModel):
    """Base of `#ttnn.name<key = value, ...>` attributes; values are kept as their text."""

    params: tuple[tuple[str, str], ...] = ()

    @model_validator(mode="after")
    def _unique(self) -> KeywordParamsAttr:
        keys = [k for k, _ in self.params]
        if len(set(keys)) != len(keys):
            raise ValueError(f"duplicate parameter in {keys}")
        return self

    def print_body(self) -> str:
        """`key = value, ...` in order."""
        return ", ".join(f"{k} = {v}" for k, v in self.params)

    def get(self, key: str) -> str | None:
        """Text of parameter `key`, or None."""
        return next((v for k, v in self.params if k == key), None)

    def get_int(self, key: str) -> int | None:
        """Parameter `key` as an integer, or None when absent."""
        v = self.get(key)
        return None if v is None else parse_int(Part(v, 0), key)

    def get_bool(self, key: str) -> bool | None:
        """Parameter `key` as a boolean, or None when absent."""
        v = self.get(key)
        if v is None:
            return None
        if v not in ("true", "false"):
            raise AttrError(f"parameter {key} is not a boolean: '{v}'")
        return v == "true"

    @classmethod
    def of(cls, items: Iterable[tuple[str, Any]] | None = None, **values: Any) -> Any:
        """Build from (key, value) pairs and/or keyword arguments, formatting Python values as MLIR."""
        pairs = list(items or ()) + list(values.items())
        with attr_errors(f"#{cls.attr_name}"):
            return cls(params=tuple((k, format_value(v)) for k, v in pairs if v is not None))

    @classmethod
    @lru_cache(maxsize=256)
    def parse(cls, body: str) -> Any:
        """Parse `key = value, ...`."""
        pairs = []
        for p in params(body):
            kv = keyword(p)
            if kv is None:
                raise AttrError(f"expected 'key = value' in #{cls.attr_name}, got '{p.text}'", p.offset)
            pairs.append((kv[0], kv[1].text))
        with attr_errors(f"#{cls.attr_name}"):
            return cls(params=tuple(pairs))


class Conv2dConfigAttr(KeywordParamsAttr):
    """`#ttnn.conv2d_config<weights_dtype = bf16, activation = <op_type = relu>, ...>`."""

    attr_name: ClassVar[str] = "ttnn.conv2d_config"

    @property
    def weights_dtype(self) -> DataType | None:
        """The `weights_dtype` parameter."""
        v = self.get("weights_dtype")
        return None if v is None else DataType.of(v)


class UnaryWithParamAttr(KeywordParamsAttr):
    """`#ttnn.unary_with_param<op_type = relu[, params = [...]]>`."""

    attr_name: ClassVar[str] = "ttnn.unary_with_param"

    @property
    def op_type(self) -> str | None:
        """The unary op name."""
        return self.get("op_type")


class MatmulProgramConfigAttr(KeywordParamsAttr):
    """Base of the `#ttnn.matmul_*_program_config<...>` attributes (ref §1.3, §2.4)."""

    @property
    def compute_with_storage_grid_size(self) -> CoreCoord | None:
        """The `compute_with_storage_grid_size = #ttnn.core_coord<x, y>` parameter."""
        v = self.get("compute_with_storage_grid_size")
        if v is None:
            return None
        return CoreCoord.parse(unwrap_attr(Part(v, 0), CoreCoord.attr_name).text)

    @property
    def in0_block_w(self) -> int | None:
        """The `in0_block_w` parameter."""
        return self.get_int("in0_block_w")

    @property
    def out_subblock_h(self) -> int | None:
        """The `out_subblock_h` parameter."""
        return self.get_int("out_subblock_h")

    @property
    def out_subblock_w(self) -> int | None:
        """The `out_subblock_w` parameter."""
        return self.get_int("out_subblock_w")

    @property
    def out_block_h(self) -> int | None:
        """The `out_block_h` parameter."""
        return self.get_int("out_block_h")

    @property
    def out_block_w(self) -> int | None:
        """The `out_block_w` parameter."""
        return self.get_int("out_block_w")

    @property
    def per_core_m(self) -> int | None:
        """The `per_core_m` parameter."""
        return self.get_int("per_core_m")

    @property
    def per_core_n(self) -> int | None:
        """The `per_core_n` parameter."""
        return self.get_int("per_core_n")


class MatmulMultiCoreReuseMultiCastProgramConfigAttr(MatmulProgramConfigAttr):
    """`#ttnn.matmul_multi_core_reuse_multi_cast_program_config<...>` (2-D mcast)."""

    attr_name: ClassVar[str] = "ttnn.matmul_multi_core_reuse_multi_cast_program_config"


class MatmulMultiCoreReuseMultiCast1DProgramConfigAttr(MatmulProgramConfigAttr):
    """`#ttnn.matmul_multi_core_reuse_multi_cast_1d_program_config<...>`."""

    attr_name: ClassVar[str] = "ttnn.matmul_multi_core_reuse_multi_cast_1d_program_config"


class MatmulMultiCoreReuseProgramConfigAttr(MatmulProgramConfigAttr):
    """`#ttnn.matmul_multi_core_reuse_program_config<...>`."""

    attr_name: ClassVar[str] = "ttnn.matmul_multi_core_reuse_program_config"


class MatmulMultiCoreReuseMultiCastDRAMShardedProgramConfigAttr(MatmulProgramConfigAttr):
    """`#ttnn.matmul_multi_core_reuse_multi_cast_dram_sharded_program_config<...>`."""

    attr_name: ClassVar[str] = "ttnn.matmul_multi_core_reuse_multi_cast_dram_sharded_program_config"


class SDPAProgramConfigAttr(KeywordParamsAttr):
    """`#ttnn.sdpa_program_config<compute_with_storage_grid_size = #ttnn.core_coord<x, y>,
    [sub_core_grids = ...,] q_chunk_size = N, k_chunk_size = N[, exp_approx_mode = b][, max_cores_per_head_batch = N]>`."""

    attr_name: ClassVar[str] = "ttnn.sdpa_program_config"
    # The parameters in the order MLIR prints them (`struct(params)`).
    ORDER: ClassVar[tuple[str, ...]] = ("compute_with_storage_grid_size", "sub_core_grids", "q_chunk_size", "k_chunk_size",
                                        "exp_approx_mode", "max_cores_per_head_batch")  # fmt: skip

    @model_validator(mode="after")
    def _known(self) -> SDPAProgramConfigAttr:
        unknown = [k for k, _ in self.params if k not in self.ORDER]
        if unknown:
            raise ValueError(f"unknown parameter {unknown[0]}")
        for key in ("compute_with_storage_grid_size", "q_chunk_size", "k_chunk_size"):
            if self.get(key) is None:
                raise ValueError(f"missing parameter {key}")
        return self


class Conv2dSliceConfigAttr(DialectModel):
    """`#ttnn.conv2d_slice_config<l1_full, 0>` (slice type, number of slices)."""

    attr_name: ClassVar[str] = "ttnn.conv2d_slice_config"

    slice_type: str
    num_slices: int = 0

    @field_validator("slice_type")
    @classmethod
    def _ident(cls, v: str) -> str:
        if not re.fullmatch(r"[a-z][a-z0-9_]*", v):
            raise ValueError(f"bad slice type '{v}'")
        return v

    def print_body(self) -> str:
        """`l1_full, 0`."""
        return f"{self.slice_type}, {self.num_slices}"

    @classmethod
    @lru_cache(maxsize=64)
    def parse(cls, body: str) -> Conv2dSliceConfigAttr:
        """Parse `slice_type, num_slices`."""
        parts = params(body)
        if len(parts) != 2:
            raise AttrError(f"#ttnn.conv2d_slice_config takes 2 parameters, got {len(parts)}")
        with attr_errors("#ttnn.conv2d_slice_config"):
            return cls(slice_type=parts[0].text, num_slices=parse_int(parts[1], "num_slices"))


# ---------------------------------------------------------------------------------------------
# Registration.

for _cls in (
    BufferTypeAttr, TensorMemoryLayoutAttr, LayoutAttr, ShardOrientationAttr, ShardModeAttr, CoreCoord,
    CoreRange, ShapeAttr, Conv2dConfigAttr, UnaryWithParamAttr, MatmulMultiCoreReuseMultiCastProgramConfigAttr,
    MatmulMultiCoreReuseMultiCast1DProgramConfigAttr, MatmulMultiCoreReuseProgramConfigAttr,
    MatmulMultiCoreReuseMultiCastDRAMShardedProgramConfigAttr, Conv2dSliceConfigAttr, SDPAProgramConfigAttr,
):  # fmt: skip
    register_attr(_cls.attr_name, _cls.parse)
for _scoped in (CoreRangeSet, ShardSpecAttr, MemoryConfigAttr):
    register_attr(_scoped.attr_name, _scoped.parse, scoped=True)
DIALECT_ATTR_FACTORIES["ttnn"] = lambda a: parse_ttnn_short(a.body or "")

