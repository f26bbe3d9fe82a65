"""Reading a `stablehlo.custom_call`'s `mhlo.frontend_attributes`: torch-xla and tt-xla pass the
options of the `tt.*` custom calls there as strings (`is_causal = "True"`, `scale = "0.125"`), and
tt-mlir parses them into typed TTIR attributes. A malformed value is `Unsupported`, naming it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ttopt.ir.attributes import DictAttr, FloatAttr, IntegerAttr, StringAttr
from ttopt.ir.types import ScalarType
from ttopt.lowering.dense_values import float_text
from ttopt.lowering.stablehlo_handlers import Unsupported

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation

F32, UI32, I32 = ScalarType("f32"), ScalarType("ui32"), ScalarType("i32")


def frontend_attributes(op: Operation) -> dict[str, str]:
    """The op's `mhlo.frontend_attributes` entries that are strings (empty when it has none)."""
    a = op.attributes.get("mhlo.frontend_attributes")
    d = a.resolve() if a is not None else None
    if not isinstance(d, DictAttr):
        return {}
    out = {}
    for k, v in d.entries.items():
        s = v.resolve()
        if isinstance(s, StringAttr):
            out[k] = str(s.value)
    return out


def flag(attrs: dict[str, str], name: str, default: bool | None = None) -> bool:
    """A "True"/"False" attribute (any case); `default` when absent, else absent is an error."""
    text = attrs.get(name)
    if text is None:
        if default is None:
            raise Unsupported(f"{name} attribute must be present")
        return default
    if text.lower() not in ("true", "false"):
        raise Unsupported(f'{name} attribute must be true or false, got "{text}"')
    return text.lower() == "true"


def unsigned(attrs: dict[str, str], name: str, type: ScalarType = UI32) -> IntegerAttr | None:
    """A non-negative integer attribute as `N : ui32` (None when absent)."""
    text = attrs.get(name)
    if text is None:
        return None
    if not text.strip().isdigit() or int(text) >= 1 << 32:
        raise Unsupported(f'{name} attribute must be a non-negative integer, got "{text}"')
    return IntegerAttr(int(text), type)


def f32(attrs: dict[str, str], name: str) -> FloatAttr | None:
    """A float attribute as `X : f32` in MLIR's spelling of the f32 value (None when absent)."""
    text = attrs.get(name)
    if text is None:
        return None
    try:
        value = float(text)
    except ValueError:
        raise Unsupported(f'{name} attribute must be a float, got "{text}"') from None
    return FloatAttr(value, F32, text=f"{float_text(value)} : f32")
