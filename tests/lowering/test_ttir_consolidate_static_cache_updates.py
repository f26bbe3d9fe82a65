"""`ttir-consolidate-static-cache-updates`: while the per-layer cache positions hold one value (the
lockstep invariant the pass relies on), unifying them changes nothing a program computes
(testdata/ttir/consolidate_static_cache_updates.mlir has the lit-style cases)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from ttopt.ir.printer import print_module
from ttopt.lowering.backend_pipeline import TTIRToTTNNBackendPipeline
from ttopt.lowering.ttir_consolidate_static_cache_updates import TTIRConsolidateStaticCacheUpdates
from ttopt.parse.parser import parse_module
from ttopt.passes.context import PassContext
from ttopt.passes.cse import CSE
from ttopt.testing.ttir_interpreter import dtype_of, run, shape_of

CASES = Path(__file__).resolve().parents[2] / "testdata" / "ttir" / "consolidate_static_cache_updates.mlir"
# What the interpreter does not run: mesh_shard, paged_fill_cache.
NOT_INTERPRETED = {"mesh_shard_wrapped", "mesh_shard_with_a_second_use", "not_traced"}
POSITION = 5  # every layer's cache position on entry


def _names(module: object) -> list[str]:
    return [op.properties["sym_name"].resolve().value for op in module.op.walk() if op.name == "func.func"]  # type: ignore[attr-defined]


def _consolidate(text: str, cse: bool = True) -> tuple[object, int]:
    m = parse_module(text)
    ctx = PassContext()
    TTIRConsolidateStaticCacheUpdates().run(m, ctx)
    if cse:
        CSE().run(m, ctx)
    return m, ctx.stats["ttir-consolidate-static-cache-updates"]["replaced"]


def _inputs(module: object, func: str, positions: list[int] | None = None) -> list[np.ndarray]:
    """Random operands, every one-element integer argument (a cache position) set to `positions`
    in turn, else to POSITION (the lockstep invariant)."""
    f = next(op for op in module.op.walk() if op.name == "func.func" and op.properties["sym_name"].resolve().value == func)  # type: ignore[attr-defined]
    rng = np.random.default_rng(0)
    queue = list(positions or [])
    out = []
    for a in f.regions[0].blocks[0].args:
        shape, dt = shape_of(a.type), dtype_of(a.type)
        if shape == (1,) and np.issubdtype(dt, np.integer):
            out.append(np.full(shape, queue.pop(0) if queue else POSITION, dt))
        elif np.issubdtype(dt, np.integer):
            out.append(rng.integers(0, 4, shape).astype(dt))
        else:
            out.append(rng.uniform(-2, 2, shape).astype(dt))
    return out


def _run(module: object, func: str, args: list[np.ndarray]) -> list[np.ndarray]:
    return run(module, func, [a.copy() for a in args])  # the cache ops write their operand in place


@pytest.mark.parametrize("func", [n for n in _names(parse_module(CASES.read_text())) if n not in NOT_INTERPRETED])
def test_every_case_computes_what_it_did_in_lockstep(func: str) -> None:
    text = CASES.read_text()
    before = parse_module(text)
    after, _ = _consolidate(text)
    args = _inputs(before, func)
    want, got = _run(before, func, args), _run(after, func, args)
    assert len(want) == len(got)
    for w, g in zip(want, got):
        assert w.shape == g.shape and w.dtype == g.dtype
        np.testing.assert_array_equal(w, g)


def test_the_invariant_is_the_premise() -> None:
    """Positions that differ on entry are not what the pass is for: then the outputs change."""
    text = CASES.read_text()
    before = parse_module(text)
    after, _ = _consolidate(text)
    args = _inputs(before, "per_layer", [3, 4, 5])
    want, got = _run(before, "per_layer", args), _run(after, "per_layer", args)
    assert int(want[0][0]) == 4 and int(got[0][0]) == 6  # %arg0 + 1 became %arg2 + 1


def test_the_arguments_routed_are_counted() -> None:
    # per_layer 2, paged 1, mesh_shard_wrapped 1, layers_interleaved 1, two_groups 2,
    # add_with_a_second_use 1; every other case is left alone.
    _, replaced = _consolidate(CASES.read_text(), cse=False)
    assert replaced == 8


def test_a_function_without_a_body_or_return_is_left_alone() -> None:
    text = """func.func private @decl(tensor<1xi32>) -> tensor<1xi32>
func.func @f(%a: tensor<1xi32>) -> tensor<1xi32> {
  return %a : tensor<1xi32>
}"""
    m, replaced = _consolidate(text)
    assert replaced == 0 and "func.func private @decl" in print_module(m)


def test_output_is_deterministic() -> None:
    text = CASES.read_text()
    assert print_module(_consolidate(text)[0]) == print_module(_consolidate(text)[0])


def test_the_backend_pipeline_runs_it_after_fold_full_to_scalar_then_cse() -> None:
    names = [s.name for s in TTIRToTTNNBackendPipeline().steps(parse_module("func.func @f() {\n  return\n}"))]
    at = names.index("ttir-consolidate-static-cache-updates")
    assert names[at - 1 : at + 2] == ["ttir-fold-full-to-scalar", "ttir-consolidate-static-cache-updates", "cse"]
