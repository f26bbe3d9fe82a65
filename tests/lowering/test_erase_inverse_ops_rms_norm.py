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


def test_nothing_moves_downwards() -> None:
    _, fired = erase(CASES.read_text(), enable_commute_upwards=False)
    assert not any(k.startswith("reshape-through-rms-norm") for k in fired)


def test_output_is_deterministic() -> None:
    text = CASES.read_text()
    assert print_module(erase(text)[0]) == print_module(erase(text)[0])
