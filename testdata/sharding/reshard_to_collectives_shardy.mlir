// RUN: ttopt opt %s --pass-pipeline='builtin.module(reshard-to-collectives{conservative=false})' | FileCheck %s
// reshard-to-collectives{conservative=false}: Shardy's CollectiveInserter, sub-axes and all. Each
// route below is what jaxlib's sdy-reshard-to-collectives gives too, except the last.

sdy.mesh @m = <["x"=2, "y"=4]>
sdy.mesh @m_rev = <["x"=2, "y"=4], device_ids=[7, 6, 5, 4, 3, 2, 1, 0]>
sdy.mesh @m46 = <["x"=4, "y"=6]>

// Sub-axes of "y" change dimension: a collective_permute puts what dim 1 wants at the minor
// end of dim 0, one all_to_all moves it (the whole-axis route gathers "y" and slices it back).
// CHECK-LABEL: func.func @swap_sub_axes
// CHECK-NEXT: %0 = sdy.collective_permute %arg0 out_sharding=<@m, [{"y":(1)2, "x", "y":(2)2}, {}]> : tensor<16x16xf32>
// CHECK-NEXT: %1 = sdy.all_to_all [{"x", "y":(2)2}: 0->1] %0 out_sharding=<@m, [{"y":(1)2}, {"x", "y":(2)2}]> : tensor<16x16xf32>
// CHECK-NEXT: return %1
func.func @swap_sub_axes(%arg0: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@m, [{"x", "y"}, {}]>}) -> tensor<16x16xf32> {
  %0 = sdy.reshard %arg0 <@m, [{"y":(1)2}, {"x", "y":(2)2}]> : tensor<16x16xf32>
  return %0 : tensor<16x16xf32>
}

// Unreduced axes stay on every collective's out_sharding.
// CHECK-LABEL: func.func @unreduced_carried
// CHECK-NEXT: %0 = sdy.collective_permute %arg0 out_sharding=<@m, [{"y":(2)2, "y":(1)2}, {}], unreduced={"x"}> : tensor<16x16xf32>
// CHECK-NEXT: %1 = sdy.all_to_all [{"y":(1)2}: 0->1] %0 out_sharding=<@m, [{"y":(2)2}, {"y":(1)2}], unreduced={"x"}> : tensor<16x16xf32>
// CHECK-NEXT: return %1
func.func @unreduced_carried(%arg0: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@m, [{"y"}, {}], unreduced={"x"}>}) -> tensor<16x16xf32> {
  %0 = sdy.reshard %arg0 <@m, [{"y":(2)2}, {"y":(1)2}], unreduced={"x"}> : tensor<16x16xf32>
  return %0 : tensor<16x16xf32>
}

// Another device order: the collective_permute moves to @m_rev's devices, splitting "y" on the way.
// CHECK-LABEL: func.func @device_order_with_sub_axes
// CHECK-NEXT: %0 = sdy.all_slice [{}, {"x"}] %arg0 out_sharding=<@m, [{"y"}, {"x"}]> : tensor<16x16xf32>
// CHECK-NEXT: %1 = sdy.collective_permute %0 out_sharding=<@m_rev, [{"x", "y":(2)2}, {"y":(1)2}]> : tensor<16x16xf32>
// CHECK-NEXT: %2 = sdy.all_gather [{"y":(2)2}, {}] %1 out_sharding=<@m_rev, [{"x"}, {"y":(1)2}]> : tensor<16x16xf32>
// CHECK-NEXT: return %2
func.func @device_order_with_sub_axes(%arg0: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@m, [{"y"}, {}]>}) -> tensor<16x16xf32> {
  %0 = sdy.reshard %arg0 <@m_rev, [{"x"}, {"y":(1)2}]> : tensor<16x16xf32>
  return %0 : tensor<16x16xf32>
}

// "y" is sliced at the all_to_all's source dimension, so one all_to_all moves {"x", "y"}.
// CHECK-LABEL: func.func @slice_at_source_dim
// CHECK-NEXT: %0 = sdy.all_slice [{"y"}, {}] %arg0 out_sharding=<@m, [{"x", "y"}, {}]> : tensor<16x16xf32>
// CHECK-NEXT: %1 = sdy.all_to_all [{"x", "y"}: 0->1] %0 out_sharding=<@m, [{}, {"x", "y"}]> : tensor<16x16xf32>
// CHECK-NEXT: return %1
func.func @slice_at_source_dim(%arg0: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}) -> tensor<16x16xf32> {
  %0 = sdy.reshard %arg0 <@m, [{}, {"x", "y"}]> : tensor<16x16xf32>
  return %0 : tensor<16x16xf32>
}

// On 4x6 Shardy's route starts with a collective_permute that shrinks dim 0 (its verifier
// rejects it): ttopt gathers and slices instead.
// CHECK-LABEL: func.func @shardy_route_replaced
// CHECK-NEXT: %0 = sdy.all_gather [{"x"}, {"y"}] %arg0 out_sharding=<@m46, [{}, {}]> : tensor<48x24xf32>
// CHECK-NEXT: %1 = sdy.all_slice [{"y"}, {"x":(2)2, "x":(1)2}] %0 out_sharding=<@m46, [{"y"}, {"x":(2)2, "x":(1)2}]> : tensor<48x24xf32>
// CHECK-NEXT: return %1
func.func @shardy_route_replaced(%arg0: tensor<48x24xf32> {sdy.sharding = #sdy.sharding<@m46, [{"x"}, {"y"}]>}) -> tensor<48x24xf32> {
  %0 = sdy.reshard %arg0 <@m46, [{"y"}, {"x":(2)2, "x":(1)2}]> : tensor<48x24xf32>
  return %0 : tensor<48x24xf32>
}
