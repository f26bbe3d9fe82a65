// RUN: ttopt opt %s --pass-pipeline='builtin.module(insert-explicit-reshards)' | FileCheck %s

// A need-replication factor's sharding moves to the batch-like (pass-through) factors that every
// non-scalar tensor has, whole axes in order (Shardy's distributeAxisRefsToBatchingFactors). The
// scalar start indices of a dynamic_slice do not count: before, they kept both sliced dims' axes
// from moving, and the slice ran replicated.
sdy.mesh @m = <["a"=2, "b"=2]>

// CHECK-LABEL: func.func @dynamic_slice
// CHECK-NEXT: %0 = sdy.reshard %arg0 <@m, [{"a", "b"}, {}, {}]> : tensor<16x4x8xf32>
// CHECK-NEXT: %1 = stablehlo.dynamic_slice %0, %arg1, %arg1, %arg1, sizes = [16, 2, 2] {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"a", "b"}, {}, {}]>]>}
// CHECK-NEXT: %2 = sdy.reshard %1 <@m, [{}, {}, {"b"}]> : tensor<16x2x2xf32>
// CHECK-NEXT: return %2
func.func @dynamic_slice(%arg0: tensor<16x4x8xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {"a"}, {"b"}]>}, %arg1: tensor<i32>)
    -> (tensor<16x2x2xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {}, {"b"}]>}) {
  %0 = stablehlo.dynamic_slice %arg0, %arg1, %arg1, %arg1, sizes = [16, 2, 2] {sdy.sharding = #sdy.sharding_per_value<[<@m, [{}, {}, {"b"}]>]>} : (tensor<16x4x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<16x2x2xf32>
  return %0 : tensor<16x2x2xf32>
}
