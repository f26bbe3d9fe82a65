// RUN: ttopt opt %s --ttir-erase-inverse-ops="enable-commute-downwards=false" | FileCheck %s --check-prefix=UP
// RUN: ttopt opt %s --ttir-erase-inverse-ops="enable-commute-upwards=false" | FileCheck %s --check-prefix=DOWN
// RUN: ttopt opt %s --ttir-erase-inverse-ops | FileCheck %s

// Permutes and reshapes through a ttir.concat. Upwards, when every reader is the same TM, each
// operand gets the TM and the concat joins along the dimension the TM moved its dimension to (a
// reshape only when it keeps the concat dimension whole, with the volumes on either side). Downwards,
// a permute operand when every other operand is the same permute or on a const-eval path.

// UP-LABEL: func.func @permute_moves_up_to_its_dimension
// UP: %[[A:.*]] = "ttir.permute"(%arg0) <{permutation = array<i64: 2, 0, 1>}> : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
// UP: %[[B:.*]] = "ttir.permute"(%arg1) <{permutation = array<i64: 2, 0, 1>}> : (tensor<2x5x4xf32>) -> tensor<4x2x5xf32>
// UP: %[[C:.*]] = "ttir.concat"(%[[A]], %[[B]]) <{dim = 2 : si32}> : (tensor<4x2x3xf32>, tensor<4x2x5xf32>) -> tensor<4x2x8xf32>
// UP: return %[[C]]
// The downward run moves the identical permutes back below: fewer TMs.
// CHECK-LABEL: func.func @permute_moves_up_to_its_dimension
// CHECK: %[[C:.*]] = "ttir.concat"(%arg0, %arg1) <{dim = 1 : si32}>
// CHECK: %[[P:.*]] = "ttir.permute"(%[[C]]) <{permutation = array<i64: 2, 0, 1>}>
// CHECK: return %[[P]]
func.func @permute_moves_up_to_its_dimension(%arg0: tensor<2x3x4xf32>, %arg1: tensor<2x5x4xf32>) -> tensor<4x2x8xf32> {
  %0 = "ttir.concat"(%arg0, %arg1) <{dim = 1 : si32}> : (tensor<2x3x4xf32>, tensor<2x5x4xf32>) -> tensor<2x8x4xf32>
  %1 = "ttir.permute"(%0) <{permutation = array<i64: 2, 0, 1>}> : (tensor<2x8x4xf32>) -> tensor<4x2x8xf32>
  return %1 : tensor<4x2x8xf32>
}

// UP-LABEL: func.func @negative_dimension
// UP: "ttir.concat"(%{{.*}}, %{{.*}}) <{dim = 0 : si32}> : (tensor<3x4x2xf32>, tensor<5x4x2xf32>) -> tensor<8x4x2xf32>
func.func @negative_dimension(%arg0: tensor<2x3x4xf32>, %arg1: tensor<2x5x4xf32>) -> tensor<8x4x2xf32> {
  %0 = "ttir.concat"(%arg0, %arg1) <{dim = -2 : si32}> : (tensor<2x3x4xf32>, tensor<2x5x4xf32>) -> tensor<2x8x4xf32>
  %1 = "ttir.permute"(%0) <{permutation = array<i64: 1, 2, 0>}> : (tensor<2x8x4xf32>) -> tensor<8x4x2xf32>
  return %1 : tensor<8x4x2xf32>
}

// UP-LABEL: func.func @reshape_keeping_the_concat_dimension
// UP: %[[A:.*]] = "ttir.reshape"(%arg0) <{shape = [2 : i32, 3 : i32, 2 : i32, 2 : i32]}>
// UP: %[[B:.*]] = "ttir.reshape"(%arg1) <{shape = [2 : i32, 5 : i32, 2 : i32, 2 : i32]}>
// UP: %[[C:.*]] = "ttir.concat"(%[[A]], %[[B]]) <{dim = 1 : si32}> : (tensor<2x3x2x2xf32>, tensor<2x5x2x2xf32>) -> tensor<2x8x2x2xf32>
// UP: return %[[C]]
func.func @reshape_keeping_the_concat_dimension(%arg0: tensor<2x3x4xf32>, %arg1: tensor<2x5x4xf32>) -> tensor<2x8x2x2xf32> {
  %0 = "ttir.concat"(%arg0, %arg1) <{dim = 1 : si32}> : (tensor<2x3x4xf32>, tensor<2x5x4xf32>) -> tensor<2x8x4xf32>
  %1 = "ttir.reshape"(%0) <{shape = [2 : i32, 8 : i32, 2 : i32, 2 : i32]}> : (tensor<2x8x4xf32>) -> tensor<2x8x2x2xf32>
  return %1 : tensor<2x8x2x2xf32>
}

// UP-LABEL: func.func @reshape_merging_the_concat_dimension_stays
// UP: %[[C:.*]] = "ttir.concat"(%arg0, %arg1)
// UP: %[[R:.*]] = "ttir.reshape"(%[[C]])
// UP: return %[[R]]
func.func @reshape_merging_the_concat_dimension_stays(%arg0: tensor<2x3x4xf32>, %arg1: tensor<2x5x4xf32>) -> tensor<16x4xf32> {
  %0 = "ttir.concat"(%arg0, %arg1) <{dim = 1 : si32}> : (tensor<2x3x4xf32>, tensor<2x5x4xf32>) -> tensor<2x8x4xf32>
  %1 = "ttir.reshape"(%0) <{shape = [16 : i32, 4 : i32]}> : (tensor<2x8x4xf32>) -> tensor<16x4xf32>
  return %1 : tensor<16x4xf32>
}

// UP-LABEL: func.func @another_reader_keeps_the_permute_below
// UP: %[[C:.*]] = "ttir.concat"(%arg0, %arg1)
// UP: %[[P:.*]] = "ttir.permute"(%[[C]])
// UP: return %[[P]], %[[C]]
func.func @another_reader_keeps_the_permute_below(%arg0: tensor<2x3xf32>, %arg1: tensor<2x5xf32>) -> (tensor<8x2xf32>, tensor<2x8xf32>) {
  %0 = "ttir.concat"(%arg0, %arg1) <{dim = 1 : si32}> : (tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<2x8xf32>
  %1 = "ttir.permute"(%0) <{permutation = array<i64: 1, 0>}> : (tensor<2x8xf32>) -> tensor<8x2xf32>
  return %1, %0 : tensor<8x2xf32>, tensor<2x8xf32>
}

// DOWN-LABEL: func.func @identical_permutes_move_down
// DOWN: %[[C:.*]] = "ttir.concat"(%arg0, %arg1) <{dim = 0 : si32}> : (tensor<3x2x4xf32>, tensor<5x2x4xf32>) -> tensor<8x2x4xf32>
// DOWN: %[[E:.*]] = "ttir.exp"(%[[C]])
// DOWN: %[[P:.*]] = "ttir.permute"(%[[E]]) <{permutation = array<i64: 1, 0, 2>}> : (tensor<8x2x4xf32>) -> tensor<2x8x4xf32>
// DOWN: return %[[P]]
func.func @identical_permutes_move_down(%arg0: tensor<3x2x4xf32>, %arg1: tensor<5x2x4xf32>) -> (tensor<2x8x4xf32>) {
  %0 = "ttir.permute"(%arg0) <{permutation = array<i64: 1, 0, 2>}> : (tensor<3x2x4xf32>) -> tensor<2x3x4xf32>
  %1 = "ttir.permute"(%arg1) <{permutation = array<i64: 1, 0, 2>}> : (tensor<5x2x4xf32>) -> tensor<2x5x4xf32>
  %2 = "ttir.concat"(%0, %1) <{dim = 1 : si32}> : (tensor<2x3x4xf32>, tensor<2x5x4xf32>) -> tensor<2x8x4xf32>
  %3 = "ttir.exp"(%2) : (tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  return %3 : tensor<2x8x4xf32>
}

// DOWN-LABEL: func.func @a_parameter_operand_takes_the_inverse
// DOWN: %[[I:.*]] = "ttir.permute"(%arg1) <{permutation = array<i64: 1, 0>}> : (tensor<2x5xf32>) -> tensor<5x2xf32>
// DOWN: %[[C:.*]] = "ttir.concat"(%arg0, %[[I]]) <{dim = 0 : si32}> : (tensor<3x2xf32>, tensor<5x2xf32>) -> tensor<8x2xf32>
// DOWN: %[[E:.*]] = "ttir.exp"(%[[C]])
// DOWN: %[[P:.*]] = "ttir.permute"(%[[E]])
// DOWN: return %[[P]]
func.func @a_parameter_operand_takes_the_inverse(%arg0: tensor<3x2xf32>, %arg1: tensor<2x5xf32> {ttcore.argument_type = #ttcore.argument_type<parameter>}) -> tensor<2x8xf32> {
  %0 = "ttir.permute"(%arg0) <{permutation = array<i64: 1, 0>}> : (tensor<3x2xf32>) -> tensor<2x3xf32>
  %1 = "ttir.concat"(%0, %arg1) <{dim = 1 : si32}> : (tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<2x8xf32>
  %2 = "ttir.exp"(%1) : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return %2 : tensor<2x8xf32>
}

// DOWN-LABEL: func.func @an_activation_operand_keeps_the_permute_above
// DOWN: %[[P:.*]] = "ttir.permute"(%arg0)
// DOWN: %[[C:.*]] = "ttir.concat"(%[[P]], %arg1)
// DOWN: return %[[C]]
func.func @an_activation_operand_keeps_the_permute_above(%arg0: tensor<3x2xf32>, %arg1: tensor<2x5xf32>) -> tensor<2x8xf32> {
  %0 = "ttir.permute"(%arg0) <{permutation = array<i64: 1, 0>}> : (tensor<3x2xf32>) -> tensor<2x3xf32>
  %1 = "ttir.concat"(%0, %arg1) <{dim = 1 : si32}> : (tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<2x8xf32>
  return %1 : tensor<2x8xf32>
}

// NCHW -> NHWC, a channel concat and NHWC -> NCHW: every permute meets its inverse.
// CHECK-LABEL: func.func @channel_concat_between_layout_changes
// CHECK-NOT: ttir.permute
// CHECK: %[[C:.*]] = "ttir.concat"(%arg0, %arg1) <{dim = 1 : si32}> : (tensor<1x3x4x4xf32>, tensor<1x5x4x4xf32>) -> tensor<1x8x4x4xf32>
// CHECK: %[[R:.*]] = "ttir.relu"(%[[C]])
// CHECK-NEXT: return %[[R]]
func.func @channel_concat_between_layout_changes(%arg0: tensor<1x3x4x4xf32>, %arg1: tensor<1x5x4x4xf32>) -> tensor<1x8x4x4xf32> {
  %0 = "ttir.permute"(%arg0) <{permutation = array<i64: 0, 2, 3, 1>}> : (tensor<1x3x4x4xf32>) -> tensor<1x4x4x3xf32>
  %1 = "ttir.permute"(%arg1) <{permutation = array<i64: 0, 2, 3, 1>}> : (tensor<1x5x4x4xf32>) -> tensor<1x4x4x5xf32>
  %2 = "ttir.concat"(%0, %1) <{dim = 3 : si32}> : (tensor<1x4x4x3xf32>, tensor<1x4x4x5xf32>) -> tensor<1x4x4x8xf32>
  %3 = "ttir.relu"(%2) : (tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
  %4 = "ttir.permute"(%3) <{permutation = array<i64: 0, 3, 1, 2>}> : (tensor<1x4x4x8xf32>) -> tensor<1x8x4x4xf32>
  return %4 : tensor<1x8x4x4xf32>
}
