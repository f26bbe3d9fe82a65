"""The location decoder's one-part fast paths give exactly what the general grammar gives."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

import ttopt  # noqa: F401  (registers the decoders)
from ttopt.ir.attributes import quote
from ttopt.parse.attr_parser import _parse, parse_location_body

TEXT = st.text(st.characters(min_codepoint=32, max_codepoint=0x2FF), max_size=20)
ALIAS = st.from_regex(r"[A-Za-z_][\w$.-]{0,10}", fullmatch=True).filter(str.isascii)


@given(TEXT)
def test_name(name: str) -> None:
    body = quote(name)
    assert parse_location_body(body) == _parse(body, "loc_body", None) == ("name", name, None)


@given(TEXT, st.integers(0, 10**6), st.integers(0, 10**4))
def test_file_line_col(path: str, line: int, col: int) -> None:
    body = f"{quote(path)}:{line}:{col}"
    assert parse_location_body(body) == _parse(body, "loc_body", None) == ("file", path, line, col)


@given(ALIAS)
def test_alias(name: str) -> None:
    body = f"#{name}"
    assert parse_location_body(body) == _parse(body, "loc_body", None)


def test_unknown_and_nested_forms() -> None:
    for body in ("unknown", '"n"("f.py":3:4)', 'callsite("a" at "b")', 'fused["a", "b"]'):
        assert parse_location_body(body) == _parse(body, "loc_body", None)
