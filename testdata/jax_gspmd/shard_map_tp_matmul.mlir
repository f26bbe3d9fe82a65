// shard_map_tp_matmul: tensor-parallel matmul on a 2x4 mesh: rows over x, the contraction over y (a transposed device list for w), psum over y (generate.py, jax 0.10.2, GSPMD)
// RUN: ttopt opt %s --stablehlo-pipeline --stablehlo-to-ttir-pipeline | FileCheck %s
// CHECK: ttcore.meshes = #ttcore.meshes<[<"mesh" = 2x4>]>
// CHECK: "ttir.mesh_shard"(%arg0) <{shard_dims = array<i64: 0, 1>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 2, 4>, shard_type = #ttcore.shard_type<devices>}> : (tensor<16x32xf32>) -> tensor<8x8xf32>
// CHECK: "ttir.mesh_shard"(%arg1) <{shard_dims = array<i64: -1, 0>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 4, 1>, shard_type = #ttcore.shard_type<devices>}> : (tensor<32x8xf32>) -> tensor<8x8xf32>
// CHECK: "ttir.all_reduce"({{.*}}) <{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<sum>}>
// CHECK: "ttir.mesh_shard"({{.*}}) <{shard_dims = array<i64: 0, -1>, shard_direction = #ttcore.shard_direction<shard_to_full>, shard_shape = array<i64: 2, 1>, shard_type = #ttcore.shard_type<devices>}> : (tensor<8x8xf32>) -> tensor<16x8xf32>
// RUN: ttopt opt %s --stablehlo-pipeline --stablehlo-to-ttir-pipeline --ttir-to-ttnn-backend-pipeline | FileCheck %s --check-prefix=TTNN
// TTNN: "ttnn.distribute_tensor"
// TTNN: "ttnn.all_reduce"
// TTNN: "ttnn.aggregate_tensor"

module @jit_tp_matmul_body attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16x32xf32>, %arg1: tensor<32x8xf32>) -> (tensor<16x8xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.custom_call @Sharding(%arg0) {backend_config = "", mhlo.sharding = "{devices=[2,4]<=[8]}"} : (tensor<16x32xf32>) -> tensor<16x32xf32>
    %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<16x32xf32>) -> tensor<8x8xf32>
    %2 = stablehlo.custom_call @Sharding(%arg1) {backend_config = "", mhlo.sharding = "{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}"} : (tensor<32x8xf32>) -> tensor<32x8xf32>
    %3 = stablehlo.custom_call @SPMDFullToShardShape(%2) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<32x8xf32>) -> tensor<8x8xf32>
    %4 = call @shmap_body(%1, %3) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    %5 = stablehlo.custom_call @Sharding(%4) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %6 = stablehlo.custom_call @SPMDShardToFullShape(%5) {backend_config = "", mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"} : (tensor<8x8xf32>) -> tensor<16x8xf32>
    return %6 : tensor<16x8xf32>
  }
  func.func private @shmap_body(%arg0: tensor<8x8xf32>, %arg1: tensor<8x8xf32>) -> (tensor<8x8xf32> {jax.result_info = "[('x',), None]"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    %1 = "stablehlo.all_reduce"(%0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %2 = stablehlo.add %arg2, %arg3 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<8x8xf32>) -> tensor<8x8xf32>
    return %1 : tensor<8x8xf32>
  }
}
