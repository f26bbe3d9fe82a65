"""`ttir-erase-inverse-ops` through `ttir.rms_norm` and `ttir.distributed_rms_norm`: reshapes
keeping the normalized dimensions move above them without changing what the program computes
(testdata/ttir/erase_inverse_ops_rms_norm.mlir has the lit-style cases)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.lowering.test_erase_inverse_ops_reduce import MODES, assert_computes_the_same, erase, function_names
from ttopt.ir.printer import print_module

CASES = Path(__file__).resolve().parents[2] / "testdata" / "ttir" / "erase_inverse_ops_rms_norm.mlir"


@pytest.mark.parametrize("mode", sorted(MODES))
@pytest.mark.parametrize("func", function_names(CASES.read_text()))
def test_every_case_computes_what_it_did(func: str, mode: str) -> None:
    assert_computes_the_same(CASES.read_text(), func, **MODES[mode])


def test_an_add_and_a_distributed_norm_between_inverse_reshapes_lose_both() -> None:
    # The old norm is dead once its reshape reads the new one; only then can the add's reshape move.
    text = """func.func @main(%arg0: tensor<8x64xf32>, %arg1: tensor<8x1x64xf32>, %arg2: tensor<64xf32>) -> tensor<8x64xf32> {
  %0 = "ttir.reshape"(%arg0) <{shape = [8 : i32, 1 : i32, 64 : i32]}> : (tensor<8x64xf32>) -> tensor<8x1x64xf32>
  %1 = "ttir.add"(%arg1, %0) : (tensor<8x1x64xf32>, tensor<8x1x64xf32>) -> tensor<8x1x64xf32>
  %2 = "ttir.distributed_rms_norm"(%1, %arg2) <{cluster_axis = 0 : ui32, epsilon = 1.000000e-05 : f32, operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<8x1x64xf32>, tensor<64xf32>) -> tensor<8x1x64xf32>
  %3 = "ttir.reshape"(%2) <{shape = [8 : i32, 64 : i32]}> : (tensor<8x1x64xf32>) -> tensor<8x64xf32>
  return %3 : tensor<8x64xf32>
}"""
    m, fired = erase(text, enable_commute_downwards=False)
    out = print_module(m)
    assert out.count('"ttir.reshape"') == 1 and "8x1x64xf32>)" not in out.split("ttir.add")[1]
    assert fired["reshape-through-rms-norm-upwards"] == 1
    for mode in MODES.values():
        assert_computes_the_same(text, "main", **mode)


# Norms over two dimensions (kept out of testdata/ttir: the backend lowers a norm over the last
# dimension only, and every file there must lower).
TWO_DIMS = """func.func @keeping_them(%arg0: tensor<2x3x4x8xf32>) -> tensor<6x4x8xf32> {
  %0 = "ttir.rms_norm"(%arg0) <{epsilon = 1.000000e-05 : f32, normalized_shape = array<i64: 4, 8>, operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<2x3x4x8xf32>) -> tensor<2x3x4x8xf32>
  %1 = "ttir.reshape"(%0) <{shape = [6 : i32, 4 : i32, 8 : i32]}> : (tensor<2x3x4x8xf32>) -> tensor<6x4x8xf32>
  return %1 : tensor<6x4x8xf32>
}
func.func @merging_them(%arg0: tensor<2x4x8xf32>) -> tensor<8x8xf32> {
  %0 = "ttir.rms_norm"(%arg0) <{epsilon = 1.000000e-05 : f32, normalized_shape = array<i64: 4, 8>, operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %1 = "ttir.reshape"(%0) <{shape = [8 : i32, 8 : i32]}> : (tensor<2x4x8xf32>) -> tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}"""


def test_a_reshape_moves_only_when_it_keeps_every_normalized_dimension() -> None:
    # merging_them keeps the last dimension (8), which is all HEAD checks; its 4x8 becoming 8x8
    # would fail HEAD's RMSNormOp verifier.
    m, fired = erase(TWO_DIMS, enable_commute_downwards=False)
    keeping, merging = print_module(m).split("func.func @merging_them")
    assert (
        keeping.index('"ttir.reshape"(%arg0)') < keeping.index('"ttir.rms_norm"') and "(tensor<6x4x8xf32>) -> tensor<6x4x8xf32>" in keeping
    )
    assert merging.index('"ttir.rms_norm"(%arg0)') < merging.index('"ttir.reshape"')
    assert fired["reshape-through-rms-norm-upwards"] == 1
    for func in ("keeping_them", "merging_them"):
        assert_computes_the_same(TWO_DIMS, func)


def test_nothing_moves_downwards() -> None:
    _, fired = erase(CASES.read_text(), enable_commute_upwards=False)
    assert not any(k.startswith("reshape-through-rms-norm") for k in fired)


def test_output_is_deterministic() -> None:
    text = CASES.read_text()
    assert print_module(erase(text)[0]) == print_module(erase(text)[0])
