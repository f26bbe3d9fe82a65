"""`--verify-diagnostics`, as in mlir-opt: the input's `// expected-error {{...}}` annotations must
match the diagnostics the run produces, and no other error or warning may appear.

An annotation `expected-<error|warning|remark|note>[@<+N|-N|above|below>] {{text}}` expects a
diagnostic of that severity on its own line (or N lines away; `above`/`below`: the line before or
after) whose message contains `text`. Errors come from the run (one per `// -----` chunk: the
first stops the chunk, as without this flag); warnings from the `ttopt` loggers.
"""

from __future__ import annotations

import logging
import re
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Iterator

# Spaces may precede the `@` (MLIR's own pattern: `expected-warning @+1 {{...}}` is common).
_EXPECTED = re.compile(r"//\s*expected-(error|warning|remark|note) *(?:@([+-]\d+|above|below))?\s*\{\{(.*?)\}\}")
_PRODUCED = re.compile(r"^(?P<file>.*?):(?P<line>\d+):(?P<col>\d+): (?P<kind>error|warning|remark|note): (?P<msg>.*)$")
_CARET = re.compile(r"[ \t]*\^")  # the line under a rendered source line


@dataclass(frozen=True)
class Expected:
    """One annotation: severity, the line it refers to (1-based in the whole file), the text."""

    kind: str
    line: int
    text: str
    at: int  # the annotation's own line, for reporting


@dataclass(frozen=True)
class Produced:
    """One diagnostic of the run."""

    kind: str
    line: int
    message: str


def expectations(chunk: str, line0: int) -> list[Expected]:
    """The annotations of a chunk that starts at 0-based file line `line0`."""
    out = []
    for i, line in enumerate(chunk.splitlines(), line0 + 1):
        for m in _EXPECTED.finditer(line):
            where = m.group(2)
            target = i - 1 if where == "above" else i + 1 if where == "below" else i + int(where) if where else i
            out.append(Expected(m.group(1), target, m.group(3), i))
    return out


def parse_rendered(text: str) -> list[Produced]:
    """Diagnostics from rendered `file:line:col: kind: message` lines.

    A positioned error is followed by the source line it points into and a caret line: they are
    skipped unread, since an input line may itself hold `x.mlir:3:1: error: ...` and must not
    satisfy an annotation. Lines are split at LF only, as the source line is cut there: a CR or
    form feed inside it does not start a new line.
    """
    out = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        m = _PRODUCED.match(lines[i])
        i += 1
        if m is None:
            continue
        out.append(Produced(m.group("kind"), int(m.group("line")), m.group("msg")))
        if m.group("kind") == "error":
            caret = next((j for j in range(i, len(lines)) if _CARET.fullmatch(lines[j])), None)
            if caret is not None:
                i = caret + 1
    return out


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


@contextmanager
def captured_warnings() -> Iterator[list[str]]:
    """Warnings logged by ttopt during the block (not printed), as message lines."""
    handler = _Collect()
    logger = logging.getLogger("ttopt")
    previous = logger.propagate
    logger.addHandler(handler)
    logger.propagate = False
    try:
        yield handler.lines
    finally:
        logger.removeHandler(handler)
        logger.propagate = previous


def check(name: str, expected: list[Expected], produced: list[Produced]) -> list[str]:
    """The mismatches, as MLIR-style error lines (empty: the diagnostics are as annotated)."""
    problems = []
    unused = list(produced)
    for e in expected:
        hit = next((p for p in unused if p.kind == e.kind and p.line == e.line and e.text in p.message), None)
        if hit is None:
            problems.append(f'{name}:{e.at}:1: error: expected {e.kind} "{e.text}" was not produced')
        else:
            unused.remove(hit)
    for p in unused:
        if p.kind in ("error", "warning"):
            problems.append(f"{name}:{p.line}:1: error: unexpected {p.kind}: {p.message}")
    return problems
