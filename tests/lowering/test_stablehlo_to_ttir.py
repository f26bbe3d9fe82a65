"""`convert-stablehlo-to-ttir` on real JAX StableHLO (testdata/jax) and small hand-written cases.

Every testdata/jax file without a mesh, shardings or collectives either converts fully — the printed
output re-parses and verifies, no StableHLO/CHLO op is left, and the numpy reference interpreter
(ttopt/testing/ttir_interpreter.py) gives the same outputs for the StableHLO input and the TTIR
output on seeded random inputs — or is rejected with a diagnostic naming the first op without a
lowering. Covered: argmax, constants, conv, convert_types, dot_general_batched, iota_select_compare,
reduce_sum_max, softmax, sort; rng_bit_generator converts fully (its bits are random, so only the
output is checked). Not covered (the op the diagnostic names, and why):

* complex_fft — `stablehlo.fft` and complex element types.
* cond_switch — `stablehlo.case` (control flow).
* custom_call_cholesky — `stablehlo.custom_call` (LAPACK).
* dynamic_shape — dynamic dimensions (`tensor<?x8xf32>`); TTIR needs static shapes.
* elementwise_misc — shifts, popcnt, count_leading_zeros, round_nearest_even, chlo.next_after.
* gather_scatter — `stablehlo.sort` (its gathers and scatters lower).
* reduce_generic_body — a reducer body that is not a single add/max/min/multiply/and/or.
* scan, while_fori_loop — `stablehlo.while` (and dynamic_slice in scan).
* slice_dynamic_slice — `stablehlo.dynamic_slice` / `dynamic_update_slice`.
* transpose_reshape_concat — `stablehlo.pad` whose value is a runtime operand (`ttir.pad` takes a
  constant float).

The files with a mesh go through `--stablehlo-pipeline --convert-to-ttir --lower-compute` instead
(SHARDED_FULL convert fully; shard_map_combined stops at `stablehlo.partition_id`).
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from ttopt.ir.diagnostics import Diagnostic
from ttopt.ir.printer import print_module
from ttopt.ir.verifier import verify
from ttopt.parse.parser import parse_module
from ttopt.passes.context import PassContext
from ttopt.passes.registry import get_pass
from ttopt.testing.ttir_interpreter import Unsupported, conv_nchw, dense, dtype_of, run, shape_of

ROOT = Path(__file__).resolve().parents[2]
JAX = ROOT / "testdata" / "jax"
SHARDED = re.compile(r"sdy\.mesh|#sdy\.sharding<|sdy\.manual_computation|sdy\.sharding_constraint|stablehlo\.(all_|reduce_scatter|collective_)")
COVERED = {"argmax", "constants", "conv", "convert_types", "cumsum_reduce_window", "dot_general_batched", "gather_scatter",
           "iota_select_compare", "reduce_sum_max", "slice_dynamic_slice", "softmax", "sort"}  # fmt: skip
RANDOM = {"rng_bit_generator"}  # converts fully; its values are random
NOT_COVERED = {  # file -> the op the diagnostic names
    "complex_fft": "stablehlo.real", "cond_switch": "stablehlo.case",
    "custom_call_cholesky": "stablehlo.custom_call",
    "dynamic_shape": "stablehlo.dot_general", "elementwise_misc": "stablehlo.shift_right_arithmetic",
    "reduce_generic_body": "stablehlo.reduce", "scan": "stablehlo.while",
    "transpose_reshape_concat": "stablehlo.pad", "while_fori_loop": "stablehlo.while",
}  # fmt: skip
SHARDED_FULL = {"attention", "call_private_helper", "transformer_2layer", "explicit_axes_reshard", "layernorm", "mesh_device_ids", "mesh_size1_axis_bf16",
                "mlp_data_parallel_1d", "mlp_sharded", "shard_map_all_gather", "shard_map_all_to_all", "shard_map_pmax_pmin",
                "shard_map_ppermute", "shard_map_psum", "shard_map_psum_scatter", "sharding_constraint"}  # fmt: skip
PLAIN = sorted(p.stem for p in JAX.glob("*.mlir") if not SHARDED.search(p.read_text()))


def lower(text: str, name: str = "<input>", passes: tuple[str, ...] = ("convert-stablehlo-to-ttir",)) -> str:
    m = parse_module(text, name)
    ctx = PassContext()
    for p in passes:
        cls = get_pass(p)
        assert cls is not None
        cls.from_options({"lower_compute": True} if p == "convert-to-ttir" else {}).run(m, ctx)
    return print_module(m)


def random_inputs(module, func: str = "main", seed: int = 0) -> list:
    f = next(f for f in module.functions() if f.properties["sym_name"].value == func)
    rng = np.random.default_rng(seed)
    out = []
    for a in f.regions[0].blocks[0].args:
        dt, shape = np.dtype(dtype_of(a.type)), shape_of(a.type)
        if dt == np.bool_:
            out.append(rng.random(shape) < 0.5)
        elif dt.kind in "iu":
            out.append(rng.integers(0 if dt.kind == "u" else -5, 6, shape).astype(dt))
        else:
            out.append(rng.standard_normal(shape).astype(dt))
    return out


def check_lowering(text: str, name: str = "<input>") -> str:
    """Convert, re-parse, verify, no StableHLO left, same numbers; the printed TTIR."""
    before = parse_module(text, name)
    printed = lower(text, name)
    after = parse_module(printed, name)
    verify(after, check_uses=True)
    left = sorted({op.name for op in after.walk() if op.dialect in ("stablehlo", "chlo")})
    assert not left, f"StableHLO ops left: {left}"
    for seed in (0, 1):
        ins = random_inputs(before, seed=seed)
        want, got = run(before, "main", ins), run(after, "main", ins)
        assert len(want) == len(got)
        for w, g in zip(want, got):
            assert (w.dtype, w.shape) == (g.dtype, g.shape)
            if w.dtype.kind in "biu":
                np.testing.assert_array_equal(g, w)
            else:
                np.testing.assert_allclose(g.astype(np.float64), w.astype(np.float64), rtol=1e-5)
    return printed


def test_every_plain_file_is_classified() -> None:
    assert set(PLAIN) == COVERED | RANDOM | set(NOT_COVERED), sorted(set(PLAIN) ^ (COVERED | RANDOM | set(NOT_COVERED)))


@pytest.mark.parametrize("name", sorted(COVERED))
def test_jax_file_converts_and_keeps_the_numbers(name: str) -> None:
    printed = check_lowering((JAX / f"{name}.mlir").read_text(), f"{name}.mlir")
    assert '"ttir.' in printed


@pytest.mark.parametrize("name", sorted(RANDOM))
def test_jax_file_with_random_values_converts(name: str) -> None:
    out = parse_module(lower((JAX / f"{name}.mlir").read_text(), f"{name}.mlir"))
    verify(out, check_uses=True)
    assert not [op.name for op in out.walk() if op.dialect in ("stablehlo", "chlo")]
    assert '"ttir.rand"' in print_module(out)


@pytest.mark.parametrize("name", sorted(NOT_COVERED))
def test_jax_file_without_a_lowering_is_a_diagnostic(name: str) -> None:
    with pytest.raises(Diagnostic) as e:
        lower((JAX / f"{name}.mlir").read_text(), f"{name}.mlir")
    assert e.value.message.startswith(f"failed to legalize operation '{NOT_COVERED[name]}' to TTIR"), e.value.message
    assert e.value.pos is not None and e.value.render().startswith(f"{name}.mlir:")


@pytest.mark.parametrize("name", sorted(SHARDED_FULL))
def test_sharded_jax_file_converts_through_convert_to_ttir(name: str) -> None:
    out = parse_module(lower((JAX / f"{name}.mlir").read_text(), passes=("stablehlo-pipeline", "convert-to-ttir")))
    verify(out)
    assert not [op.name for op in out.walk() if op.dialect in ("stablehlo", "chlo", "sdy")]


def test_convert_to_ttir_keeps_compute_ops_without_lower_compute() -> None:
    m = parse_module((JAX / "shard_map_psum.mlir").read_text())
    get_pass("convert-to-ttir")().run(m, PassContext())  # type: ignore[misc]
    assert "stablehlo.dot_general" in print_module(m)


# -- hand-written forms the JAX files do not reach -------------------------------------------------
CASES = {
    "dot_general_as_dot_general": """
  func.func @main(%a: tensor<8x4x3xf32>, %b: tensor<3x4x5xf32>) -> tensor<4x8x5xf32> {
    %0 = stablehlo.dot_general %a, %b, batching_dims = [1] x [1], contracting_dims = [2] x [0] : (tensor<8x4x3xf32>, tensor<3x4x5xf32>) -> tensor<4x8x5xf32>
    return %0 : tensor<4x8x5xf32>
  }""",
    "matmul_transposed": """
  func.func @main(%a: tensor<3x8xf32>, %b: tensor<5x3xf32>) -> tensor<8x5xf32> {
    %0 = stablehlo.dot_general %a, %b, contracting_dims = [0] x [1] : (tensor<3x8xf32>, tensor<5x3xf32>) -> tensor<8x5xf32>
    return %0 : tensor<8x5xf32>
  }""",
    "transposing_broadcast": """
  func.func @main(%a: tensor<3x4xf32>) -> tensor<4x2x3xf32> {
    %0 = stablehlo.broadcast_in_dim %a, dims = [2, 0] : (tensor<3x4xf32>) -> tensor<4x2x3xf32>
    return %0 : tensor<4x2x3xf32>
  }""",
    "reduce_with_init_operand": """
  func.func @main(%a: tensor<4x6xf32>, %i: tensor<f32>) -> tensor<6xf32> {
    %0 = stablehlo.reduce(%a init: %i) applies stablehlo.maximum across dimensions = [0] : (tensor<4x6xf32>, tensor<f32>) -> tensor<6xf32>
    return %0 : tensor<6xf32>
  }""",
    "elementwise_and_data_movement": """
  func.func @main(%a: tensor<4x6xf32>, %b: tensor<4x6xf32>, %p: tensor<i1>, %m: tensor<4x6xi32>) -> (tensor<6x2xf32>, tensor<4x6xi1>, tensor<4x6xi32>) {
    %0 = stablehlo.logistic %a : tensor<4x6xf32>
    %1 = stablehlo.abs %b : tensor<4x6xf32>
    %2 = stablehlo.sqrt %1 : tensor<4x6xf32>
    %3 = stablehlo.rsqrt %1 : tensor<4x6xf32>
    %4 = stablehlo.power %2, %3 : tensor<4x6xf32>
    %5 = stablehlo.select %p, %0, %4 : tensor<i1>, tensor<4x6xf32>
    %6 = stablehlo.negate %5 : tensor<4x6xf32>
    %7 = stablehlo.reverse %6, dims = [1] : tensor<4x6xf32>
    %8 = stablehlo.slice %7 [1:4, 0:6:2] : (tensor<4x6xf32>) -> tensor<3x3xf32>
    %9 = stablehlo.transpose %8, dims = [1, 0] : (tensor<3x3xf32>) -> tensor<3x3xf32>
    %10 = stablehlo.concatenate %9, %8, dim = 0 : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<6x3xf32>
    %11 = stablehlo.slice %10 [0:6, 1:3] : (tensor<6x3xf32>) -> tensor<6x2xf32>
    %12 = stablehlo.compare LE, %a, %b, FLOAT : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xi1>
    %13 = stablehlo.compare EQ, %m, %m, SIGNED : (tensor<4x6xi32>, tensor<4x6xi32>) -> tensor<4x6xi1>
    %14 = stablehlo.xor %12, %13 : tensor<4x6xi1>
    %15 = stablehlo.not %14 : tensor<4x6xi1>
    %16 = stablehlo.divide %m, %m : tensor<4x6xi32>
    %17 = stablehlo.and %m, %16 : tensor<4x6xi32>
    return %11, %15, %17 : tensor<6x2xf32>, tensor<4x6xi1>, tensor<4x6xi32>
  }""",
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_hand_written_case_keeps_the_numbers(case: str) -> None:
    printed = check_lowering(CASES[case])
    expect = {"dot_general_as_dot_general": '"ttir.dot_general"', "matmul_transposed": '"ttir.dot_general"',
              "transposing_broadcast": '"ttir.permute"', "reduce_with_init_operand": '"ttir.maximum"',
              "elementwise_and_data_movement": '"ttir.logical_xor"'}[case]  # fmt: skip
    assert expect in printed


@pytest.mark.parametrize(("snippet", "why"), [
    ("stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], lhs_dilate = [2, 2]}"
     " {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x2xf32>, tensor<3x3x2x2xf32>) -> tensor<1x5x5x2xf32>",
     "lhs_dilation"),
    ("stablehlo.custom_call @foo(%x) : (tensor<1x4x4x2xf32>) -> tensor<1x5x5x2xf32>", ""),
])  # fmt: skip
def test_unsupported_forms_are_diagnostics(snippet: str, why: str) -> None:
    text = f"""func.func @main(%x: tensor<1x4x4x2xf32>, %w: tensor<3x3x2x2xf32>) -> tensor<1x5x5x2xf32> {{
  %0 = {snippet}
  return %0 : tensor<1x5x5x2xf32>
}}"""
    with pytest.raises(Diagnostic) as e:
        lower(text, "t.mlir")
    assert e.value.render().startswith("t.mlir:2:8: error: failed to legalize operation '"), e.value.render()
    assert why in e.value.message


# -- the interpreter itself ------------------------------------------------------------------------
def test_conv_reference_matches_a_direct_loop() -> None:
    rng = np.random.default_rng(3)
    x, w = rng.standard_normal((2, 4, 7, 6)), rng.standard_normal((6, 2, 3, 2))
    strides, pads, dil, groups = [2, 1], [(1, 2), (0, 1)], [1, 2], 2
    got = conv_nchw(x, w, strides, pads, dil, groups)
    xp = np.pad(x, [(0, 0), (0, 0), *pads])
    want = np.zeros_like(got)
    for n, o, i, j in np.ndindex(*got.shape):
        g = o // (6 // groups)
        for c, a, b in np.ndindex(2, 3, 2):
            want[n, o, i, j] += xp[n, g * 2 + c, i * 2 + a, j + b * 2] * w[o, c, a, b]
    np.testing.assert_allclose(got, want, rtol=1e-12)


def test_dense_decoding() -> None:
    m = parse_module("""func.func @main() -> (tensor<2xf32>, tensor<3xi1>, tensor<bf16>) {
  %0 = stablehlo.constant dense<0xFF800000> : tensor<2xf32>
  %1 = stablehlo.constant dense<"0x010001"> : tensor<3xi1>
  %2 = stablehlo.constant dense<1.500000e+00> : tensor<bf16>
  return %0, %1, %2 : tensor<2xf32>, tensor<3xi1>, tensor<bf16>
}""")
    a, b, c = (dense(op.properties["value"], op.results[0].type) for op in m.walk() if op.name == "stablehlo.constant")
    assert list(a) == [-np.inf, -np.inf] and list(b) == [True, False, True] and float(c) == 1.5


def test_ttir_broadcast_repeats_only_unit_dimensions() -> None:
    m = parse_module("""func.func @main(%a: tensor<2x3xf32>) -> tensor<4x3xf32> {
  %0 = "ttir.broadcast"(%a) <{broadcast_dimensions = array<i64: 2, 1>}> : (tensor<2x3xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}""")
    with pytest.raises(Unsupported):
        run(m, "main", [np.zeros((2, 3), np.float32)])
