// RUN: ttopt opt %s --split-input-file --ttir-to-ttnn-backend-pipeline | FileCheck %s
// RUN: ttopt opt %s --split-input-file --ttir-to-ttnn-backend-pipeline --mlir-print-local-scope | FileCheck %s --check-prefix=LOCAL
// RUN: ttopt opt %s --split-input-file --ttir-to-ttnn-backend-pipeline | python %S/../../bench/ttnn_ods_check.py - --split-input-file | FileCheck %s --check-prefix=ODS

// mesh_shard reads and writes row-major host tensors, as tt-mlir HEAD's TTNNLayout gives them, with
// HEAD's decomposed transfers around: the argument stays on the host, the distributed tensor goes
// to the device (to_device, then tilized there by to_layout), and the result is untilized on the
// device and read back (from_device) before it is aggregated to the host result.
// ODS: 0 violation(s)

// CHECK-LABEL: func.func @shard_compute_unshard
// CHECK-SAME: (%arg0: tensor<32x64xbf16, #[[HOST:ttnn_layout[0-9]*]]>) -> tensor<32x64xbf16, #[[HOST]]>
// CHECK: %[[DEV:.*]] = "ttnn.get_device"() <{mesh_shape = #ttnn<mesh_shape 1x2>}>
// CHECK: %[[D:.*]] = "ttnn.distribute_tensor"(%arg0, %[[DEV]]) <{mapper_config = #ttnn.mesh_mapper_config<placements = [<replicate, -1 : i32>, <shard, 1 : i32>], mesh_shape_override = [1 : ui32, 2 : ui32]>}>
// CHECK: %[[ON:.*]] = "ttnn.to_device"(%[[D]], %[[DEV]])
// CHECK: %[[T:.*]] = "ttnn.to_layout"(%[[ON]])
// CHECK: %[[R:.*]] = "ttnn.relu"(%[[T]])
// CHECK: %[[RM:.*]] = "ttnn.to_layout"(%[[R]])
// CHECK: %[[OFF:.*]] = "ttnn.from_device"(%[[RM]])
// CHECK: "ttnn.aggregate_tensor"(%[[OFF]], %[[DEV]]) <{composer_config = #ttnn.mesh_composer_config<dims = [0 : i32, 1 : i32], mesh_shape_override = [1 : ui32, 2 : ui32]>}>
module attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x2>]>} {
  func.func @shard_compute_unshard(%arg0: tensor<32x64xbf16>) -> tensor<32x64xbf16> {
    %0 = "ttir.mesh_shard"(%arg0) <{shard_dims = array<i64: -1, 1>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 2>, shard_type = #ttcore.shard_type<devices>}> : (tensor<32x64xbf16>) -> tensor<32x32xbf16>
    %1 = "ttir.relu"(%0) : (tensor<32x32xbf16>) -> tensor<32x32xbf16>
    %2 = "ttir.mesh_shard"(%1) <{shard_dims = array<i64: -1, 1>, shard_direction = #ttcore.shard_direction<shard_to_full>, shard_shape = array<i64: 1, 2>, shard_type = #ttcore.shard_type<devices>}> : (tensor<32x32xbf16>) -> tensor<32x64xbf16>
    return %2 : tensor<32x64xbf16>
  }
}

// -----

// A data type the device cannot untilize (ui8) is read back tiled and untilized on the host; a
// mesh_partition result goes to the host as it is (row-major already).
// CHECK-LABEL: func.func @host_untilize
// CHECK: %[[A:.*]] = "ttnn.abs"(%arg0)
// CHECK: %[[B:.*]] = "ttnn.from_device"(%[[A]]) : (tensor<32x32xui8, #{{.*}}>) -> tensor<32x32xui8, #[[TILEHOST:ttnn_layout[0-9]*]]>
// CHECK: "ttnn.to_layout"(%[[B]])
// CHECK: "ttnn.aggregate_tensor"
// CHECK: "ttnn.mesh_partition"
// CHECK: "ttnn.from_device"(%{{.*}}) : (tensor<32x32xbf16
// CHECK: "ttnn.aggregate_tensor"
// LOCAL-LABEL: func.func @host_untilize
// LOCAL: "ttnn.from_device"({{.*}}) -> tensor<32x32xui8, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x1x!ttcore.tile<32x32, u8>, #ttnn.buffer_type<system_memory>>>>
// LOCAL-NEXT: "ttnn.deallocate"
// LOCAL-NEXT: "ttnn.to_layout"({{.*}}) -> tensor<32x32xui8, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<32x32xui8, #ttnn.buffer_type<system_memory>>>>
module attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x2>]>} {
  func.func @host_untilize(%arg0: tensor<32x32xui8>, %arg1: tensor<32x64xbf16>) -> (tensor<32x64xui8>, tensor<32x64xbf16>) {
    %0 = "ttir.abs"(%arg0) : (tensor<32x32xui8>) -> tensor<32x32xui8>
    %1 = "ttir.mesh_shard"(%0) <{shard_dims = array<i64: -1, 1>, shard_direction = #ttcore.shard_direction<shard_to_full>, shard_shape = array<i64: 1, 2>, shard_type = #ttcore.shard_type<devices>}> : (tensor<32x32xui8>) -> tensor<32x64xui8>
    %2 = "ttir.mesh_partition"(%arg1) <{cluster_axis = 1 : ui32, dim = 1 : si32}> : (tensor<32x64xbf16>) -> tensor<32x32xbf16>
    %3 = "ttir.mesh_shard"(%2) <{shard_dims = array<i64: -1, 1>, shard_direction = #ttcore.shard_direction<shard_to_full>, shard_shape = array<i64: 1, 2>, shard_type = #ttcore.shard_type<devices>}> : (tensor<32x32xbf16>) -> tensor<32x64xbf16>
    return %1, %3 : tensor<32x64xui8>, tensor<32x64xbf16>
  }
}
