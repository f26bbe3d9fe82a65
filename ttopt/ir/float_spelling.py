"""MLIR's spelling of a float attribute it builds (`0.899999976 : f32`, `1.000000e-03 : f32`).

MLIR prints a FloatAttr with `APFloat::toString(6 digits)` when that reads back to the same value,
else with the shortest digits that do (`APFloat::toString()`). APFloat's six-digit form first
drops decimal digits by truncating division and only then rounds, so f32 0.9 prints as
0.899999976 while f32 0.1 prints as 1.000000e-01. Attributes the lowering creates are spelled
this way so that tt-mlir's FileCheck lines about them match (parsed attributes keep their source
spelling anyway).
"""

from __future__ import annotations

import struct
from fractions import Fraction
from typing import Any

# semantics -> (precision bits incl. the implicit one, exponent bias, exponent bits)
SEMANTICS = {"f16": (11, 15, 5), "bf16": (8, 127, 8), "f32": (24, 127, 8), "f64": (53, 1023, 11)}


def round_to(value: float, kind: str) -> float:
    """`value` rounded to the float format `kind` (as a Python float)."""
    if kind == "f32":
        return struct.unpack("<f", struct.pack("<f", value))[0]
    if kind == "f16":
        return struct.unpack("<e", struct.pack("<e", value))[0]
    if kind == "bf16":
        bits = struct.unpack("<I", struct.pack("<f", value))[0]
        bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000  # round to nearest even
        return struct.unpack("<f", struct.pack("<I", bits))[0]
    return value


def _digits(value: float, kind: str, precision: int) -> tuple[str, int]:
    """APFloat::toString's digit string (most significant first) and decimal exponent of the last
    digit, limited to `precision` significant digits (0: enough to read back)."""
    bits, _, _ = SEMANTICS[kind]
    if precision == 0:
        precision = 2 + bits * 59 // 196
    frac = Fraction(abs(value))
    # significand * 2**exp with an integer significand of at most `bits` bits
    num, den = frac.numerator, frac.denominator
    exp2 = 0
    while den > 1:
        den //= 2
        exp2 -= 1
    significand = num
    while significand and significand % 2 == 0:
        significand //= 2
        exp2 += 1
    exp10 = 0
    if exp2 > 0:
        significand <<= exp2
    elif exp2 < 0:
        significand *= 5 ** (-exp2)
        exp10 = exp2
    # AdjustToPrecision on the integer: truncating division by a power of ten.
    required = (precision * 196 + 58) // 59
    active = significand.bit_length()
    if active > required:
        removable = (active - required) * 59 // 196
        if removable:
            significand //= 10**removable
            exp10 += removable
    text = str(significand).rstrip("0")
    exp10 += len(str(significand)) - len(text)
    # AdjustToPrecision on the digits: round half up to `precision` digits.
    if len(text) > precision:
        cut = len(text) - precision
        keep, dropped = text[:precision], text[precision:]
        exp10 += cut
        if dropped[0] >= "5":
            rounded = str(int(keep) + 1)
            if len(rounded) > len(keep):
                exp10 += 1
                rounded = rounded[:-1]
            keep = rounded
        stripped = keep.rstrip("0")
        exp10 += len(keep) - len(stripped)
        text = stripped or "0"
    return text, exp10


def _scientific(digits: str, exp10: int, precision: int, truncate_zero: bool) -> str:
    exp = exp10 + len(digits) - 1
    body = digits[0] + "."
    if len(digits) == 1 and truncate_zero:
        body += "0"
    else:
        body += digits[1:]
    if not truncate_zero and precision > len(digits) - 1:
        body += "0" * (precision - len(digits) + 1)
    sign = "+" if exp >= 0 else "-"
    e = str(abs(exp))
    if not truncate_zero and len(e) < 2:
        e = "0" + e
    return f"{body}{'E' if truncate_zero else 'e'}{sign}{e}"


def _shortest(value: float, kind: str) -> str:
    """APFloat::toString() with its defaults (FormatPrecision 0, FormatMaxPadding 3)."""
    bits, _, _ = SEMANTICS[kind]
    precision = 2 + bits * 59 // 196
    digits, exp10 = _digits(value, kind, 0)
    n = len(digits)
    if exp10 >= 0:
        scientific = exp10 > 3 or n + exp10 > precision
    else:
        msd = exp10 + n - 1
        scientific = msd < 0 and -msd > 3
    if scientific:
        return _scientific(digits, exp10, precision, truncate_zero=True)
    if exp10 >= 0:
        return digits + "0" * exp10
    whole = exp10 + n
    if whole > 0:
        return digits[:whole] + "." + digits[whole:]
    return "0." + "0" * (-whole) + digits


def float_text(value: float, kind: str = "f32") -> str:
    """The digits MLIR prints for a FloatAttr of type `kind` holding `value` (rounded to `kind`)."""
    if kind not in SEMANTICS or value != value or value in (float("inf"), float("-inf")):
        from ttopt.ir.attributes import format_float

        return format_float(value)
    v = round_to(value, kind)
    if v == 0:
        return "-0.000000e+00" if str(v).startswith("-") else "0.000000e+00"
    sign = "-" if v < 0 else ""
    digits, exp10 = _digits(v, kind, 6)
    six = _scientific(digits, exp10, 6, truncate_zero=False)
    if round_to(float(six), kind) == abs(v):
        return sign + six
    short = _shortest(abs(v), kind)
    if "." in short:
        return sign + short
    return _hex(v, kind)  # MLIR's fallback when neither form reads back as a float literal


def _hex(v: float, kind: str) -> str:
    if kind == "f64":
        return "0x%016X" % struct.unpack("<Q", struct.pack("<d", v))[0]
    bits32 = struct.unpack("<I", struct.pack("<f", v))[0]
    if kind == "f32":
        return "0x%08X" % bits32
    if kind == "bf16":
        return "0x%04X" % (bits32 >> 16)
    return "0x%04X" % struct.unpack("<H", struct.pack("<e", v))[0]


def mlir_float_attr(attr: Any) -> Any:
    """`attr` re-spelled as MLIR prints it when it is a FloatAttr of a known float type (a parsed
    attribute keeps its source spelling, `3.0 : f32`; MLIR prints `3.000000e+00 : f32`); any other
    attribute unchanged."""
    from ttopt.ir.attributes import FloatAttr

    if not isinstance(attr, FloatAttr) or attr.type is None:
        return attr
    kind = attr.type.text
    if kind not in SEMANTICS:
        return attr
    try:
        rounded = round_to(attr.value, kind)
    except (OverflowError, struct.error):
        return attr  # out of the type's range: left as spelled
    if rounded != rounded or rounded in (float("inf"), float("-inf")):
        return attr
    return FloatAttr(attr.value, attr.type, f"{float_text(attr.value, kind)} : {kind}")
