"""Declared op properties: each op lists its properties (name, kind, required or default) once,
the verifier checks them at the op's position, and passes read them through a typed view
(`props(op).permutation`) instead of string-keyed dictionary reads.

Kinds name what the value must be and what the view returns:

| kind    | attribute                                   | view value           |
|---------|---------------------------------------------|----------------------|
| int     | `3 : i64`                                   | int                  |
| ints    | `array<i64: 1, 0>` (or an integer `dense`)  | tuple[int, ...]      |
| bool    | `true`, or a unit attribute                 | bool                 |
| float   | `1.0e-05 : f32`                             | float                |
| str     | `"name"`                                    | str                  |
| symbol  | `@callee`                                   | str (the root name)  |
| groups  | a 2-D integer `dense<..>` (replica groups)  | tuple[int, ...] flat |
| dense   | `dense<...> : T`, `dense_resource<k> : T`   | the attribute        |
| array   | `[...]`                                     | tuple of attributes  |
| dict    | `{...}`                                     | dict[str, attribute] |
| type    | a type used as an attribute                 | Type                 |
| attr    | anything                                    | the attribute        |
| d.name  | `#d.name<body>` (e.g. `stablehlo.dot`)      | str (the body)       |
| enum:d.e| `#d<e VALUE>` or `#d.e<VALUE>`              | str (the body)       |
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

from ttopt.ir.attributes import (
    ArrayAttr,
    Attribute,
    BoolAttr,
    DenseArrayAttr,
    DenseElementsAttr,
    DialectAttr,
    DictAttr,
    FloatAttr,
    IntegerAttr,
    StringAttr,
    SymbolRefAttr,
    TypeAttr,
    TypedOpaqueAttr,
    UnitAttr,
)
from ttopt.ir.types import ScalarType

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation


@dataclass(frozen=True)
class Prop:
    """One declared property of an op."""

    name: str
    kind: str = "attr"
    required: bool = True
    default: Any = None


def int_values(a: Attribute | None) -> tuple[int, ...] | None:
    """The integers of an integer-array property in any spelling: `array<i64: ..>`, `[1, 2]`, or an
    integer `dense<..>` (flattened, a splat repeated to the element count); None if it is none."""
    if a is None:
        return None
    a = a.resolve()
    if isinstance(a, DenseArrayAttr):
        ok = a.element.startswith(("i", "si", "ui")) and a.element != "i1"
        if ok and all(isinstance(v, int) and not isinstance(v, bool) for v in a.values):
            return tuple(a.values)
        return None
    if isinstance(a, ArrayAttr):
        items = [x.resolve() for x in a.items]
        return tuple(x.value for x in items) if all(isinstance(x, IntegerAttr) for x in items) else None
    if not isinstance(a, DenseElementsAttr):
        return None
    ty = a.type.resolve()
    element = getattr(ty, "element_type", None)
    element = element.resolve() if element is not None else None
    if not (isinstance(element, ScalarType) and element.is_integer):
        return None
    try:
        values = a.values
    except Exception:  # noqa: BLE001 - a malformed literal is simply not an integer array
        return None
    flat: list[int] = []
    stack = [values]
    while stack:
        x = stack.pop()
        if isinstance(x, (list, tuple)):
            stack.extend(reversed(x))
        elif isinstance(x, int) and not isinstance(x, bool):
            flat.append(x)
        else:
            return None
    if a.is_splat and len(flat) == 1:
        count = 1
        for d in getattr(ty, "shape", None) or ():
            count *= d or 0
        return tuple(flat) * count
    return tuple(flat)


def _groups(a: Attribute) -> tuple[int, ...] | None:
    """A 2-D integer `dense<..>` (replica groups, source-target pairs), flattened."""
    ty = a.type.resolve() if isinstance(a, DenseElementsAttr) else None
    shape = getattr(ty, "shape", None)
    return int_values(a) if shape is not None and len(shape) == 2 else None


def _dialect_kind(kind: str) -> tuple[Callable[[Attribute], Any], str]:
    """`enum:<dialect>.<enum>` (`#stablehlo<comparison_direction GT>` or the long form
    `#stablehlo.comparison_direction<GT>`): the body; or `<dialect>.<attr>` (`#stablehlo.dot<...>`):
    the dialect's typed model when it has one, else the body."""
    if kind.startswith("enum:"):
        dialect, _, enum = kind[5:].partition(".")

        def enum_body(a: Attribute) -> Any:
            if isinstance(a, DialectAttr) and (
                a.name == f"{dialect}.{enum}" or (a.name == dialect and (a.body or "").split()[:1] == [enum])
            ):
                return a.body or ""
            return None

        return enum_body, f"a #{dialect}<{enum} ...> attribute"

    def dialect_value(a: Attribute) -> Any:
        if not (isinstance(a, DialectAttr) and a.name == kind):
            return None
        typed = a.typed  # the dialect's model; an AttrError (a ValueError) when the body is malformed
        return typed if typed is not None else (a.body or "")

    return dialect_value, f"a #{kind} attribute"


# kind -> (decode: attribute -> value, or None when the attribute is not of the kind; description)
KINDS: dict[str, tuple[Callable[[Attribute], Any], str]] = {
    "int": (lambda a: a.value if isinstance(a, IntegerAttr) else None, "an integer attribute"),
    "ints": (int_values, "an integer array (array<i64: ...>)"),
    "groups": (_groups, "a 2-D dense integer tensor"),
    "bool": (lambda a: a.value if isinstance(a, BoolAttr) else (True if isinstance(a, UnitAttr) else None), "a boolean"),
    "float": (lambda a: a.value if isinstance(a, FloatAttr) else None, "a float attribute"),
    "str": (lambda a: a.value if isinstance(a, StringAttr) else None, "a string"),
    "symbol": (lambda a: a.root if isinstance(a, SymbolRefAttr) else None, "a symbol reference (@name)"),
    "dense": (lambda a: a if isinstance(a, (DenseElementsAttr, TypedOpaqueAttr)) else None, "an elements attribute (dense<...> : T)"),
    "array": (lambda a: a.items if isinstance(a, ArrayAttr) else None, "an array attribute ([...])"),
    "dict": (lambda a: dict(a.entries) if isinstance(a, DictAttr) else None, "a dictionary attribute"),
    "type": (lambda a: a.type if isinstance(a, TypeAttr) else None, "a type attribute"),
    "attr": (lambda a: a, "an attribute"),
}


def kind_of(kind: str) -> tuple[Callable[[Attribute], Any], str]:
    """(decoder, description) of a kind: a fixed one from KINDS, or a dialect attribute / enum."""
    return KINDS.get(kind) or _dialect_kind(kind)


# Attributes are never changed in place, so a decoded value is kept per (attribute object,
# kind) and decoded once (the verifier and every pass read the same properties): the entry holds
# the attribute, so its id stays its own; the table is dropped when it grows past _DECODED_LIMIT.
# Kinds whose value is a fresh mutable container (`array`, `dict`) are decoded every time.
_DECODED_LIMIT = 200_000
_DECODED: dict[tuple[int, str], tuple[Attribute, Any]] = {}
_FRESH_KINDS = frozenset({"array", "dict"})


def decode(prop: Prop, attr: Attribute) -> Any:
    """The view value of `attr` for `prop` (None when it is not of the declared kind)."""
    a = attr.resolve()
    kind = prop.kind
    if kind in _FRESH_KINDS:
        return kind_of(kind)[0](a)
    key = (id(a), kind)
    hit = _DECODED.get(key)
    if hit is None or hit[0] is not a:
        if len(_DECODED) > _DECODED_LIMIT:
            _DECODED.clear()
        hit = _DECODED[key] = (a, kind_of(kind)[0](a))
    return hit[1]


def check_properties(op: Operation, declared: tuple[Prop, ...]) -> None:
    """Raise ValueError (MLIR's wording) for a missing required property or one of the wrong kind."""
    for p in declared:
        a = op.get_attr(p.name)
        if a is None:
            if p.required:
                raise ValueError(f"requires attribute '{p.name}'")
            continue
        if decode(p, a) is None:
            raise ValueError(f"attribute '{p.name}' failed to satisfy constraint: {kind_of(p.kind)[1]}, got {a.text}")


class PropertyView:
    """Typed, read-only access to an op's declared properties (`props(op).iota_dimension`)."""

    __slots__ = ("_op", "_declared")

    def __init__(self, op: Operation) -> None:
        d = op.opdef
        self._op = op
        self._declared = {p.name: p for p in d.props} if d is not None else {}

    def __getattr__(self, name: str) -> Any:
        p = self._declared.get(name)
        if p is None:
            raise AttributeError(f"'{self._op.name}' declares no property '{name}'")
        a = self._op.get_attr(name)
        if a is None:
            if p.required:
                raise ValueError(f"'{self._op.name}' op requires attribute '{name}'")
            return p.default
        value = decode(p, a)
        if value is None:
            raise ValueError(f"'{self._op.name}' op attribute '{name}' is not {kind_of(p.kind)[1]}")
        return value


def props(op: Operation) -> PropertyView:
    """The typed view of `op`'s declared properties (the verifier has checked them)."""
    return PropertyView(op)
