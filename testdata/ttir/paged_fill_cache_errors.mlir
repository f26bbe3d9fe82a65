// RUN: not ttopt opt %s --split-input-file --ttir-to-ttnn-backend-pipeline 2>&1 | FileCheck %s --check-prefix=ERR

// ttir.paged_fill_cache operands HEAD's TTIR verifier rejects are errors at the op.

// ERR: error: {{.*}}'ttir.paged_fill_cache'{{.*}}Batch index tensor must have dim 0 equal to input batch (2), got 3
func.func @bad_batch(%cache: tensor<32x4x32x64xbf16>, %x: tensor<2x4x40x64xbf16>, %pt: tensor<4x8xi32>, %b: tensor<3xi32>) -> tensor<32x4x32x64xbf16> {
  "ttir.paged_fill_cache"(%cache, %x, %pt, %b) : (tensor<32x4x32x64xbf16>, tensor<2x4x40x64xbf16>, tensor<4x8xi32>, tensor<3xi32>) -> ()
  return %cache : tensor<32x4x32x64xbf16>
}

// -----

// ERR: error: {{.*}}'ttir.paged_fill_cache'{{.*}}Block size must be divisible by 32, got 48
func.func @bad_block(%cache: tensor<32x4x48x64xbf16>, %x: tensor<1x4x40x64xbf16>, %pt: tensor<4x8xi32>) -> tensor<32x4x48x64xbf16> {
  "ttir.paged_fill_cache"(%cache, %x, %pt) : (tensor<32x4x48x64xbf16>, tensor<1x4x40x64xbf16>, tensor<4x8xi32>) -> ()
  return %cache : tensor<32x4x48x64xbf16>
}
