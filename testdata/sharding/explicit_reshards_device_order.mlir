// RUN: ttopt opt %s --split-input-file --pass-pipeline='builtin.module(insert-explicit-reshards)' | FileCheck %s

// Meshes with the same axes but another device order: an op is computed on the order most of its
// sharded tensors use (the first to reach the count on ties), and a sharded tensor on another
// order is resharded onto it even when its axes already fit (Shardy's getMesh and
// shouldReshardToCommonMesh). Shardings are read through propagation barriers.

// CHECK-LABEL: func.func @minority_order_resharded
// CHECK-NEXT: %0 = sdy.reshard %arg1 <@mesh_iota, [{"x"}, {}]> : tensor<8x8xf32>
// CHECK-NEXT: %1 = stablehlo.add %arg0, %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_iota, [{"x"}, {}]>]>}
sdy.mesh @mesh_iota = <["x"=2, "y"=2]>
sdy.mesh @mesh_rev = <["x"=2, "y"=2], device_ids=[3, 2, 1, 0]>
func.func @minority_order_resharded(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_iota, [{"x"}, {}]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_rev, [{"x"}, {}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_iota, [{"x"}, {}]>}) {
  %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_iota, [{"x"}, {}]>]>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// The operand's sharding behind the barrier, {"x"} on dim 1, is what the negate sees.
// CHECK-LABEL: func.func @through_barrier
// CHECK-NEXT: %0 = sdy.propagation_barrier %arg0
// CHECK-NEXT: %1 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>}
// CHECK-NEXT: %2 = sdy.reshard %1 <@mesh, [{"x"}, {}]> : tensor<8x8xf32>
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @through_barrier(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %0 = sdy.propagation_barrier %arg0 allowed_direction=BACKWARD : tensor<8x8xf32>
  %1 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}
