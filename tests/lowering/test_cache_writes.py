"""KV-cache writes spelled as StableHLO scatters or dynamic_update_slices become tt-mlir's in-place
`ttir.update_cache` / `ttir.fill_cache`, and the TTIR writes what StableHLO specifies; forms that
are not provably a cache write keep the generic lowering. The inputs are what JAX and torch-xla
emit (JAX's text as `jax.jit(f).lower(...).as_text()` prints it)."""

from __future__ import annotations

import numpy as np
import pytest

from ttopt.ir.module import Module
from ttopt.parse.parser import parse_module
from ttopt.passes.context import PassContext
from ttopt.passes.registry import get_pass
from ttopt.testing.ttir_interpreter import run

CACHE = "tensor<2x4x64x32xf32>"

# jax.lax.dynamic_update_slice(cache, new, (0, 0, pos, 0)), pos normalised for negative values
JAX_DUS = f"""
func.func public @main(%arg0: {CACHE}, %arg1: tensor<2x4xSx32xf32>, %arg2: tensor<i32>) -> {CACHE} {{
  %c = stablehlo.constant dense<0> : tensor<i32>
  %0 = stablehlo.compare LT, %arg2, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %c_0 = stablehlo.constant dense<64> : tensor<i32>
  %1 = stablehlo.add %arg2, %c_0 : tensor<i32>
  %2 = stablehlo.select %0, %1, %arg2 : tensor<i1>, tensor<i32>
  %c_1 = stablehlo.constant dense<0> : tensor<i32>
  %3 = stablehlo.dynamic_update_slice %arg0, %arg1, %c_1, %c_1, POS, %c_1 : ({CACHE}, tensor<2x4xSx32xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> {CACHE}
  return %3 : {CACHE}
}}
"""

# cache.at[:, :, pos, :].set(new[:, :, 0, :])
JAX_AT = f"""
func.func public @main(%arg0: {CACHE}, %arg1: tensor<2x4x1x32xf32>, %arg2: tensor<i32>) -> {CACHE} {{
  %0 = stablehlo.reshape %arg1 : (tensor<2x4x1x32xf32>) -> tensor<2x4x32xf32>
  %4 = stablehlo.broadcast_in_dim %arg2, dims = [] : (tensor<i32>) -> tensor<1xi32>
  %5 = "stablehlo.scatter"(%arg0, %4, %0) <{{indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0, 1, 2], inserted_window_dims = [2], scatter_dims_to_operand_dims = [2]>, unique_indices = true}}> ({{
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return BODY : tensor<f32>
  }}) : ({CACHE}, tensor<1xi32>, tensor<2x4x32xf32>) -> {CACHE}
  return %5 : {CACHE}
}}
"""


def _grid(positions: str, s: int, pos_type: str) -> str:
    """torch-xla's index grid [B, N, S, H, 4]: iotas of dims 0, 1, 3 and the positions along dim 2."""
    g = f"tensor<2x4x{s}x32xi64>"
    g1 = f"tensor<2x4x{s}x32x1xi64>"
    return f"""
func.func @main(%arg0: {CACHE}, %arg1: {pos_type}, %arg2: tensor<2x4x{s}x32xf32>) -> {CACHE} {{
  %b = stablehlo.iota dim = 0 : tensor<2xi64>
  %n = stablehlo.iota dim = 0 : tensor<4xi64>
  %h = stablehlo.iota dim = 0 : tensor<32xi64>
  %b4 = stablehlo.broadcast_in_dim %b, dims = [0] : (tensor<2xi64>) -> {g}
  %n4 = stablehlo.broadcast_in_dim %n, dims = [1] : (tensor<4xi64>) -> {g}
  %p4 = stablehlo.broadcast_in_dim {positions}, dims = [2] : ({pos_type}) -> {g}
  %h4 = stablehlo.broadcast_in_dim %h, dims = [3] : (tensor<32xi64>) -> {g}
  %b5 = stablehlo.reshape %b4 : ({g}) -> {g1}
  %n5 = stablehlo.reshape %n4 : ({g}) -> {g1}
  %p5 = stablehlo.reshape %p4 : ({g}) -> {g1}
  %h5 = stablehlo.reshape %h4 : ({g}) -> {g1}
  %idx = stablehlo.concatenate %b5, %n5, %p5, %h5, dim = 4 : ({g1}, {g1}, {g1}, {g1}) -> tensor<2x4x{s}x32x4xi64>
  %r = "stablehlo.scatter"(%arg0, %idx, %arg2) <{{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [], inserted_window_dims = [0, 1, 2, 3], scatter_dims_to_operand_dims = [0, 1, 2, 3], index_vector_dim = 4>, unique_indices = false}}> ({{
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    stablehlo.return %y : tensor<f32>
  }}) : ({CACHE}, tensor<2x4x{s}x32x4xi64>, tensor<2x4x{s}x32xf32>) -> {CACHE}
  return %r : {CACHE}
}}
"""


def _lower(text: str) -> Module:
    module = parse_module(text, "cache.mlir")
    get_pass("convert-stablehlo-to-ttir")().run(module, PassContext())  # type: ignore[misc]
    return module


def _names(module: Module) -> list[str]:
    return [op.name for op in module.walk() if op.name.startswith("ttir.")]


def _inputs(s: int, pos: int) -> list[np.ndarray]:
    rng = np.random.default_rng(s)
    cache = rng.standard_normal((2, 4, 64, 32)).astype(np.float32)
    new = rng.standard_normal((2, 4, s, 32)).astype(np.float32)
    return [cache, new, np.array(pos, dtype=np.int32)]


def _written(cache: np.ndarray, new: np.ndarray, start: int) -> np.ndarray:
    want = cache.copy()
    want[:, :, start : start + new.shape[2], :] = new
    return want


@pytest.mark.parametrize("pos, lands", [(5, 5), (-3, 61), (100, 63)])
def test_jax_decode_update_slice_is_an_update_cache_at_the_clamped_position(pos: int, lands: int) -> None:
    module = _lower(JAX_DUS.replace("xSx", "x1x").replace("POS", "%2"))
    names = _names(module)
    assert names.count("ttir.update_cache") == 1 and "ttir.scatter" not in names
    cache, new, p = _inputs(1, pos)
    (got,) = run(module, "main", [cache.copy(), new, p])
    np.testing.assert_array_equal(got, _written(cache, new, lands))


def test_jax_prefill_from_position_zero_is_a_fill_cache_per_batch_row() -> None:
    module = _lower(JAX_DUS.replace("xSx", "x5x").replace("POS", "%c_1"))
    names = _names(module)
    assert names.count("ttir.fill_cache") == 2 and "ttir.scatter" not in names
    cache, new, p = _inputs(5, 0)
    (got,) = run(module, "main", [cache.copy(), new, p])
    np.testing.assert_array_equal(got, _written(cache, new, 0))


def test_prefill_from_an_unknown_position_keeps_the_generic_lowering() -> None:
    """fill_cache writes from position 0: HEAD assumes the positions start there; here they must."""
    names = _names(_lower(JAX_DUS.replace("xSx", "x5x").replace("POS", "%2")))
    assert "ttir.fill_cache" not in names and "ttir.scatter" in names


def test_jax_at_set_is_an_update_cache() -> None:
    module = _lower(JAX_AT.replace("BODY", "%b"))
    assert _names(module).count("ttir.update_cache") == 1
    cache, new, p = _inputs(1, 9)
    (got,) = run(module, "main", [cache.copy(), new, p])
    np.testing.assert_array_equal(got, _written(cache, new, 9))


def test_a_scatter_that_combines_is_not_a_cache_write() -> None:
    add = JAX_AT.replace("stablehlo.return BODY", "%s = stablehlo.add %a, %b : tensor<f32>\n    stablehlo.return %s")
    names = _names(_lower(add))
    assert "ttir.update_cache" not in names and "ttir.scatter" in names


def test_torch_index_grid_with_one_position_is_an_update_cache_of_that_position() -> None:
    module = _lower(_grid("%arg1", 1, "tensor<1xi64>"))
    update = next(op for op in module.walk() if op.name == "ttir.update_cache")
    assert update.operands[2] is module.functions()[0].regions[0].blocks[0].args[1]
    cache, new, _ = _inputs(1, 0)
    (got,) = run(module, "main", [cache.copy(), np.array([17], dtype=np.int64), new])
    np.testing.assert_array_equal(got, _written(cache, new, 17))


def test_torch_index_grid_from_an_arange_is_a_fill_cache() -> None:
    text = _grid("%pos", 6, "tensor<6xi64>").replace("  %b = ", "  %pos = stablehlo.iota dim = 0 : tensor<6xi64>\n  %b = ")
    module = _lower(text)
    assert _names(module).count("ttir.fill_cache") == 2
    cache, new, _ = _inputs(6, 0)
    (got,) = run(module, "main", [cache.copy(), np.zeros(6, dtype=np.int64), new])
    np.testing.assert_array_equal(got, _written(cache, new, 0))


def test_torch_index_grid_from_argument_positions_keeps_the_scatter() -> None:
    names = _names(_lower(_grid("%arg1", 6, "tensor<6xi64>")))
    assert "ttir.fill_cache" not in names and "ttir.update_cache" not in names


def test_a_cache_read_again_after_the_write_keeps_the_generic_lowering() -> None:
    """The cache ops write in place: a second reader of the old cache would see the new one."""
    text = JAX_DUS.replace("xSx", "x1x").replace("POS", "%2").replace(
        f"  return %3 : {CACHE}", f"  %4 = stablehlo.add %3, %arg0 : {CACHE}\n  return %4 : {CACHE}")  # fmt: skip
    names = _names(_lower(text))
    assert "ttir.update_cache" not in names


def test_a_cache_built_in_the_function_keeps_the_generic_lowering() -> None:
    """A cache made here (zeros) is a value: canonicalize folds it, cse merges equal ones and
    const-eval hoists it, none of which an in-place write may corrupt; only a function argument
    (the caller's buffer) is written in place."""
    text = JAX_DUS.replace("xSx", "x1x").replace("POS", "%2").replace(
        "%3 = stablehlo.dynamic_update_slice %arg0,",
        f"%z = stablehlo.constant dense<0.0> : {CACHE}\n  %3 = stablehlo.dynamic_update_slice %z,")  # fmt: skip
    names = _names(_lower(text))
    assert "ttir.update_cache" not in names
