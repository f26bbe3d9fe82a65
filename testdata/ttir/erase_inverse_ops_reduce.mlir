// RUN: ttopt opt %s --ttir-erase-inverse-ops="enable-commute-downwards=false" | FileCheck %s --check-prefix=UP
// RUN: ttopt opt %s --ttir-erase-inverse-ops="enable-commute-upwards=false" | FileCheck %s --check-prefix=DOWN

// Permutes and reshapes through the reductions (sum, mean, max, min, prod, reduce_and, reduce_or,
// argmax). UP moves TMs above the reduction, DOWN below it; each case is run both ways.

// Either way the permutes meet and fold: the sum reads %arg0 along the dimensions the permute named.
// UP-LABEL: func.func @permute_sum_permute_keep_dim
// UP-NEXT: %[[S:.*]] = "ttir.sum"(%arg0) <{dim_arg = [1 : i32, 2 : i32], keep_dim = true}> : (tensor<2x3x4x5xf32>) -> tensor<2x1x1x5xf32>
// UP-NEXT: return %[[S]]
// DOWN-LABEL: func.func @permute_sum_permute_keep_dim
// DOWN-NEXT: %[[S:.*]] = "ttir.sum"(%arg0) <{dim_arg = [1 : i32, 2 : i32], keep_dim = true}> : (tensor<2x3x4x5xf32>) -> tensor<2x1x1x5xf32>
// DOWN-NEXT: return %[[S]]
func.func @permute_sum_permute_keep_dim(%arg0: tensor<2x3x4x5xf32>) -> tensor<2x1x1x5xf32> {
  %0 = "ttir.permute"(%arg0) <{permutation = array<i64: 0, 3, 1, 2>}> : (tensor<2x3x4x5xf32>) -> tensor<2x5x3x4xf32>
  %1 = "ttir.sum"(%0) <{dim_arg = [2 : i32, 3 : i32], keep_dim = true}> : (tensor<2x5x3x4xf32>) -> tensor<2x5x1x1xf32>
  %2 = "ttir.permute"(%1) <{permutation = array<i64: 0, 2, 3, 1>}> : (tensor<2x5x1x1xf32>) -> tensor<2x1x1x5xf32>
  return %2 : tensor<2x1x1x5xf32>
}

// Without keep_dim the permute of the 2 kept dimensions widens to the 4 of the input, the reduced
// ones staying in place.
// UP-LABEL: func.func @mean_without_keep_dim_then_permute
// UP-NEXT: %[[P:.*]] = "ttir.permute"(%arg0) <{permutation = array<i64: 3, 1, 2, 0>}> : (tensor<2x3x4x5xf32>) -> tensor<5x3x4x2xf32>
// UP-NEXT: "ttir.mean"(%[[P]]) <{dim_arg = [1 : i32, 2 : i32], keep_dim = false}> : (tensor<5x3x4x2xf32>) -> tensor<5x2xf32>
// DOWN-LABEL: func.func @mean_without_keep_dim_then_permute
// DOWN-NEXT: "ttir.mean"(%arg0)
// DOWN-NEXT: "ttir.permute"
func.func @mean_without_keep_dim_then_permute(%arg0: tensor<2x3x4x5xf32>) -> tensor<5x2xf32> {
  %0 = "ttir.mean"(%arg0) <{dim_arg = [1 : i32, 2 : i32], keep_dim = false}> : (tensor<2x3x4x5xf32>) -> tensor<2x5xf32>
  %1 = "ttir.permute"(%0) <{permutation = array<i64: 1, 0>}> : (tensor<2x5xf32>) -> tensor<5x2xf32>
  return %1 : tensor<5x2xf32>
}

// Downwards without keep_dim: the permute loses the reduced position and is renumbered.
// UP-LABEL: func.func @permute_then_max_without_keep_dim
// UP-NEXT: "ttir.permute"(%arg0)
// UP-NEXT: "ttir.max"
// DOWN-LABEL: func.func @permute_then_max_without_keep_dim
// DOWN-NEXT: %[[M:.*]] = "ttir.max"(%arg0) <{dim_arg = [2 : i32], keep_dim = false}> : (tensor<2x3x4x5xf32>) -> tensor<2x3x5xf32>
// DOWN-NEXT: "ttir.permute"(%[[M]]) <{permutation = array<i64: 0, 2, 1>}> : (tensor<2x3x5xf32>) -> tensor<2x5x3xf32>
func.func @permute_then_max_without_keep_dim(%arg0: tensor<2x3x4x5xf32>) -> tensor<2x5x3xf32> {
  %0 = "ttir.permute"(%arg0) <{permutation = array<i64: 0, 2, 3, 1>}> : (tensor<2x3x4x5xf32>) -> tensor<2x4x5x3xf32>
  %1 = "ttir.max"(%0) <{dim_arg = [-3 : i32], keep_dim = false}> : (tensor<2x4x5x3xf32>) -> tensor<2x5x3xf32>
  return %1 : tensor<2x5x3xf32>
}

// Without dim_arg every dimension is reduced; the commute writes them out, through the permute.
// DOWN-LABEL: func.func @permute_then_prod_of_every_dim
// DOWN-NEXT: %[[P:.*]] = "ttir.prod"(%arg0) <{dim_arg = [2 : i32, 0 : i32, 1 : i32], keep_dim = true}> : (tensor<2x3x4xf32>) -> tensor<1x1x1xf32>
// DOWN-NEXT: return %[[P]]
func.func @permute_then_prod_of_every_dim(%arg0: tensor<2x3x4xf32>) -> tensor<1x1x1xf32> {
  %0 = "ttir.permute"(%arg0) <{permutation = array<i64: 2, 0, 1>}> : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  %1 = "ttir.prod"(%0) <{keep_dim = true}> : (tensor<4x2x3xf32>) -> tensor<1x1x1xf32>
  return %1 : tensor<1x1x1xf32>
}

// UP-LABEL: func.func @reduce_or_between_inverse_permutes
// UP-NEXT: "ttir.reduce_or"(%arg0) <{dim_arg = [1 : i32], keep_dim = true}> : (tensor<2x3x4xi1>) -> tensor<2x1x4xi1>
// UP-NEXT: return
func.func @reduce_or_between_inverse_permutes(%arg0: tensor<2x3x4xi1>) -> tensor<2x1x4xi1> {
  %0 = "ttir.permute"(%arg0) <{permutation = array<i64: 2, 0, 1>}> : (tensor<2x3x4xi1>) -> tensor<4x2x3xi1>
  %1 = "ttir.reduce_or"(%0) <{dim_arg = [2 : i32], keep_dim = true}> : (tensor<4x2x3xi1>) -> tensor<4x2x1xi1>
  %2 = "ttir.permute"(%1) <{permutation = array<i64: 1, 2, 0>}> : (tensor<4x2x1xi1>) -> tensor<2x1x4xi1>
  return %2 : tensor<2x1x4xi1>
}

// UP-LABEL: func.func @argmax_over_one_dim_between_inverse_permutes
// UP-NEXT: "ttir.argmax"(%arg0) <{dim_arg = [1 : i32], keep_dim = true}> : (tensor<2x3x4x5xf32>) -> tensor<2x1x4x5xi32>
// UP-NEXT: return
// DOWN-LABEL: func.func @argmax_over_one_dim_between_inverse_permutes
// DOWN-NEXT: "ttir.argmax"(%arg0) <{dim_arg = [1 : i32], keep_dim = true}> : (tensor<2x3x4x5xf32>) -> tensor<2x1x4x5xi32>
// DOWN-NEXT: return
func.func @argmax_over_one_dim_between_inverse_permutes(%arg0: tensor<2x3x4x5xf32>) -> tensor<2x1x4x5xi32> {
  %0 = "ttir.permute"(%arg0) <{permutation = array<i64: 0, 3, 1, 2>}> : (tensor<2x3x4x5xf32>) -> tensor<2x5x3x4xf32>
  %1 = "ttir.argmax"(%0) <{dim_arg = [2 : i32], keep_dim = true}> : (tensor<2x5x3x4xf32>) -> tensor<2x5x1x4xi32>
  %2 = "ttir.permute"(%1) <{permutation = array<i64: 0, 2, 3, 1>}> : (tensor<2x5x1x4xi32>) -> tensor<2x1x4x5xi32>
  return %2 : tensor<2x1x4x5xi32>
}

// Not viable: an argmax's index counts through its reduced dimensions in order, and this permute
// swaps the two (of sizes 4 and 3). HEAD moves it anyway.
// UP-LABEL: func.func @argmax_over_two_dims_keeps_its_permutes
// UP-NEXT: "ttir.permute"(%arg0)
// UP-NEXT: "ttir.argmax"
// UP-NEXT: "ttir.permute"
// DOWN-LABEL: func.func @argmax_over_two_dims_keeps_its_permutes
// DOWN-NEXT: "ttir.permute"(%arg0)
// DOWN-NEXT: "ttir.argmax"
// DOWN-NEXT: "ttir.permute"
func.func @argmax_over_two_dims_keeps_its_permutes(%arg0: tensor<2x3x4x5xf32>) -> tensor<2x1x1x5xi32> {
  %0 = "ttir.permute"(%arg0) <{permutation = array<i64: 0, 3, 2, 1>}> : (tensor<2x3x4x5xf32>) -> tensor<2x5x4x3xf32>
  %1 = "ttir.argmax"(%0) <{dim_arg = [2 : i32, 3 : i32], keep_dim = true}> : (tensor<2x5x4x3xf32>) -> tensor<2x5x1x1xi32>
  %2 = "ttir.permute"(%1) <{permutation = array<i64: 0, 3, 2, 1>}> : (tensor<2x5x1x1xi32>) -> tensor<2x1x1x5xi32>
  return %2 : tensor<2x1x1x5xi32>
}

// Not favorable: the sum has a reader other than the permute.
// UP-LABEL: func.func @reduce_read_by_a_permute_and_another_op
// UP-NEXT: "ttir.sum"(%arg0)
// UP-NEXT: "ttir.permute"
// UP-NEXT: "ttir.neg"
func.func @reduce_read_by_a_permute_and_another_op(%arg0: tensor<2x3x4xf32>) -> (tensor<1x2x4xf32>, tensor<2x1x4xf32>) {
  %0 = "ttir.sum"(%arg0) <{dim_arg = [1 : i32], keep_dim = true}> : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
  %1 = "ttir.permute"(%0) <{permutation = array<i64: 1, 0, 2>}> : (tensor<2x1x4xf32>) -> tensor<1x2x4xf32>
  %2 = "ttir.neg"(%0) : (tensor<2x1x4xf32>) -> tensor<2x1x4xf32>
  return %1, %2 : tensor<1x2x4xf32>, tensor<2x1x4xf32>
}

// The reshape keeps the summed dimension (16, stride 1): it moves below the sum, onto its smaller
// result. Upwards nothing moves.
// UP-LABEL: func.func @reshape_then_sum_along_a_kept_dim
// UP-NEXT: "ttir.reshape"(%arg0)
// UP-NEXT: "ttir.sum"
// DOWN-LABEL: func.func @reshape_then_sum_along_a_kept_dim
// DOWN-NEXT: %[[S:.*]] = "ttir.sum"(%arg0) <{dim_arg = [2 : i32], keep_dim = true}> : (tensor<1x8x16xf32>) -> tensor<1x8x1xf32>
// DOWN-NEXT: "ttir.reshape"(%[[S]]) <{shape = [8 : i32, 1 : i32, 1 : i32]}> : (tensor<1x8x1xf32>) -> tensor<8x1x1xf32>
func.func @reshape_then_sum_along_a_kept_dim(%arg0: tensor<1x8x16xf32>) -> tensor<8x1x1xf32> {
  %0 = "ttir.reshape"(%arg0) <{shape = [8 : i32, 1 : i32, 16 : i32]}> : (tensor<1x8x16xf32>) -> tensor<8x1x16xf32>
  %1 = "ttir.sum"(%0) <{dim_arg = [-1 : i32], keep_dim = true}> : (tensor<8x1x16xf32>) -> tensor<8x1x1xf32>
  return %1 : tensor<8x1x1xf32>
}

// Every dimension of either shape: the reshape that follows is an identity and folds.
// DOWN-LABEL: func.func @reshape_then_mean_of_every_dim
// DOWN-NEXT: %[[M:.*]] = "ttir.mean"(%arg0) <{dim_arg = [0 : i32, 1 : i32, 2 : i32], keep_dim = false}> : (tensor<2x3x4xf32>) -> tensor<f32>
// DOWN-NEXT: return %[[M]]
func.func @reshape_then_mean_of_every_dim(%arg0: tensor<2x3x4xf32>) -> tensor<f32> {
  %0 = "ttir.reshape"(%arg0) <{shape = [6 : i32, 4 : i32]}> : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  %1 = "ttir.mean"(%0) <{keep_dim = false}> : (tensor<6x4xf32>) -> tensor<f32>
  return %1 : tensor<f32>
}

// Not favorable: the summed dimension (6) merges two of %arg0's.
// DOWN-LABEL: func.func @reshape_merging_the_reduced_dim_stays
// DOWN-NEXT: "ttir.reshape"(%arg0)
// DOWN-NEXT: "ttir.sum"
func.func @reshape_merging_the_reduced_dim_stays(%arg0: tensor<2x3x4xf32>) -> tensor<1x4xf32> {
  %0 = "ttir.reshape"(%arg0) <{shape = [6 : i32, 4 : i32]}> : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  %1 = "ttir.sum"(%0) <{dim_arg = [0 : i32], keep_dim = true}> : (tensor<6x4xf32>) -> tensor<1x4xf32>
  return %1 : tensor<1x4xf32>
}

// A sum over a size-1 dimension keeps every element, so the reshape can read its input; the summed
// dimension is the innermost size-1 one of the stride 8.
// UP-LABEL: func.func @reshape_above_a_reduction_of_size_one_dims
// UP-NEXT: %[[R:.*]] = "ttir.reshape"(%arg0) <{shape = [2 : i32, 1 : i32, 1 : i32, 8 : i32]}> : (tensor<2x1x8xf32>) -> tensor<2x1x1x8xf32>
// UP-NEXT: "ttir.sum"(%[[R]]) <{dim_arg = [2 : i32], keep_dim = true}> : (tensor<2x1x1x8xf32>) -> tensor<2x1x1x8xf32>
func.func @reshape_above_a_reduction_of_size_one_dims(%arg0: tensor<2x1x8xf32>) -> tensor<2x1x1x8xf32> {
  %0 = "ttir.sum"(%arg0) <{dim_arg = [1 : i32], keep_dim = true}> : (tensor<2x1x8xf32>) -> tensor<2x1x8xf32>
  %1 = "ttir.reshape"(%0) <{shape = [2 : i32, 1 : i32, 1 : i32, 8 : i32]}> : (tensor<2x1x8xf32>) -> tensor<2x1x1x8xf32>
  return %1 : tensor<2x1x1x8xf32>
}

// Not viable: the sum reduces 8 elements to 1, so a reshape of its input cannot have its result's shape.
// UP-LABEL: func.func @reshape_below_a_real_reduction_stays
// UP-NEXT: "ttir.sum"(%arg0)
// UP-NEXT: "ttir.reshape"
func.func @reshape_below_a_real_reduction_stays(%arg0: tensor<1x4x8xf32>) -> tensor<4x1xf32> {
  %0 = "ttir.sum"(%arg0) <{dim_arg = [2 : i32], keep_dim = true}> : (tensor<1x4x8xf32>) -> tensor<1x4x1xf32>
  %1 = "ttir.reshape"(%0) <{shape = [4 : i32, 1 : i32]}> : (tensor<1x4x1xf32>) -> tensor<4x1xf32>
  return %1 : tensor<4x1xf32>
}

// Not favorable: both summed size-1 dimensions would become dimension 1 of the reshaped tensor, a
// repeated dim_arg HEAD's reduce verifier rejects (HEAD writes it).
// UP-LABEL: func.func @size_one_dims_meeting_in_one_stay
// UP-NEXT: "ttir.sum"(%arg0)
// UP-NEXT: "ttir.reshape"
func.func @size_one_dims_meeting_in_one_stay(%arg0: tensor<2x1x1x8xf32>) -> tensor<2x1x8xf32> {
  %0 = "ttir.sum"(%arg0) <{dim_arg = [1 : i32, 2 : i32], keep_dim = true}> : (tensor<2x1x1x8xf32>) -> tensor<2x1x1x8xf32>
  %1 = "ttir.reshape"(%0) <{shape = [2 : i32, 1 : i32, 8 : i32]}> : (tensor<2x1x1x8xf32>) -> tensor<2x1x8xf32>
  return %1 : tensor<2x1x8xf32>
}
