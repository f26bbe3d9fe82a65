"""Alias references must follow their definitions, as MLIR's parser requires.

MLIR resolves `#name` and `!name` when it reads them, so an alias is usable only after its
definition, also inside another alias's definition. The one exception is an operation's (or
block argument's) whole trailing location `loc(#name)`, which may name a location alias defined
further down (the printer puts location aliases after the module); the parser checks those at the
end. Inside a location, aliases must name locations, and a fused location's metadata may be any
attribute.
"""

from __future__ import annotations

import re
from typing import Any, Callable

from ttopt.parse.scan import ScanError, scan_balanced, skip_ws

# A string (skipped whole) or an alias use: `#name` / `!name` not followed by what would make it a
# dialect attribute or type (`#d.a`, `#d<...>`).
ALIAS_USE = re.compile(r'"[^"\\\n]*(?:\\.[^"\\\n]*)*"|([#!])([A-Za-z_][\w$\-]*)(?![\w$.\-<])')
# In a location: a string, a `fused<` (its metadata is an attribute), or a `#` reference (an
# alias, or a dialect attribute, which is never a location).
_LOC_PIECE = re.compile(r'"[^"\\\n]*(?:\\.[^"\\\n]*)*"|fused\s*<|#([A-Za-z_][\w$.\-]*)')
# A location that is only an alias reference, blanks (and blanked comments) allowed between its tokens:
# MLIR resolves it once the file is read, so it may name an alias defined later.
LOC_ALIAS_ONLY = re.compile(r"loc[ \t\n\r]*\([ \t\n\r]*#([A-Za-z_][\w$\-]*)[ \t\n\r]*\)")

UNDEFINED = "undefined symbol alias id '{}'"


def first_undefined(text: str, defined: Callable[[Any], bool]) -> tuple[int, str] | None:
    """(offset, name) of the first alias `text` names that `defined(("attr"|"type", name))` refuses;
    the offset is the end of the reference, where MLIR reports it."""
    for m in ALIAS_USE.finditer(text):
        sig = m.group(1)
        if sig is not None and not defined(("attr" if sig == "#" else "type", m.group(2))):
            return m.end(), m.group(2)
    return None


def location_problem(text: str, defined: Callable[[Any], bool], lookup: Callable[[Any], Any]) -> tuple[int, str] | None:
    """(offset in `text`, MLIR's message) for the first reference in the location `text` (`loc(...)`)
    that names an alias `defined` refuses, or that is not a location (`lookup(key)` gives the
    definition); None when all are fine."""
    fused_end = -1  # inside `fused<...>` metadata (up to this offset) any defined alias will do
    for m in _LOC_PIECE.finditer(text):
        piece = m.group()
        if piece[0] == '"':
            continue
        if piece[0] == "f":
            try:
                fused_end = scan_balanced(text, m.end() - 1)
            except ScanError:
                fused_end = len(text)
            continue
        name = m.group(1)
        end = m.end()
        if "." in name or text.startswith("<", end):  # a dialect attribute
            if m.start() < fused_end:
                continue
            if text.startswith("<", end):
                try:
                    end = scan_balanced(text, end)
                except ScanError:
                    end = len(text)
            return skip_ws(text, end), f"expected location attribute, but got{text[m.start() : end]}"
        key = ("attr", name)
        if not defined(key):
            return end, UNDEFINED.format(name)
        if m.start() >= fused_end:
            d = lookup(key)
            if not d.is_location:
                return skip_ws(text, end), f"expected location attribute, but got{d.value_text}"
    return None
