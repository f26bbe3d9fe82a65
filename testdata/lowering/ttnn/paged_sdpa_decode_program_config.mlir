// RUN: ttopt opt %s --ttnn-paged-sdpa-decode-program-config="device=blackhole" | FileCheck %s --check-prefixes=CHECK,BH
// RUN: ttopt opt %s --ttnn-paged-sdpa-decode-program-config="device=wormhole_b0" | FileCheck %s --check-prefixes=CHECK,WH
// ttnn-workaround applies it with its decompositions, for the chip the module registers (as tt-mlir's does).
// RUN: ttopt opt %s --ttcore-register-device="system-desc-path=blackhole" --ttnn-workaround | FileCheck %s --check-prefixes=CHECK,BH
// RUN: ttopt opt %s --ttcore-register-device --ttnn-workaround | FileCheck %s --check-prefixes=CHECK,WH

// On Blackhole a paged SDPA decode without a program config gets tt-metal's paged-decode defaults
// (the 13x10 worker grid, chunks of 32, one core per head and batch) with exp_approx_mode = false;
// an existing config keeps its parameters, exp_approx_mode forced to false. Wormhole: unchanged.
// CHECK-LABEL: func.func @no_config
// BH: program_config = #ttnn.sdpa_program_config<compute_with_storage_grid_size = #ttnn.core_coord<13, 10>, q_chunk_size = 32, k_chunk_size = 32, exp_approx_mode = false, max_cores_per_head_batch = 1>
// WH-NOT: sdpa_program_config
func.func @no_config(%q: tensor<1x1x4x512xbf16>, %k: tensor<128x4x32x512xbf16>, %v: tensor<128x4x32x512xbf16>, %pt: tensor<1x64xsi32>, %pos: tensor<1xsi32>) -> tensor<1x1x4x512xbf16> {
  %0 = "ttnn.paged_scaled_dot_product_attention_decode"(%q, %k, %v, %pt, %pos) <{is_causal = true, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 1, 0>}> : (tensor<1x1x4x512xbf16>, tensor<128x4x32x512xbf16>, tensor<128x4x32x512xbf16>, tensor<1x64xsi32>, tensor<1xsi32>) -> tensor<1x1x4x512xbf16>
  return %0 : tensor<1x1x4x512xbf16>
}

// CHECK-LABEL: func.func @existing
// CHECK: program_config = #ttnn.sdpa_program_config<compute_with_storage_grid_size = #ttnn.core_coord<8, 8>, q_chunk_size = 64, k_chunk_size = 128,
// BH-SAME: exp_approx_mode = false, max_cores_per_head_batch = 8>
// WH-SAME: exp_approx_mode = true, max_cores_per_head_batch = 8>
func.func @existing(%q: tensor<1x1x4x512xbf16>, %k: tensor<128x4x32x512xbf16>, %v: tensor<128x4x32x512xbf16>, %pt: tensor<1x64xsi32>, %pos: tensor<1xsi32>) -> tensor<1x1x4x512xbf16> {
  %0 = "ttnn.paged_scaled_dot_product_attention_decode"(%q, %k, %v, %pt, %pos) <{is_causal = true, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 1, 0>, program_config = #ttnn.sdpa_program_config<compute_with_storage_grid_size = #ttnn.core_coord<8, 8>, q_chunk_size = 64, k_chunk_size = 128, exp_approx_mode = true, max_cores_per_head_batch = 8>}> : (tensor<1x1x4x512xbf16>, tensor<128x4x32x512xbf16>, tensor<128x4x32x512xbf16>, tensor<1x64xsi32>, tensor<1xsi32>) -> tensor<1x1x4x512xbf16>
  return %0 : tensor<1x1x4x512xbf16>
}
