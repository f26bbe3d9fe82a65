// RUN: ttopt opt %S/../seeds/004_case6_before.mlir --stablehlo-pipeline | FileCheck %s
// RUN: ttopt opt %S/../seeds/004_case6_before.mlir --stablehlo-pipeline --convert-to-ttir --convert-to-ttnn-ccl | FileCheck %s --check-prefix=TTNN
// Seed 004 case 6 through the whole pipeline. The seed stops at step 10 ("We don't have conversion
// for sdy.all_slice yet but sdy.all_gather will convert into stablehlo.all_gather"). ttopt lowers both:
// the all_gather over "y" (x has size 1: no collective) and the all_slice as the partition_id composite.
// CHECK: sdy.mesh @mesh = <["x"=1, "y"=2]>
// CHECK-NEXT: func.func public @main(%arg0: tensor<32x32xf32> {ttcore.shard_status = #ttcore.shard_status<sharded>}) -> tensor<32x32xf32> {
// CHECK-NEXT: %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {"y"}]>] out_shardings=[<@mesh, [{"y"}, {"x"}]>] manual_axes={"x", "y"} (%arg1: tensor<32x16xf32>) {
// CHECK-NEXT: %1 = "stablehlo.all_gather"(%arg1) <{all_gather_dim = 1 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> : (tensor<32x16xf32>) -> tensor<32x32xf32>
// CHECK-NEXT: %2 = stablehlo.composite "sdy.all_slice" %1 {composite_attributes = {axis = "y", dim = 0 : i64}, decomposition = @sdy.all_slice_0} : (tensor<32x32xf32>) -> tensor<16x32xf32>
// CHECK-NEXT: sdy.return %2 : tensor<16x32xf32>
// CHECK-NEXT: } : (tensor<32x32xf32>) -> tensor<32x32xf32>
// CHECK-NEXT: return %0 : tensor<32x32xf32>
// CHECK: func.func private @sdy.all_slice_0(%arg0: tensor<32x32xf32>) -> tensor<16x32xf32> {
// TTNN: module attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x2>]>} {
// TTNN-NEXT: func.func public @main(%arg0: tensor<32x16xf32> {ttcore.shard_status = #ttcore.shard_status<sharded>}) -> tensor<32x32xf32> {
// TTNN-NEXT: %0 = "ttnn.get_device"() <{mesh_shape = #ttnn<mesh_shape 1x2>}> : () -> !ttnn.device
// TTNN-NEXT: %1 = "ttnn.all_gather"(%arg0) <{all_gather_dim = 1 : si32, cluster_axis = 1 : ui32}> : (tensor<32x16xf32>) -> tensor<32x32xf32>
// TTNN-NEXT: %2 = "ttnn.mesh_partition"(%1) <{cluster_axis = 1 : ui32, dim = 0 : si32}> : (tensor<32x32xf32>) -> tensor<16x32xf32>
// TTNN-NEXT: %3 = "ttnn.aggregate_tensor"(%2, %0) <{composer_config = #ttnn.mesh_composer_config<dims = [1 : i32, 0 : i32], mesh_shape_override = [1 : ui32, 2 : ui32]>}> : (tensor<16x32xf32>, !ttnn.device) -> tensor<32x32xf32>
// TTNN-NEXT: return %3 : tensor<32x32xf32>
// TTNN-NEXT: }
// TTNN-NEXT: }
