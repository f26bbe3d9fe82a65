"""--argument-types parsing (upstream's `func=type,...;func2=...`)."""

from __future__ import annotations

import pytest

from ttopt.sharding.argument_types import parse_argument_types


def test_parse() -> None:
    assert parse_argument_types("main=input,parameter,constant;f2=input,") == {
        "main": ["input", "parameter", "constant"], "f2": ["input"]}
    assert parse_argument_types("") == {}
    assert parse_argument_types("@main=input;") == {"main": ["input"]}


@pytest.mark.parametrize(("text", "message"), [
    ("main=weights", "unknown argument type 'weights'"),
    ("main", "expected 'function=type,type,...'"),
    ("main=input;main=input", "listed twice"),
])
def test_errors(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_argument_types(text)
