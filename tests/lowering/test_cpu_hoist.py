"""cpu-hoist-const-eval / cpu-hoist-manually-tagged: what moves to the host, in which types, and
that the hoisted program computes what the original one does."""

from __future__ import annotations

import logging

import numpy as np
import pytest

from ttopt.ir.printer import print_module
from ttopt.lowering.cpu_hoist import const_eval_segments, cpu_type
from ttopt.lowering.device_module import cpu_inner_module
from ttopt.lowering.function_types import FORWARD_CPU
from ttopt.parse.parser import parse_module
from ttopt.passes.context import PassContext
from ttopt.passes.manager import PassManager
from ttopt.passes.pipeline import instantiate, parse_pipeline
from ttopt.testing.ttir_interpreter import run as interpret

P = "{ttcore.argument_type = #ttcore.argument_type<parameter>}"
I = "{ttcore.argument_type = #ttcore.argument_type<input>}"
T = "tensor<32x32xbf16>"


def _module(body: str, args: str, result: str = T) -> str:
    return f"module {{\n  func.func @f({args}) -> {result} {{\n{body}\n  }}\n}}\n"


def _run(text: str, passes: str) -> tuple[object, PassContext]:
    module = parse_module(text, "t.mlir")
    ctx = PassContext()
    pipeline = f"builtin.module({passes})"
    PassManager(instantiate(parse_pipeline(pipeline), pipeline), ctx).run(module)
    return module, ctx


def _const_eval(text: str, holding: str) -> tuple[object, object]:
    """The module after const-eval hoisting, and its const-eval function holding op `holding`."""
    module, _ = _run(text, "const-eval-hoist-transform")
    func = next(f for f in module.functions() if f.properties["sym_name"].value.startswith("f_const_eval")
                and any(op.name == holding for op in f.walk()))  # fmt: skip
    return module, func


@pytest.mark.parametrize(("element", "host", "definition"), [
    ("bf16", "f32", "f32"), ("f16", "f32", "f32"), ("f64", "f32", "f32"), ("f32", "f32", "f32"),
    ("si64", "si32", "i32"), ("ui8", "ui32", "i32"), ("i64", "i32", "i32"), ("i1", "i32", "i32"),
])  # fmt: skip
def test_host_types_are_32_bit_with_the_sign_kept_only_in_declarations(element: str, host: str, definition: str) -> None:
    from ttopt.ir.types import ScalarType, TensorType

    t = TensorType((4, 8), ScalarType(element))
    assert cpu_type(t).element_type.text == host
    assert cpu_type(t, drop_sign=True).element_type.text == definition


def test_a_returned_constant_stays_on_the_device_and_collectives_split_segments() -> None:
    body = """    %0 = "ttir.zeros"() <{shape = array<i32: 32, 32>}> : () -> tensor<32x32xbf16>
    %1 = "ttir.reshape"(%0) <{shape = [1 : i32, 1024 : i32]}> : (tensor<32x32xbf16>) -> tensor<1x1024xbf16>
    %2 = "ttir.neg"(%arg1) : (tensor<32x32xbf16>) -> tensor<32x32xbf16>
    %3 = "ttir.all_gather"(%2) <{all_gather_dim = 0 : si32, cluster_axis = 1 : ui32}> : (tensor<32x32xbf16>) -> tensor<64x32xbf16>
    %4 = "ttir.exp"(%3) : (tensor<64x32xbf16>) -> tensor<64x32xbf16>
    %5 = "ttir.sum"(%4) <{dim_arg = [0 : i32], keep_dim = false}> : (tensor<64x32xbf16>) -> tensor<32xbf16>
    %6 = "ttir.reshape"(%5) <{shape = [1 : i32, 32 : i32]}> : (tensor<32xbf16>) -> tensor<1x32xbf16>
    %7 = "ttir.reshape"(%1) <{shape = [32 : i32, 32 : i32]}> : (tensor<1x1024xbf16>) -> tensor<32x32xbf16>
    %8 = "ttir.add"(%arg0, %7) : (tensor<32x32xbf16>, tensor<32x32xbf16>) -> tensor<32x32xbf16>
    %9 = "ttir.add"(%8, %6) : (tensor<32x32xbf16>, tensor<1x32xbf16>) -> tensor<32x32xbf16>
    return %9 : tensor<32x32xbf16>"""
    module, func = _const_eval(_module(body, f"%arg0: {T} {I}, %arg1: {T} {P}"), "ttir.neg")
    segments = const_eval_segments(module, func, lambda op: True)
    # Two const-eval functions (the zeros chain is not connected to the rest); this one holds the
    # neg -> all_gather -> exp -> sum -> reshape chain, cut at the all_gather.
    names = [[op.name for op in s.ops] for s in segments]
    assert names == [["ttir.neg"], ["ttir.exp", "ttir.sum", "ttir.reshape"]]
    assert [len(s.outputs) for s in segments] == [1, 1]
    _, zeros = _const_eval(_module(body, f"%arg0: {T} {I}, %arg1: {T} {P}"), "ttir.zeros")
    assert const_eval_segments(module, zeros, lambda op: True) == []


def test_a_segment_the_cpu_lowering_cannot_take_stays_with_a_warning(caplog: pytest.LogCaptureFixture) -> None:
    body = """    %0 = "ttir.neg"(%arg1) : (tensor<32x32xbf16>) -> tensor<32x32xbf16>
    %1 = "ttir.exp"(%0) : (tensor<32x32xbf16>) -> tensor<32x32xbf16>
    %2 = "ttir.add"(%arg0, %1) : (tensor<32x32xbf16>, tensor<32x32xbf16>) -> tensor<32x32xbf16>
    return %2 : tensor<32x32xbf16>"""
    module, func = _const_eval(_module(body, f"%arg0: {T} {I}, %arg1: {T} {P}"), "ttir.exp")
    with caplog.at_level(logging.WARNING):
        segments = const_eval_segments(module, func, lambda op: op.name != "ttir.exp")
    assert segments == []
    assert "t.mlir:4:10: warning" in caplog.text and "warning: Skipping CPU hoisting of const-eval subgraph" in caplog.text


def test_constants_are_retyped_for_the_host() -> None:
    body = """    %0 = "ttir.constant"() <{value = dense<[[1.5, -2.25]]> : tensor<1x2xbf16>}> : () -> tensor<1x2xbf16>
    %1 = "ttir.multiply"(%arg1, %0) : (tensor<1x2xbf16>, tensor<1x2xbf16>) -> tensor<1x2xbf16>
    %2 = "ttir.add"(%arg0, %1) : (tensor<1x2xbf16>, tensor<1x2xbf16>) -> tensor<1x2xbf16>
    return %2 : tensor<1x2xbf16>"""
    t = "tensor<1x2xbf16>"
    text = _module(body, f"%arg0: {t} {I}, %arg1: {t} {P}", t)
    module, _ = _run(text, "const-eval-hoist-transform,cpu-hoist-const-eval")
    cpu = cpu_inner_module(module)
    assert cpu is not None
    (definition,) = [op for op in cpu.regions[0].entry.ops if op.name == "func.func"]
    assert definition.attributes["tt.function_type"].value == FORWARD_CPU
    constant = next(op for op in definition.regions[0].entry.ops if op.name == "ttir.constant")
    assert print_module(module).count("dense<[[1.500000e+00, -2.250000e+00]]> : tensor<1x2xf32>") == 1
    assert constant.results[0].type.text == "tensor<1x2xf32>"


def test_the_hoisted_program_computes_what_the_original_does() -> None:
    body = """    %0 = "ttir.full"() <{fill_value = 3.000000e+00 : f32, shape = array<i32: 32, 32>}> : () -> tensor<32x32xbf16>
    %1 = "ttir.multiply"(%arg1, %0) : (tensor<32x32xbf16>, tensor<32x32xbf16>) -> tensor<32x32xbf16>
    %2 = "ttir.exp"(%arg2) : (tensor<32x32xbf16>) -> tensor<32x32xbf16>
    %3 = "ttir.subtract"(%1, %2) : (tensor<32x32xbf16>, tensor<32x32xbf16>) -> tensor<32x32xbf16>
    %4 = "ttir.add"(%arg0, %3) : (tensor<32x32xbf16>, tensor<32x32xbf16>) -> tensor<32x32xbf16>
    %5 = "ttir.multiply"(%4, %2) : (tensor<32x32xbf16>, tensor<32x32xbf16>) -> tensor<32x32xbf16>
    return %5 : tensor<32x32xbf16>"""
    text = _module(body, f"%arg0: {T} {I}, %arg1: {T} {P}, %arg2: {T} {P}")
    rng = np.random.default_rng(0)
    import ml_dtypes

    inputs = [rng.standard_normal((32, 32)).astype(ml_dtypes.bfloat16) for _ in range(3)]
    want = interpret(parse_module(text, "t.mlir"), "f", inputs)[0].astype(np.float32)
    module, ctx = _run(text, "const-eval-hoist-transform,cpu-hoist-const-eval")
    assert ctx.stats["cpu-hoist-const-eval"]["hoisted-segments"] == 1
    got = interpret(module, "f", inputs)[0].astype(np.float32)
    # The host computes in f32 and rounds to bf16 once, the device after every op: they differ by
    # bf16 roundings (a few ulps where 3 * a - exp(b) cancels).
    np.testing.assert_allclose(got, want, rtol=2e-2, atol=8e-2)
    assert "call @cpu_hoisted_const_eval_" in print_module(module)


def test_manually_tagged_ops_are_hoisted_on_their_own_and_named_after_the_op() -> None:
    body = """    %0 = "ttir.add"(%arg0, %arg1) {ttir.should_hoist} : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %1 = "ttir.multiply"(%0, %arg1) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    return %1 : tensor<32x32xf32>"""
    t = "tensor<32x32xf32>"
    module, ctx = _run(_module(body, f"%arg0: {t}, %arg1: {t}", t), "cpu-hoist-manually-tagged")
    out = print_module(module)
    assert ctx.stats["cpu-hoist-manually-tagged"]["hoisted-ops"] == 1
    assert "%0 = call @cpu_hoisted_ttir_add_" in out and "ttir.to_layout" not in out  # f32 needs no conversion
    assert "ttir.should_hoist" not in out
    assert out.index("func.func private @cpu_hoisted_ttir_add_") < out.index("ttcore.cpu_module")


def test_no_tagged_op_and_no_const_eval_function_leave_the_module_alone() -> None:
    text = _module('    %0 = "ttir.neg"(%arg0) : (tensor<32x32xbf16>) -> tensor<32x32xbf16>\n    return %0 : tensor<32x32xbf16>', f"%arg0: {T}")
    module, _ = _run(text, "cpu-hoist-manually-tagged,cpu-hoist-const-eval")
    assert print_module(module) == print_module(parse_module(text, "t.mlir"))


def test_integer_constants_narrow_to_32_bits_by_truncation_as_heads_sext_or_trunc() -> None:
    s64 = "tensor<4xsi64>"
    body = f"""    %0 = "ttir.constant"() <{{value = dense<[-1, 5000000000, 3, -5000000000]> : {s64}}}> : () -> {s64}
    %1 = "ttir.add"(%arg1, %0) : ({s64}, {s64}) -> {s64}
    %2 = "ttir.add"(%arg0, %1) : ({s64}, {s64}) -> {s64}
    return %2 : {s64}"""
    text = _module(body, f"%arg0: {s64} {I}, %arg1: {s64} {P}", s64)
    module, _ = _run(text, "const-eval-hoist-transform,cpu-hoist-const-eval")
    out = print_module(module)
    assert "dense<[-1, 705032704, 3, -705032704]> : tensor<4xi32>" in out, out
