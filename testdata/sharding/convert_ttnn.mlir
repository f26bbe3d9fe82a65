// RUN: ttopt opt %S/../jax/shard_map_psum_scatter.mlir --stablehlo-pipeline --convert-to-ttir --convert-to-ttnn-ccl --num-links=2 | FileCheck %s
// RUN: ttopt opt %S/../seeds/004_case3_before.mlir --stablehlo-pipeline --argument-types=main=input,parameter --convert-to-ttir --convert-to-ttnn-ccl | FileCheck %s --check-prefix=CASE3
// TTIR sharding ops -> the TTNN ops tt-mlir HEAD converts them to: one ttnn.get_device per function,
// mesh_shards as distribute_tensor / aggregate_tensor, collectives without a device operand (a
// rank-2 reduce_scatter between reshapes to rank 4, with HEAD's fp32 compute config), num_links only
// when asked for.

// CHECK: %0 = "ttnn.get_device"() <{mesh_shape = #ttnn<mesh_shape 2x4>}> : () -> !ttnn.device
// CHECK-NEXT: %1 = "ttnn.distribute_tensor"(%arg0, %0) <{mapper_config = #ttnn.mesh_mapper_config<placements = [<shard, 0 : i32>, <replicate, -1 : i32>], mesh_shape_override = [2 : ui32, 4 : ui32]>}> : (tensor<16x32xf32>, !ttnn.device) -> tensor<8x32xf32>
// CHECK-NEXT: %2 = "ttnn.reshape"(%1) <{shape = [1 : i32, 1 : i32, 8 : i32, 32 : i32]}> : (tensor<8x32xf32>) -> tensor<1x1x8x32xf32>
// CHECK-NEXT: %3 = "ttnn.reduce_scatter"(%2) <{cluster_axis = 1 : ui32, compute_config = #ttnn.device_compute_kernel_config<math_fidelity = hifi4, math_approx_mode = false, fp32_dest_acc_en = true, packer_l1_acc = false>, num_links = 2 : ui32, reduce_type = #ttcore.reduce_type<sum>, scatter_dim = 3 : si32}> : (tensor<1x1x8x32xf32>) -> tensor<1x1x8x8xf32>
// CHECK-NEXT: %4 = "ttnn.reshape"(%3) <{shape = [8 : i32, 8 : i32]}> : (tensor<1x1x8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: %5 = "ttnn.aggregate_tensor"(%4, %0) <{composer_config = #ttnn.mesh_composer_config<dims = [0 : i32, 1 : i32], mesh_shape_override = [2 : ui32, 4 : ui32]>}> : (tensor<8x8xf32>, !ttnn.device) -> tensor<16x32xf32>

// Seed case 3 (ref §2.14): pre-sharded inputs are read as they are, in their local types (HEAD has
// no identity mesh_shard); the psum is an all_reduce sum over cluster axis 1 (rank 2: reshaped to
// rank 4 and back); the output is aggregated over the 2x1 sub-mesh along dimension 0.
// CASE3: func.func public @main(%arg0: tensor<4096x196xf32> {ttcore.argument_type = #ttcore.argument_type<input>, ttcore.shard_status = #ttcore.shard_status<sharded>}, %arg1: tensor<196x16384xf32>
// CASE3-NEXT: "ttnn.get_device"
// CASE3-NEXT: stablehlo.dot_general %arg0, %arg1
// CASE3-NEXT: "ttnn.reshape"
// CASE3-NEXT: "ttnn.all_reduce"(%2) <{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<sum>}> : (tensor<1x1x4096x16384xf32>) -> tensor<1x1x4096x16384xf32>
// CASE3-NEXT: "ttnn.reshape"
// CASE3-NEXT: "ttnn.aggregate_tensor"(%4, %0) <{composer_config = #ttnn.mesh_composer_config<dims = [0 : i32, 1 : i32], mesh_shape_override = [2 : ui32, 1 : ui32]>}> : (tensor<4096x16384xf32>, !ttnn.device) -> tensor<8192x16384xf32>
