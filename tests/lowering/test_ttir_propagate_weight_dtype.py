"""`ttir-propagate-weight-dtype` and the per-op weight dtype after it: the trace to the weight
argument, the concat merge, HEAD's warnings, the conversion keeping the attribute, and
`ttnn-weight-dtype-conversion` reading it (testdata/ttir/propagate_weight_dtype.mlir has the
lit-style cases)."""

from __future__ import annotations

import logging

import pytest

from ttopt.ir.printer import print_module
from ttopt.lowering.backend_pipeline import TTIRToTTNNBackendPipeline
from ttopt.lowering.ttir_propagate_weight_dtype import TTIRPropagateWeightDtype, dtype_bits
from ttopt.parse.parser import parse_module
from ttopt.passes.context import PassContext
from ttopt.passes.manager import PassManager
from ttopt.passes.pipeline import instantiate, parse_pipeline

W = 'ttcore.weight_dtype = "{}"'


def _propagate(text: str) -> tuple[str, dict]:
    m = parse_module(text, "t.mlir")
    ctx = PassContext()
    TTIRPropagateWeightDtype().run(m, ctx)
    return print_module(m), ctx.stats["ttir-propagate-weight-dtype"]


def _run(text: str, pipeline: str) -> str:
    m = parse_module(text, "t.mlir")
    PassManager(instantiate(parse_pipeline(pipeline), pipeline), PassContext()).run(m)
    return print_module(m)


def _one_op_chain(op: str, weight: str, via: str) -> str:
    return f"""func.func @f(%a: tensor<32x64xbf16>, %w: {weight} {{{W.format("bfp_bf8")}}}) -> tensor<32x64xbf16> {{
  %0 = {via}
  %1 = "ttir.{op}"(%a, %0) : (tensor<32x64xbf16>, tensor<64x64xbf16>) -> tensor<32x64xbf16>
  return %1 : tensor<32x64xbf16>
}}"""


SAME = {
    "all_gather": ("tensor<64x32xbf16>", '"ttir.all_gather"(%w) <{all_gather_dim = 1 : si32, cluster_axis = 1 : ui32}> : (tensor<64x32xbf16>) -> tensor<64x64xbf16>'),
    "mesh_partition": ("tensor<64x128xbf16>", '"ttir.mesh_partition"(%w) <{cluster_axis = 1 : ui32, dim = 1 : si32}> : (tensor<64x128xbf16>) -> tensor<64x64xbf16>'),
    "repeat_interleave": ("tensor<64x32xbf16>", '"ttir.repeat_interleave"(%w) <{repeats = 2 : ui32, dim = 1 : si32}> : (tensor<64x32xbf16>) -> tensor<64x64xbf16>'),
    "rearrange": ("tensor<64x64xbf16>", '"ttir.rearrange"(%w) <{pattern = "a b -> b a"}> : (tensor<64x64xbf16>) -> tensor<64x64xbf16>'),
}


@pytest.mark.parametrize("name", sorted(SAME))
def test_the_trace_passes_ops_that_keep_the_weight(name: str) -> None:
    weight, via = SAME[name]
    out, stats = _propagate(_one_op_chain("matmul", weight, via))
    assert f'"ttir.matmul"(%arg0, %0) {{{W.format("bfp_bf8")}}}' in out
    assert stats["annotated-ops"] == 1


def test_a_compute_op_or_a_non_argument_stops_the_trace() -> None:
    out, stats = _propagate(_one_op_chain("matmul", "tensor<64x64xbf16>", '"ttir.exp"(%w) : (tensor<64x64xbf16>) -> tensor<64x64xbf16>'))
    assert "ttir.matmul" in out and W.format("bfp_bf8") not in out.split("ttir.matmul")[1]
    assert stats["annotated-ops"] == 0


@pytest.mark.parametrize(("first", "second", "merged"), [
    ("bfp_bf4", "bf16", "bf16"),  # the most bits wins
    ("bfp_f8", "bfp_bf8", "bfp_f8"),  # equal bits: the first stays
    ("i1", "bfp_bf2", "bfp_bf2"),  # HEAD's Bool is 1 bit
])  # fmt: skip
def test_a_concat_merges_to_the_widest_with_a_warning(first: str, second: str, merged: str, caplog: pytest.LogCaptureFixture) -> None:
    text = f"""func.func @f(%a: tensor<32x64xbf16>, %p: tensor<64x32xbf16> {{{W.format(first)}}}, %q: tensor<64x32xbf16> {{{W.format(second)}}}) -> tensor<32x64xbf16> {{
  %0 = "ttir.concat"(%p, %q) <{{dim = 1 : si32}}> : (tensor<64x32xbf16>, tensor<64x32xbf16>) -> tensor<64x64xbf16>
  %1 = "ttir.matmul"(%a, %0) : (tensor<32x64xbf16>, tensor<64x64xbf16>) -> tensor<32x64xbf16>
  return %1 : tensor<32x64xbf16>
}}"""
    with caplog.at_level(logging.WARNING):
        out, _ = _propagate(text)
    assert f'"ttir.matmul"(%arg0, %0) {{{W.format(merged)}}}' in out
    assert f"t.mlir:3:8: warning: fusing matmuls with differing weight dtype overrides; using highest-precision dtype '{merged}'" in caplog.text


def test_dtype_bits_are_heads() -> None:
    assert [dtype_bits(n) for n in ("f32", "bf16", "bfp_bf8", "bfp_bf4", "bfp_bf2", "u8", "si32", "i1")] == [32, 16, 8, 4, 2, 8, 32, 1]
    assert dtype_bits("bfp8") is None and dtype_bits("") is None


def test_the_conversion_keeps_it_on_sparse_matmul_and_on_a_decomposed_linear() -> None:
    text = f"""func.func @f(%a: tensor<2x4x32x64xbf16>, %b: tensor<1x4x64x64xbf16> {{{W.format("bfp_bf4")}}}, %s: tensor<2x4x1x4xbf16>,
              %x: tensor<2x32x64xbf16>, %w: tensor<2x64x64xbf16> {{{W.format("bfp_bf8")}}}, %bias: tensor<64xbf16>) -> (tensor<2x4x1x4x32x64xbf16>, tensor<2x32x64xbf16>) {{
  %0 = "ttir.sparse_matmul"(%a, %b, %s) <{{is_input_a_sparse = false, is_input_b_sparse = true}}> : (tensor<2x4x32x64xbf16>, tensor<1x4x64x64xbf16>, tensor<2x4x1x4xbf16>) -> tensor<2x4x1x4x32x64xbf16>
  %1 = "ttir.linear"(%x, %w, %bias) : (tensor<2x32x64xbf16>, tensor<2x64x64xbf16>, tensor<64xbf16>) -> tensor<2x32x64xbf16>
  return %0, %1 : tensor<2x4x1x4x32x64xbf16>, tensor<2x32x64xbf16>
}}"""
    out = _run(text, "builtin.module(ttir-propagate-weight-dtype,convert-ttir-to-ttnn)")
    sparse = next(line for line in out.splitlines() if '"ttnn.sparse_matmul"' in line)
    matmul = next(line for line in out.splitlines() if '"ttnn.matmul"' in line)  # the batched weight's linear: matmul + add
    assert W.format("bfp_bf4") in sparse and W.format("bfp_bf8") in matmul
    assert "weight_dtype" not in next(line for line in out.splitlines() if '"ttnn.add"' in line)


LAYOUT = "#ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x2x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<dram>>, <interleaved>>"


def _ttnn_matmul(own: str) -> str:
    t = f"tensor<64x64xbf16, {LAYOUT}>"
    return f"""func.func @f(%a: {t}, %w: {t} {{ttcore.argument_type = #ttcore.argument_type<parameter>}}) -> {t} {{
  %0 = "ttnn.matmul"(%a, %w) <{{transpose_a = false, transpose_b = false}}> {{ttcore.weight_dtype = {own}}} : ({t}, {t}) -> {t}
  return %0 : {t}
}}"""


def test_an_illegal_per_op_name_warns_and_falls_back(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING):
        out = _run(_ttnn_matmul('"bfp_bf2"'), "builtin.module(ttnn-weight-dtype-conversion{target-dtype=bfp_bf8})")
    assert 't.mlir:2:8: warning: ignoring invalid ttcore.weight_dtype "bfp_bf2"; legal values are: bfp_bf8, bfp_bf4, bf16' in caplog.text
    assert caplog.text.count("ignoring invalid") == 1
    assert "tile<32x32, bfp_bf8>" in out  # the option's type


def test_a_non_string_per_op_value_is_not_read(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING):
        out = _run(_ttnn_matmul("4 : i32"), "builtin.module(ttnn-weight-dtype-conversion)")
    assert "ttnn.typecast" not in out and not caplog.text


def test_the_backend_pipeline_runs_it_after_fusing_and_always_runs_the_conversion() -> None:
    steps = list(TTIRToTTNNBackendPipeline().steps(parse_module("func.func @f() {\n  return\n}")))
    names = [s.name for s in steps]
    at = names.index("ttir-propagate-weight-dtype")
    assert names[at - 3:at] == ["ttir-fusing", "canonicalize", "ttir-implicit-broadcast-fold"]
    assert at < names.index("ttir-erase-inverse-ops")  # HEAD's order: before flatten-sliding-window / erase-inverse-ops
    assert at < names.index("const-eval-hoist-transform") and at < names.index("convert-ttir-to-ttnn")
    conversion = next(s for s in steps if s.name == "ttnn-weight-dtype-conversion")
    assert conversion.pass_ is not None and not conversion.skipped
    assert conversion.pass_.target_dtype == "none"  # type: ignore[attr-defined]


def test_output_is_deterministic() -> None:
    weight, via = SAME["all_gather"]
    text = _one_op_chain("matmul", weight, via)
    assert _propagate(text)[0] == _propagate(text)[0]
