"""Typed StableHLO attributes: dot, gather, scatter and convolution dimension numbers, and the
`#stablehlo<kind VALUE>` enums (comparison direction and type, precision).

Grammar as StableHLO's printer writes them (StablehloAttrs.td and StablehloOps.cpp):
`#stablehlo.dot<lhs_batching_dimensions = [0], ...>` with empty lists left out, the convolution's
`[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]` (or `raw input_batch_dimension = 0, ...`), and
`#stablehlo<comparison_direction GT>`. Passes read these through `props(op)`, which hands out the
models below instead of body text.
"""

from __future__ import annotations

from enum import StrEnum
from functools import lru_cache
from typing import Any, ClassVar

from pydantic import model_validator

from ttopt.dialects.errors import attr_errors
from ttopt.dialects.model import DialectModel, register_attr
from ttopt.parse.attr_body import AttrError, Cursor

Ints = tuple[int, ...]


def _fields(c: Cursor, spec: dict[str, str], what: str) -> dict[str, Any]:
    """`name = [1, 2]` / `name = 3` pairs separated by commas, each a declared field given once."""
    out: dict[str, Any] = {}
    c.ws()
    if c.i == len(c.s):
        return out
    while True:
        c.ws()
        start = c.i
        name = c.ident("a field name")
        kind = spec.get(name)
        if kind is None:
            raise AttrError(f"{what} has no field '{name}'", start)
        if name in out:
            raise AttrError(f"{what} field '{name}' is given twice", start)
        c.expect("=")
        out[name] = c.int_list() if kind == "ints" else c.signed()
        if not c.accept(","):
            break
        c.ws()
        if c.i == len(c.s):
            break  # StableHLO's parseStruct takes a trailing comma
    c.end()
    return out


def _ints_text(values: Ints) -> str:
    return "[" + ", ".join(map(str, values)) + "]"


def _print_fields(model: DialectModel, spec: dict[str, str], always: tuple[str, ...] = ()) -> str:
    """Fields in declaration order; empty lists and absent scalars left out, as StableHLO prints."""
    parts = []
    for name, kind in spec.items():
        v = getattr(model, name)
        if kind == "ints" and (v or name in always):
            parts.append(f"{name} = {_ints_text(v)}")
        elif kind == "int" and v is not None:
            parts.append(f"{name} = {v}")
    return ", ".join(parts)


def _parse_with(cls: type[DialectModel], spec: dict[str, str], body: str) -> Any:
    c = Cursor(body)
    with attr_errors(f"#{cls.attr_name}"):
        return cls(**_fields(c, spec, f"#{cls.attr_name}"))


class _FieldListAttr(DialectModel):
    """An attribute whose body is `name = [..], name = N, ...` over the subclass's fields: a
    tuple field reads and prints a list, any other an integer. Print order is the subclass's own
    fields, then inherited ones (StableHLO prints gather/scatter's shared `index_vector_dim` last)."""

    FIELDS: ClassVar[dict[str, str]] = {}

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        own = [n for n in cls.__dict__.get("__annotations__", {}) if n in cls.model_fields]
        order = own + [n for n in cls.model_fields if n not in own]
        cls.FIELDS = {n: "ints" if cls.model_fields[n].annotation == Ints else "int" for n in order}

    @classmethod
    @lru_cache(maxsize=4096)
    def parse(cls, body: str) -> Any:
        """Read a body as StableHLO prints it."""
        return _parse_with(cls, cls.FIELDS, body)

    def print_body(self) -> str:
        """StableHLO's spelling: fields in order, empty ones left out."""
        return _print_fields(self, self.FIELDS)


class DotDimensionNumbers(_FieldListAttr):
    """`#stablehlo.dot<...>`: which dimensions of a dot_general are batch and which contracted."""

    attr_name: ClassVar[str] = "stablehlo.dot"
    lhs_batching_dimensions: Ints = ()
    rhs_batching_dimensions: Ints = ()
    lhs_contracting_dimensions: Ints = ()
    rhs_contracting_dimensions: Ints = ()


class _IndexedDimensionNumbers(_FieldListAttr):
    """Gather/scatter dimension numbers: both name an index vector dimension, which may be left out
    (StableHLO leaves out the field's default, 0)."""

    index_vector_dim: int | None = None

    def vector_dim(self, indices_rank: int) -> int:
        """The index vector dimension: 0 when the attribute leaves it out (StableHLO's default; it
        prints `index_vector_dim = 0` as nothing). `indices_rank` is kept for the callers' sake."""
        return 0 if self.index_vector_dim is None else self.index_vector_dim


class GatherDimensionNumbers(_IndexedDimensionNumbers):
    """`#stablehlo.gather<...>`; `index_vector_dim` None when the text leaves it out."""

    attr_name: ClassVar[str] = "stablehlo.gather"
    offset_dims: Ints = ()
    collapsed_slice_dims: Ints = ()
    operand_batching_dims: Ints = ()
    start_indices_batching_dims: Ints = ()
    start_index_map: Ints = ()


class ScatterDimensionNumbers(_IndexedDimensionNumbers):
    """`#stablehlo.scatter<...>`; `index_vector_dim` None when the text leaves it out."""

    attr_name: ClassVar[str] = "stablehlo.scatter"
    update_window_dims: Ints = ()
    inserted_window_dims: Ints = ()
    input_batching_dims: Ints = ()
    scatter_indices_batching_dims: Ints = ()
    scatter_dims_to_operand_dims: Ints = ()


_CONV_RAW = {
    "input_batch_dimension": "int",
    "input_feature_dimension": "int",
    "input_spatial_dimensions": "ints",
    "kernel_input_feature_dimension": "int",
    "kernel_output_feature_dimension": "int",
    "kernel_spatial_dimensions": "ints",
    "output_batch_dimension": "int",
    "output_feature_dimension": "int",
    "output_spatial_dimensions": "ints",
}
_CONV_RAW_DEFAULTS = {"input_feature_dimension": 1, "kernel_output_feature_dimension": 1, "output_feature_dimension": 1}


def _layout_side(c: Cursor, a: str, b: str, what: str) -> tuple[int, int, Ints]:
    """One `[b, 0, 1, f]` list: the positions of the two named dims and of spatial dims 0..n-1."""
    c.expect("[", f"the {what} layout")
    items: list[str] = []
    while True:
        c.ws()
        if c.s[c.i : c.i + 1].isdigit():
            items.append(str(c.integer()))
        else:
            items.append(c.ident(f"{a}, {b} or a spatial dim"))
        if not c.accept(","):
            break
    c.expect("]")
    n = len(items) - 2
    if sorted(items) != sorted([a, b, *map(str, range(n))]):
        raise AttrError(f"{what} layout [{', '.join(items)}] must list {a}, {b} and spatial dims 0..n-1 once each")
    spatial = tuple(items.index(str(k)) for k in range(n))
    return items.index(a), items.index(b), spatial


class ConvDimensionNumbers(DialectModel):
    """`#stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>` (or its `raw` field form)."""

    attr_name: ClassVar[str] = "stablehlo.conv"

    input_batch_dimension: int = 0
    input_feature_dimension: int = 1
    input_spatial_dimensions: Ints = ()
    kernel_input_feature_dimension: int = 0
    kernel_output_feature_dimension: int = 1
    kernel_spatial_dimensions: Ints = ()
    output_batch_dimension: int = 0
    output_feature_dimension: int = 1
    output_spatial_dimensions: Ints = ()

    @model_validator(mode="after")
    def _check(self) -> ConvDimensionNumbers:
        n = len(self.input_spatial_dimensions)
        if not n == len(self.kernel_spatial_dimensions) == len(self.output_spatial_dimensions):
            raise ValueError(
                f"input, kernel and output must have as many spatial dims, got {n}, "
                f"{len(self.kernel_spatial_dimensions)}, {len(self.output_spatial_dimensions)}"
            )
        return self

    @classmethod
    @lru_cache(maxsize=4096)
    def parse(cls, body: str) -> ConvDimensionNumbers:
        """Read the layout form or the `raw` field form."""
        c = Cursor(body)
        if c.accept("raw"):
            with attr_errors("#stablehlo.conv"):
                return cls(**{**_CONV_RAW_DEFAULTS, **_fields(c, _CONV_RAW, "#stablehlo.conv")})
        lb, lf, ls = _layout_side(c, "b", "f", "input")
        c.expect("x")
        ri, ro, rs = _layout_side(c, "i", "o", "kernel")
        c.expect("->")
        ob, of, os_ = _layout_side(c, "b", "f", "output")
        c.end()
        with attr_errors("#stablehlo.conv"):
            return cls(
                input_batch_dimension=lb, input_feature_dimension=lf, input_spatial_dimensions=ls,
                kernel_input_feature_dimension=ri, kernel_output_feature_dimension=ro, kernel_spatial_dimensions=rs,
                output_batch_dimension=ob, output_feature_dimension=of, output_spatial_dimensions=os_,
            )  # fmt: skip

    @property
    def input_layout(self) -> tuple[str, ...]:
        """The input's dims by letter: `('b', '0', '1', 'f')`."""
        return _letters(self.input_batch_dimension, "b", self.input_feature_dimension, "f", self.input_spatial_dimensions)

    @property
    def kernel_layout(self) -> tuple[str, ...]:
        """The kernel's dims by letter: `('0', '1', 'i', 'o')`."""
        return _letters(self.kernel_input_feature_dimension, "i", self.kernel_output_feature_dimension, "o",
                        self.kernel_spatial_dimensions)  # fmt: skip

    @property
    def output_layout(self) -> tuple[str, ...]:
        """The output's dims by letter."""
        return _letters(self.output_batch_dimension, "b", self.output_feature_dimension, "f", self.output_spatial_dimensions)

    def print_body(self) -> str:
        """The layout form StableHLO prints."""
        return "x".join(f"[{', '.join(side)}]" for side in (self.input_layout, self.kernel_layout)) + (
            f"->[{', '.join(self.output_layout)}]"
        )


def _letters(a: int, a_name: str, b: int, b_name: str, spatial: Ints) -> tuple[str, ...]:
    out = ["?"] * (len(spatial) + 2)
    for pos, name in ((a, a_name), (b, b_name), *((p, str(k)) for k, p in enumerate(spatial))):
        if not 0 <= pos < len(out) or out[pos] != "?":
            raise AttrError(f"#stablehlo.conv: dimension {pos} is out of range or used twice")
        out[pos] = name
    return tuple(out)


# ---- `#stablehlo<kind VALUE>` enums --------------------------------------------------------------


class ComparisonDirection(StrEnum):
    """`#stablehlo<comparison_direction GT>`."""

    EQ = "EQ"
    NE = "NE"
    GE = "GE"
    GT = "GT"
    LE = "LE"
    LT = "LT"


class ComparisonType(StrEnum):
    """`#stablehlo<comparison_type FLOAT>`."""

    NOTYPE = "NOTYPE"
    FLOAT = "FLOAT"
    TOTALORDER = "TOTALORDER"
    SIGNED = "SIGNED"
    UNSIGNED = "UNSIGNED"


class Precision(StrEnum):
    """`#stablehlo<precision DEFAULT>`."""

    DEFAULT = "DEFAULT"
    HIGH = "HIGH"
    HIGHEST = "HIGHEST"


ENUMS: dict[str, type[StrEnum]] = {
    "comparison_direction": ComparisonDirection,
    "comparison_type": ComparisonType,
    "precision": Precision,
}


class StablehloEnumAttr(DialectModel):
    """A `#stablehlo<kind VALUE>` enum attribute (or its long form `#stablehlo.kind<VALUE>`)."""

    attr_name: ClassVar[str] = "stablehlo"

    kind: str
    value: str

    @classmethod
    @lru_cache(maxsize=256)
    def parse(cls, body: str) -> StablehloEnumAttr:
        """`comparison_direction GT`."""
        c = Cursor(body)
        kind = c.ident("an enum kind")
        enum = ENUMS.get(kind)  # other kinds (fft_type, transpose, ...) are kept unchecked
        word = c.ident(f"a {kind} value")
        c.end()
        if enum is not None and word not in enum.__members__:
            raise AttrError(f"'{word}' is not a {kind} (expected one of {', '.join(enum.__members__)})")
        return cls(kind=kind, value=word)

    @property
    def member(self) -> StrEnum | None:
        """The enum member (`ComparisonDirection.GT`), None for a kind without a declared enum."""
        enum = ENUMS.get(self.kind)
        return enum(self.value) if enum is not None else None

    def print_body(self) -> str:
        """`comparison_direction GT`."""
        return f"{self.kind} {self.value}"


for _cls in (DotDimensionNumbers, GatherDimensionNumbers, ScatterDimensionNumbers, ConvDimensionNumbers, StablehloEnumAttr):
    register_attr(_cls.attr_name, _cls.parse)
