// RUN: not ttopt opt %s --split-input-file --stablehlo-pipeline 2>&1 | FileCheck %s
// StableHLO/sdy verifier errors: each bad op is rejected at its position before any pass runs
// (these used to end in IndexError/KeyError/AttributeError deep in the sharding pipeline).

// CHECK: errors_verifiers.mlir:[[# @LINE + 2]]:8: error: 'stablehlo.dot_general' op rhs batching/contracting dimension 2 is out of range for rank 2
func.func @main(%arg0: tensor<8x16xf32>, %arg1: tensor<16x4xf32>) -> tensor<8x4xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [2] : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

// CHECK: errors_verifiers.mlir:[[# @LINE + 2]]:8: error: 'stablehlo.dot_general' op contracting dimension sizes differ: lhs dim 1 is 16, rhs dim 0 is 8
func.func @main(%arg0: tensor<8x16xf32>, %arg1: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = "stablehlo.dot_general"(%arg0, %arg1) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<8x16xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

// CHECK: errors_verifiers.mlir:[[# @LINE + 2]]:8: error: 'stablehlo.dot_general' op requires attribute 'dot_dimension_numbers'
func.func @main(%arg0: tensor<8x16xf32>, %arg1: tensor<16x4xf32>) -> tensor<8x4xf32> {
  %0 = "stablehlo.dot_general"(%arg0, %arg1) : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

// CHECK: errors_verifiers.mlir:[[# @LINE + 2]]:8: error: 'stablehlo.iota' op requires attribute 'iota_dimension'
func.func @main() -> tensor<4xf32> {
  %0 = "stablehlo.iota"() <{iota_dimensionx = 0 : i64}> : () -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK: errors_verifiers.mlir:[[# @LINE + 2]]:8: error: 'stablehlo.iota' op iota_dimension 1 is out of range for rank 1
func.func @main() -> tensor<4xf32> {
  %0 = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK: errors_verifiers.mlir:[[# @LINE + 2]]:8: error: 'stablehlo.transpose' op requires attribute 'permutation'
func.func @main(%arg0: tensor<4x8xf32>) -> tensor<8x4xf32> {
  %0 = "stablehlo.transpose"(%arg0) : (tensor<4x8xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

// CHECK: errors_verifiers.mlir:[[# @LINE + 2]]:8: error: 'stablehlo.transpose' op permutation [0, 2] is not a permutation of the operand's 2 dimension(s)
func.func @main(%arg0: tensor<4x8xf32>) -> tensor<8x4xf32> {
  %0 = "stablehlo.transpose"(%arg0) <{permutation = array<i64: 0, 2>}> : (tensor<4x8xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

// CHECK: errors_verifiers.mlir:[[# @LINE + 2]]:8: error: 'stablehlo.broadcast_in_dim' op attribute 'broadcast_dimensions' failed to satisfy constraint: an integer array (array<i64: ...>), got "x"
func.func @main(%arg0: tensor<4xf32>) -> tensor<2x4xf32> {
  %0 = "stablehlo.broadcast_in_dim"(%arg0) <{broadcast_dimensions = "x"}> : (tensor<4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// CHECK: errors_verifiers.mlir:[[# @LINE + 2]]:8: error: 'stablehlo.concatenate' op dimension 2 is out of range for rank 1
func.func @main(%arg0: tensor<4xf32>) -> tensor<8xf32> {
  %0 = "stablehlo.concatenate"(%arg0, %arg0) <{dimension = 2 : i64}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// CHECK: errors_verifiers.mlir:[[# @LINE + 2]]:8: error: 'stablehlo.slice' op requires attribute 'limit_indices'
func.func @main(%arg0: tensor<8xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.slice"(%arg0) <{start_indices = array<i64: 0>, strides = array<i64: 1>}> : (tensor<8xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK: errors_verifiers.mlir:[[# @LINE + 2]]:8: error: 'stablehlo.reduce' op reduced dimension 3 is out of range for rank 2
func.func @main(%arg0: tensor<4x8xf32>, %arg1: tensor<f32>) -> tensor<4xf32> {
  %0 = stablehlo.reduce(%arg0 init: %arg1) applies stablehlo.add across dimensions = [3] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK: errors_verifiers.mlir:[[# @LINE + 2]]:8: error: 'stablehlo.gather' op requires attribute 'dimension_numbers'
func.func @main(%arg0: tensor<8x4xf32>, %arg1: tensor<2x1xi32>) -> tensor<2x4xf32> {
  %0 = "stablehlo.gather"(%arg0, %arg1) <{slice_sizes = array<i64: 1, 4>}> : (tensor<8x4xf32>, tensor<2x1xi32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// CHECK: errors_verifiers.mlir:[[# @LINE + 2]]:8: error: 'stablehlo.convolution' op input layout [b, 0, 0, f] must list b, f and spatial dims 0..n-1 once each
func.func @main(%arg0: tensor<1x8x8x4xf32>, %arg1: tensor<3x3x4x8xf32>) -> tensor<1x6x6x8xf32> {
  %0 = "stablehlo.convolution"(%arg0, %arg1) <{dimension_numbers = #stablehlo.conv<[b, 0, 0, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64}> : (tensor<1x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<1x6x6x8xf32>
  return %0 : tensor<1x6x6x8xf32>
}

// -----

// CHECK: errors_verifiers.mlir:[[# @LINE + 2]]:8: error: 'stablehlo.add' op requires compatible shapes for all operands and results, got (tensor<4xf32>, tensor<5xi32>) -> (tensor<4xf32>)
func.func @main(%arg0: tensor<4xf32>, %arg1: tensor<5xi32>) -> tensor<4xf32> {
  %0 = "stablehlo.add"(%arg0, %arg1) : (tensor<4xf32>, tensor<5xi32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK: errors_verifiers.mlir:[[# @LINE + 2]]:8: error: 'stablehlo.add' op requires the same element type for all operands and results, got (tensor<4xf32>, tensor<4xi32>) -> (tensor<4xf32>)
func.func @main(%arg0: tensor<4xf32>, %arg1: tensor<4xi32>) -> tensor<4xf32> {
  %0 = "stablehlo.add"(%arg0, %arg1) : (tensor<4xf32>, tensor<4xi32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK: errors_verifiers.mlir:[[# @LINE + 3]]:8: error: 'sdy.manual_computation' op operand shardings don't match number of values: 2 shardings vs 1 values
sdy.mesh @mesh = <["x"=2]>
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>, <@mesh, [{}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%arg1: tensor<4xf32>) {
    sdy.return %arg1 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// CHECK: errors_verifiers.mlir:[[# @LINE + 3]]:8: error: 'sdy.manual_computation' op result shardings don't match number of values: 0 shardings vs 1 values
sdy.mesh @mesh = <["x"=2]>
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[] manual_axes={"x"} (%arg1: tensor<4xf32>) {
    sdy.return %arg1 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// A dim of 8 split over an axis of size 2 is 4 locally, not 7.
// CHECK: errors_verifiers.mlir:[[# @LINE + 3]]:8: error: 'sdy.manual_computation' op body argument #0 dimension 0 has local size 7, but in_shardings[0] <@mesh, [{"x"}]> splits the global size 8 into 2: expected 4
sdy.mesh @mesh = <["x"=2]>
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%arg1: tensor<7xf32>) {
    sdy.return %arg1 : tensor<7xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// CHECK: errors_verifiers.mlir:[[# @LINE + 3]]:8: error: 'sdy.manual_computation' op in_shardings[0]: dimension 0 of size 7 is not divisible into 2 shards (manual axes)
sdy.mesh @mesh = <["x"=2]>
func.func @main(%arg0: tensor<7xf32>) -> tensor<7xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{}]>] manual_axes={"x"} (%arg1: tensor<7xf32>) {
    sdy.return %arg1 : tensor<7xf32>
  } : (tensor<7xf32>) -> tensor<7xf32>
  return %0 : tensor<7xf32>
}

// -----

// CHECK: errors_verifiers.mlir:[[# @LINE + 1]]:1: error: 'sdy.mesh' op invalid mesh: invalid #sdy.mesh: mesh axis "x" must have a positive size, got 0
sdy.mesh @mesh = <["x"=0]>
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

// -----

// Function signatures the pipeline cannot shard.
// CHECK: errors_verifiers.mlir:[[# @LINE + 1]]:1: error: argument #0 of @main has type !foo.bar, which is not a tensor; the sharding pipeline shards ranked tensors only
func.func @main(%arg0: !foo.bar, %arg1: tensor<8xf32>) -> tensor<8xf32> {
  return %arg1 : tensor<8xf32>
}

// -----

// CHECK: errors_verifiers.mlir:[[# @LINE + 1]]:1: error: argument #0 of @main has type tensor<*xf32>, which is an unranked tensor; the sharding pipeline shards ranked tensors only
func.func @main(%arg0: tensor<*xf32>) -> tensor<*xf32> {
  return %arg0 : tensor<*xf32>
}

// -----

// A custom sharding rule that does not fit the op's shapes.
// CHECK: errors_verifiers.mlir:[[# @LINE + 2]]:8: error: 'stablehlo.custom_call' op sdy.sharding_rule: rule maps 3 dimension(s) of operand #0, which has rank 2
func.func @main(%arg0: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = "stablehlo.custom_call"(%arg0) <{call_target_name = "foo"}> {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, j]) {i=8, j=4, k=1}>} : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

// 1e309 in a window attribute is not an integer (the custom form used to accept it as inf): MLIR
// reads `1` then `e309`, and refuses the `e309` (a float literal needs a '.').
// CHECK: errors_verifiers.mlir:[[# @LINE + 2]]:189: error: unexpected 'e309' after the integer 1
func.func @main(%arg0: tensor<2x16x16x4xf32>, %arg1: tensor<3x3x4x8xf32>) -> tensor<2x8x8x8xf32> {
  %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[1, 2], [0, 1]], lhs_dilate = [1, 1], rhs_dilate = [2, 1e309]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x16x16x4xf32>, tensor<3x3x4x8xf32>) -> tensor<2x8x8x8xf32>
  return %0 : tensor<2x8x8x8xf32>
}

// -----

// CHECK: errors_verifiers.mlir:[[# @LINE + 2]]:8: error: 'stablehlo.convolution' op window_strides has 3 entries, expected 2 for 2 spatial dim(s)
func.func @main(%arg0: tensor<2x16x16x4xf32>, %arg1: tensor<3x3x4x8xf32>) -> tensor<2x8x8x8xf32> {
  %0 = "stablehlo.convolution"(%arg0, %arg1) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, window_strides = array<i64: 2, 2, 2>}> : (tensor<2x16x16x4xf32>, tensor<3x3x4x8xf32>) -> tensor<2x8x8x8xf32>
  return %0 : tensor<2x8x8x8xf32>
}
