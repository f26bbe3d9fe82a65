"""`ttir-flatten-sliding-window`: convs and pools between reshapes to 1x1x(N*H*W)xC compute what
they did (the reference interpreter evaluates the flattened form), the conversion takes both
forms, and the backend pipeline's output is no larger for it (testdata/ttir/flatten_sliding_window.mlir
has the lit-style cases)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any, Iterator

import numpy as np
import pytest

from ttopt.ir.diagnostics import Diagnostic
from ttopt.ir.printer import print_module
from ttopt.ir.verifier import verify
from ttopt.lowering.backend_pipeline import TTIRToTTNNBackendPipeline
from ttopt.lowering.ttir_decomposition import TTIRToTTIRDecomposition
from ttopt.lowering.ttir_flatten_sliding_window import TTIRFlattenSlidingWindow
from ttopt.lowering.ttir_to_ttnn import ConvertTTIRToTTNN
from ttopt.parse.parser import parse_module
from ttopt.passes.context import PassContext
from ttopt.passes.manager import PassManager, PipelineStep
from ttopt.testing.same_results import assert_same_results
from ttopt.testing.ttir_interpreter import run

CASES = Path(__file__).resolve().parents[2] / "testdata" / "ttir" / "flatten_sliding_window.mlir"
NAME = "ttir-flatten-sliding-window"

# A ResNet-like block: stem conv, max pool, a bottleneck with a shortcut conv, an average pool.
BLOCK = """func.func @block(%x: tensor<2x16x16x8xf32>, %w0: tensor<16x8x3x3xf32>, %b0: tensor<1x1x1x16xf32>,
                    %w1: tensor<16x16x1x1xf32>, %w2: tensor<16x16x3x3xf32>, %ws: tensor<16x16x1x1xf32>) -> tensor<2x3x3x16xf32> {
  %0 = "ttir.conv2d"(%x, %w0, %b0) <{stride = 1 : i32, padding = 1 : i32, dilation = 1 : i32, groups = 1 : i32}> : (tensor<2x16x16x8xf32>, tensor<16x8x3x3xf32>, tensor<1x1x1x16xf32>) -> tensor<2x16x16x16xf32>
  %1 = "ttir.relu"(%0) : (tensor<2x16x16x16xf32>) -> tensor<2x16x16x16xf32>
  %2 = "ttir.max_pool2d"(%1) <{kernel = array<i32: 3, 3>, stride = array<i32: 2, 2>, dilation = array<i32: 1, 1>, padding = array<i32: 1, 1, 1, 1>, ceil_mode = false}> : (tensor<2x16x16x16xf32>) -> tensor<2x8x8x16xf32>
  %3 = "ttir.conv2d"(%2, %w1) <{stride = 1 : i32, padding = 0 : i32, dilation = 1 : i32, groups = 1 : i32}> : (tensor<2x8x8x16xf32>, tensor<16x16x1x1xf32>) -> tensor<2x8x8x16xf32>
  %4 = "ttir.relu"(%3) : (tensor<2x8x8x16xf32>) -> tensor<2x8x8x16xf32>
  %5 = "ttir.conv2d"(%4, %w2) <{stride = 2 : i32, padding = array<i32: 1, 1>, dilation = 1 : i32, groups = 4 : i32}> : (tensor<2x8x8x16xf32>, tensor<16x4x3x3xf32>) -> tensor<2x4x4x16xf32>
  %6 = "ttir.conv2d"(%2, %ws) <{stride = 2 : i32, padding = 0 : i32, dilation = 1 : i32, groups = 1 : i32}> : (tensor<2x8x8x16xf32>, tensor<16x16x1x1xf32>) -> tensor<2x4x4x16xf32>
  %7 = "ttir.add"(%5, %6) : (tensor<2x4x4x16xf32>, tensor<2x4x4x16xf32>) -> tensor<2x4x4x16xf32>
  %8 = "ttir.avg_pool2d"(%7) <{kernel = 2 : i32, stride = 1 : i32, dilation = 1 : i32, padding = 0 : i32, ceil_mode = false}> : (tensor<2x4x4x16xf32>) -> tensor<2x3x3x16xf32>
  return %8 : tensor<2x3x3x16xf32>
}"""
# The grouped conv's weight is (16, 16/4, 3, 3).
BLOCK = BLOCK.replace("%w2: tensor<16x16x3x3xf32>", "%w2: tensor<16x4x3x3xf32>")


def _flatten(text: str) -> tuple[Any, dict]:
    m = parse_module(text)
    ctx = PassContext()
    TTIRFlattenSlidingWindow().run(m, ctx)
    verify(m)
    return m, ctx.stats.get(NAME, {})


def _functions(module: Any) -> list[Any]:
    return [op for op in module.walk() if op.name == "func.func"]


def _name(f: Any) -> str:
    return str(f.properties["sym_name"].resolve().value)


@pytest.mark.parametrize("func", [_name(f) for f in _functions(parse_module(CASES.read_text()))])
def test_every_case_computes_what_it_did(func: str) -> None:
    text = CASES.read_text()
    assert_same_results(parse_module(text), _flatten(text)[0], func)


def test_a_block_of_convs_and_pools_computes_what_it_did() -> None:
    after, fired = _flatten(BLOCK)
    assert fired == {"ttir.conv2d": 4, "ttir.max_pool2d": 1, "ttir.avg_pool2d": 1}
    assert_same_results(parse_module(BLOCK), after, "block")


def test_the_interpreter_reads_a_flattened_op_as_the_op_between_reshapes() -> None:
    # The flattened op alone (as the pass leaves it, without its reshapes): its flat result is the
    # plain op's result flattened.
    plain = """func.func @f(%x: tensor<2x5x4x3xf32>, %w: tensor<6x3x2x2xf32>) -> tensor<2x4x3x6xf32> {
  %0 = "ttir.conv2d"(%x, %w) <{stride = 1 : i32, padding = 0 : i32, dilation = 1 : i32, groups = 1 : i32}> : (tensor<2x5x4x3xf32>, tensor<6x3x2x2xf32>) -> tensor<2x4x3x6xf32>
  return %0 : tensor<2x4x3x6xf32>
}"""
    flat = """func.func @f(%x: tensor<1x1x40x3xf32>, %w: tensor<6x3x2x2xf32>) -> tensor<1x1x24x6xf32> {
  %0 = "ttir.conv2d"(%x, %w) <{stride = 1 : i32, padding = 0 : i32, dilation = 1 : i32, groups = 1 : i32, flattened_compat_info = #ttir<flattened_compat batch_size = 2, input_height = 5, input_width = 4>}> : (tensor<1x1x40x3xf32>, tensor<6x3x2x2xf32>) -> tensor<1x1x24x6xf32>
  return %0 : tensor<1x1x24x6xf32>
}"""
    rng = np.random.default_rng(1)
    x, w = rng.uniform(-1, 1, (2, 5, 4, 3)).astype(np.float32), rng.uniform(-1, 1, (6, 3, 2, 2)).astype(np.float32)
    (want,) = run(parse_module(plain), "f", [x, w])
    (got,) = run(parse_module(flat), "f", [x.reshape(1, 1, 40, 3), w])
    np.testing.assert_array_equal(got, want.reshape(1, 1, 24, 6))


@pytest.mark.parametrize(("stride", "padding", "dilation"), [(1, 0, 1), (2, 1, 1), (2, 0, 2)])
def test_the_interpreters_transposed_conv_is_the_adjoint_of_its_conv(stride: int, padding: int, dilation: int) -> None:
    # <conv2d(x, W), y> == <x, conv_transpose2d(y, W)> for the (O, C, KH, KW) weight read as the
    # transposed conv's (C_in = O, C_out = C, KH, KW); output_padding restores the rows the
    # strided conv dropped.
    n, h, c, o, k = 2, 7, 3, 4, 3
    eff = dilation * (k - 1) + 1
    oh = (h + 2 * padding - eff) // stride + 1
    extra = h - ((oh - 1) * stride - 2 * padding + eff)
    conv = f"""func.func @f(%x: tensor<{n}x{h}x{h}x{c}xf32>, %w: tensor<{o}x{c}x{k}x{k}xf32>) -> tensor<{n}x{oh}x{oh}x{o}xf32> {{
  %0 = "ttir.conv2d"(%x, %w) <{{stride = {stride} : i32, padding = {padding} : i32, dilation = {dilation} : i32, groups = 1 : i32}}> : (tensor<{n}x{h}x{h}x{c}xf32>, tensor<{o}x{c}x{k}x{k}xf32>) -> tensor<{n}x{oh}x{oh}x{o}xf32>
  return %0 : tensor<{n}x{oh}x{oh}x{o}xf32>
}}"""
    transposed = f"""func.func @g(%y: tensor<{n}x{oh}x{oh}x{o}xf32>, %w: tensor<{o}x{c}x{k}x{k}xf32>) -> tensor<{n}x{h}x{h}x{c}xf32> {{
  %0 = "ttir.conv_transpose2d"(%y, %w) <{{stride = {stride} : i32, padding = {padding} : i32, output_padding = {extra} : i32, dilation = {dilation} : i32, groups = 1 : i32}}> : (tensor<{n}x{oh}x{oh}x{o}xf32>, tensor<{o}x{c}x{k}x{k}xf32>) -> tensor<{n}x{h}x{h}x{c}xf32>
  return %0 : tensor<{n}x{h}x{h}x{c}xf32>
}}"""
    rng = np.random.default_rng(2)
    x = rng.uniform(-1, 1, (n, h, h, c)).astype(np.float32)
    w = rng.uniform(-1, 1, (o, c, k, k)).astype(np.float32)
    y = rng.uniform(-1, 1, (n, oh, oh, o)).astype(np.float32)
    (cx,) = run(parse_module(conv), "f", [x, w])
    (ty,) = run(parse_module(transposed), "g", [y, w])
    np.testing.assert_allclose(float((cx.astype(np.float64) * y).sum()), float((x.astype(np.float64) * ty).sum()), rtol=1e-4)


def test_an_nchw_transposed_conv_is_decomposed_to_nhwc_between_permutes() -> None:
    text = """func.func @f(%x: tensor<2x4x3x5xf32>, %w: tensor<4x3x3x2xf32>, %b: tensor<1x6x1x1xf32>) -> tensor<2x6x6x6xf32> {
  %0 = "ttir.conv_transpose2d"(%x, %w, %b) <{stride = array<i32: 2, 1>, padding = array<i32: 1, 0, 1, 0>, output_padding = array<i32: 1, 0>, dilation = 1 : i32, groups = 2 : i32, batch_dim = 0 : i64, channel_dim = 1 : i64, height_dim = 2 : i64, width_dim = 3 : i64}> : (tensor<2x4x3x5xf32>, tensor<4x3x3x2xf32>, tensor<1x6x1x1xf32>) -> tensor<2x6x6x6xf32>
  return %0 : tensor<2x6x6x6xf32>
}"""
    after = parse_module(text)
    TTIRToTTIRDecomposition().run(after, PassContext())
    verify(after)
    assert [op.name for op in _functions(after)[0].regions[0].blocks[0].ops][:-1] == [
        "ttir.permute", "ttir.permute", "ttir.conv_transpose2d", "ttir.permute"]  # fmt: skip
    assert_same_results(parse_module(text), after, "f")


def test_running_it_again_changes_nothing_and_output_is_deterministic() -> None:
    once = print_module(_flatten(CASES.read_text())[0])
    assert print_module(_flatten(CASES.read_text())[0]) == once
    again, fired = _flatten(once)
    assert fired == {} and print_module(again) == once


def test_an_op_without_static_rank_4_tensors_is_left_alone() -> None:
    text = """func.func @f(%x: tensor<?x8x8x4xf32>) -> tensor<?x4x4x4xf32> {
  %0 = "ttir.max_pool2d"(%x) <{kernel = 2 : i32, stride = 2 : i32, dilation = 1 : i32, padding = 0 : i32, ceil_mode = false}> : (tensor<?x8x8x4xf32>) -> tensor<?x4x4x4xf32>
  return %0 : tensor<?x4x4x4xf32>
}"""
    m, fired = _flatten(text)
    assert fired == {} and "ttir.reshape" not in print_module(m)


@pytest.mark.parametrize(("attr", "message"), [
    ("#ttir<flattened_compat batch_size = 1, input_height = 4, input_width = 8>",
     "'ttir.conv2d' op The input tensor's flattened dimension (16) does not match the product of batch_size * input_height * "
     "input_width from FlattenedCompatInfo (1 * 4 * 8 = 32)."),
    ("#ttir<flattened_compat batch_size = 1, input_height = 4>", "attribute 'flattened_compat_info' is invalid"),
    ("#ttir<flattened_compat batch_size = 0, input_height = 4, input_width = 4>", "must be positive"),
    ("#ttir<other>", "failed to satisfy constraint: a #ttir<flattened_compat ...> attribute"),
])  # fmt: skip
def test_a_wrong_flattened_compat_info_is_a_diagnostic(attr: str, message: str) -> None:
    text = f"""func.func @f(%x: tensor<1x1x16x8xf32>, %w: tensor<8x8x1x1xf32>) -> tensor<1x1x16x8xf32> {{
  %0 = "ttir.conv2d"(%x, %w) <{{stride = 1 : i32, padding = 0 : i32, dilation = 1 : i32, groups = 1 : i32, flattened_compat_info = {attr}}}> : (tensor<1x1x16x8xf32>, tensor<8x8x1x1xf32>) -> tensor<1x1x16x8xf32>
  return %0 : tensor<1x1x16x8xf32>
}}"""
    with pytest.raises(Diagnostic) as e:
        verify(parse_module(text, "t.mlir"))
    assert message in e.value.render("t.mlir")
    assert e.value.render("t.mlir").startswith("t.mlir:2:")


def test_the_attribute_reads_a_trailing_comma() -> None:
    # tt-mlir's own tests write `input_width = 28,>` (and HEAD reads them).
    text = """func.func @f(%x: tensor<1x1x16x8xf32>) -> tensor<1x1x4x8xf32> {
  %0 = "ttir.max_pool2d"(%x) <{kernel = 2 : i32, stride = 2 : i32, dilation = 1 : i32, padding = 0 : i32, ceil_mode = false, flattened_compat_info = #ttir<flattened_compat  batch_size=1,input_height = 4, input_width = 4,>}> : (tensor<1x1x16x8xf32>) -> tensor<1x1x4x8xf32>
  return %0 : tensor<1x1x4x8xf32>
}"""
    out = print_module(_convert(text, False))
    assert "batch_size = 1 : si32" in out and "input_height = 4 : si32, input_width = 4 : si32" in out


def test_the_pools_message_is_heads_lower_case_one() -> None:
    text = """func.func @f(%x: tensor<1x1x1024x64xbf16>) -> tensor<1x1x1860x64xbf16> {
  %0 = "ttir.max_pool2d"(%x) <{kernel = array<i32: 2, 2>, stride = array<i32: 1, 1>, dilation = array<i32: 1, 1>, padding = array<i32: 0, 0, 0, 0>, ceil_mode = false, flattened_compat_info = #ttir<flattened_compat batch_size = 1, input_height = 32, input_width = 64>}> : (tensor<1x1x1024x64xbf16>) -> tensor<1x1x1860x64xbf16>
  return %0 : tensor<1x1x1860x64xbf16>
}"""
    with pytest.raises(Diagnostic) as e:
        verify(parse_module(text, "t.mlir"))
    assert ("'ttir.max_pool2d' op the input tensor's flattened dimension (1024) does not match the product of batch_size * "
            "input_height * input_width from FlattenedCompatInfo (1 * 32 * 64 = 2048)") in e.value.render("t.mlir")  # fmt: skip


def _ttnn_ops(module: Any) -> Counter[str]:
    return Counter(op.name for op in module.walk() if op.name.startswith("ttnn."))


def _convert(text: str, flatten: bool) -> Any:
    m = parse_module(text)
    ctx = PassContext()
    if flatten:
        TTIRFlattenSlidingWindow().run(m, ctx)
    ConvertTTIRToTTNN().run(m, ctx)
    verify(m)
    return m


@pytest.mark.parametrize("text", [BLOCK, CASES.read_text()], ids=["block", "cases"])
def test_the_conversion_makes_the_same_ttnn_ops_of_either_form(text: str) -> None:
    assert _ttnn_ops(_convert(text, True)) == _ttnn_ops(_convert(text, False))


def test_a_flattened_pool_padded_wider_than_half_its_window_is_unflattened_for_the_pad() -> None:
    text = """func.func @f(%x: tensor<1x1x16x32xbf16>) -> tensor<1x1x9x32xbf16> {
  %0 = "ttir.max_pool2d"(%x) <{kernel = array<i32: 2, 2>, stride = array<i32: 2, 2>, dilation = array<i32: 1, 1>, padding = array<i32: 2, 2, 0, 0>, ceil_mode = false, flattened_compat_info = #ttir<flattened_compat batch_size = 1, input_height = 4, input_width = 4>}> : (tensor<1x1x16x32xbf16>) -> tensor<1x1x9x32xbf16>
  return %0 : tensor<1x1x9x32xbf16>
}"""
    out = print_module(_convert(text, False))
    assert [line.split('"')[1] for line in out.splitlines() if '"ttnn.' in line] == [
        "ttnn.reshape", "ttnn.pad", "ttnn.reshape", "ttnn.max_pool2d"]  # fmt: skip
    assert "shape = [1 : i32, 4 : i32, 4 : i32, 32 : i32]" in out and "input_height = 6 : si32, input_width = 6 : si32" in out


def test_a_flattened_conv_in_another_layout_is_a_conversion_error() -> None:
    text = """func.func @f(%x: tensor<1x1x16x8xf32>, %w: tensor<8x8x1x1xf32>) -> tensor<1x1x16x8xf32> {
  %0 = "ttir.conv2d"(%x, %w) <{stride = 1 : i32, padding = 0 : i32, dilation = 1 : i32, groups = 1 : i32, batch_dim = 3 : i64, channel_dim = 0 : i64, flattened_compat_info = #ttir<flattened_compat batch_size = 1, input_height = 4, input_width = 4>}> : (tensor<1x1x16x8xf32>, tensor<8x8x1x1xf32>) -> tensor<1x1x16x8xf32>
  return %0 : tensor<1x1x16x8xf32>
}"""
    with pytest.raises(Diagnostic) as e:
        _convert(text, False)
    assert "lowers only in NHWC layout" in e.value.render("t.mlir")


class _WithoutFlattening(TTIRToTTNNBackendPipeline):
    """The backend pipeline without the step (the conversion flattens each op itself)."""

    def steps(self, module: Any) -> Iterator[PipelineStep]:
        return (s for s in super().steps(module) if s.name != NAME)


@pytest.mark.parametrize("level", [0, 2])
def test_the_backend_output_is_no_larger_for_it(level: int) -> None:
    def lower(cls: type[TTIRToTTNNBackendPipeline]) -> Counter[str]:
        m = parse_module(BLOCK)
        PassManager([cls.from_options({"optimization-level": level})], PassContext()).run(m)
        return _ttnn_ops(m)

    with_pass, without = lower(TTIRToTTNNBackendPipeline), lower(_WithoutFlattening)
    assert sum(with_pass.values()) <= sum(without.values())
    assert with_pass["ttnn.conv2d"] == 4 and with_pass["ttnn.max_pool2d"] == 1 and with_pass["ttnn.avg_pool2d"] == 1


def test_the_backend_pipeline_runs_it_after_fusing_right_before_the_tm_cleanup() -> None:
    names = [s.name for s in TTIRToTTNNBackendPipeline().steps(parse_module("func.func @f() {\n  return\n}"))]
    at = names.index(NAME)
    assert names.index("ttir-fusing") < at and names[at + 1:at + 3] == ["ttir-explicate-tms", "ttir-erase-inverse-ops"]
    assert at < names.index("ttir-fold-full-to-scalar") < names.index("convert-ttir-to-ttnn")
