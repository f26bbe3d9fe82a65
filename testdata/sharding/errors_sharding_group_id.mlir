// RUN: not ttopt opt %s 2>&1 | FileCheck %s
// A group id outside the 64 bits of an i64 is an error at the literal (as MLIR's parser).

// CHECK: errors_sharding_group_id.mlir:[[# @LINE + 2]]:37: error: integer constant out of range for attribute
func.func @too_small(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  sdy.sharding_group %arg0 group_id=-9223372036854775809 : tensor<4xf32>
  return %arg0 : tensor<4xf32>
}
