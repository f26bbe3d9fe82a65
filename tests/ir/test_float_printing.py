"""Parsed float attributes print as MLIR prints them, whatever their input spelling: FloatAttrs,
float dense literals (splat, nested, complex, hex for more than 100 elements), `array<f32: ...>`,
and a ttnn attribute's FloatAttr parameters.

The fixed cases are hard-coded from what MLIR's printer (jaxlib 0.10.2) prints for the same text;
when jaxlib is installed they are checked against it, and a property test prints random f16, bf16,
f32 and f64 values, spelled in several ways, through both."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ttopt.ir.float_spelling import float_from_bits
from ttopt.ir.printer import print_module
from ttopt.parse.parser import parse_module

# (attribute text, what MLIR prints for it)
SCALARS = [
    ("0.9 : f32", "0.899999976 : f32"),
    ("0.1 : f32", "1.000000e-01 : f32"),
    ("1.0e-3 : f32", "1.000000e-03 : f32"),
    ("1.0e-10 : f32", "1.000000e-10 : f32"),
    ("3.4e38 : f32", "3.400000e+38 : f32"),
    ("1.0e-45 : f32", "1.401300e-45 : f32"),  # the smallest subnormal
    ("1.2e-38 : f32", "1.200000e-38 : f32"),
    ("-0.0 : f32", "-0.000000e+00 : f32"),
    ("0x7fc00000 : f32", "0x7FC00000 : f32"),  # NaN: its bits, in upper case
    ("0x7F800000 : f32", "0x7F800000 : f32"),
    ("0xFF800000 : f32", "0xFF800000 : f32"),
    ("0x3F800000 : f32", "1.000000e+00 : f32"),  # bits of a finite value: its digits
    ("1.0e39 : f32", "0x7F800000 : f32"),  # rounds to infinity
    ("0.3 : bf16", "3.007810e-01 : bf16"),
    ("1.1 : bf16", "1.101560e+00 : bf16"),
    ("-2.2 : bf16", "-2.203130e+00 : bf16"),
    ("2.5e-3 : bf16", "2.502440e-03 : bf16"),
    ("0x7FC0 : bf16", "0x7FC0 : bf16"),
    ("0x0001 : bf16", "9.183550e-41 : bf16"),
    ("65504.0 : f16", "6.550400e+04 : f16"),
    ("65520.0 : f16", "0x7C00 : f16"),
    ("6.0e-8 : f16", "5.960460e-08 : f16"),
    ("0.1 : f16", "9.997550e-02 : f16"),
    ("0.1 : f64", "1.000000e-01 : f64"),
    ("0.1", "1.000000e-01 : f64"),
    ("4.9e-324 : f64", "4.940660e-324 : f64"),
    ("123456.7 : f32", "123456.703 : f32"),
    ("1234567.0 : f32", "0x4996B438 : f32"),  # neither decimal form has a '.': the bits
    ("1.0e-5 : f32", "9.99999974E-6 : f32"),
    ("0.01 : f32", "0.00999999977 : f32"),
    ("2.0 : f32", "2.000000e+00 : f32"),
]

OTHERS = [
    ("[1.5, 2.0 : f32, 3]", "[1.500000e+00, 2.000000e+00 : f32, 3]"),
    ("dense<1.0> : tensor<2x2xf32>", "dense<1.000000e+00> : tensor<2x2xf32>"),
    ("dense<[1.0, 1.0]> : tensor<2xf32>", "dense<1.000000e+00> : tensor<2xf32>"),  # all equal: a splat
    ("dense<[1.0]> : tensor<1xbf16>", "dense<1.000000e+00> : tensor<1xbf16>"),
    ("dense<[0.0, -0.0]> : tensor<2xf32>", "dense<[0.000000e+00, -0.000000e+00]> : tensor<2xf32>"),
    ("dense<[[1.0, 2.0],[3.0,0.9]]> : tensor<2x2xf32>", "dense<[[1.000000e+00, 2.000000e+00], [3.000000e+00, 0.899999976]]> : tensor<2x2xf32>"),
    ("dense<[0x7fc00000, 1.0]> : tensor<2xf32>", "dense<[0x7FC00000, 1.000000e+00]> : tensor<2xf32>"),
    ("dense<[- 1.5, 0.3]> : tensor<2xbf16>", "dense<[-1.500000e+00, 3.007810e-01]> : tensor<2xbf16>"),
    ("dense<(1.0, 0.9)> : tensor<complex<f32>>", "dense<(1.000000e+00,0.899999976)> : tensor<complex<f32>>"),
    ("dense<[(1.0, 2.0), (1.0, 2.0)]> : tensor<2xcomplex<f16>>", "dense<(1.000000e+00,2.000000e+00)> : tensor<2xcomplex<f16>>"),
    ('dense<"0x0000803F0000803F"> : tensor<2xf32>', "dense<1.000000e+00> : tensor<2xf32>"),  # a small hex string: its elements
    ('dense<"0x0000803f00000040"> : tensor<2xf32>', "dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>"),
    ('dense<"0x803F00400000C0FF"> : tensor<2xcomplex<bf16>>', "dense<[(1.000000e+00,2.000000e+00), (0.000000e+00,0xFFC0)]> : tensor<2xcomplex<bf16>>"),
    ("dense<[1, 2]> : tensor<2xi32>", "dense<[1, 2]> : tensor<2xi32>"),
    ("array<f32: 0.9, 1.0>", "array<f32: 0.899999976, 1.000000e+00>"),
    ("array<bf16: 1.5, 0.3>", "array<bf16: 1.500000e+00, 3.007810e-01>"),
    ("array<f64: 0.1>", "array<f64: 1.000000e-01>"),
    ("array<f32>", "array<f32>"),
    ("1.5 : f8E4M3FN", "1.5 : f8E4M3FN"),  # a type ttopt has no semantics for: as written (MLIR: 1.500000e+00)
]


def _op(attrs: str) -> str:
    return f'"t.op"() {{{attrs}}} : () -> ()\n'


def _ttopt(text: str) -> str:
    return print_module(parse_module(text))


def _mlir():  # pragma: no cover - depends on jaxlib being installed
    try:
        from jax._src.lib.mlir import ir
    except ImportError:
        return None
    ctx = ir.Context()
    ctx.allow_unregistered_dialects = True
    return lambda text: str(ir.Module.parse(text, ctx))


MLIR = _mlir()


@pytest.mark.parametrize("text,printed", SCALARS + OTHERS, ids=[t for t, _ in SCALARS + OTHERS])
def test_prints_as_mlir(text: str, printed: str) -> None:
    assert _ttopt(_op(f"a = {text}")) == f"module {{\n  {_op(f'a = {printed}')}}}\n"


@pytest.mark.skipif(MLIR is None, reason="jaxlib (MLIR's printer) is not installed")
def test_fixed_cases_are_mlirs() -> None:
    assert MLIR is not None
    for text, printed in SCALARS + OTHERS[:-1]:  # MLIR knows f8E4M3FN
        assert MLIR(_op(f"a = {text}")) == f"module {{\n  {_op(f'a = {printed}')}}}\n", text


def test_more_than_100_elements_print_as_hex() -> None:
    """mlir-opt prints a dense literal of more than 100 elements as its bytes (unless all are equal)."""
    values = ", ".join(f"{i}.5" for i in range(101))
    out = _ttopt(_op(f"a = dense<[{values}]> : tensor<101xf32>, b = dense<[{', '.join(['2.0'] * 101)}]> : tensor<101xbf16>"))
    assert 'a = dense<"0x0000003F0000C03F00002040' in out
    assert "b = dense<2.000000e+00> : tensor<101xbf16>" in out
    if MLIR is not None:  # pragma: no cover - depends on jaxlib
        assert out == MLIR(_op(f"a = dense<[{values}]> : tensor<101xf32>, b = dense<[{', '.join(['2.0'] * 101)}]> : tensor<101xbf16>"))


def test_ttnn_float_parameters() -> None:
    """A ttnn attribute's FloatAttr parameters print as FloatAttrs (alias definitions too); an
    unregistered dialect's attribute is opaque text (MLIR keeps it as written)."""
    text = (
        "#act = #ttnn.unary_with_param<op_type = add_unary_sfpu, params = [0.9 : f32]>\n"
        + _op('a = #act, b = #ttnn.unary_with_param<op_type = silu, params = [2.0 : f32, "1.0 : f32"]>, c = #foo.bar<1.0 : f32>')
    )
    out = _ttopt(text)
    assert "#act = #ttnn.unary_with_param<op_type = add_unary_sfpu, params = [0.899999976 : f32]>" in out
    assert 'b = #ttnn.unary_with_param<op_type = silu, params = [2.000000e+00 : f32, "1.0 : f32"]>' in out
    assert "c = #foo.bar<1.0 : f32>" in out


def test_untouched_spellings_are_kept() -> None:
    """Only floats are re-spelled: a dictionary without them keeps its text, integers theirs."""
    text = _op("a = dense<[1,2]> : tensor<2xi32>, b = array<i32: 1,2>, c = 0x10 : i32")
    assert "a = dense<[1,2]> : tensor<2xi32>, b = array<i32: 1,2>, c = 16 : i32" in _ttopt(text)


def test_reads_back_the_same() -> None:
    """The printed spelling of a value reads back to the same bits (parse, print, parse, print)."""
    text = _op(", ".join(f"a{i} = {t}" for i, (t, _) in enumerate(SCALARS + OTHERS)))
    once = _ttopt(text)
    assert _ttopt(once) == once


# ---- against MLIR's printer -------------------------------------------------------------------

_KINDS = {"f16": 16, "bf16": 16, "f32": 32, "f64": 64}


@st.composite
def _literal(draw: st.DrawFn, kind: str) -> str:
    """A float literal of `kind`: a value's decimal digits spelled some way, or its hex bits."""
    bits = draw(st.integers(0, 2 ** _KINDS[kind] - 1))
    value = float_from_bits(bits, kind)
    if value != value or draw(st.integers(0, 5)) == 0:
        return f"0x{bits:X}"
    if kind in ("f16", "bf16") and draw(st.booleans()):
        value = draw(st.floats(-7e4, 7e4, allow_nan=False))  # any double, rounded to the type when read
    style = draw(st.sampled_from(["repr", "e", "f"]))
    if value in (float("inf"), float("-inf")):
        return ("-" if value < 0 else "") + "1.0e999"
    if style == "e":
        digits = draw(st.integers(1, 17))
        return f"{value:.{digits}e}"
    if style == "f" and 1e-5 < abs(value) < 1e17:
        digits = draw(st.integers(1, 12))
        return f"{value:.{digits}f}"
    text = repr(value)
    return text if "." in text else f"{value:.17e}"  # `1e-05`: MLIR's float token needs a '.'


@st.composite
def _module(draw: st.DrawFn) -> str:
    kind = draw(st.sampled_from(sorted(_KINDS)))
    lits = draw(st.lists(_literal(kind), min_size=4, max_size=4))
    a, b, c, d = lits
    hexless = [x for x in lits if not x.startswith("0x")] or ["1.0"]
    return _op(
        f"s = {a} : {kind}, "
        f"l = dense<[{a}, {b}, {c}, {d}]> : tensor<4x{kind}>, "
        f"n = dense<[[{a}, {b}], [{c}, {a}]]> : tensor<2x2x{kind}>, "
        f"p = dense<{b}> : tensor<3x{kind}>, "
        f"e = dense<[{c}, {c}]> : tensor<2x{kind}>, "
        f"x = dense<({a}, {d})> : tensor<complex<{kind}>>, "
        f"r = array<{kind}: {', '.join(hexless)}>, "
        f"v = [{b} : {kind}, {hexless[0]}]"
    )


@pytest.mark.skipif(MLIR is None, reason="jaxlib (MLIR's printer) is not installed")
@settings(max_examples=300, deadline=None)
@given(_module())
def test_agrees_with_mlirs_printer(text: str) -> None:
    assert MLIR is not None
    assert _ttopt(text) == MLIR(text)

