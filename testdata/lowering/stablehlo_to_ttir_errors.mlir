// RUN: not ttopt opt %s --split-input-file --convert-stablehlo-to-ttir 2>&1 | FileCheck %s
// Ops without a TTIR lowering are diagnostics at the op, never left behind silently.

// CHECK: stablehlo_to_ttir_errors.mlir:[[# @LINE + 2]]:8: error: failed to legalize operation 'stablehlo.custom_call' to TTIR
func.func @main(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = stablehlo.custom_call @lapack_spotrf_ffi(%x) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

// CHECK: stablehlo_to_ttir_errors.mlir:[[# @LINE + 3]]:8: error: failed to legalize operation 'stablehlo.reduce' to TTIR: its body is not one add/maximum/minimum/multiply/and/or
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

// CHECK: stablehlo_to_ttir_errors.mlir:[[# @LINE + 2]]:8: error: failed to legalize operation 'stablehlo.convolution' to TTIR: window reversal
func.func @main(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x6xf32>) -> tensor<1x6x6x6xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {reverse = [true, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x4x6xf32>) -> tensor<1x6x6x6xf32>
  return %0 : tensor<1x6x6x6xf32>
}

// -----

// CHECK: stablehlo_to_ttir_errors.mlir:[[# @LINE + 2]]:8: error: failed to legalize operation 'chlo.lgamma' to TTIR
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = chlo.lgamma %x : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A comparator over two keys: ttir.sort orders by one operand.
// CHECK: stablehlo_to_ttir_errors.mlir:[[# @LINE + 2]]:10: error: failed to legalize operation 'stablehlo.sort' to TTIR: its comparator reads operands other than the first (a sort by several keys)
func.func @main(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0:2 = "stablehlo.sort"(%x, %y) <{dimension = 0 : i64}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<f32>, %d: tensor<f32>):
    %1 = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %2 = stablehlo.compare LT, %c, %d, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %3 = stablehlo.or %1, %2 : tensor<i1>
    stablehlo.return %3 : tensor<i1>
  }) : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return %0#0 : tensor<4xf32>
}

// -----

// An argmax whose init is a function argument is not recognised (as in tt-mlir).
// CHECK: stablehlo_to_ttir_errors.mlir:[[# @LINE + 4]]:10: error: failed to legalize operation 'stablehlo.reduce' to TTIR: a reduce of several operands
func.func @main(%init: tensor<f32>, %x: tensor<2x3xf32>) -> tensor<2xi32> {
  %iota = stablehlo.iota dim = 1 : tensor<2x3xi32>
  %z = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.reduce(%x init: %init), (%iota init: %z) across dimensions = [1] : (tensor<2x3xf32>, tensor<2x3xi32>, tensor<f32>, tensor<i32>) -> (tensor<2xf32>, tensor<2xi32>)
   reducer(%a: tensor<f32>, %c: tensor<f32>) (%b: tensor<i32>, %d: tensor<i32>)  {
    %1 = stablehlo.compare GT, %a, %c, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %2 = stablehlo.compare NE, %a, %a, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %3 = stablehlo.or %1, %2 : tensor<i1>
    %4 = stablehlo.compare EQ, %a, %c, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %5 = stablehlo.compare LT, %b, %d, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %6 = stablehlo.and %4, %5 : tensor<i1>
    %7 = stablehlo.or %3, %6 : tensor<i1>
    %8 = stablehlo.select %3, %a, %c : tensor<i1>, tensor<f32>
    %9 = stablehlo.select %7, %b, %d : tensor<i1>, tensor<i32>
    stablehlo.return %8, %9 : tensor<f32>, tensor<i32>
  }
  return %r#1 : tensor<2xi32>
}

// -----

// CHECK: stablehlo_to_ttir_errors.mlir:[[# @LINE + 2]]:8: error: failed to legalize operation 'stablehlo.custom_call' to TTIR: custom call target 'mhlo.lgamma' is not one tt-mlir lowers
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.custom_call @mhlo.lgamma(%x) {mhlo.attributes = {}, mhlo.version = 1 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
