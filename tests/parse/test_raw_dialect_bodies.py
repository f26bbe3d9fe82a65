"""A dialect attribute's body ends where MLIR's parseDialectSymbolBody ends it: read raw, so a
bracket or quote inside a comment there counts; a comment without either is a blank. Each case's
verdict is jaxlib's (tests/fuzz/test_differential_jaxlib.py finds such cases by mutation)."""

from __future__ import annotations

import pytest

from ttopt.ir.diagnostics import Diagnostic
from ttopt.parse.parser import parse_module


def _module(sharding: str) -> str:
    return (
        'sdy.mesh @mesh = <["x"=2, "y"=2]>\n'
        f"func.func @f(%a: tensor<8xf32> {{sdy.sharding = #{sharding}}}) -> tensor<8xf32> {{\n"
        "  return %a : tensor<8xf32>\n"
        "}\n"
    )


@pytest.mark.parametrize(
    ("sharding", "error"),
    [
        ('sdy.sharding<@mesh, // a comment\n [{"x"}]>', None),
        ('sdy.sharding<// -> } >\n@mesh, [{}]>', "2:68: error: unbalanced '<' character in pretty dialect name"),
        ('sdy.sharding<@mesh, // say "hi\n [{}]>', "2:79: error: expected '\"' in string literal"),
        (
            'sdy.sharding<@mesh, [{}], replicated={"y"// -> } >\n}>',
            "2:98: error: '#sdy.sharding' ends here, inside a comment",
        ),
    ],
)
def test_comment_inside_a_dialect_body(sharding: str, error: str | None) -> None:
    text = _module(sharding)
    if error is None:
        assert "x" in str(parse_module(text, "m.mlir").op.regions[0].blocks[0].ops[1].properties["arg_attrs"])
        return
    with pytest.raises(Diagnostic) as e:
        parse_module(text, "m.mlir")
    assert e.value.render().startswith(f"m.mlir:{error}")


def test_a_comment_outside_dialect_bodies_is_a_blank() -> None:
    text = _module('sdy.sharding<@mesh, [{"x"}]>').replace("-> tensor<8xf32> {", "-> tensor<8xf32> { // } > \"q")
    parse_module(text, "m.mlir")
