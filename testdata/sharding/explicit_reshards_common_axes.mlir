// RUN: ttopt opt %s --split-input-file --pass-pipeline='builtin.module(insert-explicit-reshards)' | FileCheck %s

// How insert-explicit-reshards picks one sharding per factor when the tensors disagree (Shardy's
// findCommonAxesHeuristic): a (factor, axes) candidate counts every tensor whose axes for the
// factor start with it, so the common prefix {"x"} wins first and is then extended; equal
// candidates go to the later factor, and pass-through factors win over reduction factors.

// {"x"} is the prefix all three tensors share; its extensions {"x", "y"} and {"x", "z"} then
// tie and the larger axis list ("z" after "y") wins.
// CHECK-LABEL: func.func @common_prefix_then_extension
// CHECK-NEXT: %0 = sdy.reshard %arg0 <@mesh, [{"x", "z"}]> : tensor<16xf32>
// CHECK-NEXT: %1 = sdy.reshard %arg1 <@mesh, [{"x", "z"}]> : tensor<16xf32>
// CHECK-NEXT: %2 = stablehlo.add %0, %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "z"}]>]>}
sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>
func.func @common_prefix_then_extension(%arg0: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}]>}, %arg1: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "z"}]>}) {
  %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "z"}]>]>} : tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

// "x" on dim 0 of one operand and on dim 1 of the other, the result replicated: the two
// candidates tie and the later factor (dim 1) takes "x".
// CHECK-LABEL: func.func @tie_goes_to_later_factor
// CHECK-NEXT: %0 = sdy.reshard %arg0 <@mesh, [{}, {"x"}]> : tensor<8x8xf32>
// CHECK-NEXT: %1 = stablehlo.add %0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>}
// CHECK-NEXT: %2 = sdy.reshard %1 <@mesh, [{}, {}]> : tensor<8x8xf32>
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @tie_goes_to_later_factor(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) {
  %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// The contracting factor and the result's non-contracting factor both claim "x" from tensors of
// the same size: the pass-through factor wins, the lhs is resharded and nothing is all-reduced.
// CHECK-LABEL: func.func @pass_through_before_reduction
// CHECK-NEXT: %0 = sdy.reshard %arg0 <@mesh, [{"x"}, {}]> : tensor<8x8xf32>
// CHECK-NEXT: %1 = stablehlo.dot_general %0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>}
// CHECK-NOT: sdy.all_reduce
// CHECK: return %1
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @pass_through_before_reduction(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
