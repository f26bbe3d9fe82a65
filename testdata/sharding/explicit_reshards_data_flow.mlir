// RUN: ttopt opt %s --split-input-file --pass-pipeline='builtin.module(insert-explicit-reshards{conservative=false})' | FileCheck %s
// RUN: ttopt opt %s --split-input-file --pass-pipeline='builtin.module(insert-explicit-reshards)' | FileCheck %s --check-prefix=SEED

// With conservative=false (Shardy's behaviour at the pinned lit tests), data-flow ops own edges:
// each value flowing into a result (a while's operand and body yield, a barrier's operand) is
// resharded right after its definition to the result's sharding, and the ops inside the while
// body are fixed like any other. StableHLO collectives are resharded by their rules (the gather
// dim of an all_gather is need-replication). Conservatively (the default, which seed 004 follows)
// both stay alone: case 5's inconsistent all_gather must reach step 11 with the seed's shardings.

// CHECK-LABEL: func.func @while_edges
// CHECK-NEXT: %0 = sdy.reshard %arg0 <@mesh, [{"y"}]> : tensor<16xf32>
// CHECK: stablehlo.while(%iterArg = %0)
// The body's negate reads %iterArg with the while result's sharding {"y"}; operand and result
// tie, so it runs on the operand's and its result is resharded back, then to the yield's edge.
// CHECK: %2 = stablehlo.negate %iterArg {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}]>]>}
// CHECK-NEXT: %3 = sdy.reshard %2 <@mesh, [{"x"}]> : tensor<16xf32>
// CHECK-NEXT: %4 = sdy.reshard %3 <@mesh, [{"y"}]> : tensor<16xf32>
// CHECK-NEXT: stablehlo.return %4
// SEED-LABEL: func.func @while_edges
// SEED-NOT: sdy.reshard
// SEED: return
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @while_edges(%arg0: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, %arg1: tensor<i1>) -> (tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) {
  %0 = stablehlo.while(%iterArg = %arg0) : tensor<16xf32> attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}]>]>}
  cond {
    stablehlo.return %arg1 : tensor<i1>
  } do {
    %1 = stablehlo.negate %iterArg {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<16xf32>
    stablehlo.return %1 : tensor<16xf32>
  }
  return %0 : tensor<16xf32>
}

// -----

// CHECK-LABEL: func.func @barrier_edge
// CHECK-NEXT: %0 = sdy.reshard %arg0 <@mesh, [{}]> : tensor<16xf32>
// CHECK-NEXT: %1 = stablehlo.optimization_barrier %0
// SEED-LABEL: func.func @barrier_edge
// SEED-NEXT: %0 = stablehlo.optimization_barrier %arg0
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @barrier_edge(%arg0: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<16xf32> {
  %0 = stablehlo.optimization_barrier %arg0 : tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

// CHECK-LABEL: func.func @all_gather_by_rule
// CHECK-NEXT: %0 = sdy.reshard %arg0 <@mesh, [{}, {"y"}]> : tensor<8x8xf32>
// CHECK-NEXT: %1 = "stablehlo.all_gather"(%0)
// CHECK-SAME: {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>}
// CHECK-NEXT: %2 = sdy.reshard %1 <@mesh, [{"x"}, {"y"}]> : tensor<16x8xf32>
// SEED-LABEL: func.func @all_gather_by_rule
// SEED-NEXT: %0 = "stablehlo.all_gather"(%arg0)
// SEED-NOT: sdy.reshard
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @all_gather_by_rule(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) {
  %0 = "stablehlo.all_gather"(%arg0) <{all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>}> {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : (tensor<8x8xf32>) -> tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// -----

// A manual computation's body sees its shardings without the manual axes: the body's abs runs
// on the block argument's local {"y"}, and the yield is resharded to the local out sharding
// {"z"} (out_shardings {"x", "z"} minus the manual "x"). Its operand's unreduced "z" is not
// kept by the in_sharding: all-reduced first.
// CHECK-LABEL: func.func @manual_body
// CHECK-NEXT: %0 = sdy.all_reduce {"z"} %arg0 out_sharding=<@mesh, [{"x", "y"}]>
// CHECK-NEXT: %1 = sdy.manual_computation(%0)
// CHECK-NEXT: %3 = stablehlo.abs %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}]>]>}
// CHECK-NEXT: %4 = sdy.reshard %3 <@mesh, [{"z"}]> : tensor<8xf32>
// CHECK-NEXT: sdy.return %4
// SEED-LABEL: func.func @manual_body
// SEED-NOT: sdy.reshard
// SEED: return
sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>
func.func @manual_body(%arg0: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}], unreduced={"z"}>}) -> (tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "z"}]>}) {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x", "y"}]>] out_shardings=[<@mesh, [{"x", "z"}]>] manual_axes={"x"} (%arg1: tensor<8xf32>) {
    %1 = stablehlo.abs %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}]>]>} : tensor<8xf32>
    sdy.return %1 : tensor<8xf32>
  } : (tensor<16xf32>) -> tensor<16xf32>
  %2 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "z"}]>]>} : tensor<16xf32>
  return %2 : tensor<16xf32>
}
