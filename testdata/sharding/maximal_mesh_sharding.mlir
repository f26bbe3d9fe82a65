// RUN: not ttopt opt %s --split-input-file 2>&1 | FileCheck %s
// A mesh with no axes and explicit device ids is maximal (one device). Shardy writes a sharding on
// it with rank 0 whatever the tensor's rank, and rejects any other rank (verifiers.cc).

// The rank-0 sharding verifies: no error is reported in this chunk.
// CHECK-NOT: maximal_mesh_sharding.mlir:{{[0-9]}}:
sdy.mesh @single = <[], device_ids=[0]>
func.func @rank0_on_maximal_mesh(%arg0: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %0 = sdy.reshard %arg0 <@single, []> : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// -----

// CHECK: maximal_mesh_sharding.mlir:[[# @LINE + 3]]:8: error: 'sdy.reshard' op a maximal sharding can only have a sharding with rank 0
sdy.mesh @single = <[], device_ids=[0]>
func.func @rank2_on_maximal_mesh(%arg0: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %0 = sdy.reshard %arg0 <@single, [{}, {}]> : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// -----

// A mesh with axes keeps the rank rule.
// CHECK: maximal_mesh_sharding.mlir:[[# @LINE + 3]]:8: error: 'sdy.reshard' op sharding doesn't match tensor rank: 0 != 2
sdy.mesh @mesh = <["x"=2]>
func.func @rank0_on_real_mesh(%arg0: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %0 = sdy.reshard %arg0 <@mesh, []> : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}
