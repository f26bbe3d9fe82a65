"""scan_balanced's bracket steps (whole groups in one regex match) end where the token-by-token
scan ends, and leave every error to it: the same offset, or the same error at the same place."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ttopt.parse import scan
from ttopt.parse.scan import MAX_NESTING, ScanError

# Brackets, what closes nothing (`->`, `>=`, strings with brackets inside), and errors: a bad
# string, an escape MLIR does not know, a comment's `/`, a control and a non-ASCII character.
PIECES = ["<", ">", "(", ")", "[", "]", "{", "}", "-", ">=", "->", "=", "a", " ", "\n", ",", "@m", "1",
          '"x"', '"a>b"', '"', '"\\q"', "/", "\x01", "\u00e9"]  # fmt: skip


def _scan(fn: object, text: str) -> tuple:
    try:
        return ("end", fn(text, 0))  # type: ignore[operator]
    except ScanError as e:
        return ("error", e.pos, e.message)


@settings(max_examples=400)
@given(st.sampled_from("<([{"), st.lists(st.sampled_from(PIECES), max_size=30))
def test_steps_agree_with_the_token_scan(opener: str, pieces: list[str]) -> None:
    text = opener + "".join(pieces)
    assert _scan(scan.scan_balanced, text) == _scan(scan._scan_balanced, text)


def test_steps_agree_at_the_nesting_limit() -> None:
    for depth in range(MAX_NESTING - 4, MAX_NESTING + 3):
        for inner in ("", "{}", "{[]}", "{[()]}"):
            text = "<" * depth + inner + ">" * depth
            assert _scan(scan.scan_balanced, text) == _scan(scan._scan_balanced, text), (depth, inner)


def test_real_bodies() -> None:
    for text in ("{sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {\"x\"}, {}]>]>} : T", "<(d0) -> (d0 >= 0)>", "<a>= b>"):
        assert _scan(scan.scan_balanced, text) == _scan(scan._scan_balanced, text)
