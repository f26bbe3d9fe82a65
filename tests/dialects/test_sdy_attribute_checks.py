"""Shardy's checks of `sdy.*` attributes on any op and on function arguments and results
(sdy_verify.verify_sdy_attributes, registered in ir.attributes.OP_ATTRIBUTE_VERIFIERS), in
Shardy's words; the messages are jaxlib's for the same modules (checked when jax is importable)."""

from __future__ import annotations

import pytest

from ttopt.ir.attributes import OP_ATTRIBUTE_VERIFIERS
from ttopt.parse.parser import parse_module

MESH = 'sdy.mesh @mesh = <["x"=2, "y"=2]>\n'


def _func(arg_attr: str = "", body: str = "  return %arg0 : tensor<8x8xf32>\n", res: str = "tensor<8x8xf32>") -> str:
    return f"func.func @f(%arg0: tensor<8x8xf32>{arg_attr}) -> {res} {{\n{body}}}\n"


def _add(attrs: str) -> str:
    return f"  %0 = stablehlo.add %arg0, %arg0 {{{attrs}}} : tensor<8x8xf32>\n  return %0 : tensor<8x8xf32>\n"


CASES = [
    (MESH + _func(' {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"z"}]>}'), "'func.func' op arg 0 - unknown axis name: \"z\""),
    (MESH + _func(' {sdy.sharding = #sdy.sharding<@nomesh, [{"x"}, {}]>}'), "'func.func' op arg 0 - unknown mesh: @nomesh"),
    (MESH + _func(' {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}'), "'func.func' op arg 0 - sharding doesn't match tensor rank: 1 != 2"),
    (MESH + _func(' {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"x"}]>}'), "'func.func' op arg 0 - duplicate axis ref: \"x\""),
    (MESH + _func(' {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], replicated={"y", "x"}>}'),
     "'func.func' op arg 0 - replicated axes are not ordered w.r.t. mesh"),
    (MESH + _func(res='(tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"w"}]>})'),
     "'func.func' op result 0 - unknown axis name: \"w\""),
    (MESH + _func(body=_add('sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"w"}]>]>')),
     "'stablehlo.add' op result - unknown axis name: \"w\""),
    (MESH + _func(body=_add('sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>')),
     "'stablehlo.add' op should have a sharding attribute of type TensorShardingPerValueAttr"),
    (_func(body=_add("sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j])>")),
     "'stablehlo.add' op operand 0 - expecting factor indices to be within 0<=...<num_factors; received: 0, num_factors: 0"),
    (_func(body=_add("sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=8, k=2}>")),
     "'stablehlo.add' op has factor k=2 that isn't used in operand and result mappings"),
    (_func(body=_add("sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=8} reduction={j}>")),
     "'stablehlo.add' op reduction factor cannot be in result mappings"),
    (MESH + _func(' {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}',
                  body=_add('sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=8}>')), None),
]  # fmt: skip


def _ttopt(text: str) -> str | None:
    module = parse_module(text)
    for op in module.walk():
        for check in OP_ATTRIBUTE_VERIFIERS:
            try:
                check(op)
            except ValueError as e:
                return f"'{op.name}' op {e}"
    return None


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_sdy_attribute_checks_use_shardys_words(text: str, expected: str | None) -> None:
    assert _ttopt(text) == expected


@pytest.mark.oracle
@pytest.mark.parametrize(("text", "expected"), CASES)
def test_jaxlib_says_the_same(text: str, expected: str | None) -> None:
    jmlir = pytest.importorskip("jax._src.interpreters.mlir")
    from jax._src.lib.mlir import ir

    ctx = jmlir.make_ir_context()
    with ctx:
        try:
            ir.Module.parse(text)
            got = None
        except ir.MLIRError as e:
            got = e.error_diagnostics[0].message
    assert got == expected


def test_mesh_table_is_read_again_by_each_verification() -> None:
    """The mesh table is kept for one verification run only: a mesh changed between two runs is seen."""
    from ttopt.ir.diagnostics import Diagnostic
    from ttopt.ir.verifier import verification_run, verify

    text = MESH + _func(body=_add('sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>'))
    module = parse_module(text)
    verify(module)
    assert verification_run() == 0  # outside a run nothing is kept
    mesh_op = module.op.regions[0].blocks[0].ops[0]
    mesh_op.properties["mesh"] = parse_module('sdy.mesh @mesh = <["x"=2]>\n').op.regions[0].blocks[0].ops[0].properties["mesh"]
    with pytest.raises(Diagnostic, match='unknown axis name: "y"'):
        verify(module)
