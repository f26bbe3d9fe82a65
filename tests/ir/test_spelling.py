"""MLIR's spelling rules for what the printer writes: string escapes, bare or quoted symbols and
dictionary keys, canonical type text. Anything printed reads back as the same name or string."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ttopt.ir.attributes import unquote
from ttopt.ir.printer import PrintOptions, print_module
from ttopt.ir.spelled import canonical_type_spelling, keyword_or_string, quote, symbol_ref
from ttopt.parse.parser import parse_module

# Python strings the IR can hold: any code point but lone surrogates.
TEXT = st.text(st.characters(exclude_categories=("Cs",)), max_size=12)
BARE = re.compile(r"[A-Za-z_][A-Za-z0-9_$.]*")


@pytest.mark.parametrize(
    "value,printed",
    [
        ("plain text", '"plain text"'),
        ('a"b', '"a\\22b"'),
        ("a\\b", '"a\\\\b"'),
        ("line\nnext\ttab", '"line\\0Anext\\09tab"'),
        ("\x7f", '"\\7F"'),
        ("é", '"\\C3\\A9"'),
        ("", '""'),
    ],
)
def test_quote_escapes_as_llvm_print_escaped_string(value: str, printed: str) -> None:
    assert quote(value) == printed


@given(TEXT)
def test_quote_reads_back_and_is_printable_ascii(value: str) -> None:
    text = quote(value)
    assert unquote(text) == value
    body = text[1:-1]
    assert all(" " <= c <= "~" for c in body)
    assert '"' not in body  # `"` is always `\22`, so the first `"` after the opening one closes


@pytest.mark.parametrize(
    "name,printed",
    [
        ("main", "@main"),
        ("_f.g$h", "@_f.g$h"),
        ("a-b", '@"a-b"'),
        ("123", '@"123"'),
        ("$a", '@"$a"'),
        (".a", '@".a"'),
        ("x y", '@"x y"'),
        ("é", '@"\\C3\\A9"'),
        ("f\n", '@"f\\0A"'),
    ],
)
def test_symbol_bare_only_when_a_bare_identifier(name: str, printed: str) -> None:
    assert symbol_ref(name) == printed


@given(TEXT)
def test_keyword_or_string_is_bare_exactly_for_bare_identifiers(name: str) -> None:
    text = keyword_or_string(name)
    if BARE.fullmatch(name):
        assert text == name
    else:
        assert unquote(text) == name


def _reprint(text: str, generic: bool = False) -> str:
    return print_module(parse_module(text), PrintOptions(generic=generic))


@given(TEXT.filter(lambda s: " " not in s and "\0" not in s))  # MLIR rejects a NUL in an op name
def test_generic_op_name_round_trips(suffix: str) -> None:
    name = "x.a" + suffix
    text = f"{quote(name)}() : () -> ()\n"
    module = parse_module(text)
    assert module.op.regions[0].blocks[0].ops[0].name == name
    printed = print_module(module)
    assert f"  {quote(name)}() : () -> ()\n" in printed
    assert _reprint(printed) == printed


@given(st.text(st.characters(exclude_categories=("Cs",)), min_size=1, max_size=12))
def test_symbol_name_round_trips(name: str) -> None:
    text = f'func.func private {symbol_ref(name)}()\n"x.op"() {{ref = {symbol_ref(name)}::{symbol_ref(name)}}} : () -> ()\n'
    printed = _reprint(text)
    assert f"func.func private {symbol_ref(name)}()\n" in printed
    assert f"{{ref = {symbol_ref(name)}::{symbol_ref(name)}}}" in printed
    assert _reprint(printed) == printed
    generic = _reprint(text, generic=True)
    assert f"sym_name = {quote(name)}" in generic
    assert _reprint(generic, generic=True) == generic


def test_call_callee_and_dictionary_keys_quoted() -> None:
    text = (
        'func.func private @"a-b"(tensor<f32>) -> tensor<f32>\n'
        "func.func @main(%arg0: tensor<f32>) -> tensor<f32> {\n"
        '  %0 = func.call @"a-b"(%arg0) {"k-y" = 1 : i32, "é" = 2 : i32} : (tensor<f32>) -> tensor<f32>\n'
        "  return %0 : tensor<f32>\n"
        "}\n"
    )
    printed = _reprint(text)
    assert '%0 = call @"a-b"(%arg0) {"k-y" = 1 : i32, "\\C3\\A9" = 2 : i32}' in printed
    assert '<{callee = @"a-b"}>' in _reprint(text, generic=True)


@pytest.mark.parametrize(
    "spelled,printed",
    [
        ("tensor <f32>", "tensor<f32>"),
        ("tensor< 2 x ? x i32 >", "tensor<2x?xi32>"),
        ("tensor<4xf32 ,#enc>", "tensor<4xf32, #enc>"),
        ("tuple<i32 , f32>", "tuple<i32, f32>"),
        ("complex< f32>", "complex<f32>"),
        ("vector<[4] x f32>", "vector<[4]xf32>"),
        ("tensor<2xcomplex< f32 >>", "tensor<2xcomplex<f32>>"),
        ("( i32 ,f32 )->( i1 )", "(i32, f32) -> (i1)"),
        # dialect bodies, strings and layout attributes keep their spelling, as MLIR keeps an
        # unregistered dialect's body
        ("!x.y<tensor <f32>>", "!x.y<tensor <f32>>"),
        ('tensor<2x!x.y<"a  b" c>>', 'tensor<2x!x.y<"a  b" c>>'),
        ("memref<4xf32, strided<[1], offset: 0>>", "memref<4xf32, strided<[1], offset: 0>>"),
        ("tensor<64x64xbf16, #ttnn_layout>", "tensor<64x64xbf16, #ttnn_layout>"),
    ],
)
def test_canonical_type_spelling(spelled: str, printed: str) -> None:
    assert canonical_type_spelling(spelled) == printed
    assert canonical_type_spelling(printed) == printed


def test_parenthesized_result_type_prints_canonically() -> None:
    text = '%0 = "x.op"() : () -> (tensor <f32>)\n%1 = "x.op"(%0) : (tensor <f32>) -> (tuple<i32 , f32>)\n'
    for generic in (False, True):
        printed = _reprint(text, generic)
        assert "tensor <" not in printed and "i32 ," not in printed
        assert '%1 = "x.op"(%0) : (tensor<f32>) -> tuple<i32, f32>' in printed
        assert _reprint(printed, generic) == printed


@pytest.mark.parametrize("visibility", ["pub\\41lic", "bogus", "Public"])
def test_func_visibility_that_is_no_keyword_prints_generic(visibility: str) -> None:
    text = f'"func.func"() <{{function_type = () -> (), sym_name = "g", sym_visibility = "{visibility}"}}> ({{}}) : () -> ()\n'
    printed = _reprint(text)
    assert f'sym_visibility = "{visibility}"' in printed
    assert "func.func pub" not in printed and "func.func bogus" not in printed
    assert _reprint(printed) == printed


@pytest.mark.parametrize("visibility", ["public", "private", "nested"])
def test_func_visibility_keyword(visibility: str) -> None:
    text = f'"func.func"() <{{function_type = () -> (), sym_name = "g", sym_visibility = "{visibility}"}}> ({{}}) : () -> ()\n'
    assert f"  func.func {visibility} @g()\n" in _reprint(text)


def test_empty_quoted_symbol_is_a_mesh_name() -> None:
    """`@""` is a valid symbol in MLIR (jaxlib reads it); a mesh may be named so and referred to."""
    text = (
        'sdy.mesh @"" = <["x"=2]>\n'
        "func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
        '  %0 = sdy.manual_computation(%arg0) in_shardings=[<@"", [{"x"}]>] out_shardings=[<@"", [{"x"}]>] '
        'manual_axes={"x"} (%arg1: tensor<4xf32>) {\n'
        "    sdy.return %arg1 : tensor<4xf32>\n"
        "  } : (tensor<8xf32>) -> tensor<8xf32>\n"
        "  return %0 : tensor<8xf32>\n"
        "}\n"
    )
    printed = _reprint(text)
    assert 'sdy.mesh @"" = <["x"=2]>' in printed
    assert 'in_shardings=[<@"", [{"x"}]>]' in printed
    assert _reprint(printed) == printed
