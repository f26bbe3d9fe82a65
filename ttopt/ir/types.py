"""Builtin types. Like attributes, parsed types keep their exact spelling; built ones print canonically."""

from __future__ import annotations

import re
from typing import Any

from ttopt.ir.attributes import load_typed_factories
from ttopt.ir.spelled import Spelled


class Type(Spelled):
    """Base class: an immutable type with a textual form."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        return isinstance(other, Type) and self.resolve().canonical() == other.resolve().canonical()

    def __hash__(self) -> int:
        return hash(self.resolve().canonical())

    def canonical(self) -> str:
        """Spelling with aliases expanded; equal types have equal canonical spellings."""
        return self.text


class ScalarType(Type):
    """Integer, float, index and none types: `f32`, `bf16`, `i1`, `si32`, `ui8`, `index`."""

    __slots__ = ()

    def __init__(self, name: str) -> None:
        super().__init__(name)

    @property
    def name(self) -> str:
        return self.text

    @property
    def bitwidth(self) -> int:
        """Storage width in bits (index: 64)."""
        n = self.text
        if n == "index":
            return 64
        if n in ("bf16", "f16"):
            return 16
        if n == "tf32":
            return 19
        m = re.match(r"[a-z]*?(\d+)", n)
        return int(m.group(1)) if m else 0

    @property
    def is_float(self) -> bool:
        return self.text.startswith(("f", "bf", "tf"))

    @property
    def is_integer(self) -> bool:
        return self.text.startswith(("i", "si", "ui")) and self.text != "index"


class TensorType(Type):
    """`tensor<64x64xbf16[, encoding]>`; `None` in a shape is a dynamic `?` dimension, and a
    `None` shape is an unranked `tensor<*xf32>`."""

    __slots__ = ("shape", "element_type", "encoding", "_canon")

    def __init__(
        self,
        shape: tuple[int | None, ...] | None,
        element_type: Type,
        encoding: Any = None,
        text: str | None = None,
    ) -> None:
        super().__init__(text)
        self.shape = shape
        self.element_type = element_type
        self.encoding = encoding
        self._canon: str | None = None

    def print(self) -> str:
        enc = f", {self.encoding.text}" if self.encoding is not None else ""
        return f"tensor<{_dims(self.shape)}{self.element_type.text}{enc}>"

    def canonical(self) -> str:
        c = self._canon
        if c is None:
            dims = _dims(self.shape)
            enc = self.encoding
            enc_t = f", {_canonical_attr(enc)}" if enc is not None else ""
            c = self._canon = f"tensor<{dims}{self.element_type.resolve().canonical()}{enc_t}>"
        return c

    @property
    def is_ranked(self) -> bool:
        return self.shape is not None

    @property
    def rank(self) -> int:
        """Number of dimensions (-1 for an unranked `tensor<*x...>`)."""
        return len(self.shape) if self.shape is not None else -1

    def with_shape(self, shape: tuple[int | None, ...]) -> TensorType:
        """Same element type and encoding, another shape."""
        return TensorType(tuple(shape), self.element_type, self.encoding)

    def with_encoding(self, encoding: Any) -> TensorType:
        """Same shape and element type, another encoding (None drops it)."""
        return TensorType(self.shape, self.element_type, encoding)

    @property
    def num_elements(self) -> int:
        n = 1
        for d in self.shape or (0,):
            n *= d if d is not None else 0
        return n


def _dims(shape: tuple[int | None, ...] | None) -> str:
    if shape is None:
        return "*x"
    return "".join(("?" if d is None else str(d)) + "x" for d in shape)


def _canonical_attr(attr: Any) -> str:
    return attr.canonical()


class FunctionType(Type):
    """`(A, B) -> C` / `(A) -> (B, C)`."""

    __slots__ = ("inputs", "results")

    def __init__(self, inputs: tuple[Type, ...], results: tuple[Type, ...], text: str | None = None) -> None:
        super().__init__(text)
        self.inputs = inputs
        self.results = results

    def print(self) -> str:
        ins = ", ".join(t.text for t in self.inputs)
        return f"({ins}) -> {format_result_types(self.results)}"

    def canonical(self) -> str:
        ins = ", ".join(t.resolve().canonical() for t in self.inputs)
        outs = ", ".join(t.resolve().canonical() for t in self.results)
        return f"({ins}) -> ({outs})"


def format_result_types(results: tuple[Type, ...] | list[Type]) -> str:
    """`T` for one non-function result, `(A, B)` otherwise (MLIR's rule)."""
    if len(results) == 1 and not isinstance(results[0], FunctionType):
        return results[0].text
    return "(" + ", ".join(t.text for t in results) + ")"


class OpaqueType(Type):
    """Any other type, kept as source text: dialect types (`!ttnn.device`), memref, vector, tuple, complex."""

    __slots__ = ("name", "body", "_typed", "scope")

    def __init__(self, text: str, name: str = "", body: str | None = None, scope: Any = None) -> None:
        super().__init__(text)
        self.name = name  # e.g. "ttcore.tile", "memref", "ttnn.device"
        self.body = body
        self._typed: Any = None
        self.scope = scope

    def canonical(self) -> str:
        return self.scope.expand(self.text) if self.scope is not None else self.text

    @property
    def typed(self) -> Any:
        """Dialect model for this type (e.g. ttcore.tile), or None."""
        if self._typed is None:
            load_typed_factories(self.name.partition(".")[0])
            factory = DIALECT_TYPE_FACTORIES.get(self.name)
            if factory is not None:
                self._typed = factory(self)
        return self._typed


DIALECT_TYPE_FACTORIES: dict[str, Any] = {}


class TypeAliasRef(Type):
    """`!name`: a reference to a module-level type alias."""

    __slots__ = ("name", "scope")

    def __init__(self, name: str, scope: Any) -> None:
        super().__init__("!" + name)
        self.name = name
        self.scope = scope

    def resolve(self) -> Type:
        return self.scope.type(self.name).resolve()

    def canonical(self) -> str:
        return self.resolve().canonical()

    def __getattr__(self, item: str) -> Any:
        # Let code treat an aliased tensor type as the tensor type it names.
        return getattr(self.resolve(), item)


def static_shape(t: Any) -> tuple[int, ...]:
    """The dimensions of a ranked, static tensor type (ValueError for any other type)."""
    shape = getattr(t, "shape", None)
    if shape is None or any(not isinstance(d, int) for d in shape):
        raise ValueError(f"expected a tensor of static shape, got {getattr(t, 'text', t)}")
    return tuple(shape)
