"""The token-level mutator the jaxlib differential uses: MLIR's token boundaries, one edit per
mutation, reproducible from a seed; and the deviations file's format."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ttopt.testing.differential import Case, Outcome, Source, identity_case, make_case, read_deviations, unexplained
from ttopt.testing.token_mutations import MUTATORS, Mutation, mutate, tokenize

ROOT = Path(__file__).resolve().parents[2]
JAX_DEBUG = (ROOT / "testdata" / "jax" / "call_private_helper.debug.mlir").read_text()


def _spelled(text: str) -> list[tuple[str, str]]:
    return [(t.kind, text[t.start : t.end]) for t in tokenize(text)]


def test_tokens_split_where_mlir_splits() -> None:
    text = 'tensor<0x4xf32> %0#1 @"a-b" @f 0xi32 1.e5 -2.5E-3 ^bb0 !x.y<"q\\22"> {-# r #-} -> ... // c\n%a-b$'
    assert _spelled(text) == [
        ("bare", "tensor"), ("punct", "<"), ("integer", "0x4"), ("bare", "xf32"), ("punct", ">"),
        ("percent", "%0"), ("hash", "#1"), ("at", '@"a-b"'), ("at", "@f"), ("integer", "0"), ("bare", "xi32"),
        ("float", "1.e5"), ("punct", "-"), ("float", "2.5E-3"), ("caret", "^bb0"), ("bang", "!x.y"), ("punct", "<"),
        ("string", '"q\\22"'), ("punct", ">"), ("punct", "{-#"), ("bare", "r"), ("punct", "#-}"), ("punct", "->"),
        ("punct", "..."), ("percent", "%a-b$"),
    ]


def test_characters_mlir_rejects_are_error_tokens() -> None:
    assert [k for k, _ in _spelled('a\fb \u00a0 "x\\q" ;')] == ["bare", "error", "bare", "error", "error", "bare", "error"]
    assert _spelled("a // x\rb") == [("bare", "a"), ("bare", "b")]  # a comment ends at CR, as in MLIR


_TRIVIA = re.compile(r"(?:[ \t\n\r]|//[^\n\r]*)*")


@given(st.text(alphabet=st.sampled_from(list('ab0x1.e-+%@#!^"\\/ \t\n\r\f<>{}()[],:=é\u00a0')), max_size=60))
def test_tokens_cover_everything_but_trivia(text: str) -> None:
    last = 0
    for t in tokenize(text):
        assert last <= t.start < t.end <= len(text)
        assert _TRIVIA.fullmatch(text[last : t.start])
        last = t.end
    assert _TRIVIA.fullmatch(text[last:])


@given(st.text(max_size=80), st.integers(0, 1000))
def test_mutate_never_raises(text: str, seed: int) -> None:
    m = mutate(random.Random(seed), text)
    assert m is None or m.text != text


@pytest.mark.parametrize("kind", sorted(MUTATORS))
def test_every_kind_edits_a_real_module_reproducibly(kind: str) -> None:
    edits = {m for s in range(30) if (m := mutate(random.Random(s), JAX_DEBUG, kind)) is not None}
    assert len(edits) > 3
    for m in edits:
        assert m.kind == kind and m.text != JAX_DEBUG and 0 <= m.at <= len(m.text)
    assert mutate(random.Random(7), JAX_DEBUG, kind) == mutate(random.Random(7), JAX_DEBUG, kind)


def test_number_range_uses_the_literal_type() -> None:
    text = "%0 = arith.constant 3 : i8\n"
    values = {int(re.search(r"-?\d+ :", m.text).group()[:-2]) for s in range(60)  # type: ignore[union-attr]
              if (m := mutate(random.Random(s), text, "number-range"))}
    assert values == {-128, 127, -129, 128, 256, 255}


def test_hex_float_spells_the_same_value_at_the_same_width() -> None:
    text = "%0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>\n"
    forms = {m.detail: m.text for s in range(60) if (m := mutate(random.Random(s), text, "hex-float"))}
    assert "dense<0x3F800000>" in forms["f32 as same-width"]
    assert "dense<0x3C00>" in forms["f32 as 16-bit"] or "dense<0x3F80>" in forms["f32 as 16-bit"]


def test_symbol_renames_reach_every_reference_and_the_generic_sym_name() -> None:
    text = 'func.func @f() {\n  return\n}\n"func.func"() <{sym_name = "g", function_type = () -> ()}> ({\n  func.call @f() : () -> ()\n}) : () -> ()\n'
    for s in range(40):
        m = mutate(random.Random(s), text, "symbol-name")
        assert m is not None
        if m.detail == "quoted-dash" and "@f" not in m.text:
            assert m.text.count('@"f-x"') == 2
            return
    pytest.fail("no quoted-dash rename of @f in 40 seeds")


def test_alias_moved_after_its_use() -> None:
    text = "#a = loc(\"x\")\nfunc.func @f() {\n  return loc(#a)\n}\n"
    for s in range(40):
        m = mutate(random.Random(s), text, "alias-order")
        if m is not None and m.detail.startswith("after-first-use"):
            assert m.text == "func.func @f() {\n  return loc(#a)\n#a = loc(\"x\")\n}\n"
            return
    pytest.fail("no after-first-use move in 40 seeds")


def test_deviations_need_a_reason(tmp_path: Path) -> None:
    assert all(d.reason for d in read_deviations(ROOT / "tests" / "fuzz" / "differential_deviations.txt"))
    bad = tmp_path / "d.txt"
    bad.write_text("# comment\n^output-mismatch number\n")
    with pytest.raises(ValueError, match="reason"):
        read_deviations(bad)


def test_only_unlisted_disagreements_are_unexplained(tmp_path: Path) -> None:
    src = Source("opt", "x.mlir#0", "module {}\n")
    case = Case(1, src, Mutation("blank-insert", "FF between '{' and '}'", "module {\f}\n", 8), ())
    listed = Outcome(case, "ttopt-only-accepts", "rejects: unexpected character", "accepts (exit 0)")
    other = Outcome(Case(2, src, Mutation("number", "integer neg ?", "x", 0), ()), "mlir-only-accepts", "accepts", "rejects: e")
    agree = Outcome(identity_case(src), "agree-accept", "accepts", "accepts")
    path = tmp_path / "d.txt"
    path.write_text("^ttopt-only-accepts blank-insert FF .*unexpected character  # a reason\n")
    assert listed.key == "ttopt-only-accepts blank-insert FF between '{' and '}'"
    assert unexplained([listed, other, agree], read_deviations(path)) == [other]


def test_cases_are_reproducible_and_spread_over_corpora() -> None:
    sources = [Source("a", "a#0", JAX_DEBUG), Source("b", "b#0", "func.func @f(%x: tensor<2xi8>) {\n  return\n}\n")]
    assert make_case(5, sources) == make_case(5, sources)
    cases = [c for s in range(40) if (c := make_case(s, sources)) is not None]
    assert {c.source.corpus for c in cases} == {"a", "b"} and len({c.text for c in cases}) > 30
