"""The value of a splat `dense<..>` literal as the lowering reads constants (hex bit patterns of
floats decoded)."""

from __future__ import annotations

import struct

from ttopt.ir.attributes import Attribute, DenseElementsAttr


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
