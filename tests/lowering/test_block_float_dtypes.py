"""experimental-kv-cache-dtype and experimental-weight-dtype: KV cache arguments and parameter-only
matmul weights stored as block-float tensors, as tt-mlir's conversion passes store them."""

from __future__ import annotations

from ttopt.ir.printer import print_module
from ttopt.parse.parser import parse_module
from ttopt.passes.context import PassContext
from ttopt.passes.manager import PassManager
from ttopt.passes.pipeline import instantiate, parse_pipeline

CACHE = """module {
  func.func @forward(%arg0: tensor<1x32x64x512xbf16>, %arg1: tensor<1x32x3x512xbf16>) -> tensor<1x32x64x512xbf16> {
    "ttir.fill_cache"(%arg0, %arg1) <{batch_offset = 0 : i32}> : (tensor<1x32x64x512xbf16>, tensor<1x32x3x512xbf16>) -> ()
    return %arg0 : tensor<1x32x64x512xbf16>
  }
}
"""
MATMUL = """module {
  func.func @mm(%arg0: tensor<64x128xbf16>, %arg1: tensor<128x64xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>},
                %arg2: tensor<128x64xbf16>) -> tensor<64x64xbf16> {
    %0 = "ttir.matmul"(%arg0, %arg1) : (tensor<64x128xbf16>, tensor<128x64xbf16>) -> tensor<64x64xbf16>
    %1 = "ttir.matmul"(%arg0, %arg2) : (tensor<64x128xbf16>, tensor<128x64xbf16>) -> tensor<64x64xbf16>
    %2 = "ttir.add"(%0, %1) : (tensor<64x64xbf16>, tensor<64x64xbf16>) -> tensor<64x64xbf16>
    return %2 : tensor<64x64xbf16>
  }
}
"""


def backend(text: str, options: str) -> str:
    module = parse_module(text, "t.mlir")
    pipeline = f"builtin.module(ttir-to-ttnn-backend-pipeline{{{options}}})"
    PassManager(instantiate(parse_pipeline(pipeline), pipeline), PassContext()).run(module)
    return print_module(module)


def test_cache_arguments_are_marked_without_the_option() -> None:
    out = backend(CACHE, "")
    assert "%arg0: tensor<1x32x64x512xbf16, #ttnn_layout> {ttcore.kv_cache}, %arg1: tensor<1x32x3x512xbf16, #ttnn_layout1>)" in out
    assert "tile<32x32, bfp_bf8>" not in out and "ttnn.typecast" not in out


def test_kv_cache_dtype_converts_the_cache_and_casts_what_is_written() -> None:
    out = backend(CACHE, "experimental-kv-cache-dtype=bfp_bf8")
    cache = "tensor<1x32x64x512x!ttcore.tile<32x32, bfp_bf8>, #ttnn_layout>"
    assert f"func.func @forward(%arg0: {cache} {{ttcore.kv_cache}}" in out and f"-> {cache} attributes" in out
    assert "memref<64x16x!ttcore.tile<32x32, bfp_bf8>, #dram>" in out
    # The 3 written rows are zero-padded to a whole tile first (HEAD's fill_cache workaround), then cast.
    assert '%0 = "ttnn.pad"(%arg1) <{padding = array<i32: 0, 0, 0, 0, 0, 29, 0, 0>' in out
    assert '%1 = "ttnn.typecast"(%0) : (tensor<1x32x32x512xbf16, #ttnn_layout1>) -> tensor<1x32x32x512x!ttcore.tile<32x32, bfp_bf8>, #ttnn_layout2>' in out
    assert '"ttnn.fill_cache"(%arg0, %1)' in out


def test_kv_cache_dtype_converts_a_cache_only_read() -> None:
    layout = "#ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x2x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<dram>>, <interleaved>>"
    text = f"""module {{
  func.func @decode(%arg0: tensor<64x64xbf16, {layout}> {{ttcore.kv_cache}}) -> tensor<64x64xbf16, {layout}> {{
    %0 = "ttnn.relu"(%arg0) : (tensor<64x64xbf16, {layout}>) -> tensor<64x64xbf16, {layout}>
    return %0 : tensor<64x64xbf16, {layout}>
  }}
}}
"""
    module = parse_module(text, "t.mlir")
    pipeline = "builtin.module(ttnn-kv-cache-dtype-conversion{target-dtype=bfp_bf8})"
    PassManager(instantiate(parse_pipeline(pipeline), pipeline), PassContext()).run(module)
    out = print_module(module)
    assert "@decode(%arg0: tensor<64x64x!ttcore.tile<32x32, bfp_bf8>" in out  # tt-mlir converts it without a cache op
    assert "ttnn.typecast" not in out


def test_weight_dtype_bfp8_is_a_device_typecast_in_const_eval() -> None:
    out = backend(MATMUL, "experimental-weight-dtype=bfp_bf8 enable-const-eval-inputs-to-system-memory=false")
    ce = out.split("func.func private @mm_const_eval_0(")[1].split("func.func")[0]
    assert '"ttnn.typecast"(%arg0)' in ce and "-> tensor<128x64x!ttcore.tile<32x32, bfp_bf8>" in ce
    forward = out.split("func.func @mm(")[1]
    assert "ttcore.load_cached(@mm_const_eval_0, [%arg1])" in forward
    # The input-only weight (%arg2) is not converted.
    assert '"ttnn.matmul"(%arg0, %arg2)' in forward and out.count("ttnn.typecast") == 1


def test_weight_dtype_bfp4_is_cast_on_the_host() -> None:
    out = backend(MATMUL, "experimental-weight-dtype=bfp_bf4")
    ce = out.split("func.func private @mm_const_eval_0(")[1].split("func.func")[0]
    ops = [ln.split('"')[1] for ln in ce.splitlines() if '= "ttnn.' in ln]
    # The parameter arrives on the host, row-major (const-eval inputs in system memory), is tiled
    # on the device, then cast on the host and sent back.
    assert ops == ["ttnn.get_device", "ttnn.to_device", "ttnn.to_layout", "ttnn.from_device", "ttnn.typecast", "ttnn.to_device"]
    assert "-> tensor<128x64x!ttcore.tile<32x32, bfp_bf4>" in ce
