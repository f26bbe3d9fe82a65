"""The common base of types and attributes: an immutable value with an MLIR spelling."""

from __future__ import annotations

from typing import Any


class Spelled:
    """Keeps the exact source spelling of a parsed value, or computes the canonical one on demand."""

    __slots__ = ("_text",)

    def __init__(self, text: str | None = None) -> None:
        self._text = text

    @property
    def text(self) -> str:
        """MLIR spelling, with aliases as written."""
        t = self._text
        if t is None:
            t = self._text = self.print()
        return t

    def print(self) -> str:
        """Canonical MLIR spelling of a constructed value."""
        raise NotImplementedError(type(self).__name__)

    def resolve(self) -> Any:
        """The value itself, or the target of an alias reference."""
        return self

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.text})"
