"""Number literals as MLIR reads them, and the values each builtin integer and float type holds.

MLIR's lexer has two number tokens: an integer (decimal, leading zeros allowed, or `0x` hex) and a
float (digits, a `.`, optional digits and exponent). A minus sign is a token of its own. Integers
typed as floats must be hexadecimal bit patterns no wider than the type; typed integers must fit
the type's width (`buildAttributeAPInt`). The messages are MLIR's.
"""

from __future__ import annotations

import re

from ttopt.ir.attributes import float_from_bits as decode_float_bits  # noqa: F401  (re-exported)

# Storage width of each builtin float type (APFloat::semanticsSizeInBits).
FLOAT_BITS = {
    "f16": 16, "bf16": 16, "f32": 32, "tf32": 19, "f64": 64, "f80": 80, "f128": 128,
    "f8E5M2": 8, "f8E4M3": 8, "f8E4M3FN": 8, "f8E5M2FNUZ": 8, "f8E4M3FNUZ": 8, "f8E4M3B11FNUZ": 8,
    "f8E3M4": 8, "f8E8M0FNU": 8, "f4E2M1FN": 4, "f6E2M3FN": 6, "f6E3M2FN": 6,
}  # fmt: skip
MAX_INT_WIDTH = 16777215  # IntegerType::kMaxWidth
_INT_TYPE = re.compile(r"(s|u)?i([0-9]+)")

# What a float token is in MLIR: digits, a dot, then optional digits and exponent.
FLOAT_TOKEN = re.compile(r"[0-9]+\.[0-9]*(?:[eE][-+]?[0-9]+)?")

OUT_OF_RANGE = "integer constant out of range for attribute"
HEX_FLOAT_MINUS = "hexadecimal float literal should not have a leading minus"
HEX_FLOAT_RANGE = "hexadecimal float constant out of range for type"
DECIMAL_FOR_FLOAT = "unexpected decimal integer literal for a floating point value"


def int_type(name: str) -> tuple[int, str] | None:
    """(width, signedness) of `i8` / `si8` / `ui8` ('', 's', 'u') or of `index` (64, 'index'); None otherwise."""
    if name == "index":
        return 64, "index"
    m = _INT_TYPE.fullmatch(name)
    if m is None:
        return None
    return int(m.group(2)), m.group(1) or ""


def is_builtin_scalar(name: str) -> bool:
    """Is `name` one of MLIR's builtin integer, float, index or none types?"""
    if name in FLOAT_BITS or name in ("index", "none"):
        return True
    t = int_type(name)
    return t is not None and t[0] <= MAX_INT_WIDTH


def int_fits(magnitude: int, negative: bool, width: int, signedness: str) -> bool:
    """Does the literal `-magnitude` / `magnitude` fit the integer type (MLIR's buildAttributeAPInt)?

    A signless type takes any bit pattern of its width, written unsigned or as a negative number;
    a signed one (and index) only values of its signed range; `-0` is refused, as MLIR does."""
    if magnitude.bit_length() > width:
        return False
    if width == 0:
        return not negative
    half = 1 << (width - 1)
    if negative:
        return 1 <= magnitude <= half
    return magnitude < half or signedness in ("", "u")


def int_value(magnitude: int, negative: bool, width: int, signedness: str) -> int:
    """The value MLIR stores for a literal that fits: unsigned types read unsigned, others signed."""
    if width == 0:
        return 0
    bits = (-magnitude if negative else magnitude) & ((1 << width) - 1)
    if signedness != "u" and bits >> (width - 1):
        return bits - (1 << width)
    return bits


def split_sign(text: str) -> tuple[bool, str]:
    """(negative, the literal after its sign and any blanks) of an integer or float token."""
    if text[:1] == "-":
        return True, text[1:].lstrip()
    return False, text


def parse_magnitude(body: str) -> int:
    """The value of an unsigned integer literal: decimal (leading zeros allowed) or `0x` hex."""
    if body[:2] == "0x":
        return int(body[2:], 16)
    return int(body, 10)


def parse_int(text: str) -> int:
    """`12`, `-3`, `010` (ten), `0x1F`, `-0x10`; ValueError naming the text otherwise."""
    s = text.strip()
    negative, body = split_sign(s)
    try:
        v = parse_magnitude(body)
    except ValueError:
        raise ValueError(f"invalid integer literal '{s}'") from None
    if not body[:1].isdigit():
        raise ValueError(f"invalid integer literal '{s}'")
    return -v if negative else v


def hex_float_problem(body: str, negative: bool, type_name: str) -> str | None:
    """Why an integer literal typed as float `type_name` is refused (MLIR's words), or None."""
    if body[:2] != "0x":
        return DECIMAL_FOR_FLOAT
    if negative:
        return HEX_FLOAT_MINUS
    if int(body[2:], 16).bit_length() > FLOAT_BITS.get(type_name, 128):
        return HEX_FLOAT_RANGE
    return None
