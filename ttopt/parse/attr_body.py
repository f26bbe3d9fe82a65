"""Attribute bodies (the text inside `#dialect.name<...>`): the one place they are scanned.

Two readers over the same small alphabet: `split_params` / `keyword` / `unwrap` cut a body at
top-level commas (ttcore and ttnn attributes are comma lists of `key = value`), and `Cursor`
reads token grammars left to right (sdy's `{"x",?}`, StableHLO's `[b, 0, 1, f]x[...]`). Every
failure is an `AttrError` carrying the offset in the body, so callers that know where the body sits
in the file can report `file:line:col`.
"""

from __future__ import annotations

import re
from typing import Iterable, NamedTuple

from ttopt.ir.attributes import unquote


class AttrError(ValueError):
    """A dialect attribute body that does not parse or is not valid.

    `offset`, when known, is the character offset of the problem inside the attribute body, so a
    caller holding the body's position in the file can turn it into a file:line:col diagnostic.
    """

    def __init__(self, message: str, offset: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset

    def prefixed(self, prefix: str, shift: int = 0) -> AttrError:
        """The same error with `prefix: ` in front of the message and the offset moved by `shift`."""
        return AttrError(f"{prefix}: {self.message}", None if self.offset is None else self.offset + shift)


# ---------------------------------------------------------------------------------------------
# Body scanning shared by the ttcore and ttnn parsers.


class Part(NamedTuple):
    """A top-level piece of an attribute body and its offset in the body."""

    text: str
    offset: int


# `->` (affine maps) contains '>' but closes nothing; strings may hold any bracket.
_TOKEN = re.compile(r'->|"[^"\\\n]*(?:\\.[^"\\\n]*)*"|"|[<>(){}\[\],]')
_OPENER = {">": "<", ")": "(", "]": "[", "}": "{"}


def _piece(body: str, start: int, end: int, base: int) -> Part:
    raw = body[start:end]
    lead = len(raw) - len(raw.lstrip())
    return Part(raw.strip(), base + start + lead)


def split_params(body: str, offset: int = 0) -> list[Part]:
    """Split `body` at commas outside brackets and strings; `offset` is added to every part's offset."""
    if not body.strip():
        return []
    stack: list[tuple[str, int]] = []
    parts: list[Part] = []
    start = 0
    for m in _TOKEN.finditer(body):
        tok = m.group()
        if tok == "->" or (tok[0] == '"' and len(tok) > 1):
            continue
        if tok == '"':
            raise AttrError("unterminated string literal", offset + m.start())
        if tok in "<({[":
            stack.append((tok, m.start()))
        elif tok in ">)}]":
            if not stack or stack[-1][0] != _OPENER[tok]:
                raise AttrError(f"unbalanced '{tok}'", offset + m.start())
            stack.pop()
        elif not stack:  # a top-level comma
            parts.append(_piece(body, start, m.start(), offset))
            start = m.end()
    if stack:
        raise AttrError(f"unclosed '{stack[-1][0]}'", offset + stack[-1][1])
    parts.append(_piece(body, start, len(body), offset))
    return parts


def params(body: str, offset: int = 0) -> list[Part]:
    """`split_params`, rejecting empty pieces (`a,,b`, a trailing comma)."""
    parts = split_params(body, offset)
    for p in parts:
        if not p.text:
            raise AttrError("empty parameter (stray comma?)", p.offset)
    return parts


_KEYWORD = re.compile(r"([A-Za-z_][\w.]*)\s*=\s*", re.S)


def keyword(part: Part) -> tuple[str, Part] | None:
    """`key = value` as (key, value part), or None when the part is not a keyword parameter."""
    m = _KEYWORD.match(part.text)
    if m is None:
        return None
    return m.group(1), Part(part.text[m.end() :].strip(), part.offset + m.end())


def _close_of(text: str, start: int) -> int:
    """Offset of the bracket closing `text[start]`, or -1."""
    depth = 0
    for m in _TOKEN.finditer(text, start):
        tok = m.group()
        if tok == "->" or tok[0] == '"' or tok == ",":
            continue
        if tok in "<({[":
            depth += 1
        else:
            depth -= 1
            if depth == 0:
                return m.start()
    return -1


def unwrap(part: Part, opener: str, closer: str, what: str) -> Part:
    """The inside of `opener ... closer` when those brackets enclose the whole part."""
    t = part.text
    if not (t.startswith(opener) and t.endswith(closer)) or _close_of(t, len(opener) - 1) != len(t) - 1:
        raise AttrError(f"expected {what} in {opener}...{closer}, got '{t}'", part.offset)
    inner = t[len(opener) : -1]
    lead = len(inner) - len(inner.lstrip())
    return Part(inner.strip(), part.offset + len(opener) + lead)


def unwrap_attr(part: Part, name: str) -> Part:
    """The body of `#name<body>` when the part is exactly that attribute."""
    return unwrap(part, f"#{name}<", ">", f"#{name}")


_SHAPE = re.compile(r"\d+(?:\s*x\s*\d+)*")


def parse_shape(part: Part, what: str = "shape") -> tuple[int, ...]:
    """`8x8`, `1x12`, `32 x 32` as a tuple of ints."""
    if not _SHAPE.fullmatch(part.text):
        raise AttrError(f"expected a {what} like 8x8, got '{part.text}'", part.offset)
    return tuple(int(d) for d in re.split(r"\s*x\s*", part.text))


def parse_int(part: Part, what: str) -> int:
    """A decimal integer (optionally `: i32`-typed), with an AttrError naming `what` otherwise."""
    m = re.fullmatch(r"(-?\d+)(?:\s*:\s*[su]?i\d+)?", part.text)
    if m is None:
        raise AttrError(f"expected an integer for {what}, got '{part.text}'", part.offset)
    return int(m.group(1))


def parse_bool(part: Part, what: str) -> bool:
    """`true` / `false`."""
    if part.text not in ("true", "false"):
        raise AttrError(f"expected true or false for {what}, got '{part.text}'", part.offset)
    return part.text == "true"


def shape_text(shape: Iterable[int]) -> str:
    """`8x8` spelling of a shape."""
    return "x".join(str(d) for d in shape)


# ---------------------------------------------------------------------------------------------
# Cursor parser.

_STRING = re.compile(r'"[^"\\\n]*(?:\\.[^"\\\n]*)*"')
_INT = re.compile(r"0x[0-9a-fA-F]+|\d+")
_DEC = re.compile(r"\d+")
_WS = re.compile(r"\s*")
_IDENT = re.compile(r"[A-Za-z_][\w]*")


class Cursor:
    """Reads one attribute body left to right; every failure is an AttrError with the offset."""

    def __init__(self, text: str) -> None:
        self.s = text
        self.i = 0

    def ws(self) -> None:
        m = _WS.match(self.s, self.i)
        if m is not None:  # _WS matches the empty string too
            self.i = m.end()

    def fail(self, expected: str) -> AttrError:
        got = self.s[self.i : self.i + 12] or "end of input"
        return AttrError(f"expected {expected} at offset {self.i}, got '{got}'", self.i)

    def peek(self, lit: str) -> bool:
        self.ws()
        return self.s.startswith(lit, self.i)

    def accept(self, lit: str) -> bool:
        if self.peek(lit):
            self.i += len(lit)
            return True
        return False

    def expect(self, lit: str, what: str | None = None) -> None:
        if not self.accept(lit):
            raise self.fail(what or f"'{lit}'")

    def string(self, what: str = "a quoted name") -> str:
        self.ws()
        m = _STRING.match(self.s, self.i)
        if m is None:
            raise self.fail(what)
        self.i = m.end()
        return unquote(m.group())

    def integer(self, what: str = "an integer", no_leading_zero: bool = False) -> int:
        """A decimal or `0x` hexadecimal integer that fits int64, as MLIR's parseInteger reads it."""
        self.ws()
        m = (_DEC if no_leading_zero else _INT).match(self.s, self.i)
        if m is None:
            raise self.fail(what)
        if no_leading_zero and len(m.group()) > 1 and m.group()[0] == "0":
            raise AttrError(f"{what} must not have leading zeros: '{m.group()}' at offset {self.i}", self.i)
        text = m.group()
        v = int(text[2:], 16) if text[:2] == "0x" else int(text)
        if v >= 1 << 63:
            raise AttrError("integer value too large", self.i)
        self.i = m.end()
        return v

    def ident(self, what: str = "a name") -> str:
        """A bare identifier (`lhs_batching_dimensions`, `b`)."""
        self.ws()
        m = _IDENT.match(self.s, self.i)
        if m is None:
            raise self.fail(what)
        self.i = m.end()
        return m.group()

    def signed(self, what: str = "an integer") -> int:
        """A decimal integer that may be negative."""
        neg = self.accept("-")
        return -self.integer(what) if neg else self.integer(what)

    def int_list(self, what: str = "an integer list") -> tuple[int, ...]:
        """`[1, 2, 3]` (possibly empty)."""
        self.expect("[", what)
        out: list[int] = []
        if not self.accept("]"):
            out.append(self.signed())
            while self.accept(","):
                out.append(self.signed())
            self.expect("]")
        return tuple(out)

    def end(self) -> None:
        self.ws()
        if self.i != len(self.s):
            raise self.fail("end of attribute")
