// mlp_data_parallel: jit with in/out shardings, no shard_map: strings on arguments/results only (the Shardy path) (generate.py, jax 0.10.2, GSPMD)
// RUN: ttopt opt %s --stablehlo-pipeline --stablehlo-to-ttir-pipeline | FileCheck %s
// CHECK: ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x8>]>
// Arguments with an mhlo.sharding are pre-sharded: the function takes the local tensors.
// CHECK: func.func public @main(%arg0: tensor<4x16xf32> {{.*}}, %arg1: tensor<16x64xf32> {{.*}}, %arg2: tensor<64x8xf32>
// CHECK: "ttir.dot_general"(%arg0, %arg1)
// CHECK: "ttir.mesh_shard"{{.*}}shard_direction = #ttcore.shard_direction<shard_to_full>, shard_shape = array<i64: 8, 1>{{.*}} : (tensor<4x8xf32>) -> tensor<32x8xf32>
// RUN: ttopt opt %s --stablehlo-pipeline --stablehlo-to-ttir-pipeline --ttir-to-ttnn-backend-pipeline | FileCheck %s --check-prefix=TTNN
// TTNN: "ttnn.matmul"
// TTNN: "ttnn.aggregate_tensor"

module @jit_mlp attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<32x16xf32> {mhlo.sharding = "{devices=[8,1]<=[8]}"}, %arg1: tensor<16x64xf32> {mhlo.sharding = "{replicated}"}, %arg2: tensor<64x8xf32> {mhlo.sharding = "{replicated}"}) -> (tensor<32x8xf32> {jax.result_info = "result", mhlo.sharding = "{devices=[8,1]<=[8]}"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32x16xf32>, tensor<16x64xf32>) -> tensor<32x64xf32>
    %1 = call @relu(%0) : (tensor<32x64xf32>) -> tensor<32x64xf32>
    %2 = stablehlo.dot_general %1, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32x64xf32>, tensor<64x8xf32>) -> tensor<32x8xf32>
    return %2 : tensor<32x8xf32>
  }
  func.func private @relu(%arg0: tensor<32x64xf32>) -> tensor<32x64xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<32x64xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<32x64xf32>
    return %1 : tensor<32x64xf32>
  }
}
