"""Integer literals as MLIR spells them: decimal (leading zeros allowed) or hexadecimal."""

from __future__ import annotations


def parse_int(text: str) -> int:
    """`12`, `-3`, `010` (ten), `0x1F`, `-0x10`; ValueError naming the text otherwise."""
    s = text.strip()
    body = s[1:] if s[:1] in "+-" else s
    try:
        if body[:2] in ("0x", "0X"):
            v = int(body[2:], 16)
            return -v if s.startswith("-") else v
        return int(s, 10)
    except ValueError:
        raise ValueError(f"invalid integer literal '{text.strip()}'") from None
