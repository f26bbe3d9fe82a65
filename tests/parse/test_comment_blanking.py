"""Comments and NULs are read as MLIR reads them: as blanks, wherever a blank may be.

The lexer does not skip them; a text holding one is parsed again with them replaced by spaces
(scan.blank_comments), every offset kept. These tests check that replacement, and that a comment
or NUL put between any two tokens of a real file changes nothing in what is read.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ttopt.ir.printer import PrintOptions, print_module
from ttopt.parse.parser import parse_module
from ttopt.parse.scan import blank_comments, scan_balanced, string_error

DATA = Path(__file__).resolve().parents[2] / "testdata"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a // c\nb", "a     \nb"),
        ("a // c\rb // d", "a     \rb     "),  # '\r' ends a comment too
        ('a "x // y" // z', 'a "x // y"     '),  # `//` in a string is text
        ('a "x \\" // y" // z', 'a "x \\" // y"     '),  # an escaped quote does not end the string
        ('"open // c\nb', '"open     \nb'),  # a string that does not close: the lexer reports it
        ("a\x00\x00b", "a  b"),
        ("a / b", "a / b"),
        ("//", "  "),
    ],
)
def test_blank_comments(text: str, expected: str) -> None:
    assert blank_comments(text) == expected


def test_text_without_comments_is_returned_as_is() -> None:
    text = (DATA / "jax" / "attention.mlir").read_text()
    text = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("//"))
    assert blank_comments(text) is text
    assert blank_comments('"a // b"') == '"a // b"'


@pytest.mark.parametrize(
    ("text", "pos", "message"),
    [
        ('"ab', 3, "expected '\"' in string literal"),
        ('"a\nb"', 2, "expected '\"' in string literal"),
        ('"a\x0bb"', 2, "expected '\"' in string literal"),
        ('"a\\qb"', 2, "unknown escape in string literal"),
        ('"a\\4"', 2, "unknown escape in string literal"),
        ('"a\\41\\', 5, "unknown escape in string literal"),
    ],
)
def test_string_error_is_mlirs(text: str, pos: int, message: str) -> None:
    e = string_error(text, 0)
    assert (e.pos, e.message) == (pos, message)


# Where a blank may be in a real file: a space outside strings and comments (group 1).
_SPACE = re.compile(r'"(?:[^"\\\n]|\\.)*"|//[^\n]*|( )')
# A pretty dialect attribute or type: MLIR finds the end of its body before it skips comments, so a
# comment holding a quote or bracket there is not a blank (tests/parse/test_raw_dialect_bodies.py).
_DIALECT_BODY = re.compile(r'"(?:[^"\\\n]|\\.)*"|[#!][A-Za-z_][\w$.]*(<)')


def _outside_dialect_bodies(text: str, spaces: list[int]) -> list[int]:
    bodies = [(m.start(1), scan_balanced(text, m.start(1))) for m in _DIALECT_BODY.finditer(text) if m.group(1)]
    return [s for s in spaces if not any(a < s < b for a, b in bodies)]


FILES = [DATA / "jax" / "attention.mlir", DATA / "jax" / "conv.mlir", DATA / "ttnn" / "multi_result_and_locations.mlir"]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_comments_and_nuls_between_tokens_change_nothing(path: Path, data: st.DataObject) -> None:
    text = path.read_text()
    spaces = _outside_dialect_bodies(text, [m.start(1) for m in _SPACE.finditer(text) if m.group(1)])
    picks = sorted(set(data.draw(st.lists(st.sampled_from(spaces), min_size=1, max_size=6))))
    inserts = [data.draw(st.sampled_from(["// c\n", "// c \"q\r", "\x00", "//\n//\n"])) for _ in picks]
    edited = text
    for at, piece in reversed(list(zip(picks, inserts))):
        edited = edited[: at + 1] + piece + edited[at + 1 :]
    opts = PrintOptions(debuginfo=True)
    # Bodies kept as written (dialect attributes, dense literals) keep the blanks a comment left.
    assert _words(print_module(parse_module(edited), opts)) == _words(print_module(parse_module(text), opts))


def _words(text: str) -> list[str]:
    return text.split()
