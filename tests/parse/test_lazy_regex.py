"""LazyPattern answers as the compiled pattern does, compiling only when first used."""

from __future__ import annotations

import re

from ttopt.parse import line_readers, scan
from ttopt.parse.lazy_regex import LazyPattern, lazy_compile


def test_the_source_is_readable_without_compiling() -> None:
    p = lazy_compile(r"(%\w+)\s*=", re.ASCII)
    assert p.pattern == r"(%\w+)\s*="
    assert "compiled" not in vars(p)


def test_it_matches_as_the_compiled_pattern_does() -> None:
    p, q = lazy_compile(r"(%\w+)\s*=", re.ASCII), re.compile(r"(%\w+)\s*=", re.ASCII)
    text = "  %x1 = %y = z"
    assert p.match(text, 2).group(1) == q.match(text, 2).group(1) == "%x1"
    assert p.findall(text) == q.findall(text) == ["%x1", "%y"]
    assert p.sub("_", text) == q.sub("_", text)
    assert (p.groups, p.flags) == (q.groups, q.flags)
    assert vars(p)["compiled"].pattern == q.pattern
    assert vars(p)["match"].__self__ is vars(p)["compiled"]  # later lookups find the compiled method directly


def test_the_lexer_patterns_are_lazy() -> None:
    assert isinstance(scan.SIMPLE_LOC, LazyPattern)
    assert isinstance(line_readers._F_PRETTY, LazyPattern)
