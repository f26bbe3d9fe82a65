"""Constant TTIR values as canonicalization reads and writes them (tt-mlir's TTIR constant folding).

A value is constant when a `ttir.full`, `ttir.zeros`, `ttir.ones` (tt-mlir's ConstantLike creation
ops) or `ttir.constant` defines it; `constant_of` reads its elements in the result's element type
(a `full`'s 32-bit fill value converted as tt-mlir's FullOp folder converts it). `splat_fill` is
what tt-mlir's `getConstantValue` reads: the fill of a `full`/`zeros`/`ones` (or of a splat
constant, which tt-mlir has made a `full` by then).

`materialize` is tt-mlir's TTIRDialect::materializeConstant: a splat of +0 is `ttir.zeros`, of 1
`ttir.ones`, any other splat a `ttir.full` (fill value f32 for float element types, i32 for
integers), and other values (a splat a `full` cannot hold too, see `fits_fill`) a `ttir.constant`. It builds the op where the folded op stands (MLIR
hoists folded constants to the top of the function and merges equal ones; `cse` merges them here).
"""

from __future__ import annotations

import math
import re
import struct
from dataclasses import dataclass
from math import prod
from typing import TYPE_CHECKING, Any

from ttopt.ir.attributes import DenseArrayAttr, DenseElementsAttr, FloatAttr, IntegerAttr, mlir_float_attr
from ttopt.ir.float_spelling import float_text as mlir_float_text
from ttopt.ir.operation import Operation
from ttopt.ir.rewriter import insert_before
from ttopt.ir.types import ScalarType, TensorType
from ttopt.ir.values import OpResult
from ttopt.lowering.dense_values import DenseValueError, flat_values, nested_literals, nested_text

if TYPE_CHECKING:
    from ttopt.ir.attributes import Attribute
    from ttopt.ir.types import Type
    from ttopt.ir.values import Value

FLOATS = frozenset({"f16", "bf16", "f32", "f64"})
# tt-mlir folds a non-splat constant only up to this many elements (shouldFold).
FOLD_LIMIT = 1_000_000
CREATION = frozenset({"ttir.full", "ttir.zeros", "ttir.ones"})


@dataclass(frozen=True)
class Constant:
    """The elements of a constant tensor: one value for a splat, else all in row-major order."""

    values: tuple[Any, ...]
    element: str
    shape: tuple[int, ...]

    @property
    def splat(self) -> bool:
        """Whether one value stands for every element."""
        return len(self.values) == 1

    def flat(self) -> list[Any]:
        """Every element (a splat repeated)."""
        return list(self.values) * prod(self.shape) if self.splat else list(self.values)


def tensor_of(v: Value) -> tuple[str, tuple[int, ...]] | None:
    """(element type name, static shape) of a ranked tensor value, else None."""
    t = v.type.resolve()
    if not isinstance(t, TensorType) or t.shape is None or any(d is None for d in t.shape):
        return None
    return t.element_type.resolve().text, tuple(int(d) for d in t.shape if d is not None)


def is_float(element: str) -> bool:
    return element in FLOATS


def is_int(element: str) -> bool:
    """Whether `element` names an integer type (`i32`, `si8`, `ui16`, ...)."""
    return re.fullmatch(r"[su]?i\d+", element) is not None


def int_bits(element: str) -> int:
    """The width of the integer type `element`."""
    return int(re.sub(r"^[su]?i", "", element))


def wrap(value: int, element: str) -> int:
    """`value` as the integer type `element` holds it (two's complement, unsigned for `ui`)."""
    width = int_bits(element)
    if width == 1:
        return value & 1
    value &= (1 << width) - 1
    if not element.startswith("ui") and value >= 1 << (width - 1):
        value -= 1 << width
    return value


def round_float(value: float, element: str) -> float:
    """`value` rounded to nearest-even in the float type `element` (f64 kept)."""
    if element == "f64" or value != value or value in (math.inf, -math.inf):
        return value
    try:
        if element == "f16":
            return float(struct.unpack("<e", struct.pack("<e", value))[0])
        f32 = struct.unpack("<I", struct.pack("<f", value))[0]
    except (OverflowError, struct.error):
        return math.copysign(math.inf, value)
    if element == "bf16":
        f32 = (f32 + 0x7FFF + ((f32 >> 16) & 1)) & 0xFFFF0000
    return float(struct.unpack("<f", struct.pack("<I", f32 & 0xFFFFFFFF))[0])


def convert_fill(value: Any, element: str) -> Any:
    """A `full` op's fill value as an element of type `element` (tt-mlir's convertFillValue: a float
    to an integer type rounds toward zero, an integer to a float type converts)."""
    if is_float(element):
        return round_float(float(value), element)
    return wrap(int(value), element)


def constant_of(v: Value) -> Constant | None:
    """The elements of `v` when a constant-like TTIR op defines it, else None."""
    if not isinstance(v, OpResult) or len(v.op.results) != 1:
        return None
    op = v.op
    info = tensor_of(v)
    if info is None:
        return None
    element, shape = info
    if not (is_float(element) or is_int(element)):
        return None
    if op.name in CREATION:
        fill = splat_fill(v)
        return None if fill is None else Constant((fill,), element, shape)
    if op.name != "ttir.constant":
        return None
    attr = op.properties.get("value")
    attr = attr.resolve() if attr is not None else None
    if not isinstance(attr, DenseElementsAttr):
        return None
    try:
        if attr.is_splat:
            values = flat_values(attr, element, (1,))
        elif prod(shape) > FOLD_LIMIT:
            return None
        else:
            values = flat_values(attr, element, shape)
    except DenseValueError:
        return None
    # MLIR holds each element in its type: a bf16 literal 200.15 is 200.0.
    return Constant(tuple(convert_fill(v, element) for v in values), element, shape)


def splat_fill(v: Value) -> Any:
    """The fill value of a `full`/`zeros`/`ones` defining `v` in its element type, else None. A
    splat `ttir.constant` counts too: tt-mlir has made every one a `full` by then (ttopt keeps
    those a `full` cannot hold as constants)."""
    if isinstance(v, OpResult) and v.op.name == "ttir.constant":
        const = constant_of(v)
        return const.values[0] if const is not None and const.splat else None
    if not isinstance(v, OpResult) or v.op.name not in CREATION:
        return None
    info = tensor_of(v)
    if info is None:
        return None
    element = info[0]
    if not (is_float(element) or is_int(element)):
        return None
    if v.op.name == "ttir.zeros":
        return convert_fill(0, element)
    if v.op.name == "ttir.ones":
        return convert_fill(1, element)
    fill = v.op.properties.get("fill_value")
    fill = fill.resolve() if fill is not None else None
    if not isinstance(fill, (FloatAttr, IntegerAttr)):
        return None
    return convert_fill(fill.value, element)


def is_pos_zero(value: Any) -> bool:
    """+0 (a float -0.0 is not: tt-mlir materializes it as a `full`)."""
    return value == 0 and not (isinstance(value, float) and math.copysign(1.0, value) < 0)


def fill_attr(value: Any, element: str) -> Attribute:
    """A `full` op's fill value: f32 for float element types, i32 for integers (splatToFillValue),
    spelled as MLIR prints it."""
    if is_float(element):
        return mlir_float_attr(FloatAttr(float(value), ScalarType("f32")))
    return IntegerAttr(int(value), ScalarType("i32"))


_I32 = (-(1 << 31), (1 << 31) - 1)


def fits_fill(value: Any, element: str) -> bool:
    """A `full` op's fill value (f32 or i32) holds `value` of type `element` exactly, and the
    element type is not i1."""
    if is_float(element):
        return True
    return element != "i1" and _I32[0] <= int(value) <= _I32[1]


def saturate(value: int, element: str) -> int:
    """`value` clamped to the range of the integer type `element` (unsigned for `ui`, i1 as 0 / 1)."""
    width = int_bits(element)
    lo, hi = (0, (1 << width) - 1) if element.startswith("ui") or width == 1 else (-(1 << (width - 1)), (1 << (width - 1)) - 1)
    return min(max(value, lo), hi)


def saturate_i32(value: int) -> int:
    """`value` clamped to the i32 range (APFloat::convertToInteger's saturation)."""
    return min(max(value, _I32[0]), _I32[1])


def dense_body(values: list[Any], shape: tuple[int, ...], element: str) -> str:
    """A `dense<..>` body for `values` as MLIR prints it (floats by APFloat's rules)."""
    if not is_float(element):
        return nested_text(values, shape, element)
    spelled = [mlir_float_text(float(v), element) for v in values]
    if all(t == spelled[0] for t in spelled):
        return spelled[0]
    return nested_literals(spelled, shape)


def materialize(anchor: Operation, const: Constant, result_type: Type) -> Operation:
    """A constant-like op of `result_type` holding `const`, built before `anchor`."""
    shape = DenseArrayAttr("i32", tuple(const.shape))
    v = const.values[0]
    if const.splat and is_pos_zero(v):
        op = Operation("ttir.zeros", [], [result_type], {"shape": shape}, location=anchor.location)
    elif const.splat and v == 1:
        op = Operation("ttir.ones", [], [result_type], {"shape": shape}, location=anchor.location)
    elif const.splat and fits_fill(v, const.element):
        props = {"shape": shape, "fill_value": fill_attr(v, const.element)}
        op = Operation("ttir.full", [], [result_type], props, location=anchor.location)
    else:
        body = dense_body(const.flat(), const.shape, const.element)
        attr = DenseElementsAttr(body, _plain(result_type))
        op = Operation("ttir.constant", [], [result_type], {"value": attr}, location=anchor.location)
    insert_before(anchor, op)
    return op


def _plain(t: Type) -> Type:
    """`t` without its encoding (a dense literal's type has none)."""
    r = t.resolve()
    return r.with_encoding(None) if isinstance(r, TensorType) and r.encoding is not None else r
