"""`sdy.propagation_barrier` written as MLIR's generic form holds its direction as `N : i32`
(Shardy's I32EnumAttr); ttopt prints it as the custom form's keyword, which MLIR reads back as
the same module, and prints an out-of-range value generic rather than as a keyword MLIR lacks."""

from __future__ import annotations

import pytest

from ttopt.ir.printer import print_module
from ttopt.parse.parser import parse_module


def _module(direction: str) -> str:
    return (
        'sdy.mesh @mesh = <["a"=2]>\n'
        "func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
        f'  %0 = "sdy.propagation_barrier"(%arg0) <{{allowed_direction = {direction}}}> : (tensor<8xf32>) -> tensor<8xf32>\n'
        "  return %0 : tensor<8xf32>\n"
        "}\n"
    )


@pytest.mark.parametrize("value,keyword", [(0, "NONE"), (1, "FORWARD"), (2, "BACKWARD"), (3, "BOTH")])
def test_generic_direction_prints_as_keyword(value: int, keyword: str) -> None:
    printed = print_module(parse_module(_module(f"{value} : i32")))
    assert f"%0 = sdy.propagation_barrier %arg0 allowed_direction={keyword} : tensor<8xf32>\n" in printed


@pytest.mark.parametrize("direction", ["7 : i32", "1 : i64", '"FORWARD"'])
def test_direction_that_is_no_case_prints_generic(direction: str) -> None:
    printed = print_module(parse_module(_module(direction)))
    assert f'"sdy.propagation_barrier"(%arg0) <{{allowed_direction = {direction}}}>' in printed


@pytest.mark.oracle
@pytest.mark.parametrize("value", [0, 1, 2])  # MLIR's verifier rejects BOTH (a barrier that blocks nothing)
def test_jaxlib_reads_the_printed_keyword_as_the_same_module(value: int) -> None:
    jmlir = pytest.importorskip("jax._src.interpreters.mlir")
    from jax._src.lib.mlir import ir

    source = _module(f"{value} : i32")
    ours = print_module(parse_module(source))

    def reading(text: str) -> str:
        return ir.Module.parse(text, context=jmlir.make_ir_context()).operation.get_asm(print_generic_op_form=True)

    assert reading(ours) == reading(source)
    assert str(ir.Module.parse(source, context=jmlir.make_ir_context())) == ours
