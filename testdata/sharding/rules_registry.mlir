// RUN: ttopt opt %s --split-input-file --populate-op-sharding-rules | FileCheck %s

// Rules of Shardy's newer registry (a0277a83), on ttopt's own inputs.

// Variadic all_gather: every operand and result shares the untouched dim.
// CHECK-LABEL: func.func @all_gather_two
// CHECK: #sdy.op_sharding_rule<([i, j], [i, j])->([i, k], [i, k]) {i=4, j=3, k=6} need_replication={j, k}>
func.func @all_gather_two(%a: tensor<4x3xf32>, %b: tensor<4x3xf32>) -> (tensor<4x6xf32>, tensor<4x6xf32>) {
  %0:2 = "stablehlo.all_gather"(%a, %b) {all_gather_dim = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4x3xf32>, tensor<4x3xf32>) -> (tensor<4x6xf32>, tensor<4x6xf32>)
  return %0#0, %0#1 : tensor<4x6xf32>, tensor<4x6xf32>
}

// -----

// CHECK-LABEL: func.func @batch_norm
// CHECK: #sdy.op_sharding_rule<([i, j, k], [j], [j], [j], [j])->([i, j, k]) {i=2, j=6, k=10}>
func.func @batch_norm(%x: tensor<2x6x10xf32>, %s: tensor<6xf32>) -> tensor<2x6x10xf32> {
  %0 = "stablehlo.batch_norm_inference"(%x, %s, %s, %s, %s) {epsilon = 0.001 : f32, feature_index = 1 : i64} : (tensor<2x6x10xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<2x6x10xf32>
  return %0 : tensor<2x6x10xf32>
}

// -----

// Right side, transposed: x @ a^T = b; a's rows are the contracting dim.
// CHECK-LABEL: func.func @triangular_right_transposed
// CHECK: #sdy.op_sharding_rule<([i, k, l], [i, j, k])->([i, j, l]) {i=2, j=7, k=4, l=4} need_replication={j, k, l}>
func.func @triangular_right_transposed(%a: tensor<2x4x4xf32>, %b: tensor<2x7x4xf32>) -> tensor<2x7x4xf32> {
  %0 = "stablehlo.triangular_solve"(%a, %b) {left_side = false, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose ADJOINT>} : (tensor<2x4x4xf32>, tensor<2x7x4xf32>) -> tensor<2x7x4xf32>
  return %0 : tensor<2x7x4xf32>
}

// -----

// A known custom call (Qr) gets its rule; a Qr whose shapes break its contract gets none.
// CHECK-LABEL: func.func @qr
// CHECK: #sdy.op_sharding_rule<([i, j, k])->([i, j, k], [i, l]) {i=2, j=6, k=4, l=4} need_replication={j, k, l}>
// CHECK: stablehlo.custom_call @Qr(%arg1)
// CHECK-NOT: sdy.sharding_rule
// CHECK: return
func.func @qr(%x: tensor<2x6x4xf32>, %y: tensor<6x4xf32>) -> (tensor<2x6x4xf32>, tensor<2x4xf32>, tensor<6x4xf32>) {
  %0:2 = stablehlo.custom_call @Qr(%x) : (tensor<2x6x4xf32>) -> (tensor<2x6x4xf32>, tensor<2x4xf32>)
  %1 = stablehlo.custom_call @Qr(%y) : (tensor<6x4xf32>) -> tensor<6x4xf32>
  return %0#0, %0#1, %1 : tensor<2x6x4xf32>, tensor<2x4xf32>, tensor<6x4xf32>
}

// -----

// concat(slice(x), x) moves data between devices only: the concat dim is a permutation factor.
// CHECK-LABEL: func.func @concat_of_slices
// CHECK: stablehlo.concatenate
// CHECK-SAME: #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=12, j=8} permutation={i}>
func.func @concat_of_slices(%x: tensor<8x8xf32>) -> tensor<12x8xf32> {
  %0 = stablehlo.slice %x [0:4, 0:8] : (tensor<8x8xf32>) -> tensor<4x8xf32>
  %1 = stablehlo.concatenate %0, %x, dim = 0 : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<12x8xf32>
  return %1 : tensor<12x8xf32>
}

// -----

// Constant start indices: the update's sliced dim passes through.
// CHECK-LABEL: func.func @dus_constant_indices
// CHECK: #sdy.op_sharding_rule<([i, k], [j, k], [], [])->([i, k]) {i=16, j=2, k=4}>
func.func @dus_constant_indices(%x: tensor<16x4xf32>, %u: tensor<2x4xf32>) -> tensor<16x4xf32> {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %0 = stablehlo.dynamic_update_slice %x, %u, %c, %c : (tensor<16x4xf32>, tensor<2x4xf32>, tensor<i32>, tensor<i32>) -> tensor<16x4xf32>
  return %0 : tensor<16x4xf32>
}

// -----

// 6x10 -> 10x6: the factors diverge after the common 2 and converge again.
// CHECK-LABEL: func.func @reshape_diverge
// CHECK: #sdy.op_sharding_rule<([ij, ln])->([ik, mn]) {i=2, j=3, k=5, l=5, m=3, n=2}>
func.func @reshape_diverge(%x: tensor<6x10xf32>) -> tensor<10x6xf32> {
  %0 = stablehlo.reshape %x : (tensor<6x10xf32>) -> tensor<10x6xf32>
  return %0 : tensor<10x6xf32>
}

// -----

// An unknown custom call target: a warning, no rule.
// CHECK-LABEL: func.func @unknown_target
// CHECK-NOT: sdy.sharding_rule
func.func @unknown_target(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.custom_call @my_kernel(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
