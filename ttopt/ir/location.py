"""Source locations (`loc(...)`): kept as text, decoded on demand."""

from __future__ import annotations

from typing import Any

from ttopt.ir.spelled import quote
from ttopt.ir.text_bodies import decode


class Location:
    """A location as written (`loc("add_1")`, `loc(#loc3)`, ...); `.kind`/`.name` decode it lazily."""

    __slots__ = ("text", "scope", "_parsed")

    def __init__(self, text: str, scope: Any = None) -> None:
        self.text = text  # including `loc(` and `)`
        self.scope = scope  # alias scope for `#locN` references
        self._parsed: tuple | None = None

    def __repr__(self) -> str:
        return f"Location({self.text})"

    @property
    def parsed(self) -> tuple:
        """A nested tuple: ("name", str, child|None) | ("file", path, line, col, ...) |
        ("callsite", callee, caller) | ("fused", meta|None, [locs]) | ("unknown",) | ("alias", name)."""
        if self._parsed is None:
            self._parsed = decode("location", self.text[4:-1])
        return self._parsed

    def resolved(self) -> tuple:
        """Like `parsed`, with top-level alias references followed."""
        p = self.parsed
        seen = 0
        while p[0] == "alias" and self.scope is not None and seen < 64:
            target = self.scope.location(p[1])
            if target is None:
                break
            p = target.parsed
            seen += 1
        return p

    @property
    def name(self) -> str | None:
        """The name of a NameLoc (following aliases and fused/callsite wrappers), else None."""
        return _first_name(self.resolved(), self.scope, 0)

    @staticmethod
    def named(name: str) -> Location:
        """`loc("name")`."""
        from ttopt.ir.attributes import quote

        return Location(f"loc({quote(name)})")


def _first_name(p: tuple, scope: Any, depth: int) -> str | None:
    if depth > 64:
        return None
    kind = p[0]
    if kind == "name":
        return p[1]
    if kind == "alias" and scope is not None:
        target = scope.location(p[1])
        return _first_name(target.parsed, scope, depth + 1) if target is not None else None
    if kind == "callsite":
        return _first_name(p[1], scope, depth + 1)
    if kind == "fused":
        for sub in p[2]:
            n = _first_name(sub, scope, depth + 1)
            if n:
                return n
    return None


UNKNOWN_LOC = Location("loc(unknown)")

def suffixed_location(loc: Location | None, suffix: str) -> Location | None:
    """A NameLoc with `suffix` appended to its name, the original as its child (tt-mlir's
    appendLocationSuffix); other locations as they are."""
    if loc is None or loc.resolved()[0] != "name":
        return loc
    return Location(f"loc({quote(str(loc.name) + suffix)}({loc.text[4:-1]}))", loc.scope)
