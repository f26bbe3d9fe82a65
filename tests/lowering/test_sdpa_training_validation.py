"""ttnn.sdpa_fw's f32 log-sum-exp intermediates reach ttnn.sdpa_bw unchanged when the optimizer and
the operation validation run: the validation leaves the ttml training ops as the conversion typed them."""

from __future__ import annotations

import pytest

from ttopt.testing.ttnn_outputs import BACKEND, run_pipeline

FW_BW = """
func.func @fw_bw(%g: tensor<1x2x64x32xbf16>, %q: tensor<1x2x64x32xbf16>, %k: tensor<1x2x64x32xbf16>, %v: tensor<1x2x64x32xbf16>) -> tensor<1x2x64x32xbf16> {
  %o, %i = "ttir.sdpa_fw"(%q, %k, %v) <{mask_type = #ttcore.attention_mask_type<causal>, dropout_probability = 0.000000e+00 : f32, return_intermediates = true}>
      : (tensor<1x2x64x32xbf16>, tensor<1x2x64x32xbf16>, tensor<1x2x64x32xbf16>) -> (tensor<1x2x64x32xbf16>, tensor<1x2x64x32xf32>)
  %gq, %gk, %gv = "ttir.sdpa_bw"(%g, %o, %q, %k, %v, %i) <{mask_type = #ttcore.attention_mask_type<causal>, dropout_probability = 0.000000e+00 : f32}>
      : (tensor<1x2x64x32xbf16>, tensor<1x2x64x32xbf16>, tensor<1x2x64x32xbf16>, tensor<1x2x64x32xbf16>, tensor<1x2x64x32xbf16>, tensor<1x2x64x32xf32>)
      -> (tensor<1x2x64x32xbf16>, tensor<1x2x64x32xbf16>, tensor<1x2x64x32xbf16>)
  return %gq : tensor<1x2x64x32xbf16>
}
"""


@pytest.mark.parametrize("options", ["", "optimization-level=1", "optimization-level=2"])
def test_intermediates_stay_f32_into_sdpa_bw(options: str) -> None:
    module = run_pipeline(FW_BW, "sdpa.mlir", BACKEND.format(options))
    fn = next(iter(module.functions()))
    ops = [op for op in fn.regions[0].entry.ops if op.name not in ("ttnn.deallocate", "ttnn.get_device")]
    assert [op.name for op in ops] == ["ttnn.sdpa_fw", "ttnn.sdpa_bw", "func.return"]
    fw, bw, _ = ops
    assert [r.type.resolve().element_type.text for r in fw.results] == ["bf16", "f32"]
    assert bw.operands[5] is fw.results[1] and bw.operands[1] is fw.results[0]
