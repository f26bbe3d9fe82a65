"""ttnn-resolve-composites through the backend pipeline's composite-resolution: inlining (the
default, which leaves no ttcore.composite) and force-promote's typed ops."""

from __future__ import annotations

import pytest

from ttopt.ir.diagnostics import Diagnostic
from ttopt.ir.printer import print_module
from ttopt.parse.parser import parse_module
from ttopt.passes.context import PassContext
from ttopt.passes.manager import PassManager
from ttopt.passes.pipeline import instantiate, parse_pipeline

Q, K, O = "tensor<1x16x32x128xbf16>", "tensor<1x1x32x128xbf16>", "tensor<1x16x32x64xbf16>"
FLASH = f"""module {{
  func.func @f(%q: {Q}, %k: {K}) -> {O} {{
    %0 = "ttcore.composite"(%q, %k) <{{composite_name = "flash_mla_prefill", decomposition = @decomp, composite_attributes = {{head_dim_v = 64 : ui32, is_causal = true, has_value = false, has_attention_mask = false}}}}> : ({Q}, {K}) -> {O}
    return %0 : {O}
  }}
  func.func private @decomp(%q: {Q}, %k: {K}) -> {O} {{
    %0 = "ttir.slice_static"(%q) <{{begins = [0 : i32, 0 : i32, 0 : i32, 0 : i32], ends = [1 : i32, 16 : i32, 32 : i32, 64 : i32], step = [1 : i32, 1 : i32, 1 : i32, 1 : i32]}}> : ({Q}) -> {O}
    return %0 : {O}
  }}
}}
"""
# HEAD's indexer_score_dsa: weights [B, H, Sq, 1], scores [B, 1, Sq, T].
W, S = "tensor<1x16x32x1xbf16>", "tensor<1x1x32x32xbf16>"
INDEXER = f"""module {{
  func.func @f(%q: {Q}, %k: {K}, %w: {W}) -> {S} {{
    %0 = "ttcore.composite"(%q, %k, %w) <{{composite_name = "indexer_score_dsa", decomposition = @decomp, composite_attributes = {{chunk_start_idx = 32 : ui32}}}}> : ({Q}, {K}, {W}) -> {S}
    return %0 : {S}
  }}
  func.func private @decomp(%q: {Q}, %k: {K}, %w: {W}) -> {S} {{
    %0 = "ttir.slice_static"(%k) <{{begins = [0 : i32, 0 : i32, 0 : i32, 0 : i32], ends = [1 : i32, 1 : i32, 32 : i32, 32 : i32], step = [1 : i32, 1 : i32, 1 : i32, 1 : i32]}}> : ({K}) -> {S}
    return %0 : {S}
  }}
}}
"""


def backend(text: str, options: str = "") -> str:
    module = parse_module(text, "t.mlir")
    pipeline = f"builtin.module(ttir-to-ttnn-backend-pipeline{{{options}}})"
    PassManager(instantiate(parse_pipeline(pipeline), pipeline), PassContext()).run(module)
    return print_module(module)


@pytest.mark.parametrize("mode", ["", "composite-resolution=inline", "composite-resolution=validate"])
def test_inlining_replaces_the_composite_and_drops_the_decomposition(mode: str) -> None:
    out = backend(FLASH, mode)
    assert "ttcore.composite" not in out and "@decomp" not in out
    assert '"ttnn.slice_static"(%arg0)' in out and "flash_mla_prefill" not in out


def test_force_promote_builds_the_typed_op() -> None:
    out = backend(FLASH, "composite-resolution=force-promote")
    assert ('"ttnn.flash_mla_prefill"(%arg0, %arg1) <{head_dim_v = 64 : ui32, is_causal = true, '
            "operandSegmentSizes = array<i32: 1, 1, 0, 0>}>") in out  # fmt: skip
    assert "ttcore.composite" not in out and "@decomp" not in out and "slice_static" not in out


def test_architecture_only_op_is_inlined_elsewhere() -> None:
    on_blackhole = backend(INDEXER, "mock-system-desc-arch=blackhole composite-resolution=force-promote")
    assert '"ttnn.indexer_score_dsa"(%arg0, %arg1, %arg2) <{chunk_start_idx = 32 : ui32}>' in on_blackhole
    on_wormhole = backend(INDEXER, "composite-resolution=force-promote")
    assert "indexer_score_dsa" not in on_wormhole and '"ttnn.slice_static"(%arg1)' in on_wormhole


def test_missing_decomposition_is_an_error() -> None:
    text = FLASH.split("  func.func private @decomp")[0] + "}\n"
    with pytest.raises(Diagnostic, match="decomposition function '@decomp' not found"):
        backend(text)


def test_bad_force_promote_attributes_are_an_error() -> None:
    with pytest.raises(Diagnostic, match="composite 'flash_mla_prefill': flash_mla_prefill needs head_dim_v"):
        backend(FLASH.replace("head_dim_v = 64 : ui32, ", ""), "composite-resolution=force-promote")
