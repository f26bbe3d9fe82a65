"""Typed views of the IR the sharding passes read: a ranked static tensor type, integer and
string attribute values (for the type checker only; nothing is checked at run time)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, cast

from ttopt.ir.attributes import Attribute, IntegerAttr, StringAttr

if TYPE_CHECKING:
    from ttopt.ir.types import TensorType, Type
    from ttopt.ir.values import Value


# The passes read IR whose kinds the op definitions fix (a `sym_name` is a string, a group count an
# integer, a sharded value a ranked tensor of static shape). These views state that for the type
# checker only: they do not check at run time, so a value of another kind fails where it is read,
# exactly as when the attribute was read directly.
class StaticTensorType(Protocol):
    """A ranked tensor type of static shape: a TensorType, or a `!alias` of one (which forwards
    these attributes to its target)."""

    @property
    def shape(self) -> tuple[int, ...]: ...
    @property
    def rank(self) -> int: ...
    @property
    def element_type(self) -> Type: ...
    @property
    def encoding(self) -> Any: ...
    def with_shape(self, shape: tuple[int | None, ...]) -> TensorType: ...
    def canonical(self) -> str: ...


def static_tensor(t: Type) -> StaticTensorType:
    """`t`, read as a ranked tensor type of static shape (no runtime check)."""
    return cast("StaticTensorType", t)


def tensor_type(v: Value) -> StaticTensorType:
    """`v.type`, read as a ranked tensor type of static shape (no runtime check)."""
    return cast("StaticTensorType", v.type)


def int_value(a: Attribute) -> int:
    """`a.value` of an integer attribute (no runtime check)."""
    return cast(IntegerAttr, a).value


def str_value(a: Attribute) -> str:
    """`a.value` of a string attribute (no runtime check)."""
    return cast(StringAttr, a).value
