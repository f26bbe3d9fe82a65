// RUN: ttopt opt %s --split-input-file --apply-sharding-constraints | FileCheck %s

// A constraint on an sdy.data_flow_edge result is not copied onto the edge (that would restrict
// every target of the edge): it moves right after the edge and every other user reads it.
// CHECK-LABEL: func.func @edge_result
// CHECK-NEXT: %0 = sdy.data_flow_edge %arg0 : tensor<8x8xf32>
// CHECK-NEXT: %1 = sdy.sharding_constraint %0 <@mesh, [{}, {"b"}]> : tensor<8x8xf32>
// CHECK-NEXT: %2 = stablehlo.add %1, %1 : tensor<8x8xf32>
// CHECK-NEXT: return %1, %1, %2
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @edge_result(%arg0: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) {
  %0 = sdy.data_flow_edge %arg0 : tensor<8x8xf32>
  %1 = stablehlo.add %0, %0 : tensor<8x8xf32>
  %2 = sdy.sharding_constraint %0 <@mesh, [{}, {"b"}]> : tensor<8x8xf32>
  return %0, %2, %1 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

// A manual computation reading the value with the constraint's sharding does not block it.
// CHECK-LABEL: func.func @manual_same_sharding
// CHECK-NEXT: stablehlo.add %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"b"}]>]>}
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @manual_same_sharding(%arg0: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %0 = stablehlo.add %arg0, %arg0 : tensor<8x8xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{}, {"b"}]> : tensor<8x8xf32>
  %2 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{}, {"b"}]>] out_shardings=[<@mesh, [{}, {"b"}]>] manual_axes={"b"} (%arg1: tensor<8x4xf32>) {
    sdy.return %arg1 : tensor<8x4xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %1, %2 : tensor<8x8xf32>, tensor<8x8xf32>
}
