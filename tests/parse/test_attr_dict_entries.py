"""Attribute dictionaries read entry by entry (AttrParser._dict_by_entries) give what reading the
whole text at once gives: the same entries in the same order, and the same errors."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ttopt.parse.attr_parser import AttrParser, AttrSyntaxError, _parse

ENTRIES = [
    "a = 1 : i32",
    "use_global_device_ids",
    '"quoted key" = "v, {x}"',
    "channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>",
    "replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>",
    "axes = [{name = \"x\", size = 2 : i64}, {name = \"y\", size = 4 : i64}]",
    "sdy.sharding = #sdy.sharding<@mesh, [{\"x\"}, {}, {}]>",
    "m = affine_map<(d0, d1) -> (d0, d1)>",
    "f = 1.5e+00 : f32",
    "t = tensor<4x8xf32>",
    "z = {b = 2, a = [1, 2]}",
]


def _whole(text: str) -> object:
    try:
        d = _parse(text, "attr_dict", None)
    except AttrSyntaxError as e:
        return ("error", e.offset, e.message)
    return [(k, type(v).__name__, v.text) for k, v in d.entries.items()]


def _by_entries(text: str) -> object:
    try:
        d = AttrParser(None).attr_dict(text)
    except AttrSyntaxError as e:
        return ("error", e.offset, e.message)
    return [(k, type(v).__name__, v.text) for k, v in d.entries.items()]


@given(st.lists(st.sampled_from(ENTRIES), min_size=2, max_size=5, unique=True))
def test_entries_as_the_whole_text(entries: list[str]) -> None:
    text = "{" + ", ".join(entries) + "}"
    got = _by_entries(text)
    assert got == _whole(text)
    assert not isinstance(got, tuple)


@pytest.mark.parametrize(
    "text",
    [
        "{a = 1, b = }",  # an entry without its value
        "{a = 1, a = 2}",  # a repeated key
        "{a = 1,, b = 2}",
        "{a = 1, b = [1, 2}",
        "{a = 1, b = #undefined_alias}",
        "{a = 1, // note\n b = 2}",
        '{a = "x,y", b = "}"}',
        "{b = 1, a = 2}",  # sorted as MLIR sorts a dictionary
    ],
)
def test_errors_and_odd_texts_as_the_whole_text(text: str) -> None:
    assert _by_entries(text) == _whole(text)


def test_entries_are_shared_between_dictionaries() -> None:
    ap = AttrParser(None)
    one = ap.attr_dict("{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, use_global_device_ids}")
    two = ap.attr_dict("{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, use_global_device_ids}")
    assert one.entries["use_global_device_ids"] is two.entries["use_global_device_ids"]
    assert one.entries["channel_handle"].text != two.entries["channel_handle"].text
