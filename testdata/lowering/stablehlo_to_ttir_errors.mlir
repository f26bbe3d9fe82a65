// RUN: not ttopt opt %s --split-input-file --convert-stablehlo-to-ttir 2>&1 | FileCheck %s
// Ops without a TTIR lowering are diagnostics at the op, never left behind silently.

// CHECK: stablehlo_to_ttir_errors.mlir:[[# @LINE + 2]]:8: error: convert-stablehlo-to-ttir: 'stablehlo.custom_call' has no TTIR lowering
func.func @main(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = stablehlo.custom_call @lapack_spotrf_ffi(%x) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

// CHECK: stablehlo_to_ttir_errors.mlir:[[# @LINE + 3]]:8: error: convert-stablehlo-to-ttir: 'stablehlo.reduce' has no TTIR lowering: its body is not one add/maximum/minimum/multiply/and/or
func.func @main(%x: tensor<8x16xf32>) -> tensor<8xf32> {
  %c = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %0 = stablehlo.reduce(%x init: %c) across dimensions = [1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
   reducer(%a: tensor<f32>, %b: tensor<f32>)  {
    %1 = stablehlo.maximum %a, %b : tensor<f32>
    %2 = stablehlo.add %1, %b : tensor<f32>
    stablehlo.return %2 : tensor<f32>
  }
  return %0 : tensor<8xf32>
}

// -----

// CHECK: stablehlo_to_ttir_errors.mlir:[[# @LINE + 2]]:8: error: convert-stablehlo-to-ttir: 'stablehlo.convolution' has no TTIR lowering: 1 spatial dimensions (ttir.conv2d needs 2)
func.func @main(%x: tensor<1x8x4xf32>, %w: tensor<3x4x6xf32>) -> tensor<1x6x6xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x4xf32>, tensor<3x4x6xf32>) -> tensor<1x6x6xf32>
  return %0 : tensor<1x6x6xf32>
}
