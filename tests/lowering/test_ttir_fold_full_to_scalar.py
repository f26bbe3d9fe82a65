"""`ttir-fold-full-to-scalar`: creation ops read only by elementwise ops shrink to one element
without changing what the program computes (testdata/ttir/fold_full_to_scalar.mlir has the
lit-style cases)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ttopt.ir.printer import print_module
from ttopt.lowering.backend_pipeline import TTIRToTTNNBackendPipeline
from ttopt.lowering.ttir_fold_full_to_scalar import TTIRFoldFullToScalar
from ttopt.parse.parser import parse_module
from ttopt.passes.context import PassContext
from ttopt.testing.same_results import assert_same_results

CASES = Path(__file__).resolve().parents[2] / "testdata" / "ttir" / "fold_full_to_scalar.mlir"


def _fold(text: str) -> tuple[object, dict]:
    m = parse_module(text)
    ctx = PassContext()
    TTIRFoldFullToScalar().run(m, ctx)
    return m, ctx.stats.get("ttir-fold-full-to-scalar", {})


def _functions(module: object) -> list[object]:
    return [op for op in module.walk() if op.name == "func.func"]  # type: ignore[attr-defined]


@pytest.mark.parametrize("func", [f.properties["sym_name"].resolve().value for f in _functions(parse_module(CASES.read_text()))])
def test_every_case_computes_what_it_did(func: str) -> None:
    text = CASES.read_text()
    assert_same_results(parse_module(text), _fold(text)[0], func)


def test_a_shrink_and_the_folds_it_enables_are_counted() -> None:
    _, fired = _fold(CASES.read_text())
    assert fired["ttir-fold-full-to-scalar"] == 8
    assert fired["ttir-fold-binary-constant"] == 1  # @folds_after_the_shrink


def test_a_reader_whose_operands_do_not_make_its_result_is_left_alone() -> None:
    # Unverified IR (HEAD's verifier rejects it, and HEAD's pass asserts on it): the add's result
    # is not the broadcast of its operands, so narrowing it would be meaningless.
    text = """func.func @f(%a: tensor<1x32xf32>) -> tensor<64x64xf32> {
  %0 = "ttir.full"() <{shape = array<i32: 64, 32>, fill_value = 1.0 : f32}> : () -> tensor<64x32xf32>
  %1 = "ttir.add"(%a, %0) : (tensor<1x32xf32>, tensor<64x32xf32>) -> tensor<64x64xf32>
  return %1 : tensor<64x64xf32>
}"""
    m, fired = _fold(text)
    assert "ttir-fold-full-to-scalar" not in fired
    assert "array<i32: 64, 32>" in print_module(m)


def test_output_is_deterministic() -> None:
    text = CASES.read_text()
    assert print_module(_fold(text)[0]) == print_module(_fold(text)[0])


def test_the_backend_pipeline_runs_it_after_the_tm_cleanup_before_the_cache_consolidation() -> None:
    names = [s.name for s in TTIRToTTNNBackendPipeline().steps(parse_module("func.func @f() {\n  return\n}"))]
    at = names.index("ttir-fold-full-to-scalar")
    assert names[at - 9:at] == ["ttir-fusing", "canonicalize", "ttir-implicit-broadcast-fold", "ttir-propagate-weight-dtype",
                                "ttir-flatten-sliding-window", "ttir-explicate-tms", "ttir-erase-inverse-ops", "ttir-implicit-broadcast-fold",
                                "ttir-fusing"]
    assert names[at + 1:at + 4] == ["ttir-consolidate-static-cache-updates", "cse", "cpu-hoist-manually-tagged"]
