"""Diagnostics in MLIR style: `file:line:col: error: message`, the source line and a caret."""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from typing import Any


class SourceFile:
    """A named source text with O(log n) offset -> (line, column) lookup."""

    __slots__ = ("name", "text", "_line_starts", "line_offset")

    def __init__(self, name: str, text: str, line_offset: int = 0) -> None:
        self.name = name
        self.text = text
        # line_offset shifts reported lines for chunks of a `--split-input-file` input.
        self.line_offset = line_offset
        self._line_starts: list[int] | None = None

    def line_col(self, pos: int) -> tuple[int, int]:
        """1-based (line, column) of a character offset."""
        if self._line_starts is None:
            starts = [0]
            find = self.text.find
            i = find("\n")
            while i != -1:
                starts.append(i + 1)
                i = find("\n", i + 1)
            self._line_starts = starts
        line = bisect.bisect_right(self._line_starts, pos) - 1
        return line + 1 + self.line_offset, pos - self._line_starts[line] + 1

    def line_text(self, pos: int) -> str:
        """The full source line containing `pos` (without the newline)."""
        start = self.text.rfind("\n", 0, pos) + 1
        end = self.text.find("\n", pos)
        return self.text[start : end if end != -1 else len(self.text)]


@dataclass(frozen=True)
class SourcePos:
    """A position in a source file (character offset)."""

    source: SourceFile
    offset: int

    def render(self, severity: str, message: str) -> str:
        """Format as `file:line:col: severity: message` + source line + caret."""
        line, col = self.source.line_col(self.offset)
        src = self.source.line_text(self.offset)
        # Very long lines (e.g. a 10 MB single line) are clipped around the caret.
        if len(src) > 200:
            lo = max(0, col - 1 - 80)
            src = ("..." if lo else "") + src[lo : lo + 160] + "..."
            caret_col = col - lo + (3 if lo else 0)
        else:
            caret_col = col
        pad = "".join("\t" if ch == "\t" else " " for ch in src[: caret_col - 1])
        return f"{self.source.name}:{line}:{col}: {severity}: {message}\n{src}\n{pad}^"


class Diagnostic(Exception):
    """A user-facing error about the input: rendered MLIR-style, never shown as a traceback."""

    def __init__(self, message: str, pos: SourcePos | None = None, notes: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.message = message
        self.pos = pos
        self.notes = notes

    def render(self, fallback_name: str = "<input>") -> str:
        """The full diagnostic text."""
        head = self.pos.render("error", self.message) if self.pos else f"{fallback_name}: error: {self.message}"
        return "\n".join((head, *(f"note: {n}" for n in self.notes)))


def op_position(source: SourceFile | None, op: Any) -> SourcePos | None:
    """Where `op` (or its nearest ancestor with a position) is in `source`, for a Diagnostic."""
    cur = op
    while cur is not None:
        if isinstance(getattr(cur, "pos", None), int) and source is not None:
            return SourcePos(source, cur.pos)
        cur = getattr(cur, "parent_op", None)
    return None
