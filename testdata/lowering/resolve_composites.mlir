// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline | FileCheck %s
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="composite-resolution=force-promote" | FileCheck %s --check-prefix=PROMOTE
// RUN: not ttopt opt %s --ttir-to-ttnn-backend-pipeline="composite-resolution=fuse" 2>&1 | FileCheck %s --check-prefix=BAD

// A ttcore.composite (what the @tt.* custom calls become) resolves after the TTNN conversion: by
// default its decomposition's body replaces it; force-promote builds the typed op it names (an
// unknown name is inlined all the same). Decomposition functions nothing calls any more go.

// CHECK-LABEL: func.func @f(
// CHECK-NOT: ttcore.composite
// CHECK: "ttnn.slice_static"(%arg0)
// CHECK: "ttnn.neg"(%arg1)
// CHECK-NOT: func.func private @decomp

// PROMOTE-LABEL: func.func @f(
// PROMOTE: "ttnn.flash_mla_prefill"(%arg0, %arg1) <{head_dim_v = 64 : ui32, is_causal = true, operandSegmentSizes = array<i32: 1, 1, 0, 0>}>
// PROMOTE: "ttnn.neg"(%arg1)
// PROMOTE-NOT: ttcore.composite
// PROMOTE-NOT: func.func private @decomp

// BAD: composite-resolution
module {
  func.func @f(%q: tensor<1x16x32x128xbf16>, %k: tensor<1x1x32x128xbf16>) -> (tensor<1x16x32x64xbf16>, tensor<1x1x32x128xbf16>) {
    %0 = "ttcore.composite"(%q, %k) <{composite_name = "flash_mla_prefill", decomposition = @decomp_flash, composite_attributes = {head_dim_v = 64 : ui32, is_causal = true, has_value = false, has_attention_mask = false}}> : (tensor<1x16x32x128xbf16>, tensor<1x1x32x128xbf16>) -> tensor<1x16x32x64xbf16>
    %1 = "ttcore.composite"(%k) <{composite_name = "my_negate", decomposition = @decomp_neg}> : (tensor<1x1x32x128xbf16>) -> tensor<1x1x32x128xbf16>
    return %0, %1 : tensor<1x16x32x64xbf16>, tensor<1x1x32x128xbf16>
  }
  func.func private @decomp_flash(%q: tensor<1x16x32x128xbf16>, %k: tensor<1x1x32x128xbf16>) -> tensor<1x16x32x64xbf16> {
    %0 = "ttir.slice_static"(%q) <{begins = [0 : i32, 0 : i32, 0 : i32, 0 : i32], ends = [1 : i32, 16 : i32, 32 : i32, 64 : i32], step = [1 : i32, 1 : i32, 1 : i32, 1 : i32]}> : (tensor<1x16x32x128xbf16>) -> tensor<1x16x32x64xbf16>
    return %0 : tensor<1x16x32x64xbf16>
  }
  func.func private @decomp_neg(%x: tensor<1x1x32x128xbf16>) -> tensor<1x1x32x128xbf16> {
    %0 = "ttir.neg"(%x) : (tensor<1x1x32x128xbf16>) -> tensor<1x1x32x128xbf16>
    return %0 : tensor<1x1x32x128xbf16>
  }
}
