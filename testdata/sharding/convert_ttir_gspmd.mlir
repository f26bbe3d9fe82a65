// RUN: ttopt opt %s --split-input-file --stablehlo-pipeline --annotate-results --convert-to-ttir | FileCheck %s
// GSPMD-partitioned functions in TTIR (gspmd_to_ttir.py): each pair is a ttir.mesh_shard in the
// SPMD call's place; pre-sharded arguments/results are the local tensors.

// A pre-sharded argument also read outside its pair keeps an identity mesh_shard; a result with an
// mhlo.sharding (--annotate-results) is returned local; a transposed device list maps to its axes.
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%arg0: tensor<8x8xf32> {{.*}}) -> (tensor<2x8xf32> {{.*}}, tensor<8x8xf32> {{.*}})
// CHECK-NEXT: %0 = "ttir.mesh_shard"(%arg0) <{shard_dims = array<i64: -1, 0>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 4, 1>, shard_type = #ttcore.shard_type<identity>}> : (tensor<8x8xf32>) -> tensor<2x8xf32>
// CHECK-NEXT: %1 = stablehlo.abs %0
// CHECK-NEXT: return %1, %arg0
func.func @main(%arg0: tensor<8x8xf32> {mhlo.sharding = "{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}) -> (tensor<8x8xf32> {mhlo.sharding = "{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}, tensor<8x8xf32>) {
  %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.sharding = "{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {mhlo.sharding = "{manual}"} : (tensor<8x8xf32>) -> tensor<2x8xf32>
  %2 = stablehlo.abs %1 : tensor<2x8xf32>
  %3 = stablehlo.custom_call @Sharding(%2) {mhlo.sharding = "{manual}"} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %4 = stablehlo.custom_call @SPMDShardToFullShape(%3) {mhlo.sharding = "{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}"} : (tensor<2x8xf32>) -> tensor<8x8xf32>
  return %4, %arg0 : tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

// One-device groups on a 1x2 mesh stay on its size-1 axis 0 (as tt-mlir); collective_broadcast keeps
// its groups; a @Sharding hint with no SPMD call is the identity and goes.
// CHECK-LABEL: func.func @main
// CHECK: "ttir.mesh_shard"(%arg0) <{shard_dims = array<i64: -1, 1>, {{.*}}shard_shape = array<i64: 1, 2>, shard_type = #ttcore.shard_type<devices>}>
// CHECK: "ttir.all_reduce"(%{{.*}}) <{cluster_axis = 0 : ui32, reduce_type = #ttcore.reduce_type<sum>}>
// CHECK: "ttir.collective_broadcast"(%{{.*}}) <{replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>}>
// CHECK-NOT: custom_call
// CHECK: "ttir.mesh_shard"{{.*}}shard_to_full
func.func @main(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.sharding = "{devices=[1,2]<=[2]}"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {mhlo.sharding = "{manual}"} : (tensor<4x8xf32>) -> tensor<4x4xf32>
  %2 = "stablehlo.all_reduce"(%1) <{replica_groups = dense<[[0], [1]]> : tensor<2x1xi64>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %3 = "stablehlo.collective_broadcast"(%2) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %4 = stablehlo.custom_call @Sharding(%3) {mhlo.sharding = "{manual}"} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %5 = stablehlo.custom_call @Sharding(%4) {mhlo.sharding = "{manual}"} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %6 = stablehlo.custom_call @SPMDShardToFullShape(%5) {mhlo.sharding = "{devices=[1,2]<=[2]}"} : (tensor<4x4xf32>) -> tensor<4x8xf32>
  return %6 : tensor<4x8xf32>
}

// -----

// Strings only (no SPMD calls): the Shardy path. A @Sharding call is a sharding constraint.
// CHECK-LABEL: func.func @main
// CHECK-SAME: %arg0: tensor<4x8xf32>
// CHECK: "ttir.all_to_all"
// CHECK: "ttir.mesh_shard"{{.*}}shard_to_full{{.*}}shard_shape = array<i64: 1, 2>{{.*}} : (tensor<8x4xf32>) -> tensor<8x8xf32>
func.func @main(%arg0: tensor<8x8xf32> {mhlo.sharding = "{devices=[2,1]<=[2]}"}) -> tensor<8x8xf32> {
  %0 = stablehlo.abs %arg0 : tensor<8x8xf32>
  %1 = stablehlo.custom_call @Sharding(%0) {mhlo.sharding = "{devices=[1,2]<=[2]}"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}
