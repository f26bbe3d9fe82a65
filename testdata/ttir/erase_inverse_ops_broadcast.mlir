// RUN: ttopt opt %s --ttir-erase-inverse-ops | FileCheck %s

// Permutes and reshapes move up through a ttir.broadcast when every reader of the broadcast is the
// same TM: a permute with the factors permuted alike, a reshape when none of its dimensions holds
// both original and broadcast data (the moved reshape keeps 1 where the data was broadcast). Never
// down through a broadcast, and not when a factor lies above the six innermost dimensions.

// CHECK-LABEL: func.func @reshape_splits_broadcast_data
// CHECK: %[[R:.*]] = "ttir.reshape"(%arg0) <{shape = [4 : i32, 1 : i32, 1 : i32]}> : (tensor<4x1xf32>) -> tensor<4x1x1xf32>
// CHECK: %[[B:.*]] = "ttir.broadcast"(%[[R]]) <{broadcast_dimensions = array<i64: 1, 2, 4>}> : (tensor<4x1x1xf32>) -> tensor<4x2x4xf32>
// CHECK: return %[[B]]
func.func @reshape_splits_broadcast_data(%arg0: tensor<4x1xf32>) -> tensor<4x2x4xf32> {
  %0 = "ttir.broadcast"(%arg0) <{broadcast_dimensions = array<i64: 1, 8>}> : (tensor<4x1xf32>) -> tensor<4x8xf32>
  %1 = "ttir.reshape"(%0) <{shape = [4 : i32, 2 : i32, 4 : i32]}> : (tensor<4x8xf32>) -> tensor<4x2x4xf32>
  return %1 : tensor<4x2x4xf32>
}

// CHECK-LABEL: func.func @reshape_mixing_original_and_broadcast_data
// CHECK: %[[B:.*]] = "ttir.broadcast"(%arg0)
// CHECK: %[[R:.*]] = "ttir.reshape"(%[[B]])
// CHECK: return %[[R]]
func.func @reshape_mixing_original_and_broadcast_data(%arg0: tensor<4x1xf32>) -> tensor<32xf32> {
  %0 = "ttir.broadcast"(%arg0) <{broadcast_dimensions = array<i64: 1, 8>}> : (tensor<4x1xf32>) -> tensor<4x8xf32>
  %1 = "ttir.reshape"(%0) <{shape = [32 : i32]}> : (tensor<4x8xf32>) -> tensor<32xf32>
  return %1 : tensor<32xf32>
}

// CHECK-LABEL: func.func @permute_moves_with_the_factors
// CHECK: %[[P:.*]] = "ttir.permute"(%arg0) <{permutation = array<i64: 2, 0, 1>}> : (tensor<1x4x1xf32>) -> tensor<1x1x4xf32>
// CHECK: %[[B:.*]] = "ttir.broadcast"(%[[P]]) <{broadcast_dimensions = array<i64: 8, 2, 1>}> : (tensor<1x1x4xf32>) -> tensor<8x2x4xf32>
// CHECK: return %[[B]]
func.func @permute_moves_with_the_factors(%arg0: tensor<1x4x1xf32>) -> tensor<8x2x4xf32> {
  %0 = "ttir.broadcast"(%arg0) <{broadcast_dimensions = array<i64: 2, 1, 8>}> : (tensor<1x4x1xf32>) -> tensor<2x4x8xf32>
  %1 = "ttir.permute"(%0) <{permutation = array<i64: 2, 0, 1>}> : (tensor<2x4x8xf32>) -> tensor<8x2x4xf32>
  return %1 : tensor<8x2x4xf32>
}

// The moved permute meets its inverse above the broadcast.
// CHECK-LABEL: func.func @permute_pair_around_broadcast_folds
// CHECK-NOT: ttir.permute
// CHECK: %[[B:.*]] = "ttir.broadcast"(%arg0) <{broadcast_dimensions = array<i64: 1, 8>}> : (tensor<4x1xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: return %[[B]]
func.func @permute_pair_around_broadcast_folds(%arg0: tensor<4x1xf32>) -> tensor<4x8xf32> {
  %0 = "ttir.permute"(%arg0) <{permutation = array<i64: 1, 0>}> : (tensor<4x1xf32>) -> tensor<1x4xf32>
  %1 = "ttir.broadcast"(%0) <{broadcast_dimensions = array<i64: 8, 1>}> : (tensor<1x4xf32>) -> tensor<8x4xf32>
  %2 = "ttir.permute"(%1) <{permutation = array<i64: 1, 0>}> : (tensor<8x4xf32>) -> tensor<4x8xf32>
  return %2 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @identical_readers_become_one
// CHECK: %[[P:.*]] = "ttir.permute"(%arg0)
// CHECK: %[[B:.*]] = "ttir.broadcast"(%[[P]]) <{broadcast_dimensions = array<i64: 1, 8>}>
// CHECK-NEXT: return %[[B]], %[[B]]
func.func @identical_readers_become_one(%arg0: tensor<1x4xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %0 = "ttir.broadcast"(%arg0) <{broadcast_dimensions = array<i64: 8, 1>}> : (tensor<1x4xf32>) -> tensor<8x4xf32>
  %1 = "ttir.permute"(%0) <{permutation = array<i64: 1, 0>}> : (tensor<8x4xf32>) -> tensor<4x8xf32>
  %2 = "ttir.permute"(%0) <{permutation = array<i64: 1, 0>}> : (tensor<8x4xf32>) -> tensor<4x8xf32>
  return %1, %2 : tensor<4x8xf32>, tensor<4x8xf32>
}

// CHECK-LABEL: func.func @different_readers_stay
// CHECK: %[[B:.*]] = "ttir.broadcast"(%arg0)
// CHECK: %[[P:.*]] = "ttir.permute"(%[[B]])
// CHECK: return %[[P]], %[[B]]
func.func @different_readers_stay(%arg0: tensor<1x4xf32>) -> (tensor<4x8xf32>, tensor<8x4xf32>) {
  %0 = "ttir.broadcast"(%arg0) <{broadcast_dimensions = array<i64: 8, 1>}> : (tensor<1x4xf32>) -> tensor<8x4xf32>
  %1 = "ttir.permute"(%0) <{permutation = array<i64: 1, 0>}> : (tensor<8x4xf32>) -> tensor<4x8xf32>
  return %1, %0 : tensor<4x8xf32>, tensor<8x4xf32>
}

// The broadcast would no longer fold into its readers' implicit broadcast.
// CHECK-LABEL: func.func @factor_above_six_innermost_dims_stays
// CHECK: %[[B:.*]] = "ttir.broadcast"(%arg0)
// CHECK: %[[P:.*]] = "ttir.permute"(%[[B]])
// CHECK: return %[[P]]
func.func @factor_above_six_innermost_dims_stays(%arg0: tensor<1x1x1x1x1x1x2xf32>) -> tensor<1x4x1x1x1x1x2xf32> {
  %0 = "ttir.broadcast"(%arg0) <{broadcast_dimensions = array<i64: 4, 1, 1, 1, 1, 1, 1>}> : (tensor<1x1x1x1x1x1x2xf32>) -> tensor<4x1x1x1x1x1x2xf32>
  %1 = "ttir.permute"(%0) <{permutation = array<i64: 1, 0, 2, 3, 4, 5, 6>}> : (tensor<4x1x1x1x1x1x2xf32>) -> tensor<1x4x1x1x1x1x2xf32>
  return %1 : tensor<1x4x1x1x1x1x2xf32>
}

// CHECK-LABEL: func.func @permute_above_broadcast_does_not_move_down
// CHECK: %[[P:.*]] = "ttir.permute"(%arg0)
// CHECK: %[[B:.*]] = "ttir.broadcast"(%[[P]])
// CHECK: return %[[B]]
func.func @permute_above_broadcast_does_not_move_down(%arg0: tensor<1x4xf32>) -> tensor<4x2xf32> {
  %0 = "ttir.permute"(%arg0) <{permutation = array<i64: 1, 0>}> : (tensor<1x4xf32>) -> tensor<4x1xf32>
  %1 = "ttir.broadcast"(%0) <{broadcast_dimensions = array<i64: 1, 2>}> : (tensor<4x1xf32>) -> tensor<4x2xf32>
  return %1 : tensor<4x2xf32>
}

// The downward run moves the reshape below the add and gives the parameter's broadcast the
// inverse reshape, which the upward broadcast commute (in the downward run too) takes above the
// broadcast, onto the parameter's const-eval path.
// CHECK-LABEL: func.func @reshape_moved_down_onto_a_parameter_broadcast
// CHECK: %[[R:.*]] = "ttir.reshape"(%arg1) <{shape = [1 : i32, 1 : i32, 64 : i32]}>
// CHECK: %[[B:.*]] = "ttir.broadcast"(%[[R]]) <{broadcast_dimensions = array<i64: 1, 32, 1>}>
// CHECK: %[[A:.*]] = "ttir.add"(%arg0, %[[B]]) : (tensor<1x32x64xf32>, tensor<1x32x64xf32>) -> tensor<1x32x64xf32>
// CHECK: %[[OUT:.*]] = "ttir.reshape"(%[[A]]) <{shape = [32 : i32, 64 : i32]}>
// CHECK: return %[[OUT]]
func.func @reshape_moved_down_onto_a_parameter_broadcast(%arg0: tensor<1x32x64xf32>, %arg1: tensor<1x64xf32> {ttcore.argument_type = #ttcore.argument_type<parameter>}) -> tensor<32x64xf32> {
  %0 = "ttir.reshape"(%arg0) <{shape = [32 : i32, 64 : i32]}> : (tensor<1x32x64xf32>) -> tensor<32x64xf32>
  %1 = "ttir.broadcast"(%arg1) <{broadcast_dimensions = array<i64: 32, 1>}> : (tensor<1x64xf32>) -> tensor<32x64xf32>
  %2 = "ttir.add"(%0, %1) : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
  return %2 : tensor<32x64xf32>
}
