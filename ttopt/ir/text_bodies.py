"""Decoders for attribute bodies the IR keeps as source text and decodes only when asked.

`ir/` never imports the parser; the parser registers its decoders here when it is loaded (which
importing `ttopt` does), so a dense literal's values or a location's structure decode lazily.
"""

from __future__ import annotations

from typing import Any, Callable

DECODERS: dict[str, Callable[[str], Any]] = {}


def register_decoder(kind: str, fn: Callable[[str], Any]) -> None:
    """Register the decoder for one kind of body ("dense", "location")."""
    DECODERS[kind] = fn


def decode(kind: str, text: str) -> Any:
    """Decode `text` with the registered decoder for `kind`."""
    fn = DECODERS.get(kind)
    if fn is None:
        raise RuntimeError(f"no decoder registered for {kind} bodies (import ttopt first)")
    return fn(text)
