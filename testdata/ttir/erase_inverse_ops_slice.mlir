// RUN: ttopt opt %s --ttir-erase-inverse-ops="enable-commute-downwards=false" | FileCheck %s --check-prefix=UP
// RUN: ttopt opt %s --ttir-erase-inverse-ops="enable-commute-upwards=false" | FileCheck %s --check-prefix=DOWN
// RUN: ttopt opt %s --ttir-erase-inverse-ops | FileCheck %s

// Permutes and reshapes through a ttir.slice_static. A permute moves either way with the begins,
// ends and steps permuted alike; a reshape when it changes only dimensions further out than the
// ones the slice cuts (the moved slice takes the whole of those). Upwards when every reader of the
// slice is the same TM, downwards when the TM has no other reader.

// UP-LABEL: func.func @permute_moves_up_with_the_ranges
// UP: %[[P:.*]] = "ttir.permute"(%arg0) <{permutation = array<i64: 2, 0, 1>}> : (tensor<3x6x10xf32>) -> tensor<10x3x6xf32>
// UP: %[[S:.*]] = "ttir.slice_static"(%[[P]]) <{begins = [0 : i32, 1 : i32, 0 : i32], ends = [10 : i32, 3 : i32, 6 : i32], step = [5 : i32, 1 : i32, 2 : i32]}> : (tensor<10x3x6xf32>) -> tensor<2x2x3xf32>
// UP: return %[[S]]
// The downward run takes it back below: the slice reads nothing else.
// CHECK-LABEL: func.func @permute_moves_up_with_the_ranges
// CHECK: %[[S:.*]] = "ttir.slice_static"(%arg0)
// CHECK: %[[P:.*]] = "ttir.permute"(%[[S]])
// CHECK: return %[[P]]
func.func @permute_moves_up_with_the_ranges(%arg0: tensor<3x6x10xf32>) -> tensor<2x2x3xf32> {
  %0 = "ttir.slice_static"(%arg0) <{begins = [1 : i32, 0 : i32, 0 : i32], ends = [3 : i32, 6 : i32, 10 : i32], step = [1 : i32, 2 : i32, 5 : i32]}> : (tensor<3x6x10xf32>) -> tensor<2x3x2xf32>
  %1 = "ttir.permute"(%0) <{permutation = array<i64: 2, 0, 1>}> : (tensor<2x3x2xf32>) -> tensor<2x2x3xf32>
  return %1 : tensor<2x2x3xf32>
}


// DOWN-LABEL: func.func @permute_moves_down_with_the_ranges
// DOWN: %[[S:.*]] = "ttir.slice_static"(%arg0) <{begins = [1 : i32, 0 : i32, 0 : i32], ends = [3 : i32, 6 : i32, 10 : i32], step = [1 : i32, 2 : i32, 2 : i32]}> : (tensor<3x6x10xf32>) -> tensor<2x3x5xf32>
// DOWN: %[[P:.*]] = "ttir.permute"(%[[S]]) <{permutation = array<i64: 2, 0, 1>}> : (tensor<2x3x5xf32>) -> tensor<5x2x3xf32>
// DOWN: return %[[P]]
func.func @permute_moves_down_with_the_ranges(%arg0: tensor<3x6x10xf32>) -> tensor<5x2x3xf32> {
  %0 = "ttir.permute"(%arg0) <{permutation = array<i64: 2, 0, 1>}> : (tensor<3x6x10xf32>) -> tensor<10x3x6xf32>
  %1 = "ttir.slice_static"(%0) <{begins = [0 : i32, 1 : i32, 0 : i32], ends = [10 : i32, 3 : i32, 6 : i32], step = [2 : i32, 1 : i32, 2 : i32]}> : (tensor<10x3x6xf32>) -> tensor<5x2x3xf32>
  return %1 : tensor<5x2x3xf32>
}


// A negative begin counts from the end of its dimension, which the reshape keeps.
// UP-LABEL: func.func @reshape_of_outer_dims_moves_up
// UP: %[[R:.*]] = "ttir.reshape"(%arg0) <{shape = [24 : i32, 8 : i32]}> : (tensor<4x6x8xf32>) -> tensor<24x8xf32>
// UP: %[[S:.*]] = "ttir.slice_static"(%[[R]]) <{begins = [0 : i32, -4 : i32], ends = [24 : i32, 8 : i32], step = [1 : i32, 1 : i32]}> : (tensor<24x8xf32>) -> tensor<24x4xf32>
// UP: return %[[S]]
func.func @reshape_of_outer_dims_moves_up(%arg0: tensor<4x6x8xf32>) -> tensor<24x4xf32> {
  %0 = "ttir.slice_static"(%arg0) <{begins = [0 : i32, 0 : i32, -4 : i32], ends = [4 : i32, 6 : i32, 8 : i32], step = [1 : i32, 1 : i32, 1 : i32]}> : (tensor<4x6x8xf32>) -> tensor<4x6x4xf32>
  %1 = "ttir.reshape"(%0) <{shape = [24 : i32, 4 : i32]}> : (tensor<4x6x4xf32>) -> tensor<24x4xf32>
  return %1 : tensor<24x4xf32>
}


// DOWN-LABEL: func.func @reshape_of_outer_dims_moves_down
// DOWN: %[[S:.*]] = "ttir.slice_static"(%arg0) <{begins = [0 : i32, 1 : i32], ends = [24 : i32, 7 : i32], step = [1 : i32, 2 : i32]}> : (tensor<24x8xf32>) -> tensor<24x3xf32>
// DOWN: %[[R:.*]] = "ttir.reshape"(%[[S]]) <{shape = [4 : i32, 6 : i32, 3 : i32]}> : (tensor<24x3xf32>) -> tensor<4x6x3xf32>
// DOWN: return %[[R]]
func.func @reshape_of_outer_dims_moves_down(%arg0: tensor<24x8xf32>) -> tensor<4x6x3xf32> {
  %0 = "ttir.reshape"(%arg0) <{shape = [4 : i32, 6 : i32, 8 : i32]}> : (tensor<24x8xf32>) -> tensor<4x6x8xf32>
  %1 = "ttir.slice_static"(%0) <{begins = [0 : i32, 0 : i32, 1 : i32], ends = [4 : i32, 6 : i32, 7 : i32], step = [1 : i32, 1 : i32, 2 : i32]}> : (tensor<4x6x8xf32>) -> tensor<4x6x3xf32>
  return %1 : tensor<4x6x3xf32>
}


// The reshape merges the cut dimension.
// UP-LABEL: func.func @reshape_of_a_cut_dim_stays
// UP: %[[S:.*]] = "ttir.slice_static"(%arg0)
// UP: %[[R:.*]] = "ttir.reshape"(%[[S]])
// UP: return %[[R]]
func.func @reshape_of_a_cut_dim_stays(%arg0: tensor<4x6x8xf32>) -> tensor<12x8xf32> {
  %0 = "ttir.slice_static"(%arg0) <{begins = [0 : i32, 0 : i32, 0 : i32], ends = [4 : i32, 3 : i32, 8 : i32], step = [1 : i32, 1 : i32, 1 : i32]}> : (tensor<4x6x8xf32>) -> tensor<4x3x8xf32>
  %1 = "ttir.reshape"(%0) <{shape = [12 : i32, 8 : i32]}> : (tensor<4x3x8xf32>) -> tensor<12x8xf32>
  return %1 : tensor<12x8xf32>
}


// The reshape splits the dimension the slice cuts.
// DOWN-LABEL: func.func @reshape_above_a_cut_dim_stays
// DOWN: %[[R:.*]] = "ttir.reshape"(%arg0)
// DOWN: %[[S:.*]] = "ttir.slice_static"(%[[R]])
// DOWN: return %[[S]]
func.func @reshape_above_a_cut_dim_stays(%arg0: tensor<24x8xf32>) -> tensor<4x3x8xf32> {
  %0 = "ttir.reshape"(%arg0) <{shape = [4 : i32, 6 : i32, 8 : i32]}> : (tensor<24x8xf32>) -> tensor<4x6x8xf32>
  %1 = "ttir.slice_static"(%0) <{begins = [0 : i32, 0 : i32, 0 : i32], ends = [4 : i32, 3 : i32, 8 : i32], step = [1 : i32, 1 : i32, 1 : i32]}> : (tensor<4x6x8xf32>) -> tensor<4x3x8xf32>
  return %1 : tensor<4x3x8xf32>
}


// UP-LABEL: func.func @different_readers_stay
// UP: %[[S:.*]] = "ttir.slice_static"(%arg0)
// UP: "ttir.reshape"(%[[S]])
// UP: "ttir.reshape"(%[[S]])
func.func @different_readers_stay(%arg0: tensor<4x6x8xf32>) -> (tensor<24x4xf32>, tensor<4x24xf32>) {
  %0 = "ttir.slice_static"(%arg0) <{begins = [0 : i32, 0 : i32, 0 : i32], ends = [4 : i32, 6 : i32, 4 : i32], step = [1 : i32, 1 : i32, 1 : i32]}> : (tensor<4x6x8xf32>) -> tensor<4x6x4xf32>
  %1 = "ttir.reshape"(%0) <{shape = [24 : i32, 4 : i32]}> : (tensor<4x6x4xf32>) -> tensor<24x4xf32>
  %2 = "ttir.reshape"(%0) <{shape = [4 : i32, 24 : i32]}> : (tensor<4x6x4xf32>) -> tensor<4x24xf32>
  return %1, %2 : tensor<24x4xf32>, tensor<4x24xf32>
}


// A TM read by more than one op never moves down.
// DOWN-LABEL: func.func @reshape_read_twice_stays_above
// DOWN: %[[R:.*]] = "ttir.reshape"(%arg0)
// DOWN: "ttir.slice_static"(%[[R]])
// DOWN: "ttir.slice_static"(%[[R]])
func.func @reshape_read_twice_stays_above(%arg0: tensor<24x8xf32>) -> (tensor<4x6x4xf32>, tensor<4x6x4xf32>) {
  %0 = "ttir.reshape"(%arg0) <{shape = [4 : i32, 6 : i32, 8 : i32]}> : (tensor<24x8xf32>) -> tensor<4x6x8xf32>
  %1 = "ttir.slice_static"(%0) <{begins = [0 : i32, 0 : i32, 0 : i32], ends = [4 : i32, 6 : i32, 4 : i32], step = [1 : i32, 1 : i32, 1 : i32]}> : (tensor<4x6x8xf32>) -> tensor<4x6x4xf32>
  %2 = "ttir.slice_static"(%0) <{begins = [0 : i32, 0 : i32, 4 : i32], ends = [4 : i32, 6 : i32, 8 : i32], step = [1 : i32, 1 : i32, 1 : i32]}> : (tensor<4x6x8xf32>) -> tensor<4x6x4xf32>
  return %1, %2 : tensor<4x6x4xf32>, tensor<4x6x4xf32>
}


// NCHW -> NHWC, a channel slice, a sigmoid and NHWC -> NCHW: the permutes meet and fold.
// CHECK-LABEL: func.func @slice_between_layout_changes
// CHECK-NOT: ttir.permute
// CHECK: %[[S:.*]] = "ttir.slice_static"(%arg0) <{begins = [0 : i32, 2 : i32, 0 : i32, 0 : i32], ends = [1 : i32, 5 : i32, 4 : i32, 4 : i32], step = [1 : i32, 1 : i32, 1 : i32, 1 : i32]}> : (tensor<1x8x4x4xf32>) -> tensor<1x3x4x4xf32>
// CHECK: %[[G:.*]] = "ttir.sigmoid"(%[[S]])
// CHECK-NEXT: return %[[G]]
func.func @slice_between_layout_changes(%arg0: tensor<1x8x4x4xf32>) -> tensor<1x3x4x4xf32> {
  %0 = "ttir.permute"(%arg0) <{permutation = array<i64: 0, 2, 3, 1>}> : (tensor<1x8x4x4xf32>) -> tensor<1x4x4x8xf32>
  %1 = "ttir.slice_static"(%0) <{begins = [0 : i32, 0 : i32, 0 : i32, 2 : i32], ends = [1 : i32, 4 : i32, 4 : i32, 5 : i32], step = [1 : i32, 1 : i32, 1 : i32, 1 : i32]}> : (tensor<1x4x4x8xf32>) -> tensor<1x4x4x3xf32>
  %2 = "ttir.sigmoid"(%1) : (tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32>
  %3 = "ttir.permute"(%2) <{permutation = array<i64: 0, 3, 1, 2>}> : (tensor<1x4x4x3xf32>) -> tensor<1x3x4x4xf32>
  return %3 : tensor<1x3x4x4xf32>
}
