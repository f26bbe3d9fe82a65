"""Builtin attributes: the generic, dialect-agnostic attribute values MLIR text can hold.

Every attribute knows its textual form (`.text`). Attributes parsed from a file keep their exact
source spelling, so printing never reformats what a pass did not touch; attributes built by
passes compute a canonical MLIR spelling. Dialect attributes (`#dialect.name<...>`) keep their
body as text and expose a typed, validated view through the dialect registry (`.typed`).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Callable, Iterator

from ttopt.ir.dense_spelling import dense_float_body, float_element_kind
from ttopt.ir.float_spelling import SEMANTICS, float_from_bits, float_text, format_float, round_to
from ttopt.ir.spelled import Spelled, keyword_or_string, quote, symbol_ref
from ttopt.ir.text_bodies import decode

if TYPE_CHECKING:
    from ttopt.ir.types import Type


class Attribute(Spelled):
    """Base class: an immutable attribute value with a textual form.

    Equality is structural: two attributes are equal when their values are, however they were
    spelled (`1` and `1 : i64`, `{a = 1, b = 2}` and `{b = 2, a = 1}`, a dialect body with or
    without spaces). `canonical()` is that value's one spelling; printing still uses `.text`.
    """

    __slots__ = ("_canon",)

    def canonical(self) -> str:
        """The value's structural spelling: aliases expanded, default types explicit, dictionary keys
        sorted, dialect bodies reprinted from their typed model. Equal attributes, equal text."""
        target = self.resolve()
        try:
            return target._canon  # type: ignore[no-any-return]
        except AttributeError:
            c = target._canon = target.structural()
            return c

    def structural(self) -> str:
        """Compute `canonical()` (cached there): the source text with aliases expanded."""
        scope = getattr(self, "scope", None)
        return scope.expand(self.text) if scope is not None else self.text

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        return isinstance(other, Attribute) and self.canonical() == other.canonical()

    def __hash__(self) -> int:
        return hash(self.canonical())


class IntegerAttr(Attribute):
    """`42`, `42 : i64`, `2 : si32` (type omitted means i64, as in MLIR)."""

    __slots__ = ("value", "type")

    def __init__(self, value: int, type: Type | None = None, text: str | None = None) -> None:
        super().__init__(text)
        self.value = value
        self.type = type

    def print(self) -> str:
        return f"{self.value} : {self.type.text}" if self.type is not None else str(self.value)

    def structural(self) -> str:
        """`1` and `1 : i64` are one value (MLIR's default integer type)."""
        return f"{self.value} : {_type_key(self.type, 'i64')}"


def _type_key(t: Type | None, default: str) -> str:
    return t.resolve().canonical() if t is not None else default


class FloatAttr(Attribute):
    """`1.000000e+00 : f32`: printed as MLIR prints it (ttopt/ir/float_spelling.py), whatever the
    literal was (the parser gives a parsed one that spelling)."""

    __slots__ = ("value", "type")

    def __init__(self, value: float, type: Type | None = None, text: str | None = None) -> None:
        super().__init__(text)
        self.value = value
        self.type = type

    def print(self) -> str:
        kind = self.type.resolve().text if self.type is not None else "f64"
        body = float_text(self.value, kind) if kind in SEMANTICS else format_float(self.value)
        return f"{body} : {self.type.text}" if self.type is not None else body

    def structural(self) -> str:
        """Exact value as its type holds it (`0.9 : f32` is `0.899999976 : f32`) and type, f64 when omitted."""
        key = _type_key(self.type, "f64")
        return f"{round_to(self.value, key)!r} : {key}"


def mlir_float_attr(attr: Any) -> Any:
    """`attr` re-spelled as MLIR prints it when it is a FloatAttr of a known float type that was
    built with a text of its own (parsed and built FloatAttrs print so already); any other
    attribute unchanged."""
    if not isinstance(attr, FloatAttr) or attr.type is None:
        return attr
    kind = attr.type.text
    if kind not in SEMANTICS:
        return attr
    rounded = round_to(attr.value, kind)
    if rounded != rounded or rounded in (float("inf"), float("-inf")):
        return attr
    return FloatAttr(attr.value, attr.type, f"{float_text(attr.value, kind)} : {kind}")


class BoolAttr(Attribute):
    """`true` / `false`."""

    __slots__ = ("value",)

    def __init__(self, value: bool, text: str | None = None) -> None:
        super().__init__(text)
        self.value = value

    def print(self) -> str:
        return "true" if self.value else "false"


class UnitAttr(Attribute):
    """`unit`, or a dictionary key with no value."""

    __slots__ = ()

    def print(self) -> str:
        return "unit"


_ESCAPE = re.compile(r"\\(?:([0-9a-fA-F]{2})|(.))", re.S)


def unquote(literal: str) -> str:
    """Decode an MLIR string literal (with its quotes)."""
    body = literal[1:-1]
    if "\\" not in body:
        return body
    raw = bytearray()
    pos = 0
    for m in _ESCAPE.finditer(body):
        raw += body[pos : m.start()].encode()
        if m.group(1):
            raw.append(int(m.group(1), 16))
        else:
            c = m.group(2)
            raw += {"n": b"\n", "t": b"\t"}.get(c, c.encode())
        pos = m.end()
    raw += body[pos:].encode()
    return raw.decode("utf-8", errors="replace")


class StringAttr(Attribute):
    """`"text"` (optionally `: type`)."""

    __slots__ = ("value", "type")

    def __init__(self, value: str, type: Type | None = None, text: str | None = None) -> None:
        super().__init__(text)
        self.value = value
        self.type = type

    def print(self) -> str:
        return quote(self.value) + (f" : {self.type.text}" if self.type is not None else "")

    def structural(self) -> str:
        """The decoded string, requoted one way."""
        return quote(self.value) + (f" : {_type_key(self.type, '')}" if self.type is not None else "")


class ArrayAttr(Attribute):
    """`[a, b, c]`."""

    __slots__ = ("items",)

    def __init__(self, items: tuple[Attribute, ...], text: str | None = None) -> None:
        super().__init__(text)
        self.items = items

    def print(self) -> str:
        return "[" + ", ".join(_element_text(a) for a in self.items) + "]"

    def structural(self) -> str:
        """Elements by value."""
        return "[" + ", ".join(a.canonical() for a in self.items) + "]"

    def __iter__(self) -> Iterator[Attribute]:
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)


def _element_text(a: Attribute) -> str:
    """Array elements print without MLIR's default types (i64 integers, f64 floats, but for an f64
    printed as its bits: MLIR reads an untyped hex literal as an integer)."""
    t = getattr(a, "type", None)
    if isinstance(a, IntegerAttr) and t is not None and t.text == "i64":
        return str(a.value)
    if isinstance(a, FloatAttr) and t is not None and t.text == "f64":
        body, sep, _ = a.text.rpartition(" : ")
        return body if sep and body[:2] != "0x" else a.text
    return a.text


class DictAttr(Attribute):
    """`{a = 1, b}`: ordered as written (MLIR sorts on construction; parsed files are sorted already)."""

    __slots__ = ("entries",)

    def __init__(self, entries: dict[str, Attribute], text: str | None = None) -> None:
        super().__init__(text)
        self.entries = entries

    def print(self) -> str:
        parts = []
        for k, v in self.entries.items():
            parts.append(keyword_or_string(k) if isinstance(v, UnitAttr) else f"{keyword_or_string(k)} = {v.text}")
        return "{" + ", ".join(parts) + "}"

    def structural(self) -> str:
        """Entries by value, keys sorted (MLIR dictionaries are sorted; written order is not meaning)."""
        return "{" + ", ".join(f"{keyword_or_string(k)} = {self.entries[k].canonical()}" for k in sorted(self.entries)) + "}"

    def get(self, key: str, default: Any = None) -> Any:
        return self.entries.get(key, default)

    def __contains__(self, key: str) -> bool:
        return key in self.entries


class DenseArrayAttr(Attribute):
    """`array<i64: 1, 2>`."""

    __slots__ = ("element", "values")

    def __init__(self, element: str, values: tuple, text: str | None = None) -> None:
        super().__init__(text)
        self.element = element
        self.values = values

    def print(self) -> str:
        if self.element == "i1":
            vals = ", ".join("true" if v else "false" for v in self.values)
        elif self.element in SEMANTICS:
            vals = ", ".join(float_text(v, self.element) for v in self.values)
        elif self.element.startswith(("f", "bf")):
            vals = ", ".join(format_float(v) for v in self.values)
        else:
            vals = ", ".join(str(v) for v in self.values)
        return f"array<{self.element}: {vals}>" if self.values else f"array<{self.element}>"

    def structural(self) -> str:
        """Element type and exact values."""
        return f"array<{self.element}: {', '.join(map(repr, self.values))}>"


class DenseElementsAttr(Attribute):
    """`dense<...> : tensor<...>`; values are decoded on demand (constants can be huge). `body`
    is the literal as written (or built); a float literal prints as MLIR prints it
    (ttopt/ir/dense_spelling.py), spelled when first printed."""

    __slots__ = ("body", "type", "_values")

    def __init__(self, body: str, type: Type, text: str | None = None, values: Any = None) -> None:
        super().__init__(text)
        self.body = body  # text between `dense<` and `>`
        self.type = type
        self._values = values

    def print(self) -> str:
        return f"dense<{self.spelled_body()}> : {self.type.text}"

    def spelled_body(self) -> str:
        """The body as MLIR prints it: float elements re-spelled, any other body as written."""
        t = self.type.resolve()
        shape = getattr(t, "shape", None)
        elem = getattr(t, "element_type", None)
        if shape is None or elem is None or None in shape:
            return self.body
        kind = float_element_kind(elem.resolve().text)
        if kind is None:
            return self.body
        spelled = dense_float_body(self.body, kind[0], kind[1], shape)
        return self.body if spelled is None else spelled

    @property
    def is_splat(self) -> bool:
        """True when one literal stands for every element."""
        b = self.body.strip()
        return not b.startswith("[") and not (b.startswith('"0x') and len(b) > 20)

    @property
    def values(self) -> Any:
        """Nested Python lists / scalars of the literal (hex blobs stay as a string); a float
        element written as its bits (`0x7F800000`) is that float, a signless `iN` one its
        two's-complement value (`18446744073709551615 : i64` is -1)."""
        if self._values is None:
            values = decode("dense", self.body)
            elem = getattr(self.type.resolve(), "element_type", None)
            name = elem.resolve().text if elem is not None else ""
            if "0x" in self.body and not self.body.lstrip().startswith('"') and name in ("f16", "bf16", "f32", "f64"):
                values = _bits_to_floats(values, name)
            elif name[:1] == "i" and name[1:].isdigit() and int(name[1:]) > 1:
                values = _wrapped(values, int(name[1:]))
            self._values = values
        return self._values


def _wrapped(v: Any, width: int) -> Any:
    """`v` with each int as a signless `iN` holds it: 2**N - 1 is -1 (MLIR reads `iN` literals up to
    2**N - 1 as two's-complement bits)."""
    if isinstance(v, list):
        return [_wrapped(x, width) for x in v]
    if isinstance(v, tuple):
        return tuple(_wrapped(x, width) for x in v)
    if isinstance(v, int) and not isinstance(v, bool) and v >= 1 << (width - 1):
        return v - (1 << width)
    return v


def _bits_to_floats(v: Any, name: str) -> Any:
    """`v` with every int (a hex float literal's bits) read as a float of type `name`."""
    if isinstance(v, list):
        return [_bits_to_floats(x, name) for x in v]
    if isinstance(v, tuple):
        return tuple(_bits_to_floats(x, name) for x in v)
    return float_from_bits(v, name) if isinstance(v, int) and not isinstance(v, bool) else v


class TypeAttr(Attribute):
    """A type used as an attribute value."""

    __slots__ = ("type",)

    def __init__(self, type: Type, text: str | None = None) -> None:
        super().__init__(text)
        self.type = type

    def print(self) -> str:
        return self.type.text

    def structural(self) -> str:
        """The type's canonical spelling."""
        return self.type.resolve().canonical()


class SymbolRefAttr(Attribute):
    """`@name` or `@root::@nested`."""

    __slots__ = ("root", "nested")

    def __init__(self, root: str, nested: tuple[str, ...] = (), text: str | None = None) -> None:
        super().__init__(text)
        self.root = root
        self.nested = nested

    def print(self) -> str:
        return "::".join(symbol_ref(n) for n in (self.root, *self.nested))


class OpaqueAttr(Attribute):
    """Any attribute kept exactly as its source text (affine maps, unknown builtin forms)."""

    __slots__ = ()

    def __init__(self, text: str) -> None:
        super().__init__(text)


class TypedOpaqueAttr(OpaqueAttr):
    """A typed literal kept as text (`sparse<...> : T`), with its type."""

    __slots__ = ("type",)

    def __init__(self, text: str, type: Type) -> None:
        super().__init__(text)
        self.type = type


class DenseResourceAttr(TypedOpaqueAttr):
    """`dense_resource<key> : T`: elements stored in the file's resource section under `key`."""

    __slots__ = ()

    @property
    def key(self) -> str:
        """The resource key (`blob1` in `dense_resource<blob1>`)."""
        return self.text[len("dense_resource<") : self.text.index(">")]


# `#dialect.name<body>` -> typed view factory, filled in by ttopt.dialects.
TypedAttrFactory = Callable[["DialectAttr"], Any]
DIALECT_ATTR_FACTORIES: dict[str, TypedAttrFactory] = {}
# Dialect name -> the check the parser runs when it reads `#dialect.mnemonic<body>`: given the
# attribute's name (`sdy.op_sharding_rule`) and body, (offset in the attribute's text, message) for
# what the dialect's own attribute parser refuses at once, else None. Only cheap checks belong
# here; the typed views stay lazy.
DIALECT_ATTR_CHECKS: dict[str, Callable[[str, str | None], tuple[int, str] | None]] = {}
# Checks of the discardable `dialect.*` attributes an op carries and of a function's argument and
# result attributes (MLIR's Dialect::verifyOperationAttribute / verifyRegionArgAttribute): each
# raises ValueError (the message without the op name) when the op's attributes are invalid. The IR
# verifier runs them on every op.
OP_ATTRIBUTE_VERIFIERS: list[Callable[[Any], None]] = []
# Discardable attributes that only their dialect's check among the above reads (no op definition's
# check does, nor another dialect's), with that check for ops whose only change is that attribute:
# a verification after a pass gives it all of them at once (a propagation writes thousands).
ATTRIBUTE_ONLY_VERIFIERS: dict[str, Callable[[list[Any]], None]] = {}
# Dialects whose attribute bodies hold FloatAttr parameters (`#ttnn.unary_with_param<..., params =
# [1.0 : f32]>`), filled in by ttopt.dialects: the parser spells a parsed body's typed float
# literals as MLIR prints them. Other dialects' bodies are kept as written (an unregistered
# dialect's attribute is opaque text to MLIR too).
FLOAT_PARAM_DIALECTS: set[str] = set()
# Dialect -> the modules that register its typed factories, imported on the first typed lookup
# of one of its attributes or types: the pydantic models cost ~0.1 s to import, which a plain
# parse/print run should not pay, and a module with only sdy attributes should not pay for ttnn's.
TYPED_ATTR_MODULES: dict[str, list[str]] = {}
_typed_loaded: set[str | None] = set()


def load_typed_factories(dialect: str | None = None) -> None:
    """Import the modules that register typed attribute/type factories: those of `dialect`, or
    every dialect's (None, or a dialect none are listed for). Each at most once."""
    if dialect in _typed_loaded:
        return
    import importlib

    for name in [dialect] if dialect in TYPED_ATTR_MODULES else list(TYPED_ATTR_MODULES):
        for mod in TYPED_ATTR_MODULES[name]:
            importlib.import_module(mod)
    _typed_loaded.add(dialect)


class DialectAttr(Attribute):
    """`#dialect.mnemonic<body>` / `#dialect<body>`: body kept as text, typed view on demand."""

    __slots__ = ("name", "body", "_typed", "scope")

    def __init__(self, name: str, body: str | None, text: str | None = None, typed: Any = None, scope: Any = None) -> None:
        super().__init__(text)
        self.name = name  # e.g. "ttnn.ttnn_layout", or "ttnn" for `#ttnn<mesh_shape 1x1>`
        self.body = body  # text inside the outer <...>, None when absent
        self._typed = typed
        self.scope = scope  # the module's AliasScope, for aliases named inside the body (`#dram`)

    def print(self) -> str:
        if self._typed is not None and hasattr(self._typed, "print_body"):
            return f"#{self.name}<{self._typed.print_body()}>"
        return f"#{self.name}" + (f"<{self.body}>" if self.body is not None else "")

    def structural(self) -> str:
        """The body reprinted from the dialect's typed model (source spelling when it has none or
        the body does not parse: such a body is reported by the verifier, not here)."""
        try:
            typed = self.typed
        except ValueError:  # AttrError: a malformed body
            typed = None
        if typed is not None and hasattr(typed, "print_body"):
            return f"#{self.name}<{typed.print_body()}>"
        return super().structural()

    @property
    def typed(self) -> Any:
        """The dialect's validated model for this attribute, or None if the dialect has none."""
        if self._typed is None:
            load_typed_factories(self.name.partition(".")[0])
            factory = DIALECT_ATTR_FACTORIES.get(self.name)
            if factory is None:
                return None
            self._typed = factory(self)
        return self._typed

    @classmethod
    def of(cls, model: Any) -> DialectAttr:
        """Wrap a typed dialect model (must provide `attr_name` and `print_body()`)."""
        body = model.print_body()
        return cls(model.attr_name, body, f"#{model.attr_name}<{body}>", typed=model)


class AliasRef(Attribute):
    """`#name`: a reference to a module-level attribute alias, resolved lazily (forward refs)."""

    __slots__ = ("name", "scope", "_target", "_version")
    _target: Attribute
    _version: int

    def __init__(self, name: str, scope: Any) -> None:
        super().__init__("#" + name)
        self.name = name
        self.scope = scope
        self._version = -1  # the definition table's version `_target` was resolved at

    def resolve(self) -> Attribute:
        # Resolved once per version of the scope's table: the optimizer resolves the same layout
        # aliases hundreds of thousands of times on a 10k-op module.
        if self._version == self.scope.defs.version:
            return self._target
        target = self.scope.attr(self.name).resolve()
        self._target, self._version = target, self.scope.defs.version
        return target

    @property
    def typed(self) -> Any:
        """Typed view of the alias target."""
        return getattr(self.resolve(), "typed", None)


class LocationAttr(Attribute):
    """A location used as an attribute value (`loc(...)`)."""

    __slots__ = ("location",)

    def __init__(self, location: Any, text: str | None = None) -> None:
        super().__init__(text)
        self.location = location

    def print(self) -> str:
        return self.location.text
