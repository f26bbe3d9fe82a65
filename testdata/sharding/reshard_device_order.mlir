// RUN: ttopt opt %s --reshard-to-collectives | FileCheck %s
// Two meshes with the same axes but another device order: a reshard between them moves data even
// where the axes agree (before, it was dropped and left every shard on the wrong device). As
// Shardy: steps up to the plan's collective_permute stay on the source mesh and that permute moves
// the data onto the target's devices; with no permute in the plan, one comes first.

sdy.mesh @mesh2d = <["x"=2, "y"=2]>
sdy.mesh @mesh2d_non_iota = <["x"=2, "y"=2], device_ids=[3, 2, 1, 0]>

// CHECK-LABEL: func.func @reorder_device_ids
// CHECK-NEXT: %[[P:.*]] = sdy.collective_permute %arg0 out_sharding=<@mesh2d_non_iota, [{"x"}, {"y"}]>
// CHECK-NEXT: return %[[P]]
func.func @reorder_device_ids(%arg0 : tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh2d, [{"x"}, {"y"}]>}) -> tensor<16x8xf32> {
  %0 = sdy.reshard %arg0 <@mesh2d_non_iota, [{"x"}, {"y"}]> : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// CHECK-LABEL: func.func @reorder_axes_and_device_ids
// CHECK-NEXT: %[[P:.*]] = sdy.collective_permute %arg0 out_sharding=<@mesh2d_non_iota, [{"y", "x"}, {}]>
// CHECK-NEXT: return %[[P]]
func.func @reorder_axes_and_device_ids(%arg0 : tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh2d, [{"x", "y"}, {}]>}) -> tensor<16x8xf32> {
  %0 = sdy.reshard %arg0 <@mesh2d_non_iota, [{"y", "x"}, {}]> : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// CHECK-LABEL: func.func @reorder_device_ids_then_all_gather
// CHECK-NEXT: %[[P:.*]] = sdy.collective_permute %arg0 out_sharding=<@mesh2d_non_iota, [{"x"}, {"y"}]>
// CHECK-NEXT: %[[G:.*]] = sdy.all_gather [{}, {"y"}] %[[P]] out_sharding=<@mesh2d_non_iota, [{"x"}, {}]>
// CHECK-NEXT: return %[[G]]
func.func @reorder_device_ids_then_all_gather(%arg0 : tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh2d, [{"x"}, {"y"}]>}) -> tensor<16x8xf32> {
  %0 = sdy.reshard %arg0 <@mesh2d_non_iota, [{"x"}, {}]> : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// CHECK-LABEL: func.func @reorder_device_ids_then_two_all_to_alls
// CHECK-NEXT: %[[P:.*]] = sdy.collective_permute %arg0 out_sharding=<@mesh2d_non_iota, [{}, {"y", "x"}, {}]>
// CHECK-NEXT: %[[A:.*]] = sdy.all_to_all [{"x"}: 1->0] %[[P]] out_sharding=<@mesh2d_non_iota, [{"x"}, {"y"}, {}]>
// CHECK-NEXT: %[[B:.*]] = sdy.all_to_all [{"y"}: 1->2] %[[A]] out_sharding=<@mesh2d_non_iota, [{"x"}, {}, {"y"}]>
// CHECK-NEXT: return %[[B]]
func.func @reorder_device_ids_then_two_all_to_alls(%arg0 : tensor<16x8x8xf32> {sdy.sharding = #sdy.sharding<@mesh2d, [{}, {"y", "x"}, {}]>}) -> tensor<16x8x8xf32> {
  %0 = sdy.reshard %arg0 <@mesh2d_non_iota, [{"x"}, {}, {"y"}]> : tensor<16x8x8xf32>
  return %0 : tensor<16x8x8xf32>
}

// Same devices, same axes: still nothing to do.
// CHECK-LABEL: func.func @same_mesh_same_sharding
// CHECK-NEXT: return %arg0
func.func @same_mesh_same_sharding(%arg0 : tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh2d, [{"x"}, {"y"}]>}) -> tensor<16x8xf32> {
  %0 = sdy.reshard %arg0 <@mesh2d, [{"x"}, {"y"}]> : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// Fully replicated data is the same on every device: no permute.
// CHECK-LABEL: func.func @replicated_on_reordered_mesh
// CHECK-NEXT: return %arg0
func.func @replicated_on_reordered_mesh(%arg0 : tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh2d, [{}, {}]>}) -> tensor<16x8xf32> {
  %0 = sdy.reshard %arg0 <@mesh2d_non_iota, [{}, {}]> : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}
