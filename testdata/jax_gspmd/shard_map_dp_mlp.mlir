// shard_map_dp_mlp: data-parallel MLP loss in shard_map: the batch split over 8 devices, psum of the squared error (generate.py, jax 0.10.2, GSPMD)
// RUN: ttopt opt %s --stablehlo-pipeline --stablehlo-to-ttir-pipeline | FileCheck %s
// CHECK: ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x8>]>
// CHECK: "ttir.mesh_shard"(%arg0) <{shard_dims = array<i64: -1, 0>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 8, 1>, shard_type = #ttcore.shard_type<devices>}> : (tensor<32x16xf32>) -> tensor<4x16xf32>
// CHECK: "ttir.mesh_shard"(%arg1) <{shard_dims = array<i64: -1>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 1>, shard_type = #ttcore.shard_type<replicate>}>
// CHECK: "ttir.all_reduce"({{.*}}) <{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<sum>}> : (tensor<f32>) -> tensor<f32>
// CHECK: "ttir.mesh_shard"{{.*}}shard_to_full{{.*}}shard_type = #ttcore.shard_type<replicate>
// RUN: ttopt opt %s --stablehlo-pipeline --stablehlo-to-ttir-pipeline --ttir-to-ttnn-backend-pipeline | FileCheck %s --check-prefix=TTNN
// TTNN: "ttnn.distribute_tensor"
// TTNN: "ttnn.all_reduce"
// TTNN: "ttnn.aggregate_tensor"

module @jit_dp_mlp_body attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<32x16xf32>, %arg1: tensor<16x64xf32>, %arg2: tensor<64x8xf32>, %arg3: tensor<32x8xf32>) -> (tensor<f32> {jax.result_info = "result"}) {
    %0 = stablehlo.custom_call @Sharding(%arg0) {backend_config = "", mhlo.sharding = "{devices=[8,1]<=[8]}"} : (tensor<32x16xf32>) -> tensor<32x16xf32>
    %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<32x16xf32>) -> tensor<4x16xf32>
    %2 = stablehlo.custom_call @Sharding(%arg1) {backend_config = "", mhlo.sharding = "{replicated}"} : (tensor<16x64xf32>) -> tensor<16x64xf32>
    %3 = stablehlo.custom_call @SPMDFullToShardShape(%2) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<16x64xf32>) -> tensor<16x64xf32>
    %4 = stablehlo.custom_call @Sharding(%arg2) {backend_config = "", mhlo.sharding = "{replicated}"} : (tensor<64x8xf32>) -> tensor<64x8xf32>
    %5 = stablehlo.custom_call @SPMDFullToShardShape(%4) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<64x8xf32>) -> tensor<64x8xf32>
    %6 = stablehlo.custom_call @Sharding(%arg3) {backend_config = "", mhlo.sharding = "{devices=[8,1]<=[8]}"} : (tensor<32x8xf32>) -> tensor<32x8xf32>
    %7 = stablehlo.custom_call @SPMDFullToShardShape(%6) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<32x8xf32>) -> tensor<4x8xf32>
    %8 = call @shmap_body(%1, %3, %5, %7) : (tensor<4x16xf32>, tensor<16x64xf32>, tensor<64x8xf32>, tensor<4x8xf32>) -> tensor<f32>
    %9 = stablehlo.custom_call @Sharding(%8) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<f32>) -> tensor<f32>
    %10 = stablehlo.custom_call @SPMDShardToFullShape(%9) {backend_config = "", mhlo.sharding = "{replicated}"} : (tensor<f32>) -> tensor<f32>
    return %10 : tensor<f32>
  }
  func.func private @shmap_body(%arg0: tensor<4x16xf32>, %arg1: tensor<16x64xf32>, %arg2: tensor<64x8xf32>, %arg3: tensor<4x8xf32>) -> (tensor<f32> {jax.result_info = "[]"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x16xf32>, tensor<16x64xf32>) -> tensor<4x64xf32>
    %1 = call @relu(%0) : (tensor<4x64xf32>) -> tensor<4x64xf32>
    %2 = stablehlo.dot_general %1, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x64xf32>, tensor<64x8xf32>) -> tensor<4x8xf32>
    %3 = stablehlo.subtract %2, %arg3 : tensor<4x8xf32>
    %4 = stablehlo.multiply %3, %3 : tensor<4x8xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.reduce(%4 init: %cst) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<f32>
    %6 = "stablehlo.all_reduce"(%5) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, use_global_device_ids}> ({
    ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
      %8 = stablehlo.add %arg4, %arg5 : tensor<f32>
      stablehlo.return %8 : tensor<f32>
    }) : (tensor<f32>) -> tensor<f32>
    %cst_0 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %7 = stablehlo.divide %6, %cst_0 : tensor<f32>
    return %7 : tensor<f32>
  }
  func.func private @relu(%arg0: tensor<4x64xf32>) -> tensor<4x64xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x64xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<4x64xf32>
    return %1 : tensor<4x64xf32>
  }
}
