"""MLIR spellings: the base of types and attributes (a value that keeps its source spelling), and
the rules MLIR's printer follows for strings, keywords and symbol names, so printed text reads
back as the same value."""

from __future__ import annotations

import re
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


# Printable ASCII other than `"` and `\`: what llvm::printEscapedString writes as is.
_PLAIN_STRING = re.compile(r'[ !#-\[\]-~]*')
# MLIR's bare identifier (`isBareIdentifier`): ASCII only, no leading digit, `$` and `.` allowed after.
_BARE_ID = re.compile(r"[A-Za-z_][A-Za-z0-9_$.]*")


def quote(value: str) -> str:
    """`value` as an MLIR string literal, escaped as llvm::printEscapedString does: printable
    ASCII other than `"` and `\\` as is, `\\` doubled, every other byte of its UTF-8 as `\\XX`."""
    if _PLAIN_STRING.fullmatch(value):
        return '"' + value + '"'
    out = []
    for ch in value:
        if ch == "\\":
            out.append("\\\\")
        elif ch != '"' and " " <= ch <= "~":
            out.append(ch)
        else:
            out.extend(f"\\{b:02X}" for b in ch.encode("utf-8", "surrogateescape"))
    return '"' + "".join(out) + '"'


def keyword_or_string(name: str) -> str:
    """`name` bare when it is an MLIR bare identifier, else as a string literal (dictionary keys,
    symbol names: MLIR's printKeywordOrString)."""
    return name if _BARE_ID.fullmatch(name) else quote(name)


def symbol_ref(name: str) -> str:
    """`@name`, or `@"..."` when the name is not a bare identifier (`@"a-b"`, `@"123"`)."""
    return "@" + keyword_or_string(name)
