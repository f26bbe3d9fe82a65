"""The element values of a `dense<..>` literal as MLIR reads them, and their re-spelling in a
narrower element type (tt-mlir's element-type normalization of constants).

MLIR reads a hex integer literal for a float element type as the element's bit pattern
(`0x7F800000 : f32` is +inf), a quoted `"0x.."` body as the little-endian bytes of every element
(one byte per `i1`), and decimal literals as values. Narrowing follows tt-mlir's
ElementTypeNormalization: values that fit the new type keep their value; 64-bit integers outside
the 32-bit range saturate to it (APInt::truncSSat); f64 values round to the nearest f32 (overflow
becomes an infinity); booleans become bf16 0.0 / 1.0; 8-bit signed values keep their bits in
`ui8` (TTNN has no signed 8-bit type).
"""

from __future__ import annotations

import re
import struct
from math import prod
from typing import Any

import numpy as np

from ttopt.ir.attributes import Attribute, DenseElementsAttr

Scalar = Any  # int | float | bool

_TOKEN = re.compile(r"\s*(true|false|[-+]?0[xX][0-9a-fA-F]+|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|[-+]?inf|nan)\s*")
_FLOAT_BITS = {"f16": 16, "bf16": 16, "f32": 32, "f64": 64}


class DenseValueError(ValueError):
    """A literal this reader does not decode (complex, strings, a malformed body)."""


def bits_of(element: str) -> int:
    """Bit width of a builtin scalar type (`i1` 1, `ui32` 32, `bf16` 16)."""
    if element in _FLOAT_BITS:
        return _FLOAT_BITS[element]
    m = re.fullmatch(r"[su]?i(\d+)", element)
    if m is None:
        raise DenseValueError(f"element type {element} is not an integer or float type")
    return int(m.group(1))


def _float_from_bits(bits: int, element: str) -> float:
    width = _FLOAT_BITS[element]
    bits &= (1 << width) - 1
    if element == "bf16":
        return float(struct.unpack("<f", struct.pack("<I", bits << 16))[0])
    fmt = {"f16": ("<H", "<e"), "f32": ("<I", "<f"), "f64": ("<Q", "<d")}[element]
    return float(struct.unpack(fmt[1], struct.pack(fmt[0], bits))[0])


def wrap_int(value: int, element: str) -> int:
    """`value`'s low bits read as the integer type `element`, as MLIR stores an integer literal."""
    return _wrap(value, element)


def _wrap(value: int, element: str) -> int:
    """`value`'s low bits read as `element` (two's complement for signed and signless types)."""
    width = bits_of(element)
    value &= (1 << width) - 1
    if width > 1 and not element.startswith("ui") and value >> (width - 1):
        value -= 1 << width
    return value


def _scalar(token: str, element: str) -> Scalar:
    low = token.lower()
    if element == "i1":
        if low in ("true", "false"):
            return low == "true"
        return bool(int(low, 0))
    is_hex = low.lstrip("+-").startswith("0x")
    if element in _FLOAT_BITS:
        if is_hex:
            return _float_from_bits(int(low, 16), element)
        return float(low)
    if low in ("true", "false"):
        return int(low == "true")
    if is_hex:
        return _wrap(int(low, 16), element)
    if "." in low or "e" in low:
        raise DenseValueError(f"float literal {token} for integer type {element}")
    return int(low)


def _blob(hexdigits: str, element: str, count: int) -> list[Scalar]:
    width = max(1, (bits_of(element) + 7) // 8)
    raw = bytes.fromhex(hexdigits)
    if len(raw) % width:
        raise DenseValueError(f"hex body of {len(raw)} bytes is not a whole number of {element} elements")
    out: list[Scalar] = []
    for i in range(0, len(raw), width):
        bits = int.from_bytes(raw[i : i + width], "little")
        if element == "i1":
            out.append(bool(bits))
        elif element in _FLOAT_BITS:
            out.append(_float_from_bits(bits, element))
        else:
            out.append(_wrap(bits, element))
    if len(out) not in (1, count):
        raise DenseValueError(f"hex body holds {len(out)} elements; the type has {count}")
    return out


def flat_values(attr: DenseElementsAttr, element: str, shape: tuple[int, ...]) -> list[Scalar]:
    """Every element of `attr` in row-major order (a splat repeated), as Python scalars."""
    count = prod(shape)
    vals = _literal_values(attr, element, count)
    return vals * count if len(vals) == 1 and count != 1 else vals


def _literal_values(attr: DenseElementsAttr, element: str, count: int) -> list[Scalar]:
    """The values the literal spells: one for a splat, else `count`."""
    body = attr.body.strip()
    if body.startswith('"'):
        if not body.lower().startswith('"0x'):
            raise DenseValueError("a string constant")
        vals = _blob(body[3:-1], element, count)
    else:
        if "(" in body:
            raise DenseValueError("a complex constant")
        vals = []
        for piece in body.replace("[", ",").replace("]", ",").split(","):
            if not piece.strip():
                continue
            m = _TOKEN.fullmatch(piece)
            if m is None:
                raise DenseValueError(f"unreadable element '{piece.strip()}'")
            vals.append(_scalar(m.group(1), element))
    if len(vals) not in (1, count):
        raise DenseValueError(f"{len(vals)} elements for a type of {count}")
    return vals


# -- narrowing -------------------------------------------------------------------------------------
def _int_range(element: str) -> tuple[int, int]:
    width = bits_of(element)
    if element.startswith("ui"):
        return 0, (1 << width) - 1
    return -(1 << (width - 1)), (1 << (width - 1)) - 1


def narrow_value(v: Scalar, src: str, dst: str) -> Scalar:
    """One value of type `src` as tt-mlir's normalization stores it in type `dst`."""
    if dst in _FLOAT_BITS:
        if dst != "f32":
            return float(v)
        with np.errstate(over="ignore"):
            return float(np.float32(float(v)))  # round to nearest; out of range becomes an infinity
    n = int(v)
    if src.startswith(("i8", "si8")) and dst.startswith("ui"):
        return _wrap(n, dst)  # same bits, unsigned reading
    lo, hi = _int_range(dst)
    return min(max(n, lo), hi)


def float_text(value: float, element: str = "f32") -> str:
    """MLIR's spelling of a float attribute value: `%e` with 6 digits when that reads back as the
    same `element` value, else the shortest round-tripping digits (`4.2949673E+9`), hex for
    infinities and NaN."""
    if value != value:
        return {"f64": "0x7FF8000000000000", "f16": "0x7E00", "bf16": "0x7FC0"}.get(element, "0x7FC00000")
    if value in (float("inf"), float("-inf")):
        table = {"f64": ("0x7FF0000000000000", "0xFFF0000000000000"), "f16": ("0x7C00", "0xFC00"),
                 "bf16": ("0x7F80", "0xFF80")}  # fmt: skip
        pos, neg = table.get(element, ("0x7F800000", "0xFF800000"))
        return pos if value > 0 else neg
    short = f"{value:.6e}"
    if _same(float(short), value, element):
        return short
    for digits in range(7, 18):
        text = f"{value:.{digits}e}"
        if _same(float(text), value, element):
            mantissa, exp = text.split("e")
            mantissa = mantissa.rstrip("0").rstrip(".")
            if "." not in mantissa:
                mantissa += ".0"
            return f"{mantissa}E{int(exp):+d}"
    return repr(value)


def _same(a: float, b: float, element: str) -> bool:
    if element == "f32":
        return struct.pack("<f", a) == struct.pack("<f", b)
    return a == b


def _spell(v: Scalar, dst: str) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if dst in _FLOAT_BITS:
        return float_text(float(v), dst)
    return str(int(v))


def nested_text(values: list[Scalar], shape: tuple[int, ...], dst: str) -> str:
    """A dense body for `values` of type `dst`: one literal when all are equal (a splat)."""
    if values and all(v == values[0] and type(v) is type(values[0]) for v in values):
        if not (isinstance(values[0], float) and values[0] != values[0]) or all(v != v for v in values):
            return _spell(values[0], dst)
    return nested_literals([_spell(v, dst) for v in values], shape)


def nested_literals(items: list[str], shape: tuple[int, ...]) -> str:
    """Spelled elements in row-major order as a nested dense body (`[[a, b], [c, d]]`)."""

    def nest(part: list[str], dims: tuple[int, ...]) -> str:
        if len(dims) <= 1:
            return "[" + ", ".join(part) + "]"
        step = prod(dims[1:])
        return "[" + ", ".join(nest(part[i : i + step], dims[1:]) for i in range(0, len(part), step)) + "]"

    return nest(items, shape if shape else (1,))


def narrowed_body(attr: DenseElementsAttr, src: str, dst: str, shape: tuple[int, ...], wrap: bool = False) -> str:
    """The body of `attr` (elements of type `src`) re-spelled for element type `dst`; with `wrap`, an
    integer keeps its low bits (APInt's sextOrTrunc) where the normalization saturates."""
    # A splat stays one literal: converting it once, not per element, keeps a 14M-element
    # attention mask as cheap as a scalar.
    values = _literal_values(attr, src, prod(shape))
    if src == "i1":
        return nested_text([1.0 if v else 0.0 for v in values], shape, dst)
    if wrap and src not in _FLOAT_BITS and dst not in _FLOAT_BITS:
        return nested_text([_wrap(int(v), dst) for v in values], shape, dst)
    return nested_text([narrow_value(v, src, dst) for v in values], shape, dst)


def splat_value(attr: Attribute, element: str) -> float | int | bool | None:
    """The one value of a splat `dense<..>` (hex bit patterns decoded), None if it is not a splat."""
    a = attr.resolve()
    if not isinstance(a, DenseElementsAttr) or not a.is_splat or a.body.strip().startswith('"'):
        return None
    v = a.values
    if isinstance(v, int) and not isinstance(v, bool) and element in ("f32", "f64", "f16", "bf16"):
        if a.body.strip().lower().startswith(("0x", "-0x")):
            fmt, width = {"f32": (">f", 4), "f64": (">d", 8), "f16": (">e", 2), "bf16": (">f", 4)}[element]
            bits = v << 16 if element == "bf16" else v
            return struct.unpack(fmt, bits.to_bytes(width, "big"))[0]
    return v if isinstance(v, (int, float, bool)) else None


def splat_fill_value(attr: Attribute, element: str) -> Scalar | None:
    """The one value of a splat dense constant (`dense<3.0>`, a one-element hex blob), else None
    (a list, a string, a dense_resource): what tt-mlir's ConstantOp canonicalization turns into a
    `full` op's fill value."""
    if not isinstance(attr, DenseElementsAttr):
        return None
    body = attr.body.strip()
    if body.startswith("[") or (body.startswith('"') and not body.lower().startswith('"0x')):
        return None
    try:
        values = flat_values(attr, element, (1,))
    except DenseValueError:
        return None
    return values[0] if len(values) == 1 else None
