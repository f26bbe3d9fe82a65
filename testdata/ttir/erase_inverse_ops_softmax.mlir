// RUN: ttopt opt %s --ttir-erase-inverse-ops="enable-commute-downwards=false" | FileCheck %s --check-prefix=UP
// RUN: ttopt opt %s --ttir-erase-inverse-ops="enable-commute-upwards=false" | FileCheck %s --check-prefix=DOWN

// Reshapes through ttir.softmax: a reshape keeping the softmax dimension (same size and stride)
// moves through it, the dimension renumbered; one that splits or merges it stays.

// UP-LABEL: func.func @softmax_between_inverse_reshapes
// UP-NEXT: %[[S:.*]] = "ttir.softmax"(%arg0) <{dimension = 2 : si32}> : (tensor<2x12x16xf32>) -> tensor<2x12x16xf32>
// UP-NEXT: return %[[S]]
// DOWN-LABEL: func.func @softmax_between_inverse_reshapes
// DOWN-NEXT: %[[S:.*]] = "ttir.softmax"(%arg0) <{dimension = 2 : si32}> : (tensor<2x12x16xf32>) -> tensor<2x12x16xf32>
// DOWN-NEXT: return %[[S]]
func.func @softmax_between_inverse_reshapes(%arg0: tensor<2x12x16xf32>) -> tensor<2x12x16xf32> {
  %0 = "ttir.reshape"(%arg0) <{shape = [2 : i32, 3 : i32, 4 : i32, 16 : i32]}> : (tensor<2x12x16xf32>) -> tensor<2x3x4x16xf32>
  %1 = "ttir.softmax"(%0) <{dimension = -1 : si32}> : (tensor<2x3x4x16xf32>) -> tensor<2x3x4x16xf32>
  %2 = "ttir.reshape"(%1) <{shape = [2 : i32, 12 : i32, 16 : i32]}> : (tensor<2x3x4x16xf32>) -> tensor<2x12x16xf32>
  return %2 : tensor<2x12x16xf32>
}

// The softmax dimension (3, stride 20) is not the last; numericStable stays.
// UP-LABEL: func.func @softmax_along_an_outer_kept_dim
// UP-NEXT: %[[R:.*]] = "ttir.reshape"(%arg0) <{shape = [2 : i32, 3 : i32, 20 : i32]}> : (tensor<2x3x4x5xf32>) -> tensor<2x3x20xf32>
// UP-NEXT: "ttir.softmax"(%[[R]]) <{dimension = 1 : si32, numericStable = true}> : (tensor<2x3x20xf32>) -> tensor<2x3x20xf32>
func.func @softmax_along_an_outer_kept_dim(%arg0: tensor<2x3x4x5xf32>) -> tensor<2x3x20xf32> {
  %0 = "ttir.softmax"(%arg0) <{dimension = 1 : si32, numericStable = true}> : (tensor<2x3x4x5xf32>) -> tensor<2x3x4x5xf32>
  %1 = "ttir.reshape"(%0) <{shape = [2 : i32, 3 : i32, 20 : i32]}> : (tensor<2x3x4x5xf32>) -> tensor<2x3x20xf32>
  return %1 : tensor<2x3x20xf32>
}

// Not favorable: the reshape merges the softmax dimension (4) with the next.
// UP-LABEL: func.func @softmax_dim_merged_by_the_reshape_stays
// UP-NEXT: "ttir.softmax"(%arg0)
// UP-NEXT: "ttir.reshape"
func.func @softmax_dim_merged_by_the_reshape_stays(%arg0: tensor<2x3x4x5xf32>) -> tensor<2x3x20xf32> {
  %0 = "ttir.softmax"(%arg0) <{dimension = 2 : si32}> : (tensor<2x3x4x5xf32>) -> tensor<2x3x4x5xf32>
  %1 = "ttir.reshape"(%0) <{shape = [2 : i32, 3 : i32, 20 : i32]}> : (tensor<2x3x4x5xf32>) -> tensor<2x3x20xf32>
  return %1 : tensor<2x3x20xf32>
}

// Not favorable: the softmax dimension (4) is half of %arg0's 20.
// DOWN-LABEL: func.func @softmax_dim_split_by_the_reshape_stays
// DOWN-NEXT: "ttir.reshape"(%arg0)
// DOWN-NEXT: "ttir.softmax"
func.func @softmax_dim_split_by_the_reshape_stays(%arg0: tensor<2x20xf32>) -> tensor<2x4x5xf32> {
  %0 = "ttir.reshape"(%arg0) <{shape = [2 : i32, 4 : i32, 5 : i32]}> : (tensor<2x20xf32>) -> tensor<2x4x5xf32>
  %1 = "ttir.softmax"(%0) <{dimension = 1 : si32}> : (tensor<2x4x5xf32>) -> tensor<2x4x5xf32>
  return %1 : tensor<2x4x5xf32>
}

// Not favorable upwards: the softmax has a reader other than the reshape.
// UP-LABEL: func.func @softmax_read_by_a_reshape_and_another_op_stays
// UP-NEXT: "ttir.softmax"(%arg0)
// UP-NEXT: "ttir.reshape"
// UP-NEXT: "ttir.exp"
func.func @softmax_read_by_a_reshape_and_another_op_stays(%arg0: tensor<2x3x4xf32>) -> (tensor<6x4xf32>, tensor<2x3x4xf32>) {
  %0 = "ttir.softmax"(%arg0) <{dimension = 2 : si32}> : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %1 = "ttir.reshape"(%0) <{shape = [6 : i32, 4 : i32]}> : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  %2 = "ttir.exp"(%0) : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %1, %2 : tensor<6x4xf32>, tensor<2x3x4xf32>
}

// UP-LABEL: func.func @reshape_then_softmax_moves_below
// UP-NEXT: "ttir.reshape"(%arg0)
// UP-NEXT: "ttir.softmax"
// DOWN-LABEL: func.func @reshape_then_softmax_moves_below
// DOWN-NEXT: %[[S:.*]] = "ttir.softmax"(%arg0) <{dimension = 2 : si32}> : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
// DOWN-NEXT: "ttir.reshape"(%[[S]]) <{shape = [6 : i32, 4 : i32]}> : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
func.func @reshape_then_softmax_moves_below(%arg0: tensor<2x3x4xf32>) -> tensor<6x4xf32> {
  %0 = "ttir.reshape"(%arg0) <{shape = [6 : i32, 4 : i32]}> : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  %1 = "ttir.softmax"(%0) <{dimension = 1 : si32}> : (tensor<6x4xf32>) -> tensor<6x4xf32>
  return %1 : tensor<6x4xf32>
}
