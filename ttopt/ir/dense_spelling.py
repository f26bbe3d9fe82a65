"""How MLIR prints a dense elements literal of float or complex float elements.

MLIR keeps a dense attribute as its elements' bits, so it prints one spelling whatever the input
was: each element in APFloat's spelling (ttopt/ir/float_spelling.py), complex ones as
`(re,im)`; one element when all are bitwise equal (a splat: `dense<[1.0, 1.0]>` is
`dense<1.000000e+00>`); the elements' little-endian bytes as a hex string when there are more than
100 (mlir-opt's default `--mlir-print-elementsattrs-with-hex-if-larger`); else nested lists by
the type's shape with `, ` between elements. A hex string input is read the same way: a small or
all-equal one prints as its elements, a large one stays hex (in upper case).
"""

from __future__ import annotations

import re
import sys
from array import array
from math import prod

from ttopt.ir.float_spelling import SEMANTICS, literal_bits, literal_text

# One element literal of a float body: an optional minus, then hex bits or a decimal number; the
# punctuation between elements is rebuilt from the type's shape.
_ELEMENT = re.compile(r"-?(?:0x[0-9a-fA-F]+|[0-9]+(?:\.[0-9]*(?:[eE][-+]?[0-9]+)?)?)")
_SPACED_MINUS = re.compile(r"-[ \t\r\n]+")  # `- 1.5`: MLIR's minus is a token of its own
HEX_ELEMENT_LIMIT = 100
_BYTES = {"f16": 2, "bf16": 2, "f32": 4, "f64": 8}


def float_element_kind(element: str) -> tuple[str, bool] | None:
    """(float kind, is complex) of a tensor element type spelled `element` (`f32`,
    `complex<bf16>`), None when its elements are not floats ttopt can spell."""
    if element in SEMANTICS:
        return element, False
    if element.startswith("complex<") and element.endswith(">") and element[8:-1].strip() in SEMANTICS:
        return element[8:-1].strip(), True
    return None


def dense_float_body(body: str, kind: str, is_complex: bool, shape: tuple[int, ...]) -> str | None:
    """The body MLIR prints for the literal `body` (the text inside `dense<...>`) of a static
    `shape` whose elements are `kind` floats (pairs of them when `is_complex`). None when it is
    printed as written: no elements, a `//` comment, or an element count (a hex string's size)
    that fits neither a splat nor the shape."""
    b = body.strip()
    n = prod(shape)
    if not b or n == 0:
        return None
    per = 2 if is_complex else 1
    if b[0] == '"':
        return _hex_string_body(b, kind, per, shape)
    if "//" in b:
        return None
    if "-" in b and _SPACED_MINUS.search(b):
        b = _SPACED_MINUS.sub("-", b)
    literals = _ELEMENT.findall(b)
    if len(literals) != per and len(literals) != n * per:
        return None
    if len(literals) > per and n > HEX_ELEMENT_LIMIT:
        data = _element_bytes(literals, kind)
        width = _BYTES[kind] * per
        if data[:width] * n != data:
            return '"0x' + data.hex().upper() + '"'
        literals = literals[:per]  # all alike: printed as a splat
    return _spelled(literals, kind, per, shape)


def _hex_string_body(b: str, kind: str, per: int, shape: tuple[int, ...]) -> str | None:
    """A hex string's body as MLIR prints it: in upper case when it holds more than 100 elements
    that are not all equal, else its elements spelled as a splat or nested lists."""
    digits = b[1:-1]
    if digits[:2] != "0x":
        return None
    try:
        data = bytes.fromhex(digits[2:])
    except ValueError:
        return None
    n = prod(shape)
    width = _BYTES[kind]
    if len(data) != width * per and len(data) != width * per * n:
        return None
    if len(data) > width * per and data[: width * per] * n == data:
        data = data[: width * per]
    if len(data) > width * per and n > HEX_ELEMENT_LIMIT:
        return '"0x' + digits[2:].upper() + '"'
    literals = ["0x%X" % int.from_bytes(data[i : i + width], "little") for i in range(0, len(data), width)]
    return _spelled(literals, kind, per, shape)


def _spelled(literals: list[str], kind: str, per: int, shape: tuple[int, ...]) -> str | None:
    """The elements `literals` (one element's `per` parts when a splat) spelled: one element when
    all are equal, else nested lists by `shape`."""
    spelled: list[str] = []
    for lit in literals:
        text = literal_text(lit, kind)
        if text is None:
            return None
        spelled.append(text)
    elements = spelled if per == 1 else [f"({re_},{im})" for re_, im in zip(spelled[::2], spelled[1::2])]
    first = elements[0]
    if len(elements) == 1 or all(e == first for e in elements):
        return first
    return _nested(elements, shape)


def _element_bytes(literals: list[str], kind: str) -> bytes:
    """The literals' bits as MLIR stores them: little-endian, one element after another."""
    if kind in ("f32", "f64") and not any(lit[:2] == "0x" for lit in literals):
        # The C conversion rounds a double to float to nearest even, overflowing to infinity (APFloat's).
        data = array("f" if kind == "f32" else "d", map(float, literals))
    else:
        width = _BYTES[kind]
        data = array({2: "H", 4: "I", 8: "Q"}[width], [literal_bits(lit, kind) for lit in literals])
    if sys.byteorder != "little":
        data.byteswap()
    return data.tobytes()


def _nested(elements: list[str], shape: tuple[int, ...]) -> str:
    """`[[a, b], [c, d]]`: the elements in row-major order nested by `shape`."""
    if len(shape) <= 1:
        return "[" + ", ".join(elements) + "]"
    step = prod(shape[1:])
    return "[" + ", ".join(_nested(elements[i : i + step], shape[1:]) for i in range(0, len(elements), step)) + "]"

