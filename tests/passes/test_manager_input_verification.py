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


def _looked(verify_input: bool) -> tuple[bool, list[str]]:
    """Whether verifying after a pass that changed nothing checked the whole module, and the ops
    whose checks it ran otherwise."""
    module = parse_module(TEXT)
    pm = PassManager([_Nothing()], PassContext())
    if verify_input:
        pm.verify_input(module)
    pm.run(module)
    return pm._verified.full, [op.name for op in pm._verified.checked]


def test_first_pass_rechecks_no_op_it_left_alone() -> None:
    # With the input verified, a pass that wrote nothing leaves nothing to check (not even the
    # module op); without it, the first verification is a full one.
    assert _looked(verify_input=True) == (False, [])
    assert _looked(verify_input=False) == (True, [])


def test_invalid_input_is_reported_by_verify_input() -> None:
    module = parse_module(TEXT.replace("-> tensor<4xf32> {", "-> tensor<8xf32> {"))
    with pytest.raises(Diagnostic, match="returns \\(tensor<4xf32>\\) but the function's result types are \\(tensor<8xf32>\\)"):
        PassManager([_Nothing()], PassContext()).verify_input(module)
