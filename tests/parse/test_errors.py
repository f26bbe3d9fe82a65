"""Bad input gives one positioned diagnostic (never another exception), in linear time."""

from __future__ import annotations

from pathlib import Path

import pytest

from ttopt.ir.diagnostics import Diagnostic
from ttopt.ir.verifier import verify
from ttopt.parse.parser import parse_module

DATA = Path(__file__).resolve().parents[2] / "testdata"

FUNC = "func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {{\n{body}\n}}\n"

# (input, message fragment, line, column)
CASES = [
    (FUNC.format(body="  %0 = stablehlo.add %a, %b : tensor<2xf32>\n  return %0 : tensor<2xf32>"), "use of undefined value '%b'", 2, 26),
    (FUNC.format(body="  %0 = stablehlo.abs %a : tensor<2xf32>\n  %0 = stablehlo.abs %a : tensor<2xf32>\n  return %0 : tensor<2xf32>"), "redefinition of SSA value '%0'", 3, 3),
    ("func.func @f(%a: tensor<2xf32, #nope>) {\n  return\n}\n", "undefined symbol alias id 'nope'", 1, 37),
    ("func.func @f(%a: !nope) {\n  return\n}\n", "undefined symbol alias id 'nope'", 1, 23),
    ("#a = #b\nfunc.func @f() {\n  return\n}\n", "undefined symbol alias id 'b'", 1, 8),
    ("#a = 1 : i32\n#a = 2 : i32\n", "redefinition of attribute alias id 'a'", 2, 1),
    ("func.func @f(%a: tensor<2xf32) {\n  return\n}\n", "expected '>' to close '<', found ')'", 1, 30),
    ("func.func @f(%a: tensor<2xf32>) {\n  return\n", "unexpected end of input", 2, 9),
    ("func.func @f(%a: tensor<2xf32>) {\n  %0 = \"x.y\"(%a : (tensor<2xf32>) -> ()\n}\n", "expected the operand list", 2, 13),
    ("func.func @f() {\n  %0 = \"x.y\"() : () -> (tensor<2xf32>, f32)\n  return\n}\n", "written with 1 result(s) but its type has 2", 2, 8),
    ("func.func @f() {\n  %0:2 = \"x.y\"() : () -> (f32, f32)\n  \"x.z\"(%0) : (f32) -> ()\n  return\n}\n", "names 2 results", 3, 9),
    ("func.func @f() {\n  %0:2 = \"x.y\"() : () -> (f32, f32)\n  \"x.z\"(%0#2) : (f32) -> ()\n  return\n}\n", "out of range", 3, 9),
    ("func.func @f() {\n  foo.bar\n}\n", "custom assembly format of 'foo.bar' is not known", 2, 3),
    ("func.func @f() {\n  %0 = stablehlo.constant dense<1.0>\n  return\n}\n", "unexpected end of input; expected ':'", 2, 37),
    ("func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {\n  %0 = stablehlo.broadcast_in_dim %a, sizes = [1] : (tensor<2xf32>) -> tensor<2xf32>\n  return %0 : tensor<2xf32>\n}\n", "unknown option 'sizes'", 2, 39),
    ("\"x.y\"() : () -> () loc(\"a\" junk)\n", "unexpected", 1, 28),
    ("module {\n  %0 = \"x.y\"() {a = } : () -> f32\n}\n", "unexpected '}'; expected", 2, 21),
    ("\x00\x01garbage\n", "unexpected character", 1, 2),  # MLIR skips a NUL like a blank
    ("%0 = \"x.y\"() : () -> tensor<2xf32\n", "unbalanced '<'", 1, 28),
    ("\"x.y\"() : () -> () loc(\"unterminated)\n", "expected '\"' in string literal", 1, 38),  # at the line end, as MLIR
]


@pytest.mark.parametrize("text,message,line,col", CASES, ids=[c[1][:40] for c in CASES])
def test_diagnostic(text: str, message: str, line: int, col: int) -> None:
    with pytest.raises(Diagnostic) as exc:
        verify(parse_module(text, "in.mlir"))
    d = exc.value
    assert message in d.message
    rendered = d.render()
    assert rendered.startswith(f"in.mlir:{line}:{col}: error: "), rendered
    lines = rendered.splitlines()
    assert lines[2].strip() == "^" and len(lines[2]) == col  # caret under the column


def test_convolution_pad_that_is_not_pairs_is_a_diagnostic() -> None:
    """Found by typing formats.py: `pad = [1, 2]` crashed the builder (AttributeError)."""
    text = ("func.func @f(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32> {\n"
            "  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {pad = [1, 2]}"
            " {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> "
            "tensor<1x4x8x8xf32>\n  return %0 : tensor<1x4x8x8xf32>\n}\n")  # fmt: skip
    with pytest.raises(Diagnostic) as exc:
        parse_module(text, "in.mlir")
    assert "window option 'pad': expected one [low, high] pair per spatial dimension" in exc.value.message
    assert exc.value.render().startswith("in.mlir:2:102: error: ")


def test_verifier_errors_name_the_op() -> None:
    text = FUNC.format(body='  %0 = "ttnn.matmul"(%a) : (tensor<2xf32>) -> tensor<2xf32>\n  return %0 : tensor<2xf32>')
    with pytest.raises(Diagnostic, match=r"'ttnn.matmul' op expected 2 operands, but found 1"):
        verify(parse_module(text))


@pytest.mark.parametrize("path", sorted((DATA / "jax").glob("*.mlir"))[:12] + sorted((DATA / "ttnn").glob("*.mlir")), ids=lambda p: p.name)
def test_every_truncation_is_a_diagnostic(path: Path) -> None:
    """Cutting a valid file anywhere yields a module or a Diagnostic, never another exception."""
    text = path.read_text()
    step = max(1, len(text) // 60)
    for cut in range(0, len(text), step):
        try:
            verify(parse_module(text[:cut], "cut.mlir"))
        except Diagnostic as d:
            assert d.pos is not None and 0 <= d.pos.offset <= cut


def test_unbalanced_brackets_report_the_opener() -> None:
    text = "func.func @f(%a: tensor<2xf32, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>>) {\n  return\n}\n"
    with pytest.raises(Diagnostic) as exc:
        parse_module(text)
    assert "'<'" in exc.value.message or "'('" in exc.value.message


def test_huge_single_line_is_linear_and_clipped() -> None:
    """A multi-megabyte line with an error gives one short diagnostic (caret line clipped)."""
    body = "[" + "1, " * 700_000 + "2"  # never closed
    with pytest.raises(Diagnostic) as exc:
        parse_module(f'"x.y"() {{a = {body} : () -> ()\n')
    rendered = exc.value.render()
    assert len(rendered) < 1000
    assert "unbalanced" in rendered


def test_deep_nesting_is_a_diagnostic() -> None:
    text = '"x.y"() ({\n' * 3000 + "}) : () -> ()\n" * 3000
    with pytest.raises(Diagnostic, match="nested more than 100 deep"):
        parse_module(text)
