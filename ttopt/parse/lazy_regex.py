"""Regular expressions compiled on first use instead of at import.

The lexer's fast paths keep a few dozen large patterns at module level; compiling them all costs
about half of `import ttopt`, while a small file uses a handful. A `LazyPattern` holds the source
(`.pattern`, which other patterns are built from) and compiles on the first other attribute
looked up, then keeps the compiled pattern's methods as its own attributes, so later calls cost
what a compiled pattern's do.
"""

from __future__ import annotations

import re
from typing import Any

_METHODS = ("match", "fullmatch", "search", "finditer", "findall", "sub", "subn", "split", "scanner", "flags", "groups", "groupindex")


class LazyPattern:
    """`re.compile(pattern, flags)`, done when first used."""

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.pattern = pattern
        self._flags = flags

    def __getattr__(self, name: str) -> Any:
        compiled = re.compile(self.pattern, self._flags)
        for method in _METHODS:
            setattr(self, method, getattr(compiled, method))
        self.compiled = compiled
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"LazyPattern({self.pattern!r})"


def lazy_compile(pattern: str, flags: int = 0) -> Any:
    """A pattern that compiles itself on first use (typed Any: it answers as `re.Pattern` does)."""
    return LazyPattern(pattern, flags)
