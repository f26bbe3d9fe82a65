// RUN: ttopt opt %s --pass-pipeline='builtin.module(basic-propagation{conservative=false})' | FileCheck %s

// sdy.propagation_barrier lets shardings through only in its allowed direction: FORWARD fills the
// result from the operand, BACKWARD the operand from the result, NONE neither (%arg2 stays
// unsharded while the result gets the function result's sharding).
// CHECK-LABEL: func.func @barriers
// CHECK-SAME: (%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b", ?}, {?}]>}, %arg2: tensor<8x8xf32>)
// CHECK-NEXT: sdy.propagation_barrier %arg0 allowed_direction=FORWARD {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>}
// CHECK-NEXT: sdy.propagation_barrier %arg1 allowed_direction=BACKWARD {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b"}, {}]>]>}
// CHECK-NEXT: sdy.propagation_barrier %arg2 allowed_direction=NONE {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b", ?}, {?}]>]>}
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @barriers(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}, %arg1: tensor<8x8xf32>, %arg2: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {}]>}) {
  %0 = sdy.propagation_barrier %arg0 allowed_direction=FORWARD : tensor<8x8xf32>
  %1 = sdy.propagation_barrier %arg1 allowed_direction=BACKWARD {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b"}, {}]>]>} : tensor<8x8xf32>
  %2 = sdy.propagation_barrier %arg2 allowed_direction=NONE : tensor<8x8xf32>
  return %0, %1, %2 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}
