"""`ttir-erase-inverse-ops`' broadcast commutes (erase_inverse_ops/broadcast.py): the rewrites keep
what each function computes, the reshape split, and what is left alone (testdata/ttir/
erase_inverse_ops_broadcast.mlir has the lit-style cases)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ttopt.ir.diagnostics import Diagnostic
from ttopt.ir.printer import print_module
from ttopt.ir.verifier import verify
from ttopt.lowering.erase_inverse_ops import commutes
from ttopt.lowering.erase_inverse_ops.broadcast import implicit_broadcast_supported, reshape_above_broadcast
from ttopt.lowering.erase_inverse_ops.commute import Direction
from ttopt.parse.parser import parse_module
from ttopt.testing.erase_inverse_ops_runs import RUNS, assert_computes_the_same, function_names, rewrite

CASES = Path(__file__).resolve().parents[2] / "testdata" / "ttir" / "erase_inverse_ops_broadcast.mlir"


@pytest.mark.parametrize("which", sorted(RUNS))
@pytest.mark.parametrize("func", function_names(CASES))
def test_every_case_computes_what_it_did(func: str, which: str) -> None:
    assert_computes_the_same(CASES.read_text(), which, func)


def test_a_reshape_splits_into_original_and_broadcast_dimensions() -> None:
    # HEAD's worked example: 2x1x1x64 broadcast to 2x32x32x64, reshaped to 2x8x4x2x16x8x8.
    assert reshape_above_broadcast((2, 1, 1, 64), (2, 8, 4, 2, 16, 8, 8), (1, 32, 32, 1)) == (
        (2, 1, 1, 1, 1, 8, 8), (1, 8, 4, 2, 16, 1, 1))  # fmt: skip
    # 64 original elements and 1024 broadcast ones on one axis: no reshape-then-broadcast gives it.
    assert reshape_above_broadcast((2, 1, 1, 64), (2, 16, 4096), (1, 32, 32, 1)) is None
    # A broadcast of one element: only size-1 runs.
    assert reshape_above_broadcast((1, 1), (1, 1, 1), (1, 1)) == ((1, 1, 1), (1, 1, 1))


def test_implicit_broadcast_stops_above_the_six_innermost_dimensions() -> None:
    assert implicit_broadcast_supported((4, 1, 1, 1, 1, 8))
    assert implicit_broadcast_supported((1, 4, 1, 1, 1, 1, 8))
    assert not implicit_broadcast_supported((4, 1, 1, 1, 1, 1, 8))


def test_only_upward_commutes_in_both_runs() -> None:
    for direction in Direction:
        names = [(c.name, c.direction) for c in commutes(direction) if "broadcast" in c.name]
        assert names == [("reshape-through-broadcast", Direction.UPWARDS), ("permute-through-broadcast", Direction.UPWARDS)]


def test_moves_are_counted() -> None:
    _, ctx = rewrite(CASES.read_text(), "up-only")
    fired = ctx.stats["ttir-erase-inverse-ops"]
    assert fired["reshape-through-broadcast-upwards"] == 1
    assert fired["permute-through-broadcast-upwards"] == 3


def test_a_malformed_broadcast_is_left_alone() -> None:
    # A factor above 1 on a dimension of size 2: not a broadcast HEAD's verifier accepts.
    text = """func.func @f(%arg0: tensor<2x1xf32>) -> tensor<4x4xf32> {
  %0 = "ttir.broadcast"(%arg0) <{broadcast_dimensions = array<i64: 2, 4>}> : (tensor<2x1xf32>) -> tensor<4x4xf32>
  %1 = "ttir.permute"(%0) <{permutation = array<i64: 1, 0>}> : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %1 : tensor<4x4xf32>
}
"""
    with pytest.raises(Diagnostic, match="'ttir.broadcast' op"):  # HEAD's verifier rejects it before any pass
        verify(parse_module(text))
    m, ctx = rewrite(text, "erase", verified=False)  # and the pass, given it unchecked, leaves it alone
    assert print_module(m) == print_module(parse_module(text))
    assert not ctx.stats["ttir-erase-inverse-ops"]
