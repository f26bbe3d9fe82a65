"""`ttir-erase-inverse-ops`' concat commutes (erase_inverse_ops/concat.py): the rewrites keep what
each function computes, the reshape's concat dimension, and what is left alone
(testdata/ttir/erase_inverse_ops_concat.mlir has the lit-style cases)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ttopt.ir.printer import print_module
from ttopt.lowering.erase_inverse_ops import commutes
from ttopt.lowering.erase_inverse_ops.commute import Direction
from ttopt.lowering.erase_inverse_ops.concat import reshape_concat_dim
from ttopt.parse.parser import parse_module
from ttopt.testing.erase_inverse_ops_runs import RUNS, assert_computes_the_same, function_names, rewrite

CASES = Path(__file__).resolve().parents[2] / "testdata" / "ttir" / "erase_inverse_ops_concat.mlir"


@pytest.mark.parametrize("which", sorted(RUNS))
@pytest.mark.parametrize("func", function_names(CASES))
def test_every_case_computes_what_it_did(func: str, which: str) -> None:
    assert_computes_the_same(CASES.read_text(), which, func)


def test_the_reshape_keeps_the_concat_dimension_with_its_volumes() -> None:
    assert reshape_concat_dim((1, 64, 64, 2), 3, (1, 4096, 2)) == 2
    assert reshape_concat_dim((2, 8, 4), 1, (2, 8, 2, 2)) == 1
    assert reshape_concat_dim((2, 8, 4), 1, (16, 4)) is None  # merged with the dimension before
    assert reshape_concat_dim((2, 8, 4), 1, (2, 2, 4, 4)) is None  # split


def test_heads_order_elementwise_broadcast_concat_slice() -> None:
    for direction in Direction:
        families = [c.name.rsplit("-", 1)[1] for c in commutes(direction)]
        seen = list(dict.fromkeys(families))
        assert seen[:4] == ["elementwise", "broadcast", "concat", "slice"]
    assert [c.tm for c in commutes(Direction.DOWNWARDS) if c.name.endswith("concat")] == ["ttir.permute"]  # no downward reshape in HEAD


def test_moves_are_counted() -> None:
    _, up = rewrite(CASES.read_text(), "up-only")
    assert up.stats["ttir-erase-inverse-ops"]["permute-through-concat-upwards"] >= 2
    assert up.stats["ttir-erase-inverse-ops"]["reshape-through-concat-upwards"] == 1
    _, down = rewrite(CASES.read_text(), "down-only")
    assert down.stats["ttir-erase-inverse-ops"]["permute-through-concat-downwards"] >= 2


def test_a_destination_passing_concat_is_left_alone() -> None:
    text = """func.func @f(%arg0: tensor<2x3xf32>, %arg1: tensor<2x5xf32>) -> tensor<8x2xf32> {
  %0 = ttir.empty() : tensor<2x8xf32>
  %1 = "ttir.concat"(%arg0, %arg1, %0) <{dim = 1 : si32}> : (tensor<2x3xf32>, tensor<2x5xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %2 = "ttir.permute"(%1) <{permutation = array<i64: 1, 0>}> : (tensor<2x8xf32>) -> tensor<8x2xf32>
  return %2 : tensor<8x2xf32>
}
"""
    m, ctx = rewrite(text, "erase")
    assert print_module(m) == print_module(parse_module(text))
    assert not ctx.stats["ttir-erase-inverse-ops"]
