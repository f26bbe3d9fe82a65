"""`ttir-erase-inverse-ops` through `ttir.softmax`: reshapes keeping the softmax dimension move
without changing what the program computes (testdata/ttir/erase_inverse_ops_softmax.mlir has the
lit-style cases); and `matching_dim`, which says whether a dimension survives a reshape."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.lowering.test_erase_inverse_ops_reduce import MODES, assert_computes_the_same, erase, function_names
from ttopt.ir.printer import print_module
from ttopt.lowering.erase_inverse_ops.reshape_dims import matching_dim

CASES = Path(__file__).resolve().parents[2] / "testdata" / "ttir" / "erase_inverse_ops_softmax.mlir"


@pytest.mark.parametrize("mode", sorted(MODES))
@pytest.mark.parametrize("func", function_names(CASES.read_text()))
def test_every_case_computes_what_it_did(func: str, mode: str) -> None:
    assert_computes_the_same(CASES.read_text(), func, **MODES[mode])


def test_matching_dim_follows_size_and_stride() -> None:
    flat, split = (1, 25600, 128), (1, 160, 160, 128)
    assert matching_dim(split, flat, 3) == 2  # kept: 128, stride 1
    assert matching_dim(flat, split, 2) == 3
    assert matching_dim(split, flat, 1) is None  # merged into 25600
    assert matching_dim(flat, split, 1) is None  # split into 160 x 160
    assert matching_dim((2, 1, 8), (2, 1, 1, 8), 1) == 2  # the innermost size-1 dimension of stride 8
    assert matching_dim((2, 3), (6,), 2) is None  # out of range


def _ty(shape: tuple[int, ...]) -> str:
    return f"tensor<{'x'.join(map(str, shape))}xf32>"


def _regrouped(shape: tuple[int, ...], rng: np.random.Generator) -> tuple[int, ...]:
    """`shape` with random neighbours merged and a 1 inserted somewhere."""
    out: list[int] = []
    for s in shape:
        if out and rng.random() < 0.4:
            out[-1] *= s
        else:
            out.append(s)
    out.insert(int(rng.integers(0, len(out) + 1)), 1)
    return tuple(out)


def test_random_reshapes_through_softmax_keep_the_numbers() -> None:
    rng = np.random.default_rng(3)
    moved = 0
    for _ in range(30):
        shape = tuple(int(s) for s in rng.integers(1, 5, int(rng.integers(2, 5))))
        other = _regrouped(shape, rng)
        dim = int(rng.integers(0, len(shape)))
        up = f"""func.func @main(%arg0: {_ty(shape)}) -> {_ty(other)} {{
  %0 = "ttir.softmax"(%arg0) <{{dimension = {dim} : si32}}> : ({_ty(shape)}) -> {_ty(shape)}
  %1 = "ttir.reshape"(%0) <{{shape = [{", ".join(f"{d} : i32" for d in other)}]}}> : ({_ty(shape)}) -> {_ty(other)}
  return %1 : {_ty(other)}
}}"""
        down = f"""func.func @main(%arg0: {_ty(other)}) -> {_ty(shape)} {{
  %0 = "ttir.reshape"(%arg0) <{{shape = [{", ".join(f"{d} : i32" for d in shape)}]}}> : ({_ty(other)}) -> {_ty(shape)}
  %1 = "ttir.softmax"(%0) <{{dimension = {dim - len(shape)} : si32}}> : ({_ty(shape)}) -> {_ty(shape)}
  return %1 : {_ty(shape)}
}}"""
        for text in (up, down):
            for mode in MODES.values():
                assert_computes_the_same(text, "main", **mode)
            moved += sum(n for k, n in erase(text)[1].items() if k.startswith("reshape-through-softmax"))
    assert moved > 10


def test_output_is_deterministic() -> None:
    text = CASES.read_text()
    assert print_module(erase(text)[0]) == print_module(erase(text)[0])
