"""split_top_level's pieces (one regex match each, whole bracket groups inside) are the token-by-token
split's: the same pieces for any text, unbalanced or deeply nested brackets included."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ttopt.parse import attr_parser

# Brackets (any closer counts for any opener), commas, what closes nothing (`->`, `>=`), strings
# with commas and brackets inside, a quote that starts no string, escapes, blanks, non-ASCII.
PIECES = ["<", ">", "(", ")", "[", "]", "{", "}", ",", ",", "-", ">=", "->", "=", "a", " ", "\n",
          '"x,y"', '"<"', '"', '"\\q"', '"a\\"b"', "\u00e9", "1"]  # fmt: skip


@settings(max_examples=400)
@given(st.lists(st.sampled_from(PIECES), max_size=30))
def test_pieces_agree_with_the_token_split(pieces: list[str]) -> None:
    text = "".join(pieces)
    assert attr_parser.split_top_level(text) == attr_parser._split_top_level(text)


def test_pieces_agree_past_the_group_depth() -> None:
    for depth in range(1, 10):
        text = "a, " + "<" * depth + "b, c" + ">" * depth + ", d"
        assert attr_parser.split_top_level(text) == attr_parser._split_top_level(text)
