// RUN: ttopt opt %s --reshard-to-collectives | FileCheck %s

// Where a reshard's data comes from (Shardy's ReshardPattern): past propagation barriers (they
// move no data), from a while's block argument with the while's sharding, and across meshes with
// other axes only when the target is replicated (gathered on the source's mesh; otherwise the
// reshard stays). Before: the barrier's result and the block argument read as unsharded, and the
// gather over another mesh named a sub-axis "x":(1)6 of the target's 2-device "x".
sdy.mesh @m = <["a"=2, "b"=2]>
sdy.mesh @six = <["x"=6]>
sdy.mesh @two_by_three = <["x"=2, "y"=3]>

// CHECK-LABEL: func.func @through_barrier
// CHECK-NEXT: %0 = sdy.propagation_barrier %arg0
// CHECK-NEXT: %1 = sdy.all_gather [{"a"}, {}] %arg0 out_sharding=<@m, [{}, {}]>
// CHECK-NEXT: return %1
func.func @through_barrier(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"a"}, {}]>}) -> tensor<8x8xf32> {
  %0 = sdy.propagation_barrier %arg0 allowed_direction=FORWARD : tensor<8x8xf32>
  %1 = sdy.reshard %0 <@m, [{}, {}]> : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// CHECK-LABEL: func.func @while_block_argument
// CHECK: do {
// CHECK-NEXT: %1 = sdy.all_to_all [{"b"}: 0->1] %iterArg out_sharding=<@m, [{}, {"b"}]>
func.func @while_block_argument(%arg0: tensor<8x8xf32>, %arg1: tensor<i1>) -> tensor<8x8xf32> {
  %0 = stablehlo.while(%iterArg = %arg0) : tensor<8x8xf32>
    attributes {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"b"}, {}]>]>}
    cond {
    stablehlo.return %arg1 : tensor<i1>
  } do {
    %1 = sdy.reshard %iterArg <@m, [{}, {"b"}]> : tensor<8x8xf32>
    stablehlo.return %1 : tensor<8x8xf32>
  }
  return %0 : tensor<8x8xf32>
}

// CHECK-LABEL: func.func @other_mesh_replicated
// CHECK-NEXT: %0 = sdy.all_gather [{"x"}, {}] %arg0 out_sharding=<@six, [{}, {}]>
func.func @other_mesh_replicated(%arg0: tensor<12x8xf32> {sdy.sharding = #sdy.sharding<@six, [{"x"}, {}]>}) -> tensor<12x8xf32> {
  %0 = sdy.reshard %arg0 <@two_by_three, [{}, {}]> : tensor<12x8xf32>
  return %0 : tensor<12x8xf32>
}

// CHECK-LABEL: func.func @other_mesh_sharded
// CHECK-NEXT: %0 = sdy.reshard %arg0 <@two_by_three, [{"y"}, {}]>
func.func @other_mesh_sharded(%arg0: tensor<12x8xf32> {sdy.sharding = #sdy.sharding<@six, [{"x"}, {}]>}) -> tensor<12x8xf32> {
  %0 = sdy.reshard %arg0 <@two_by_three, [{"y"}, {}]> : tensor<12x8xf32>
  return %0 : tensor<12x8xf32>
}

// Unreduced axes stay on the out_sharding of every whole-axis collective (they were dropped:
// the all_to_all below read as reduced over "x").
// CHECK-LABEL: func.func @unreduced_kept
// CHECK-NEXT: %0 = sdy.all_to_all [{"b"}: 0->1] %arg0 out_sharding=<@m, [{}, {"b"}], unreduced={"a"}> : tensor<16x16xf32>
// CHECK-NEXT: return %0
func.func @unreduced_kept(%arg0: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@m, [{"b"}, {}], unreduced={"a"}>}) -> tensor<16x16xf32> {
  %0 = sdy.reshard %arg0 <@m, [{}, {"b"}], unreduced={"a"}> : tensor<16x16xf32>
  return %0 : tensor<16x16xf32>
}
