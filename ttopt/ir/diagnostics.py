"""Diagnostics in MLIR style: `file:line:col: error: message`, the source line and a caret.

A diagnostic about an op is positioned at the op's text in the input. When the op carries its own
location (`loc(...)`: JAX debug exports write the Python file, line and op path), the diagnostic
also shows that location the way mlir-opt does (mlir-opt reports *only* that location), as notes
after the source line:

    model.mlir:40:10: error: failed to legalize operation 'stablehlo.foo' to TTIR
        %3 = stablehlo.foo %2 : tensor<4xf32>
             ^
    /src/model.py:12:5: note: the op's location ("jit(f)/foo")
    /src/train.py:30:1: note: called from

The file position is the one mlir-opt would print: a name location's child, a call site's callee,
the first file position of a fused location; each caller of a call-site location adds a
`called from` note. A location with no file position (`loc("name")`) becomes one note at the text
position naming it. `loc(unknown)` and ops without a location add nothing.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from typing import Any, Iterable


class SourceFile:
    """A named source text with O(log n) offset -> (line, column) lookup."""

    __slots__ = ("name", "text", "_line_starts", "line_offset", "op_locations")

    def __init__(self, name: str, text: str, line_offset: int = 0) -> None:
        self.name = name
        self.text = text
        # line_offset shifts reported lines for chunks of a `--split-input-file` input.
        self.line_offset = line_offset
        self._line_starts: list[int] | None = None
        # offset of an op's text -> the op's own `loc(...)` (record_locations), for diagnostics
        # positioned at the op by code that only knows its offset.
        self.op_locations: dict[int, Any] = {}

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
    """A position in a source file (character offset); `loc` is the op's own location there."""

    source: SourceFile
    offset: int
    loc: Any = None

    def render(self, severity: str, message: str) -> str:
        """Format as `file:line:col: severity: message` + source line + caret (+ location notes)."""
        head = self._render(severity, message)
        loc = self.loc if self.loc is not None else self.source.op_locations.get(self.offset)
        notes = location_notes(loc, self.where()) if loc is not None else []
        return "\n".join((head, *notes))

    def where(self) -> str:
        """`file:line:col` of the position."""
        line, col = self.source.line_col(self.offset)
        return f"{self.source.name}:{line}:{col}"

    def _render(self, severity: str, message: str) -> str:
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

    also: tuple[Diagnostic, ...] = ()  # further errors found in the same run (one per failing function)

    def __init__(self, message: str, pos: SourcePos | None = None, notes: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.message = message
        self.pos = pos
        self.notes = notes

    def render(self, fallback_name: str = "<input>") -> str:
        """The full diagnostic text (this error, its notes, then any further errors)."""
        head = self.pos.render("error", self.message) if self.pos else f"{fallback_name}: error: {self.message}"
        return "\n".join((head, *(f"note: {n}" for n in self.notes), *(d.render(fallback_name) for d in self.also)))


def op_position(source: SourceFile | None, op: Any) -> SourcePos | None:
    """Where `op` (or its nearest ancestor with a position) is in `source`, for a Diagnostic,
    with that op's own location."""
    cur = op
    while cur is not None:
        if isinstance(getattr(cur, "pos", None), int) and source is not None:
            return SourcePos(source, cur.pos, getattr(cur, "location", None))
        cur = getattr(cur, "parent_op", None)
    return None


def record_locations(source: SourceFile | None, ops: Iterable[Any]) -> None:
    """Remember each op's location by its text offset, so any diagnostic at an op shows it."""
    if source is None:
        return
    table = source.op_locations
    for op in ops:
        loc, pos = op.location, op.pos
        if loc is not None and isinstance(pos, int):
            table[pos] = loc


# -- an op's location, as mlir-opt shows it -------------------------------------------------------
MAX_DEPTH = 64  # location nesting followed (alias chains, callsite stacks); deeper is not shown


def _deref(p: tuple, scope: Any, depth: int = 0) -> tuple:
    while p[0] == "alias" and scope is not None and depth < MAX_DEPTH:
        target = scope.location(p[1])
        if target is None:
            break
        p, depth = target.parsed, depth + 1
    return p


def _file_pos(p: tuple, scope: Any, depth: int = 0) -> tuple | None:
    """MLIR's findLocToShow: the file position a location stands for, if any."""
    if depth > MAX_DEPTH:
        return None
    p = _deref(p, scope)
    kind = p[0]
    if kind == "file":
        return p
    if kind == "name":
        return _file_pos(p[2], scope, depth + 1) if p[2] is not None else None
    if kind == "callsite":
        return _file_pos(p[1], scope, depth + 1)
    if kind == "fused":
        for sub in p[2]:
            found = _file_pos(sub, scope, depth + 1)
            if found is not None:
                return found
    return None


def _call_site(p: tuple, scope: Any, depth: int = 0) -> tuple | None:
    """MLIR's getCallSiteLoc: the call-site location inside name and fused wrappers."""
    if depth > MAX_DEPTH:
        return None
    p = _deref(p, scope)
    if p[0] == "callsite":
        return p
    if p[0] == "name" and p[2] is not None:
        return _call_site(p[2], scope, depth + 1)
    if p[0] == "fused":
        for sub in p[2]:
            found = _call_site(sub, scope, depth + 1)
            if found is not None:
                return found
    return None


def _spell(p: tuple) -> str:
    path, line, col = p[1], p[2], p[3]
    return f"{path}:{line}:{col}"


def location_notes(loc: Any, at: str) -> list[str]:
    """The note lines showing `loc` (a Location); `at` is the text position, for locations with no
    file position."""
    try:
        top = loc.parsed
    except Exception:  # noqa: BLE001 - a location that does not decode is shown as written
        return [f"{at}: note: the op's location is {loc.text}"]
    scope = getattr(loc, "scope", None)
    top = _deref(top, scope)
    if top[0] == "unknown" or top[0] == "alias":
        return []
    name = loc.name
    label = f" ({_quote(name)})" if name else ""
    first = _file_pos(top, scope)
    if first is None:
        return [f"{at}: note: the op's location is {_quote(name)}"] if name else []
    notes = [f"{_spell(first)}: note: the op's location{label}"]
    site = _call_site(top, scope)
    depth = 0
    while site is not None and depth < MAX_DEPTH:
        caller = site[2]
        shown = _file_pos(caller, scope)
        if shown is not None:
            notes.append(f"{_spell(shown)}: note: called from")
        site = _call_site(caller, scope)
        depth += 1
    return notes


def _quote(name: str | None) -> str:
    return '"' + (name or "").replace("\\", "\\\\").replace('"', '\\"') + '"'


class BareOpError(ValueError):
    """A verifier's error reported at its op without the `'name' op` prefix (MLIR's
    `op->emitError()`, as against `emitOpError()`)."""
