// RUN: not ttopt opt %s --split-input-file --ttir-to-ttnn-backend-pipeline 2>&1 | FileCheck %s

// HEAD lowers replicate and devices mesh_shards; maximal has no TTNN form: an error at the op.
// CHECK: ttnn_mesh_shard_errors.mlir:[[# @LINE + 3]]:10: error: convert-ttir-to-ttnn: 'ttir.mesh_shard' has shard_type maximal; HEAD lowers replicate and devices mesh_shards only
module attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x2>]>} {
  func.func @f(%arg0: tensor<8x8xf32>) -> tensor<8x4xf32> {
    %0 = "ttir.mesh_shard"(%arg0) <{shard_dims = array<i64: -1, 1>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 2>, shard_type = #ttcore.shard_type<maximal>}> : (tensor<8x8xf32>) -> tensor<8x4xf32>
    return %0 : tensor<8x4xf32>
  }
}

// -----

// An identity mesh_shard stands for a pre-sharded argument: HEAD has no identity mesh_shard, so one
// of another value (here a computed one) has no TTNN form.
// CHECK: ttnn_mesh_shard_errors.mlir:[[# @LINE + 4]]:10: error: convert-ttir-to-ttnn: 'ttir.mesh_shard' is an identity full_to_shard of a value other than a function argument read only by it
module attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x2>]>} {
  func.func @g(%arg0: tensor<8x8xf32>) -> tensor<8x4xf32> {
    %a = "ttir.abs"(%arg0) : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %0 = "ttir.mesh_shard"(%a) <{shard_dims = array<i64: -1, 1>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 2>, shard_type = #ttcore.shard_type<identity>}> : (tensor<8x8xf32>) -> tensor<8x4xf32>
    return %0 : tensor<8x4xf32>
  }
}
