"""tt-mlir's CPU fallback (`stablehlo-to-ttir-pipeline{enable-cpu-fallback=true}`): the hoist of
the allow-listed StableHLO ops, the partial conversion around it, and the numbers of the host
functions (TTIR interpreter and the LLVM lowering) against jax.numpy / jax.lax."""

from __future__ import annotations

import numpy as np
import pytest

from ttopt.ir.diagnostics import Diagnostic
from ttopt.ir.printer import print_module
from ttopt.lowering.stablehlo_to_ttir_pipeline import StableHLOToTTIRPipeline
from ttopt.parse.parser import parse_module
from ttopt.passes.context import PassContext
from ttopt.passes.manager import PassManager
from ttopt.testing.cpu_llvm_runs import same_numbers
from ttopt.testing.ttir_interpreter import run as interpret

jnp = pytest.importorskip("jax.numpy")
lax = pytest.importorskip("jax.lax")

RNG = np.random.default_rng(11)


def t(shape: tuple[int, ...], el: str = "f32") -> str:
    return f"tensor<{''.join(f'{d}x' for d in shape)}{el}>"


def fallback(text: str) -> tuple[str, dict]:
    """`text` through the pipeline with the CPU fallback on: the printed module and the stats."""
    module = parse_module(text, "t.mlir")
    ctx = PassContext()
    PassManager([StableHLOToTTIRPipeline.from_options({"enable-cpu-fallback": True})], ctx).run(module)
    return print_module(module), ctx.stats


def einsum_func(config: str, a: tuple[int, ...], b: tuple[int, ...], out: tuple[int, ...], el: str = "f32", ranks: bool = False) -> str:
    attrs = f' attributes {{arg_ranks = [{len(a)}, {len(b)}], result_ranks = [{len(out)}]}}' if ranks else ""
    return (f"func.func @f(%arg0: {t(a, el)}, %arg1: {t(b, el)}) -> {t(out, el)}{attrs} {{\n"
            f'  %0 = "stablehlo.einsum"(%arg0, %arg1) {{einsum_config = "{config}"}} : ({t(a, el)}, {t(b, el)}) -> {t(out, el)}\n'
            f"  return %0 : {t(out, el)}\n}}")  # fmt: skip


# (config, lhs shape, rhs shape): plain and batched matmuls, transposed operands and result,
# an outer product, labels one operand sums out, a dot product to a scalar.
EINSUMS = [
    ("ij,jk->ik", (3, 4), (4, 5)),
    ("bij,bjk->bik", (2, 3, 4), (2, 4, 5)),
    ("ji,kj->ik", (4, 3), (5, 4)),
    ("bhqd,bhkd->bhqk", (1, 2, 3, 4), (1, 2, 5, 4)),
    ("i,j->ij", (3,), (4,)),
    ("ijk,jl->li", (3, 4, 2), (4, 5)),
    ("i,i->", (6,), (6,)),
    ("abc,cd->bda", (2, 3, 4), (4, 5)),
]


@pytest.mark.parametrize("config,a,b", EINSUMS, ids=[c for c, _, _ in EINSUMS])
def test_einsum_on_the_host_is_jax_numpys(config: str, a: tuple[int, ...], b: tuple[int, ...]) -> None:
    x, y = RNG.uniform(-2, 2, a).astype(np.float32), RNG.uniform(-2, 2, b).astype(np.float32)
    want = np.asarray(jnp.einsum(config, x, y, precision="highest"))
    text = einsum_func(config, a, b, want.shape)
    # The pipeline's program: the call of the host function, run by the TTIR interpreter.
    printed, stats = fallback("module {\n" + text.replace("@f", "@main") + "\n}\n")
    assert "call @cpu_hoisted_stablehlo_einsum_" in printed and stats["cpu-hoist-non-lowerable-shlo-ops"]["hoisted-ops"] == 1
    (got,) = interpret(parse_module(printed), "main", [x, y])
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    # The host function lowered to LLVM (permute / reshape / matmul loops), in the LLVM interpreter.
    same_numbers(einsum_func(config, a, b, want.shape, ranks=True), [x, y], want=[want], rtol=1e-5, atol=1e-5)


def test_integer_einsum_on_the_host() -> None:
    x, y = RNG.integers(-9, 10, (2, 3, 4)).astype(np.int32), RNG.integers(-9, 10, (2, 4, 5)).astype(np.int32)
    want = np.asarray(jnp.einsum("bij,bjk->bik", x, y))
    same_numbers(einsum_func("bij,bjk->bik", (2, 3, 4), (2, 4, 5), (2, 3, 5), "i32", ranks=True), [x, y], want=[want])


@pytest.mark.parametrize("config,why", [("ii,ij->j", "a label twice"), ("i...,j->ij", "an ellipsis"), ("ij,jk->iz", "a result label no operand has")])
def test_einsums_the_host_lowering_refuses_are_errors_at_the_op(config: str, why: str) -> None:
    shapes = {"ii,ij->j": ((3, 3), (3, 4), (4,)), "i...,j->ij": ((3,), (4,), (3, 4)), "ij,jk->iz": ((3, 4), (4, 5), (3, 5))}[config]
    with pytest.raises(Diagnostic, match=f"failed to legalize operation 'stablehlo.einsum' to TTIR: {why}"):
        same_numbers(einsum_func(config, *shapes, ranks=True), [], want=[])


def dus_func(base: tuple[int, ...], update: tuple[int, ...], el: str = "f32") -> str:
    starts = ", ".join(f"%arg{i + 2}" for i in range(len(base)))
    start_types = ", ".join("tensor<i32>" for _ in base)
    params = ", ".join([f"%arg0: {t(base, el)}", f"%arg1: {t(update, el)}", *(f"%arg{i + 2}: tensor<i32>" for i in range(len(base)))])
    ranks = ", ".join(str(len(s)) for s in [base, update, *([()] * len(base))])
    return (f"func.func @f({params}) -> {t(base, el)} attributes {{arg_ranks = [{ranks}], result_ranks = [{len(base)}]}} {{\n"
            f"  %0 = stablehlo.dynamic_update_slice %arg0, %arg1, {starts} : ({t(base, el)}, {t(update, el)}, {start_types}) -> {t(base, el)}\n"
            f"  return %0 : {t(base, el)}\n}}")  # fmt: skip


# Starts inside, negative and past the end (StableHLO clamps them), on rank 1 to 3.
DUS = [((8,), (3,), (2,)), ((8,), (3,), (-4,)), ((8,), (3,), (7,)), ((4, 6), (2, 3), (1, 5)), ((4, 6), (4, 1), (-1, 2)),
       ((2, 5, 4), (1, 2, 4), (1, 3, 9)), ((3, 3), (3, 3), (2, 2))]  # fmt: skip


@pytest.mark.parametrize("base,update,starts", DUS)
def test_dynamic_update_slice_on_the_host_clamps_its_starts_as_jax(base: tuple[int, ...], update: tuple[int, ...], starts: tuple[int, ...]) -> None:
    x, u = RNG.uniform(-2, 2, base).astype(np.float32), RNG.uniform(-2, 2, update).astype(np.float32)
    s = [np.array(v, np.int32) for v in starts]
    # allow_negative_indices=False: StableHLO's op clamps a negative start to 0 (jax wraps it by default).
    want = np.asarray(lax.dynamic_update_slice(x, u, [jnp.int32(v) for v in starts], allow_negative_indices=False))
    text = dus_func(base, update)
    printed, _ = fallback("module {\n" + text.replace("@f", "@main") + "\n}\n")
    assert "call @cpu_hoisted_stablehlo_dynamic_update_slice_" in printed and "ttir.scatter" not in printed
    (got,) = interpret(parse_module(printed), "main", [x, u, *s])
    np.testing.assert_array_equal(got, want)
    same_numbers(text, [x, u, *s], want=[want])


def test_dynamic_update_slice_of_integers_on_the_host() -> None:
    x, u = RNG.integers(-9, 10, (5, 4)).astype(np.int32), RNG.integers(-9, 10, (2, 2)).astype(np.int32)
    want = np.asarray(lax.dynamic_update_slice(x, u, [jnp.int32(4), jnp.int32(-3)], allow_negative_indices=False))
    same_numbers(dus_func((5, 4), (2, 2), "i32"), [x, u, np.array(4, np.int32), np.array(-3, np.int32)], want=[want])


BF16_I64 = """module {
  func.func @main(%arg0: tensor<4x8xbf16>, %arg1: tensor<2x8xbf16>, %arg2: tensor<i64>) -> tensor<4x8xbf16> {
    %c = stablehlo.constant dense<0> : tensor<i64>
    %0 = stablehlo.dynamic_update_slice %arg0, %arg1, %arg2, %c : (tensor<4x8xbf16>, tensor<2x8xbf16>, tensor<i64>, tensor<i64>) -> tensor<4x8xbf16>
    %1 = stablehlo.dynamic_update_slice %0, %arg1, %arg2, %c : (tensor<4x8xbf16>, tensor<2x8xbf16>, tensor<i64>, tensor<i64>) -> tensor<4x8xbf16>
    %2 = stablehlo.add %0, %1 : tensor<4x8xbf16>
    return %2 : tensor<4x8xbf16>
  }
}
"""


def test_bf16_and_i64_operands_reach_the_host_in_32_bits_and_equal_ops_share_one_function() -> None:
    printed, _ = fallback(BF16_I64)
    assert printed.count("func.func @cpu_hoisted_stablehlo_dynamic_update_slice_") == 1  # one definition per hash
    assert printed.count("call @cpu_hoisted_stablehlo_dynamic_update_slice_") == 2
    assert "(tensor<4x8xf32>, tensor<2x8xf32>, tensor<i32>, tensor<i32>) -> tensor<4x8xf32>" in printed
    assert "ttir.to_layout %arg0, %1 : tensor<4x8xbf16> into tensor<4x8xf32>" in printed and '"ttir.add"' in printed
    x, u = (RNG.uniform(-2, 2, s).astype(np.float32) for s in ((4, 8), (2, 8)))
    (got,) = interpret(parse_module(printed), "main", [x, u, np.array(3, np.int64)])
    want = np.asarray(lax.dynamic_update_slice(x, u, [jnp.int32(2), jnp.int32(0)])) * 2  # the second writes what the first did
    np.testing.assert_allclose(np.asarray(got, np.float32), want, rtol=1e-2)


def test_an_op_neither_converted_nor_allow_listed_is_an_error_at_the_op() -> None:
    text = """module {
  func.func @main(%arg0: tensor<2x3xf32>, %arg1: tensor<32x64xf32>, %arg2: tensor<64x8xf32>) -> tensor<3x2xf32> {
    %0 = stablehlo.einsum %arg1, %arg2, config = "ij,jk->ik" : (tensor<32x64xf32>, tensor<64x8xf32>) -> tensor<32x8xf32>
    %1 = stablehlo.abs %arg0 : tensor<2x3xf32>
    %2 = "stablehlo.fft"(%1) {fft_type = #stablehlo<fft_type FFT>, fft_length = array<i64: 3>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
    return %2 : tensor<3x2xf32>
  }
}
"""
    with pytest.raises(Diagnostic) as e:
        fallback(text)
    assert e.value.render().startswith("t.mlir:5:10: error: failed to legalize operation 'stablehlo.fft' to TTIR")


def test_without_a_device_module_the_hoist_does_nothing() -> None:
    text = "module {\n" + einsum_func("ij,jk->ik", (3, 4), (4, 5), (3, 5)) + "\n}\n"
    module = parse_module(text)
    from ttopt.lowering.cpu_hoist_shlo import CPUHoistNonLowerableSHLOOps

    PassManager([CPUHoistNonLowerableSHLOOps()], PassContext()).run(module)
    assert print_module(module) == print_module(parse_module(text))


def test_a_partial_conversion_drops_what_a_failed_lowering_emitted(monkeypatch: pytest.MonkeyPatch) -> None:
    """An op whose lowering emits ops and then gives up stays as it was, without those ops."""
    from ttopt.lowering.stablehlo_to_ttir import HANDLERS, ConvertStablehloToTTIR, Unsupported

    def gives_up(low: object, op: object) -> list:
        low.emit("neg", [op.operands[0]], op.results[0].type)  # type: ignore[attr-defined]
        raise Unsupported("not this form")

    monkeypatch.setitem(HANDLERS, "stablehlo.cbrt", gives_up)
    text = """module {
  func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.abs %arg0 : tensor<4xf32>
    %1 = stablehlo.cbrt %0 : tensor<4xf32>
    %2 = stablehlo.exponential %1 : tensor<4xf32>
    return %2 : tensor<4xf32>
  }
}
"""
    module = parse_module(text, "t.mlir")
    ctx = PassContext()
    PassManager([ConvertStablehloToTTIR(enable_partial_conversion=True)], ctx).run(module)
    printed = print_module(module)
    assert '"ttir.abs"' in printed and "stablehlo.cbrt %0" in printed and '"ttir.exp"(%1)' in printed
    assert "ttir.neg" not in printed and "ttir.neg" not in ctx.stats["convert-stablehlo-to-ttir"]
    with pytest.raises(Diagnostic, match="failed to legalize operation 'stablehlo.cbrt' to TTIR: not this form"):
        PassManager([ConvertStablehloToTTIR()], PassContext()).run(parse_module(text, "t.mlir"))
