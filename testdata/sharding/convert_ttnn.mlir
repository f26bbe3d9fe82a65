// RUN: ttopt opt %S/../jax/shard_map_psum_scatter.mlir --stablehlo-pipeline --convert-to-ttir --convert-to-ttnn-ccl --num-links=2 | FileCheck %s
// RUN: ttopt opt %S/../seeds/004_case3_before.mlir --stablehlo-pipeline --argument-types=main=input,parameter --convert-to-ttir --convert-to-ttnn-ccl | FileCheck %s --check-prefix=CASE3
// TTIR sharding ops -> the TTNN ops of seed 004 §6: one ttnn.get_device per function, num_links on CCLs.

// CHECK: %0 = "ttnn.get_device"() <{mesh_shape = #ttnn<mesh_shape 2x4>}> : () -> !ttnn.device
// CHECK-NEXT: %1 = "ttnn.mesh_shard"(%arg0, %0) <{shard_dims = array<i64: 0, -1>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 2, 1>, shard_type = #ttcore.shard_type<devices>}> : (tensor<16x32xf32>, !ttnn.device) -> tensor<8x32xf32>
// CHECK-NEXT: %2 = "ttnn.reduce_scatter"(%1, %0) <{cluster_axis = 1 : ui32, num_links = 2 : ui32, reduce_type = #ttcore.reduce_type<sum>, scatter_dim = 1 : si32}> : (tensor<8x32xf32>, !ttnn.device) -> tensor<8x8xf32>
// CHECK-NEXT: %3 = "ttnn.mesh_shard"(%2, %0) <{shard_dims = array<i64: 0, 1>, shard_direction = #ttcore.shard_direction<shard_to_full>, shard_shape = array<i64: 2, 4>, shard_type = #ttcore.shard_type<devices>}> : (tensor<8x8xf32>, !ttnn.device) -> tensor<16x32xf32>

// Seed case 3 (ref §2.14): pre-sharded inputs are identity mesh_shards ([2,4]/[0,1] and [4,1]/[-1,0]),
// the psum is an all_reduce sum over cluster axis 1, the output is devices [2,1]/[0,-1].
// CASE3: "ttnn.mesh_shard"(%arg0, %0) <{shard_dims = array<i64: 0, 1>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 2, 4>, shard_type = #ttcore.shard_type<identity>}> : (tensor<8192x784xf32>, !ttnn.device) -> tensor<4096x196xf32>
// CASE3-NEXT: "ttnn.mesh_shard"(%arg1, %0) <{shard_dims = array<i64: -1, 0>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 4, 1>, shard_type = #ttcore.shard_type<identity>}> : (tensor<784x16384xf32>, !ttnn.device) -> tensor<196x16384xf32>
// CASE3-NEXT: stablehlo.dot_general
// CASE3-NEXT: "ttnn.all_reduce"(%3, %0) <{cluster_axis = 1 : ui32, num_links = 1 : ui32, reduce_type = #ttcore.reduce_type<sum>}> : (tensor<4096x16384xf32>, !ttnn.device) -> tensor<4096x16384xf32>
// CASE3-NEXT: "ttnn.mesh_shard"(%4, %0) <{shard_dims = array<i64: 0, -1>, shard_direction = #ttcore.shard_direction<shard_to_full>, shard_shape = array<i64: 2, 1>, shard_type = #ttcore.shard_type<devices>}> : (tensor<4096x16384xf32>, !ttnn.device) -> tensor<8192x16384xf32>
