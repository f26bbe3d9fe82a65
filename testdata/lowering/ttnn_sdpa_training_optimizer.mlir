// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="optimization-level=2" | FileCheck %s

// With the optimizer and the operation validation, sdpa_fw's f32 log-sum-exp intermediates feed
// sdpa_bw directly (no layout change back from a bf16 result).
module {
  // CHECK-LABEL: func.func @fw_bw
  // CHECK: %[[O:[a-z0-9_]+]], %[[I:[a-z0-9_]+]] = "ttnn.sdpa_fw"
  // CHECK-SAME: -> (tensor<1x2x64x32xbf16, {{.*}}>, tensor<1x2x64x32xf32,
  // CHECK-NOT: "ttnn.to_layout"
  // CHECK: "ttnn.sdpa_bw"(%arg0, %[[O]], %arg1, %arg2, %arg3, %[[I]])
  func.func @fw_bw(%g: tensor<1x2x64x32xbf16>, %q: tensor<1x2x64x32xbf16>, %k: tensor<1x2x64x32xbf16>, %v: tensor<1x2x64x32xbf16>) -> tensor<1x2x64x32xbf16> {
    %o, %i = "ttir.sdpa_fw"(%q, %k, %v) <{mask_type = #ttcore.attention_mask_type<causal>, dropout_probability = 0.000000e+00 : f32, return_intermediates = true}>
        : (tensor<1x2x64x32xbf16>, tensor<1x2x64x32xbf16>, tensor<1x2x64x32xbf16>) -> (tensor<1x2x64x32xbf16>, tensor<1x2x64x32xf32>)
    %gq, %gk, %gv = "ttir.sdpa_bw"(%g, %o, %q, %k, %v, %i) <{mask_type = #ttcore.attention_mask_type<causal>, dropout_probability = 0.000000e+00 : f32}>
        : (tensor<1x2x64x32xbf16>, tensor<1x2x64x32xbf16>, tensor<1x2x64x32xbf16>, tensor<1x2x64x32xbf16>, tensor<1x2x64x32xbf16>, tensor<1x2x64x32xf32>)
        -> (tensor<1x2x64x32xbf16>, tensor<1x2x64x32xbf16>, tensor<1x2x64x32xbf16>)
    return %gq : tensor<1x2x64x32xbf16>
  }
}
