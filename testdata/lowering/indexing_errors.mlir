// RUN: not ttopt opt %s --split-input-file --convert-stablehlo-to-ttir 2>&1 | FileCheck %s
// Forms of gather / scatter / reduce_window / pad / select_and_scatter tt-mlir does not lower are
// diagnostics at the op that say what does not fit.

// CHECK: indexing_errors.mlir:[[# @LINE + 3]]:8: error: failed to legalize operation 'stablehlo.reduce_window' to TTIR: rank-5 windows lower only as max pooling
func.func @main(%x: tensor<1x2x4x8x8xf32>) -> tensor<1x2x2x4x4xf32> {
  %c = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %0 = "stablehlo.reduce_window"(%x, %c) <{padding = dense<[[0, 0], [0, 0], [1, 1], [1, 1], [1, 1]]> : tensor<5x2xi64>, window_dimensions = array<i64: 1, 1, 3, 3, 3>, window_strides = array<i64: 1, 1, 2, 2, 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<1x2x4x8x8xf32>, tensor<f32>) -> tensor<1x2x2x4x4xf32>
  return %0 : tensor<1x2x2x4x4xf32>
}

// -----

// CHECK: indexing_errors.mlir:[[# @LINE + 2]]:8: error: failed to legalize operation 'stablehlo.reduce_window' to TTIR: reduction op 'stablehlo.minimum' (add, maximum or multiply lower)
func.func @main(%x: tensor<1x8x8x2xf32>, %c: tensor<f32>) -> tensor<1x4x4x2xf32> {
  %0 = "stablehlo.reduce_window"(%x, %c) <{window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.minimum %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<1x8x8x2xf32>, tensor<f32>) -> tensor<1x4x4x2xf32>
  return %0 : tensor<1x4x4x2xf32>
}

// -----

// CHECK: indexing_errors.mlir:[[# @LINE + 2]]:8: error: failed to legalize operation 'stablehlo.reduce_window' to TTIR: an init value that is not a constant -inf, 0 or 1
func.func @main(%x: tensor<1x8x8x2xf32>, %c: tensor<f32>) -> tensor<1x4x4x2xf32> {
  %0 = "stablehlo.reduce_window"(%x, %c) <{window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<1x8x8x2xf32>, tensor<f32>) -> tensor<1x4x4x2xf32>
  return %0 : tensor<1x4x4x2xf32>
}

// -----

// CHECK: indexing_errors.mlir:[[# @LINE + 2]]:8: error: failed to legalize operation 'stablehlo.gather' to TTIR: several indexed dimensions with 1-D start indices
func.func @main(%x: tensor<8x7x3xf32>, %i: tensor<2xi32>) -> tensor<3xf32> {
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [0], collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 0>, slice_sizes = array<i64: 1, 1, 3>}> : (tensor<8x7x3xf32>, tensor<2xi32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// CHECK: indexing_errors.mlir:[[# @LINE + 2]]:8: error: failed to legalize operation 'stablehlo.scatter' to TTIR: its update computation neither combines its arguments nor returns the update value
func.func @main(%x: tensor<2x3xi32>, %i: tensor<1xi32>, %u: tensor<2xi32>) -> tensor<2x3xi32> {
  %0 = "stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0], inserted_window_dims = [1], scatter_dims_to_operand_dims = [1]>}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    stablehlo.return %a : tensor<i32>
  }) : (tensor<2x3xi32>, tensor<1xi32>, tensor<2xi32>) -> tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}

// -----

// CHECK: indexing_errors.mlir:[[# @LINE + 2]]:8: error: failed to legalize operation 'stablehlo.pad' to TTIR: its padding value does not trace back to a constant
func.func @main(%x: tensor<3x4xf32>, %v: tensor<f32>) -> tensor<3x6xf32> {
  %0 = stablehlo.pad %x, %v, low = [0, 1], high = [0, 1], interior = [0, 0] : (tensor<3x4xf32>, tensor<f32>) -> tensor<3x6xf32>
  return %0 : tensor<3x6xf32>
}

// -----

// CHECK: indexing_errors.mlir:[[# @LINE + 3]]:8: error: failed to legalize operation 'stablehlo.select_and_scatter' to TTIR: it needs a rank-4 operand with exactly two window dimensions larger than 1
func.func @main(%x: tensor<6x6x3xf32>, %g: tensor<3x3x3xf32>) -> tensor<6x6x3xf32> {
  %c = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %0 = "stablehlo.select_and_scatter"(%x, %g, %c) <{window_dimensions = array<i64: 2, 2, 1>, window_strides = array<i64: 2, 2, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<6x6x3xf32>, tensor<3x3x3xf32>, tensor<f32>) -> tensor<6x6x3xf32>
  return %0 : tensor<6x6x3xf32>
}
