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


# Builtin types whose bodies MLIR prints without spaces (but `, ` between parts); any other
# `name<...>` in a type (a dialect type or attribute, `strided<...>`, `affine_map<...>`) keeps
# the spelling it was written with.
_BUILTIN_TYPE_KEYWORDS = frozenset({"tensor", "memref", "vector", "complex", "tuple"})
_NAMED_OPEN = re.compile(r"[#!]?[A-Za-z_][\w$.\-]*<")
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.S)
# Whitespace MLIR's printer would not write: a tab or newline, two spaces, a space that is not
# after `,` or around `->`, a comma without its space (most printed types have none of these).
# (Each lookbehind sits after a literal, so the search skips ahead fast on long signatures.)
_LOOSE = re.compile(r"[\t\n\r]|  | (?<!, )(?<!-> )(?!->)|,(?! )|-(?<! -)>|->(?! )")
_OPENERS = "<([{"
_CLOSERS = ">)]}"


def _balanced_end(text: str, start: int) -> int:
    """The end of the bracketed span opening at `start` (strings, `->` and `>=` skipped)."""
    depth = 0
    i = start
    n = len(text)
    while i < n:
        c = text[i]
        if c == '"':
            m = _STRING.match(text, i)
            i = m.end() if m else n
            continue
        if c == "-" and text.startswith("->", i) or c == ">" and text.startswith(">=", i):
            i += 2
            continue
        if c in _OPENERS:
            depth += 1
        elif c in _CLOSERS:
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return n


def canonical_type_spelling(text: str) -> str:
    """A type's spelling as MLIR prints it: no whitespace but one space after `,` and around
    `->` (`tensor <2 x f32>` is `tensor<2xf32>`, `( i32 ,f32 )->i1` is `(i32, f32) -> i1`).
    Bodies of dialect types and attributes are kept as written; text already spaced that way
    is returned as is."""
    if _LOOSE.search(text) is None:
        return text
    out: list[str] = []
    i = 0
    n = len(text)
    while i < n:
        c = text[i]
        if c == '"':
            m = _STRING.match(text, i)
            j = m.end() if m else n
            out.append(text[i:j])
            i = j
            continue
        m = _NAMED_OPEN.match(text, i)
        # A bare name starts a word (in `2xcomplex<f32>` the name is `complex`, not `xcomplex`).
        if m is not None and (c in "#!" or i == 0 or not (text[i - 1].isalnum() or text[i - 1] in "_$.")):
            if m.group()[:-1] in _BUILTIN_TYPE_KEYWORDS:
                out.append(m.group())
                i = m.end()
            else:
                j = _balanced_end(text, m.end() - 1)
                out.append(text[i:j])
                i = j
            continue
        if c.isspace():
            i += 1  # `, ` and ` -> ` are written with their separators
            continue
        if text.startswith("->", i):
            out.append(" -> ")
            i += 2
            continue
        if c == ",":
            out.append(", ")
            i += 1
            continue
        out.append(c)
        i += 1
    return "".join(out).strip()
