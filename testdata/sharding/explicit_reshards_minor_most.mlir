// RUN: ttopt opt %s --pass-pipeline='builtin.module(insert-explicit-reshards{conservative=false enable-full-version=false})' | FileCheck %s

// As in Shardy's projection, a dimension's minor-most factor takes all axes left, even when they
// exceed its size: a batch dim of 2 on {"b"=4} is factor b on {"b"} (before: "b":(1)2 with
// "b":(2)2 overflowing, and the op was skipped).
sdy.mesh @m = <["a"=2, "b"=4]>

// The result conflicts with both operands on the batch factor only, and holds the contracting
// factor's axes there: computed with the operands' batch sharding, then resharded.
// CHECK-LABEL: func.func @dot_batch_over_size
// CHECK-NEXT: %0 = stablehlo.dot_general %arg0, %arg1
// CHECK-SAME: {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"b"}, {}, {}]>]>}
// CHECK-NEXT: %1 = sdy.reshard %0 <@m, [{"a"}, {}, {}]>
// CHECK-NEXT: return %1
func.func @dot_batch_over_size(%arg0: tensor<2x4x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"b"}, {}, {"a"}]>},
                               %arg1: tensor<2x8x16xf32> {sdy.sharding = #sdy.sharding<@m, [{"b"}, {"a"}, {}]>}) -> tensor<2x4x16xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, batching_dims = [0] x [0], contracting_dims = [2] x [1]
      {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"a"}, {}, {}]>]>} : (tensor<2x4x8xf32>, tensor<2x8x16xf32>) -> tensor<2x4x16xf32>
  return %0 : tensor<2x4x16xf32>
}
