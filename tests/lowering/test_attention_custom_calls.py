"""The tt.* attention custom calls: flash MLA prefill and the DSA indexer score become
`ttcore.composite` ops whose synthesized decomposition functions compute attention as numpy does
(run through the TTIR interpreter); the composite carries HEAD's options."""

from __future__ import annotations

import numpy as np

from tests.lowering.test_stablehlo_to_ttir import lower
from ttopt.parse.parser import parse_module
from ttopt.testing.ttir_interpreter import run

MLA = """func.func @main(%q: tensor<1x4x8x16xf32>, %k: tensor<1x2x8x16xf32>, %m: tensor<1x1x8x8xf32>) -> tensor<1x4x8x4xf32> {
  %0 = stablehlo.custom_call @tt.flash_mla_prefill(%q, %k, %m) {mhlo.frontend_attributes = {head_dim_v = "4", is_causal = "True", has_value = "False", has_attention_mask = "True", scale = "0.5"}} : (tensor<1x4x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x1x8x8xf32>) -> tensor<1x4x8x4xf32>
  return %0 : tensor<1x4x8x4xf32>
}"""

DSA = """func.func @main(%q: tensor<1x4x8x16xf32>, %k: tensor<1x1x12x16xf32>, %w: tensor<1x4x8x1xf32>) -> tensor<1x1x8x12xf32> {
  %0 = stablehlo.custom_call @tt.indexer_score_dsa(%q, %k, %w) {mhlo.frontend_attributes = {chunk_start_idx = "4", cluster_axis = "0"}} : (tensor<1x4x8x16xf32>, tensor<1x1x12x16xf32>, tensor<1x4x8x1xf32>) -> tensor<1x1x8x12xf32>
  return %0 : tensor<1x1x8x12xf32>
}"""


def _softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def test_flash_mla_prefill_is_a_composite_whose_decomposition_is_causal_gqa_attention() -> None:
    printed = lower(MLA)
    assert ('"ttcore.composite"(%arg0, %arg1, %arg2) <{composite_attributes = {has_attention_mask = true, has_value = false, '
            'head_dim_v = 4 : ui32, is_causal = true, scale = 5.000000e-01 : f32}, composite_name = "flash_mla_prefill", '
            "decomposition = @flash_mla_prefill_decomp}>") in printed
    rng = np.random.default_rng(0)
    q, k, m = (rng.standard_normal(s).astype(np.float32) for s in ((1, 4, 8, 16), (1, 2, 8, 16), (1, 1, 8, 8)))
    (got,) = run(parse_module(printed, "mla.mlir"), "flash_mla_prefill_decomp", [q, k, m])
    kk = np.repeat(k, 2, axis=1)  # query heads 0,1 read kv head 0; 2,3 read kv head 1
    causal = np.where(np.arange(8)[:, None] >= np.arange(8)[None, :], 0.0, -np.inf)
    want = _softmax(q @ kk.transpose(0, 1, 3, 2) * 0.5 + m + causal) @ kk[..., :4]
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


def test_indexer_score_dsa_masks_keys_past_the_chunk_position() -> None:
    printed = lower(DSA)
    assert ("composite_attributes = {chunk_start_idx = 4 : ui32, cluster_axis = 0 : ui32}, composite_name = "
            '"indexer_score_dsa", decomposition = @indexer_score_dsa_decomp}>') in printed
    rng = np.random.default_rng(1)
    q, k, w = (rng.standard_normal(s).astype(np.float32) for s in ((1, 4, 8, 16), (1, 1, 12, 16), (1, 4, 8, 1)))
    (got,) = run(parse_module(printed, "dsa.mlir"), "indexer_score_dsa_decomp", [q, k, w])
    score = (np.maximum(q @ k.transpose(0, 1, 3, 2), 0) * w).sum(1, keepdims=True)
    visible = np.arange(8)[:, None] + 4 >= np.arange(12)[None, :]
    np.testing.assert_allclose(got, score + np.where(visible, 0.0, -np.inf), rtol=1e-4, atol=1e-4)


def test_decomposition_names_take_the_first_free_suffix() -> None:
    two = MLA.replace("func.func @main", "func.func @a") + "\n" + MLA.replace("func.func @main", "func.func @b")
    printed = lower(two)
    assert "decomposition = @flash_mla_prefill_decomp}" in printed and "decomposition = @flash_mla_prefill_decomp_0}" in printed
    assert printed.count("func.func private @flash_mla_prefill_decomp") == 2
