// RUN: ttopt opt %s --split-input-file --pass-pipeline='builtin.module(insert-explicit-reshards{enable-full-version=false})' | FileCheck %s

// enable-full-version=false (Shardy's partial mode): a dot whose result conflicts with both
// operands in one non-contracting dim, on the contracting axes, is computed with the operand's
// axes there and its smaller result resharded; no all_reduce, no reshard at the return.
// CHECK-LABEL: func.func @dot_result_takes_lhs_axes
// CHECK-NEXT: %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {?}]>]>}
// CHECK-NEXT: %1 = sdy.reshard %0 <@mesh, [{"x"}, {?}]> : tensor<4x8xf32>
// CHECK-NEXT: return %1 : tensor<4x8xf32>
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @dot_result_takes_lhs_axes(%arg0: tensor<4x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>}, %arg1: tensor<32x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {?}]>]>} : (tensor<4x32xf32>, tensor<32x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// Other ops are left alone; a concatenate whose operands are sharded like its result too, one
// with an operand sharded differently is resharded as in the full version.
// CHECK-LABEL: func.func @partial_leaves_others
// CHECK-NEXT: %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>}
// CHECK-NEXT: %1 = stablehlo.concatenate %0, %0, dim = 0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>}
// The concat dim (need-replication) keeps "y" after the result's "x" wins on the other dim,
// and gives it to that dim (Shardy's findCommonAxesHeuristic + distribution to batching factors).
// CHECK-NEXT: %2 = sdy.reshard %0 <@mesh, [{}, {"x", "y"}]> : tensor<8x8xf32>
// CHECK-NEXT: %3 = sdy.reshard %arg1 <@mesh, [{}, {"x", "y"}]> : tensor<8x8xf32>
// CHECK-NEXT: %4 = stablehlo.concatenate %2, %3, dim = 0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x", "y"}]>]>}
// CHECK-NEXT: %5 = sdy.reshard %4 <@mesh, [{}, {"x"}]> : tensor<16x8xf32>
// CHECK-NEXT: return %1, %5
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @partial_leaves_others(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> (tensor<16x8xf32>, tensor<16x8xf32>) {
  %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x8xf32>
  %1 = stablehlo.concatenate %0, %0, dim = 0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<16x8xf32>
  %2 = stablehlo.concatenate %0, %arg1, dim = 0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<16x8xf32>
  return %1, %2 : tensor<16x8xf32>, tensor<16x8xf32>
}
