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
| dense   | `dense<...> : T`, `dense_resource<k> : T`   | the attribute        |
| array   | `[...]`                                     | tuple of attributes  |
| dict    | `{...}`                                     | dict[str, attribute] |
| type    | a type used as an attribute                 | Type                 |
| attr    | anything (dialect attributes, enums)        | the attribute        |
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
    DictAttr,
    FloatAttr,
    IntegerAttr,
    StringAttr,
    SymbolRefAttr,
    TypeAttr,
    TypedOpaqueAttr,
    UnitAttr,
)

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation


@dataclass(frozen=True)
class Prop:
    """One declared property of an op."""

    name: str
    kind: str = "attr"
    required: bool = True
    default: Any = None


def _ints(a: Attribute) -> tuple[int, ...] | None:
    if isinstance(a, DenseArrayAttr) and a.element.startswith(("i", "si", "ui")) and a.element != "i1":
        return tuple(int(v) for v in a.values)
    if isinstance(a, DenseElementsAttr):
        values = a.values
        if isinstance(values, int):  # a splat
            shape = getattr(a.type, "shape", ())
            return (values,) * (shape[0] if len(shape) == 1 and shape[0] is not None else 1)
        if isinstance(values, list) and all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            return tuple(values)
    return None


# kind -> (decode: attribute -> value, or None when the attribute is not of the kind; description)
KINDS: dict[str, tuple[Callable[[Attribute], Any], str]] = {
    "int": (lambda a: a.value if isinstance(a, IntegerAttr) else None, "an integer attribute"),
    "ints": (_ints, "an integer array (array<i64: ...>)"),
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


def decode(prop: Prop, attr: Attribute) -> Any:
    """The view value of `attr` for `prop` (None when it is not of the declared kind)."""
    return KINDS[prop.kind][0](attr.resolve())


def check_properties(op: Operation, declared: tuple[Prop, ...]) -> None:
    """Raise ValueError (MLIR's wording) for a missing required property or one of the wrong kind."""
    have = op.properties
    for p in declared:
        a = have.get(p.name)
        if a is None:
            if p.required:
                raise ValueError(f"requires attribute '{p.name}'")
            continue
        if decode(p, a) is None:
            raise ValueError(f"attribute '{p.name}' failed to satisfy constraint: {KINDS[p.kind][1]}, got {a.text}")


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
        a = self._op.properties.get(name)
        if a is None:
            if p.required:
                raise ValueError(f"'{self._op.name}' op requires attribute '{name}'")
            return p.default
        value = decode(p, a)
        if value is None:
            raise ValueError(f"'{self._op.name}' op attribute '{name}' is not {KINDS[p.kind][1]}")
        return value


def props(op: Operation) -> PropertyView:
    """The typed view of `op`'s declared properties (the verifier has checked them)."""
    return PropertyView(op)
