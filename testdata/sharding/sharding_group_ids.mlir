// RUN: ttopt opt %s | FileCheck %s
// A sharding group's id is a signless i64 literal as MLIR reads it: decimal or hex, 64-bit values
// wrap to signed (jaxlib prints 0xffffffffffffffff as -1); a hex id crashed the parser before.

// CHECK-LABEL: func.func @hex_ids
// CHECK: sdy.sharding_group %arg0 group_id=16 : tensor<4xf32>
// CHECK: sdy.sharding_group %arg0 group_id=9223372036854775807 : tensor<4xf32>
// CHECK: sdy.sharding_group %arg0 group_id=-1 : tensor<4xf32>
func.func @hex_ids(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  sdy.sharding_group %arg0 group_id=0x10 : tensor<4xf32>
  sdy.sharding_group %arg0 group_id=0x7fffffffffffffff : tensor<4xf32>
  sdy.sharding_group %arg0 group_id=0xffffffffffffffff : tensor<4xf32>
  return %arg0 : tensor<4xf32>
}
