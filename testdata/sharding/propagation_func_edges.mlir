// RUN: ttopt opt %s --split-input-file --basic-propagation=conservative=false | FileCheck %s

// sdy.func_data_flow_edge on a function argument reads every call's operand; on a call result,
// the callee's returned value. The call and the block argument keep no sharding.
sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-LABEL: func.func private @scale(
// CHECK-NEXT: %[[ARG:.*]] = sdy.func_data_flow_edge %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {"y", ?}]>]>}
// CHECK-NEXT: stablehlo.multiply %[[ARG]], %[[ARG]] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {"y", ?}]>]>}
func.func private @scale(%arg0: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = sdy.func_data_flow_edge %arg0 : tensor<8x4xf32>
  %1 = stablehlo.multiply %0, %0 : tensor<8x4xf32>
  return %1 : tensor<8x4xf32>
}

// CHECK-LABEL: func.func @caller(
// CHECK-NEXT: %[[CALL:.*]] = call @scale(%arg0) : (tensor<8x4xf32>) -> tensor<8x4xf32>
// CHECK-NEXT: %[[EDGE:.*]] = sdy.func_data_flow_edge %[[CALL]] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {"y", ?}]>]>}
// CHECK-NEXT: stablehlo.negate %[[EDGE]] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {"y", ?}]>]>}
func.func @caller(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<8x4xf32> {
  %0 = call @scale(%arg0) : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %1 = sdy.func_data_flow_edge %0 : tensor<8x4xf32>
  %2 = stablehlo.negate %1 : tensor<8x4xf32>
  return %2 : tensor<8x4xf32>
}

// -----

// A function nobody calls: its argument edge has no source, so the argument's users alone shard it.
sdy.mesh @mesh = <["x"=2]>

// CHECK-LABEL: func.func private @unused(%arg0: tensor<8xf32>)
// CHECK-NEXT: sdy.func_data_flow_edge %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}]>]>} : tensor<8xf32>
func.func private @unused(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.func_data_flow_edge %arg0 : tensor<8xf32>
  %1 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----

// A sharding on a maximal mesh has rank 0 whatever the tensor's rank, and propagation does not
// cross it.
sdy.mesh @mesh = <["x"=2]>
sdy.mesh @maximal = <[], device_ids=[0]>

// CHECK-LABEL: func.func @maximal_rank_two
// CHECK: stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>]>}
// CHECK-NEXT: stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>}
func.func @maximal_rank_two(%arg0: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<4x4xf32> {
  %0 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>]>} : tensor<4x4xf32>
  %1 = stablehlo.negate %0 : tensor<4x4xf32>
  %2 = stablehlo.add %1, %arg0 : tensor<4x4xf32>
  return %2 : tensor<4x4xf32>
}
