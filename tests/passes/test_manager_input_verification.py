"""The pass manager verifies the input itself and keeps the record, so the first pass's
verification re-checks only the ops that pass touched (PassManager.verify_input)."""

from __future__ import annotations

import pytest

from ttopt.ir.diagnostics import Diagnostic
from ttopt.parse.parser import parse_module
from ttopt.passes.base import Pass
from ttopt.passes.context import PassContext
from ttopt.passes.manager import PassManager

TEXT = """func.func @f(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %arg0, %arg0 : tensor<4xf32>
  %1 = stablehlo.multiply %0, %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}
"""


class _Nothing(Pass):
    name = "nothing"

    def run(self, module, ctx):  # type: ignore[no-untyped-def]
        """Leave the module as it is."""


def _looked(verify_input: bool) -> list[bool]:
    """Per op in walk order, whether verifying after a pass that changed nothing skipped its checks."""
    module = parse_module(TEXT)
    pm = PassManager([_Nothing()], PassContext())
    if verify_input:
        pm.verify_input(module)
    looked: list[bool] = []
    unchanged = pm._verified.unchanged
    pm._verified.unchanged = lambda op: looked.append(unchanged(op)) or looked[-1]  # type: ignore[method-assign]
    pm.run(module)
    return looked


def test_first_pass_rechecks_no_op_it_left_alone() -> None:
    # The module op itself (no parent block) is always checked; func, add, multiply, return are not.
    assert _looked(verify_input=True) == [False, True, True, True, True]
    assert _looked(verify_input=False) == [False] * 5


def test_invalid_input_is_reported_by_verify_input() -> None:
    module = parse_module(TEXT.replace("-> tensor<4xf32> {", "-> tensor<8xf32> {"))
    with pytest.raises(Diagnostic, match="returns \\(tensor<4xf32>\\) but the function's result types are \\(tensor<8xf32>\\)"):
        PassManager([_Nothing()], PassContext()).verify_input(module)
