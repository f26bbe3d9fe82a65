// RUN: not ttopt opt %s --split-input-file --stablehlo-pipeline 2>&1 | FileCheck %s
// GSPMD-partitioned modules ttopt cannot take: each chunk is one diagnostic at the op (or argument).

// A maximal sharding on the global side of a pair.
func.func @main(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.sharding = "{maximal device=0}"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  // CHECK: errors_gspmd.mlir:[[# @LINE + 1]]:8: error: custom_call @SPMDFullToShardShape: mhlo.sharding "{maximal device=0}": 'maximal' shardings are not supported on the global side
  %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {mhlo.sharding = "{manual}"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// -----

// The local side of a pair must be manual.
func.func @main(%arg0: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.sharding = "{devices=[2,1]<=[2]}"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  // CHECK: errors_gspmd.mlir:[[# @LINE + 1]]:8: error: custom_call @SPMDFullToShardShape: mhlo.sharding "{replicated}" must be "{manual}" on the local side of @SPMDFullToShardShape
  %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {mhlo.sharding = "{replicated}"} : (tensor<8x8xf32>) -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// -----

// An SPMD shape call must read a @Sharding call.
func.func @main(%arg0: tensor<8x8xf32>) -> tensor<4x8xf32> {
  // CHECK: errors_gspmd.mlir:[[# @LINE + 1]]:8: error: custom_call @SPMDFullToShardShape must read the result of a custom_call @Sharding
  %0 = stablehlo.custom_call @SPMDFullToShardShape(%arg0) {mhlo.sharding = "{manual}"} : (tensor<8x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// A string no 2-D mesh expresses (three sharded tile dimensions).
func.func @main(%arg0: tensor<8x8x8xf32>) -> tensor<4x4x4xf32> {
  %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.sharding = "{devices=[2,2,2]<=[8]}"} : (tensor<8x8x8xf32>) -> tensor<8x8x8xf32>
  // CHECK: errors_gspmd.mlir:[[# @LINE + 1]]:8: error: mhlo.sharding "{devices=[2,2,2]<=[8]}": tile [2, 2, 2] needs a 3-D mesh; tt devices are 2-D
  %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {mhlo.sharding = "{manual}"} : (tensor<8x8x8xf32>) -> tensor<4x4x4xf32>
  return %1 : tensor<4x4x4xf32>
}

// -----

// A pair whose string does not fit the module's mesh (1x8 from the first pair; [2,4] needs 2x4).
func.func @main(%arg0: tensor<8x8xf32>, %arg1: tensor<8x8xf32>) -> (tensor<1x8xf32>, tensor<4x2xf32>) {
  %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.sharding = "{devices=[8,1]<=[8]}"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {mhlo.sharding = "{manual}"} : (tensor<8x8xf32>) -> tensor<1x8xf32>
  %2 = stablehlo.custom_call @Sharding(%arg1) {mhlo.sharding = "{devices=[2,4]<=[8]}"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  // CHECK: errors_gspmd.mlir:[[# @LINE + 1]]:8: error: custom_call @SPMDFullToShardShape: mhlo.sharding "{devices=[2,4]<=[8]}": tile [2, 4] does not match the mesh axes [('x', 1), ('y', 8)]
  %3 = stablehlo.custom_call @SPMDFullToShardShape(%2) {mhlo.sharding = "{manual}"} : (tensor<8x8xf32>) -> tensor<4x2xf32>
  return %1, %3 : tensor<1x8xf32>, tensor<4x2xf32>
}

// -----

// GSPMD pairs and Shardy annotations in one module.
sdy.mesh @mesh = <["x"=2]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<4x8xf32> {
  %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.sharding = "{devices=[2,1]<=[2]}"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  // CHECK: errors_gspmd.mlir:[[# @LINE + 1]]:8: error: GSPMD custom_call @SPMDFullToShardShape in a module with Shardy annotations (argument #0 of @main); ttopt takes a module partitioned by one of them
  %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {mhlo.sharding = "{manual}"} : (tensor<8x8xf32>) -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// -----

// A mesh_shard needs whole mesh axes: a tile that is no layout of them (sub-axes) is an error at the pair.
func.func @main(%arg0: tensor<8x8xf32>) -> tensor<2x4xf32> {
  %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.sharding = "{devices=[4,2]<=[2,4]T(1,0)}"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {mhlo.sharding = "{manual}"} : (tensor<8x8xf32>) -> tensor<2x4xf32>
  %2 = stablehlo.custom_call @Sharding(%arg0) {mhlo.sharding = "{devices=[4,2]<=[8]}"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  // CHECK: errors_gspmd.mlir:[[# @LINE + 1]]:8: error: custom_call @SPMDFullToShardShape: mhlo.sharding "{devices=[4,2]<=[8]}": the device order of tile [4, 2] is no layout of the mesh axes [('x', 2), ('y', 4)]
  %3 = stablehlo.custom_call @SPMDFullToShardShape(%2) {mhlo.sharding = "{manual}"} : (tensor<8x8xf32>) -> tensor<2x4xf32>
  return %1 : tensor<2x4xf32>
}
