// RUN: ttopt opt %s --split-input-file --apply-sharding-constraints | FileCheck %s

// A chain of two constraints on an unsharded value: users after the chain read its tail; a
// user before it and the return keep the value.
sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-LABEL: func.func @chain
// CHECK-NEXT: %[[ABS:.*]] = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>}
// CHECK-NEXT: %[[EARLY:.*]] = stablehlo.negate %[[ABS]]
// CHECK-NEXT: %[[C0:.*]] = sdy.sharding_constraint %[[ABS]] <@mesh, [{}, {"y"}]>
// CHECK-NEXT: %[[C1:.*]] = sdy.sharding_constraint %[[C0]] <@mesh, [{"x"}, {}]>
// CHECK-NEXT: %[[LATE:.*]] = stablehlo.exponential %[[C1]]
// CHECK-NEXT: return %[[ABS]], %[[EARLY]], %[[LATE]]
func.func @chain(%arg0: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) {
  %0 = stablehlo.abs %arg0 : tensor<4x4xf32>
  %1 = stablehlo.negate %0 : tensor<4x4xf32>
  %2 = sdy.sharding_constraint %0 <@mesh, [{}, {"y"}]> : tensor<4x4xf32>
  %3 = sdy.sharding_constraint %2 <@mesh, [{"x"}, {}]> : tensor<4x4xf32>
  %4 = stablehlo.exponential %0 : tensor<4x4xf32>
  return %0, %1, %4 : tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>
}

// -----

// A chain whose tail feeds a manual computation is left alone.
sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-LABEL: func.func @chain_into_manual
// CHECK: sdy.sharding_constraint %1 <@mesh, [{"x"}, {}]>
// CHECK-NEXT: stablehlo.exponential %0
func.func @chain_into_manual(%arg0: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %0 = stablehlo.abs %arg0 : tensor<4x4xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{}, {"y"}]> : tensor<4x4xf32>
  %2 = sdy.sharding_constraint %1 <@mesh, [{"x"}, {}]> : tensor<4x4xf32>
  %3 = stablehlo.exponential %0 : tensor<4x4xf32>
  %4 = sdy.manual_computation(%2) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"} (%arg1: tensor<2x4xf32>) {
    sdy.return %arg1 : tensor<2x4xf32>
  } : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %4, %3 : tensor<4x4xf32>, tensor<4x4xf32>
}
