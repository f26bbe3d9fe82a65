// RUN: not ttopt opt %s --split-input-file --convert-stablehlo-to-ttir 2>/dev/null | FileCheck %s
// RUN: not ttopt opt %s --split-input-file --convert-stablehlo-to-ttir 2>&1 >/dev/null | FileCheck %s --check-prefix=BAD
// The tt.* attention, KV-cache and sampling custom calls as tt-mlir HEAD lowers them: options from
// the frontend attributes, optional operands in operandSegmentSizes, caches written in place.

// CHECK-LABEL: func.func @sdpa_mask_and_sink
// CHECK: "ttir.scaled_dot_product_attention"(%arg0, %arg1, %arg2, %arg3, %arg4) <{is_causal = false, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>, scale = 1.250000e-01 : f32, sliding_window_size = 16 : ui32}>
func.func @sdpa_mask_and_sink(%q: tensor<1x2x32x64xbf16>, %k: tensor<1x2x32x64xbf16>, %v: tensor<1x2x32x64xbf16>, %m: tensor<1x1x32x32xbf16>, %s: tensor<2x32xbf16>) -> tensor<1x2x32x64xbf16> {
  %0 = stablehlo.custom_call @tt.scaled_dot_product_attention(%q, %k, %v, %m, %s) {mhlo.frontend_attributes = {has_attention_mask = "True", has_attention_sink = "true", is_causal = "False", scale = "0.125", sliding_window_size = "16"}} : (tensor<1x2x32x64xbf16>, tensor<1x2x32x64xbf16>, tensor<1x2x32x64xbf16>, tensor<1x1x32x32xbf16>, tensor<2x32xbf16>) -> tensor<1x2x32x64xbf16>
  return %0 : tensor<1x2x32x64xbf16>
}

// -----

// A fourth operand without has_* attributes is the mask (calls that predate the attributes).
// CHECK-LABEL: func.func @sdpa_legacy_mask
// CHECK: "ttir.scaled_dot_product_attention"(%arg0, %arg1, %arg2, %arg3) <{is_causal = true, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>}>
func.func @sdpa_legacy_mask(%q: tensor<1x2x32x64xbf16>, %k: tensor<1x2x32x64xbf16>, %v: tensor<1x2x32x64xbf16>, %m: tensor<1x1x32x32xbf16>) -> tensor<1x2x32x64xbf16> {
  %0 = stablehlo.custom_call @tt.scaled_dot_product_attention(%q, %k, %v, %m) : (tensor<1x2x32x64xbf16>, tensor<1x2x32x64xbf16>, tensor<1x2x32x64xbf16>, tensor<1x1x32x32xbf16>) -> tensor<1x2x32x64xbf16>
  return %0 : tensor<1x2x32x64xbf16>
}

// -----

// The paged decode takes a destination tensor after the page table.
// CHECK-LABEL: func.func @paged_decode
// CHECK: %[[OUT:.*]] = ttir.empty() : tensor<1x1x12x64xbf16>
// CHECK: "ttir.paged_scaled_dot_product_attention_decode"(%arg0, %arg1, %arg2, %arg3, %[[OUT]], %arg4) <{is_causal = true, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0, 1, 0>}>
func.func @paged_decode(%q: tensor<1x1x12x64xbf16>, %k: tensor<128x12x32x64xbf16>, %v: tensor<128x12x32x64xbf16>, %pt: tensor<1x4xi32>, %pos: tensor<1xi32>) -> tensor<1x1x12x64xbf16> {
  %0 = stablehlo.custom_call @tt.paged_scaled_dot_product_attention_decode(%q, %k, %v, %pt, %pos) {mhlo.frontend_attributes = {has_attention_mask = "False", has_attention_sink = "False", has_cur_pos_tensor = "True"}} : (tensor<1x1x12x64xbf16>, tensor<128x12x32x64xbf16>, tensor<128x12x32x64xbf16>, tensor<1x4xi32>, tensor<1xi32>) -> tensor<1x1x12x64xbf16>
  return %0 : tensor<1x1x12x64xbf16>
}

// -----

// The cache ops have no result: the call's uses read the cache operand.
// CHECK-LABEL: func.func @caches
// CHECK: "ttir.update_cache"(%arg0, %arg1, %arg2) <{batch_offset = 3 : i32}> : (tensor<1x12x16x64xbf16>, tensor<1x12x1x64xbf16>, tensor<1xi32>) -> ()
// CHECK: "ttir.paged_update_cache"(%arg0, %arg1, %arg2, %arg3) <{share_cache = false}>
// CHECK: "ttir.add"(%arg0, %arg0)
func.func @caches(%c: tensor<1x12x16x64xbf16>, %x: tensor<1x12x1x64xbf16>, %i: tensor<1xi32>, %pt: tensor<1x4xi32>) -> tensor<1x12x16x64xbf16> {
  %0 = stablehlo.custom_call @tt.update_cache(%c, %x, %i) {mhlo.frontend_attributes = {batch_offset = "3"}} : (tensor<1x12x16x64xbf16>, tensor<1x12x1x64xbf16>, tensor<1xi32>) -> tensor<1x12x16x64xbf16>
  %1 = stablehlo.custom_call @tt.paged_update_cache(%0, %x, %i, %pt) : (tensor<1x12x16x64xbf16>, tensor<1x12x1x64xbf16>, tensor<1xi32>, tensor<1x4xi32>) -> tensor<1x12x16x64xbf16>
  %2 = stablehlo.add %1, %1 : tensor<1x12x16x64xbf16>
  return %2 : tensor<1x12x16x64xbf16>
}

// -----

// BAD: tt_custom_calls.mlir:[[# @LINE + 2]]:8: error: failed to legalize operation 'stablehlo.custom_call' to TTIR: batch_offset frontend attribute must be present
func.func @fill_without_offset(%c: tensor<1x12x16x64xbf16>, %x: tensor<1x12x5x64xbf16>) -> tensor<1x12x16x64xbf16> {
  %0 = stablehlo.custom_call @tt.fill_cache(%c, %x) : (tensor<1x12x16x64xbf16>, tensor<1x12x5x64xbf16>) -> tensor<1x12x16x64xbf16>
  return %0 : tensor<1x12x16x64xbf16>
}

// -----

// BAD: tt_custom_calls.mlir:[[# @LINE + 2]]:8: error: failed to legalize operation 'stablehlo.custom_call' to TTIR: is_causal attribute must be true or false, got "maybe"
func.func @sdpa_bad_flag(%q: tensor<1x2x32x64xbf16>, %k: tensor<1x2x32x64xbf16>, %v: tensor<1x2x32x64xbf16>) -> tensor<1x2x32x64xbf16> {
  %0 = stablehlo.custom_call @tt.scaled_dot_product_attention(%q, %k, %v) {mhlo.frontend_attributes = {is_causal = "maybe"}} : (tensor<1x2x32x64xbf16>, tensor<1x2x32x64xbf16>, tensor<1x2x32x64xbf16>) -> tensor<1x2x32x64xbf16>
  return %0 : tensor<1x2x32x64xbf16>
}
