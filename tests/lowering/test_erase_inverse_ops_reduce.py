"""`ttir-erase-inverse-ops` through the reductions: permutes and reshapes move without changing
what the program computes (testdata/ttir/erase_inverse_ops_reduce.mlir has the lit-style cases).
Also the numerics helper the other families' tests share."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from ttopt.ir.printer import print_module
from ttopt.ir.verifier import verify
from ttopt.lowering.erase_inverse_ops import TTIREraseInverseOps
from ttopt.lowering.erase_inverse_ops.reduce import contracted_permutation, widened_permutation
from ttopt.parse.parser import parse_module
from ttopt.passes.context import PassContext
from ttopt.testing.same_results import assert_same_results

CASES = Path(__file__).resolve().parents[2] / "testdata" / "ttir" / "erase_inverse_ops_reduce.mlir"
# Each direction alone (as the lit cases run) and the pass as the pipeline runs it.
MODES = {"up": {"enable_commute_downwards": False}, "down": {"enable_commute_upwards": False}, "both": {}}
# An argmax over two dimensions, which the interpreter does not evaluate (the commute leaves it).
NOT_INTERPRETED = {"argmax_over_two_dims_keeps_its_permutes"}


def erase(text: str, **options: bool) -> tuple[object, dict]:
    """The module after the pass with `options`, verified, and what fired."""
    m = parse_module(text)
    ctx = PassContext()
    TTIREraseInverseOps(**options).run(m, ctx)  # type: ignore[arg-type]
    verify(m)
    return m, ctx.stats.get("ttir-erase-inverse-ops", {})


def function_names(text: str) -> list[str]:
    """The functions of a module text, in order."""
    return [op.properties["sym_name"].resolve().value for op in parse_module(text).walk() if op.name == "func.func"]


def assert_computes_the_same(text: str, func: str, **options: bool) -> None:
    """`func` computes the same before and after the pass (random inputs; reductions may sum in
    another order, so floats agree to rounding)."""
    assert_same_results(parse_module(text), erase(text, **options)[0], func, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("mode", sorted(MODES))
@pytest.mark.parametrize("func", [f for f in function_names(CASES.read_text()) if f not in NOT_INTERPRETED])
def test_every_case_computes_what_it_did(func: str, mode: str) -> None:
    assert_computes_the_same(CASES.read_text(), func, **MODES[mode])


def _module(shape: tuple[int, ...], order: tuple[int, ...], op: str, dims: tuple[int, ...] | None, keep: bool) -> str:
    """permute(order) -> reduce(dims, keep) -> permute(inverse of order, when the rank allows)."""
    ty = lambda s: f"tensor<{'x'.join(map(str, s))}xf32>" if s else "tensor<f32>"  # noqa: E731
    permuted = tuple(shape[p] for p in order)
    axes = set(range(len(shape))) if dims is None else {d % len(shape) for d in dims}
    reduced = (
        tuple(1 if i in axes else s for i, s in enumerate(permuted)) if keep else tuple(s for i, s in enumerate(permuted) if i not in axes)
    )
    dim_arg = "" if dims is None else f"dim_arg = [{', '.join(f'{d} : i32' for d in dims)}], "
    lines = [f"func.func @main(%arg0: {ty(shape)}) -> {{out}} {{",
             f'  %0 = "ttir.permute"(%arg0) <{{permutation = array<i64: {", ".join(map(str, order))}>}}> : ({ty(shape)}) -> {ty(permuted)}',
             f'  %1 = "{op}"(%0) <{{{dim_arg}keep_dim = {str(keep).lower()}}}> : ({ty(permuted)}) -> {ty(reduced)}']  # fmt: skip
    out = reduced
    if keep:
        inv = tuple(order.index(i) for i in range(len(order)))
        out = tuple(reduced[p] for p in inv)
        lines.append(f'  %2 = "ttir.permute"(%1) <{{permutation = array<i64: {", ".join(map(str, inv))}>}}> : ({ty(reduced)}) -> {ty(out)}')
    lines.append(f"  return %{len(lines) - 2} : {ty(out)}\n}}")
    return "\n".join(lines).replace("{out}", ty(out))


def test_random_permutes_through_reductions_keep_the_numbers() -> None:
    rng = np.random.default_rng(7)
    for _ in range(40):
        rank = int(rng.integers(2, 5))
        shape = tuple(int(s) for s in rng.integers(1, 5, rank))
        order = tuple(int(p) for p in rng.permutation(rank))
        n = int(rng.integers(0, rank + 1))
        dims = None if n == 0 else tuple(int(d) - (rank if rng.random() < 0.3 else 0) for d in rng.choice(rank, n, replace=False))
        op = str(rng.choice(["ttir.sum", "ttir.mean", "ttir.max", "ttir.min"]))
        text = _module(shape, order, op, dims, bool(rng.random() < 0.5))
        for mode in MODES.values():
            assert_computes_the_same(text, "main", **mode)


def test_keep_dim_pairs_of_inverse_permutes_fold_away() -> None:
    text = _module((2, 3, 4, 5), (0, 3, 1, 2), "ttir.sum", (2, 3), True)
    for mode in ("up", "down"):
        m, fired = erase(text, **MODES[mode])
        assert "ttir.permute" not in print_module(m)
        assert fired[f"permute-through-reduce-{'upwards' if mode == 'up' else 'downwards'}"] == 1


def test_permutation_helpers_as_heads_examples() -> None:
    # ReduceCommutePatterns.cpp's comments: contract (0,2,3,1) without position 1 -> (0,2,1);
    # widen (0,2,1) around reduced dimension 2 of rank 4 -> (0,3,2,1).
    assert contracted_permutation((0, 2, 3, 1), (1,)) == (0, 2, 1)
    assert widened_permutation((0, 2, 1), (2,), 4) == (0, 3, 2, 1)


def test_a_destination_passing_reduction_is_left_alone() -> None:
    text = """func.func @main(%arg0: tensor<2x3x4xf32>) -> tensor<2x1x4xf32> {
  %0 = "ttir.permute"(%arg0) <{permutation = array<i64: 0, 2, 1>}> : (tensor<2x3x4xf32>) -> tensor<2x4x3xf32>
  %1 = ttir.empty() : tensor<2x4x1xf32>
  %2 = "ttir.sum"(%0, %1) <{dim_arg = [2 : i32], keep_dim = true}> : (tensor<2x4x3xf32>, tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
  %3 = "ttir.permute"(%2) <{permutation = array<i64: 0, 2, 1>}> : (tensor<2x4x1xf32>) -> tensor<2x1x4xf32>
  return %3 : tensor<2x1x4xf32>
}"""
    _, fired = erase(text)
    assert not any(k.startswith(("permute-through-reduce", "reshape-through-reduce")) for k in fired)


def test_output_is_deterministic() -> None:
    text = CASES.read_text()
    assert print_module(erase(text)[0]) == print_module(erase(text)[0])
