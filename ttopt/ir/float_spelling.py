"""MLIR's spelling of floats: a FloatAttr's value and the elements of a dense or array literal
(`0.899999976 : f32`, `1.000000e-03 : f32`, `0x7FC00000 : f32`).

MLIR prints a float with `APFloat::toString(6 digits)` when that reads back to the same value,
else with the shortest digits that do (`APFloat::toString()`), else (NaN, infinities, and the
rare value whose shortest digits have no `.`) as its bits in hex. APFloat's six-digit form first
drops decimal digits by truncating division and only then rounds, so f32 0.9 prints as
0.899999976 while f32 0.1 prints as 1.000000e-01. MLIR reads a decimal literal as a double and
rounds that to the literal's type; a hex literal is the value's bits.
"""

from __future__ import annotations

import math
import re
import struct
from functools import lru_cache

# semantics -> (precision bits incl. the implicit one, exponent bias, exponent bits)
SEMANTICS = {"f16": (11, 15, 5), "bf16": (8, 127, 8), "f32": (24, 127, 8), "f64": (53, 1023, 11)}
_INF = float("inf")


def round_to(value: float, kind: str) -> float:
    """`value` rounded to nearest, ties to even, in the float format `kind` (as a Python float;
    an infinity past the format's range, as APFloat's conversion gives)."""
    spec = SEMANTICS.get(kind)
    if spec is None or kind == "f64" or value != value or value in (_INF, -_INF) or value == 0:
        return value
    precision, bias, _ = spec
    # The exponent of the format's last significand bit at this magnitude (subnormals share the
    # smallest normal exponent); scaling by a power of two is exact, `round` ties to even.
    quantum = max(math.frexp(value)[1] - 1, 1 - bias) - (precision - 1)
    r = math.ldexp(round(math.ldexp(value, -quantum)), quantum)
    if abs(r) >= math.ldexp(1.0, bias + 1):
        return math.copysign(_INF, value)
    return math.copysign(r, value)


def float_bits(value: float, kind: str) -> int:
    """The IEEE bits of `value` (already a value of `kind`) in the float format `kind`."""
    if kind == "f64":
        return int(struct.unpack("<Q", struct.pack("<d", value))[0])
    if kind == "f16":
        return int(struct.unpack("<H", struct.pack("<e", value))[0])
    bits32 = int(struct.unpack("<I", struct.pack("<f", value))[0])
    return bits32 >> 16 if kind == "bf16" else bits32


def float_from_bits(bits: int, name: str) -> float:
    """The value of IEEE bits written as a hex float literal of type `name` (NaN for formats Python lacks)."""
    if name == "f64":
        return float(struct.unpack("<d", bits.to_bytes(8, "little"))[0])
    if name == "f32":
        return float(struct.unpack("<f", bits.to_bytes(4, "little"))[0])
    if name == "f16":
        return float(struct.unpack("<e", bits.to_bytes(2, "little"))[0])
    if name == "bf16":
        return float(struct.unpack("<f", (bits << 16).to_bytes(4, "little"))[0])
    return float("nan")


def format_float(value: float) -> str:
    """A double as llvm's `raw_ostream << double` writes it (`%e`: `1.000000e+00`), which MLIR uses
    for quantization scales; NaN and infinities as f32 bits."""
    if value != value:
        return "0x7FC00000"
    if value in (_INF, -_INF):
        return "0x7F800000" if value > 0 else "0xFF800000"
    return f"{value:.6e}"


def _digits(value: float, kind: str, precision: int) -> tuple[str, int]:
    """APFloat::toString's digit string (most significant first) and decimal exponent of the last
    digit, limited to `precision` significant digits (0: enough to read back)."""
    bits, _, _ = SEMANTICS[kind]
    if precision == 0:
        precision = 2 + bits * 59 // 196
    # significand * 2**exp2 with an odd integer significand (APFloat drops trailing binary zeros)
    num, den = abs(value).as_integer_ratio()  # den is a power of two
    trailing = (num & -num).bit_length() - 1
    significand = num >> trailing
    exp2 = trailing - (den.bit_length() - 1)
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
    """The digits MLIR prints for a FloatAttr of type `kind` holding `value` (rounded to `kind`);
    a type ttopt has no semantics for gets the `%e` spelling."""
    if kind not in SEMANTICS:
        return format_float(value)
    v = round_to(value, kind)
    if v != v or v in (_INF, -_INF):
        return "0x%X" % float_bits(v, kind)
    if v == 0:
        return "-0.000000e+00" if math.copysign(1.0, v) < 0 else "0.000000e+00"
    sign = "-" if v < 0 else ""
    digits, exp10 = _digits(v, kind, 6)
    six = _scientific(digits, exp10, 6, truncate_zero=False)
    if round_to(float(six), kind) == abs(v):
        return sign + six
    short = _shortest(abs(v), kind)
    if "." in short:
        return sign + short
    return "0x%X" % float_bits(v, kind)  # MLIR's fallback when neither form reads back as a float literal


@lru_cache(maxsize=1 << 16)
def literal_text(literal: str, kind: str) -> str | None:
    """What MLIR prints for the float literal `literal` (`1.5`, `-0.9`, or bits `0x3F800000`) read
    as type `kind`: NaN and infinity bits as written (in upper case), anything else by
    `float_text`. None when ttopt has no semantics for `kind` (tf32, the f8 types) or the literal
    is not a float of it (the parser reports that): the literal is then printed as written."""
    if kind not in SEMANTICS:
        return None
    if literal[:2] == "0x":
        bits = int(literal, 16)
        if bits >> (16 if kind in ("f16", "bf16") else 32 if kind == "f32" else 64):
            return None
        v = float_from_bits(bits, kind)
        if v != v or v in (_INF, -_INF):
            return "0x%X" % bits  # a NaN's payload and sign are its bits: printed as read
        return float_text(v, kind)
    try:
        v = float(literal)  # past a double's range it is an infinity, as MLIR reads it
    except ValueError:
        return None
    return float_text(v, kind)


def literal_bits(literal: str, kind: str) -> int:
    """The bits of the float literal `literal` read as type `kind` (see `literal_text`)."""
    if literal[:2] == "0x":
        return int(literal, 16)
    return float_bits(round_to(float(literal), kind), kind)


# A typed float literal inside a dialect attribute's body (`params = [1.0 : f32]`), or a string
# (skipped whole: its text is not a literal).
_TYPED_LITERAL = re.compile(
    r'"[^"\\]*(?:\\.[^"\\]*)*"'
    r"|(?<![\w.$#!])(?:(-)[ \t]*)?(0x[0-9a-fA-F]+|[0-9]+\.[0-9]*(?:[eE][-+]?[0-9]+)?)[ \t\r\n]*:[ \t\r\n]*(f16|bf16|f32|f64)(?![\w.])"
)


def typed_literals_spelled(text: str) -> str:
    """`text` with each `literal : type` float in it spelled as MLIR prints a FloatAttr (a
    dialect attribute's FloatAttr parameters); strings and anything else as written."""

    def spell(m: re.Match[str]) -> str:
        if m.group(2) is None:
            return m.group()
        spelled = literal_text((m.group(1) or "") + m.group(2), m.group(3))
        return m.group() if spelled is None else f"{spelled} : {m.group(3)}"

    return _TYPED_LITERAL.sub(spell, text)
