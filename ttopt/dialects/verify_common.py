"""What the TTIR and TTNN op verifiers (ttir_verify_*.py, ttnn_verify_*.py) read from an op:
operand and result shapes and element types, attribute values in the spellings HEAD's ODS accepts,
MLIR's broadcast rule and HEAD's `join`. A verifier raises ValueError(HEAD's message); the IR
verifier reports it at the op as `'ttnn.x' op <message>`.

Shapes with a dynamic (`?`) dim or no rank read as None: a check that needs a dim skips rather
than guessing (a dynamic dimension cannot contradict it)."""

from __future__ import annotations

from typing import Any, Iterable, Sequence

from ttopt.ir.attributes import BoolAttr, DialectAttr, FloatAttr, IntegerAttr, StringAttr, UnitAttr
from ttopt.ir.properties import int_values
from ttopt.ir.types import OpaqueType, TensorType

TILE = 32  # ttnn::TILE_HEIGHT == TILE_WIDTH


def tensor_type(value: Any) -> TensorType | None:
    """The value's tensor type (aliases resolved), or None for a device or other non-tensor."""
    t = value.type.resolve()
    return t if isinstance(t, TensorType) else None


def shape(value: Any) -> tuple[int, ...] | None:
    """The static shape of a tensor value; None when unranked, dynamic or not a tensor."""
    t = tensor_type(value)
    if t is None or t.shape is None or any(d is None for d in t.shape):
        return None
    return tuple(d for d in t.shape if d is not None)


def element(value: Any) -> str | None:
    """The element type as MLIR prints it (`bf16`, `ui32`, `!ttcore.tile<32x32, bf16>`)."""
    t = tensor_type(value)
    return t.element_type.resolve().text if t is not None else None


def tensors(values: Iterable[Any]) -> list[Any]:
    """The tensor-typed values (a TTNN op's device operand is not one)."""
    return [v for v in values if tensor_type(v) is not None]


def is_device(value: Any) -> bool:
    """Whether the value is a `!ttnn.device`."""
    t = value.type.resolve()
    return isinstance(t, OpaqueType) and t.text.startswith("!ttnn.device")


def attr(op: Any, name: str) -> Any:
    """The resolved attribute, or None."""
    a = op.get_attr(name)
    return a.resolve() if a is not None else None


def int_attr(op: Any, name: str, default: int | None = None) -> int | None:
    """An integer attribute's value (`3 : i32`)."""
    a = attr(op, name)
    if isinstance(a, IntegerAttr) and isinstance(a.value, int) and not isinstance(a.value, bool):
        return a.value
    return default


def ints_attr(op: Any, name: str) -> tuple[int, ...] | None:
    """An integer-array attribute's values (`array<i32: 1, 2>`, `[1, 2]`, `#ttnn.shape<1x2>`)."""
    a = attr(op, name)
    if isinstance(a, DialectAttr) and a.name == "ttnn.shape":
        body = str(getattr(a, "body", "")).strip()
        if not body:
            return ()
        parts = [p.strip() for p in body.split("x")]
        return tuple(int(p) for p in parts) if all(p.lstrip("-").isdigit() for p in parts) else None
    return int_values(a)


def bool_attr(op: Any, name: str, default: bool = False) -> bool:
    """A boolean attribute (`true`, or a unit attribute)."""
    a = attr(op, name)
    if isinstance(a, UnitAttr):
        return True
    if isinstance(a, BoolAttr):
        return bool(a.value)
    return default if a is None else bool(getattr(a, "value", default))


def float_attr(op: Any, name: str) -> float | None:
    """A float (or integer) attribute's value."""
    a = attr(op, name)
    if isinstance(a, (FloatAttr, IntegerAttr)) and not isinstance(a.value, bool):
        return float(a.value)
    return None


def str_attr(op: Any, name: str) -> str | None:
    """A string attribute's value."""
    a = attr(op, name)
    return a.value if isinstance(a, StringAttr) else None


def join(values: Iterable[Any], sep: str = ",") -> str:
    """ttmlir::utils::join."""
    return sep.join(str(v) for v in values)


def in_dims(dim: int, rank: int) -> bool:
    """Whether `dim` indexes a rank-`rank` tensor, negative dims counting from the end."""
    return -rank <= dim < rank


def layout(value: Any) -> Any:
    """The value's `#ttnn.ttnn_layout` model (TTNNLayoutAttr), or None without one."""
    from ttopt.dialects.ttnn_layout import TTNNLayoutAttr  # the layout model loads the device tables: only when asked

    t = tensor_type(value)
    enc = t.encoding if t is not None else None
    typed = getattr(enc.resolve(), "typed", None) if enc is not None else None
    return typed if isinstance(typed, TTNNLayoutAttr) else None


def dtype(value: Any) -> str | None:
    """ttcore::elementTypeToDataType: a tile's element type is its scalar's."""
    e = element(value)
    if e is not None and e.startswith("!ttcore.tile<"):
        return e.rsplit(",", 1)[-1].rstrip(">").strip()
    return e


def operands_named(op: Any, names: tuple[str, ...]) -> dict[str, Any]:
    """The op's operands by ODS name: through `operandSegmentSizes` when the op has one (each
    name's segment of 0 or 1 operand), else in order; a name with no operand is missing."""
    sizes = ints_attr(op, "operandSegmentSizes")
    out: dict[str, Any] = {}
    if sizes is None or len(sizes) != len(names):
        return dict(zip(names, op.operands))
    i = 0
    for name, n in zip(names, sizes):
        if n == 1 and i < len(op.operands):
            out[name] = op.operands[i]
        i += n
    return out


def result_shape(op: Any, index: int = 0) -> tuple[int, ...] | None:
    """The static shape of result `index`, else None."""
    return shape(op.results[index]) if len(op.results) > index else None


def broadcast(a: Sequence[int], b: Sequence[int]) -> tuple[int, ...] | None:
    """OpTrait::util::getBroadcastedShape of two static shapes; None when they do not broadcast."""
    out: list[int] = []
    for i in range(1, max(len(a), len(b)) + 1):
        x = a[-i] if i <= len(a) else 1
        y = b[-i] if i <= len(b) else 1
        if x != y and x != 1 and y != 1:
            return None
        out.append(y if x == 1 else x)
    return tuple(reversed(out))
