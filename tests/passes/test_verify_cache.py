"""Verifying after a pass re-checks only the ops the pass touched (ttopt/passes/verify_cache.py)."""

from __future__ import annotations

import pytest

from ttopt.ir.diagnostics import Diagnostic
from ttopt.ir.types import TensorType
from ttopt.ir.verifier import verify
from ttopt.parse.parser import parse_module
from ttopt.passes.verify_cache import VerifiedOps

TEXT = """
sdy.mesh @mesh = <["x"=2]>
func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %a, %b : tensor<4xf32>
  %1 = stablehlo.multiply %0, %b {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<4xf32>
  return %1 : tensor<4xf32>
}
"""


def checked(module, cache: VerifiedOps) -> list[str]:
    """Verify through the cache; the names of the ops whose checks ran."""
    ran: list[str] = []

    def unchanged(op) -> bool:
        same = cache.unchanged(op)
        if not same:
            ran.append(op.name)
        return same

    cache.start(module)
    verify(module, unchanged=unchanged)
    cache.commit()
    return ran


def test_only_touched_ops_are_checked_again() -> None:
    m = parse_module(TEXT)
    cache = VerifiedOps()
    assert checked(m, cache) == ["builtin.module", "sdy.mesh", "func.func", "stablehlo.add", "stablehlo.multiply", "func.return"]
    # Nothing changed: only the module (it has no block around it to record) is checked.
    assert checked(m, cache) == ["builtin.module"]
    mul = m.functions()[0].regions[0].blocks[0].ops[1]
    del mul.attributes["sdy.sharding"]
    assert checked(m, cache) == ["builtin.module", "func.func", "stablehlo.multiply"]


def test_an_edit_that_breaks_an_op_is_still_caught() -> None:
    m = parse_module(TEXT)
    cache = VerifiedOps()
    checked(m, cache)
    add = m.functions()[0].regions[0].blocks[0].ops[0]
    add.results[0].type = TensorType((8,), add.results[0].type.element_type)
    with pytest.raises(Diagnostic, match="stablehlo.add"):
        checked(m, cache)


def test_a_changed_mesh_drops_the_record() -> None:
    m = parse_module(TEXT)
    cache = VerifiedOps()
    checked(m, cache)
    mesh = m.op.regions[0].blocks[0].ops[0]
    mesh.properties["mesh"] = parse_module('sdy.mesh @mesh = <["x"=4]>').op.regions[0].blocks[0].ops[0].properties["mesh"]
    assert "stablehlo.multiply" in checked(m, cache)


def test_an_edit_inside_a_region_checks_the_op_owning_it_again() -> None:
    m = parse_module(TEXT)
    cache = VerifiedOps()
    checked(m, cache)
    block = m.functions()[0].regions[0].blocks[0]
    ret = block.ops[-1]
    narrow = TensorType((8,), ret.operands[0].type.element_type)
    block.ops[1].results[0].type = narrow  # the returned value no longer has the function's result type
    with pytest.raises(Diagnostic, match="returns .* but the function's result types"):
        checked(m, cache)


def test_a_region_op_whose_body_gained_an_op_is_checked_again() -> None:
    text = """
func.func @main(%a: tensor<4xf32>) -> tensor<f32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%a init: %z) across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
    reducer(%x: tensor<f32>, %y: tensor<f32>) {
      %s = stablehlo.add %x, %y : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }
  return %0 : tensor<f32>
}
"""
    m = parse_module(text)
    cache = VerifiedOps()
    checked(m, cache)
    assert checked(m, cache) == ["builtin.module"]
    reduce = m.functions()[0].regions[0].blocks[0].ops[1]
    body = reduce.regions[0].blocks[0]
    body.insert(0, body.ops[0].clone())
    assert checked(m, cache) == ["builtin.module", "func.func", "stablehlo.reduce", "stablehlo.add"]
