// RUN: ttopt opt %s --pass-pipeline='builtin.module(insert-explicit-reshards)' | FileCheck %s

// reduce_window is resharded by its rule like any op (as current Shardy; the Shardy of ref §3.5
// left it alone, so an unsharded second input met a sharded first one inside the op).
sdy.mesh @m = <["a"=2, "b"=2]>

// CHECK-LABEL: func.func @two_inputs
// CHECK-NEXT: %0 = sdy.reshard %arg1 <@m, [{"b"}, {}]> : tensor<8x6xf32>
// CHECK-NEXT: %1:2 = "stablehlo.reduce_window"(%arg0, %0, %arg2, %arg2)
// CHECK: sdy.sharding = #sdy.sharding_per_value<[<@m, [{"b"}, {}]>, <@m, [{"b"}, {}]>]>
func.func @two_inputs(%arg0: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@m, [{"b"}, {}]>}, %arg1: tensor<8x6xf32>, %arg2: tensor<f32>)
    -> (tensor<4x6xf32> {sdy.sharding = #sdy.sharding<@m, [{"b"}, {}]>}, tensor<4x6xf32> {sdy.sharding = #sdy.sharding<@m, [{"b"}, {}]>}) {
  %0:2 = "stablehlo.reduce_window"(%arg0, %arg1, %arg2, %arg2) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<f32>, %d: tensor<f32>):
    %1 = stablehlo.add %a, %c : tensor<f32>
    %2 = stablehlo.add %b, %d : tensor<f32>
    stablehlo.return %1, %2 : tensor<f32>, tensor<f32>
  }) {window_dimensions = array<i64: 2, 1>, window_strides = array<i64: 2, 1>,
      sdy.sharding = #sdy.sharding_per_value<[<@m, [{"b"}, {}]>, <@m, [{"b"}, {}]>]>}
      : (tensor<8x6xf32>, tensor<8x6xf32>, tensor<f32>, tensor<f32>) -> (tensor<4x6xf32>, tensor<4x6xf32>)
  return %0#0, %0#1 : tensor<4x6xf32>, tensor<4x6xf32>
}
