// RUN: ttopt opt %s --convert-to-ttir | FileCheck %s
// RUN: ttopt opt %s --convert-to-ttir --stablehlo-to-ttir-pipeline --ttir-to-ttnn-backend-pipeline | FileCheck %s --check-prefix=TTNN
// RUN: ttopt opt %s --convert-to-ttir --stablehlo-to-ttir-pipeline --ttir-to-ttnn-backend-pipeline | python %S/../../bench/ttnn_ods_check.py - | FileCheck %s --check-prefix=ODS

// A pre-sharded argument and result are already the local tensors, as in tt-mlir HEAD's
// presharded path: the argument takes its local type and gets no mesh_shard, and the result is
// returned as the local value; the unsharded argument and result keep their mesh_shards.
// CHECK: func.func public @main(%arg0: tensor<4x4xf32> {ttcore.shard_status = #ttcore.shard_status<presharded>}, %arg1: tensor<8x4xf32> {ttcore.shard_status = #ttcore.shard_status<unsharded>}) -> (tensor<4x4xf32> {ttcore.shard_status = #ttcore.shard_status<presharded>}, tensor<8x4xf32>)
// CHECK-NEXT: %0 = "ttir.mesh_shard"(%arg1) <{shard_dims = array<i64: -1, 0>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 2, 1>, shard_type = #ttcore.shard_type<devices>}> : (tensor<8x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT: %1 = stablehlo.add %arg0, %0 : tensor<4x4xf32>
// CHECK-NEXT: %2 = "ttir.mesh_shard"(%1) <{shard_dims = array<i64: -1, 0>, shard_direction = #ttcore.shard_direction<shard_to_full>, shard_shape = array<i64: 2, 1>, shard_type = #ttcore.shard_type<devices>}> : (tensor<4x4xf32>) -> tensor<8x4xf32>
// CHECK-NEXT: return %1, %2 : tensor<4x4xf32>, tensor<8x4xf32>

// In TTNN the pre-sharded argument is read on the device as it is; only the unsharded one is
// distributed, and only the unsharded result aggregated.
// TTNN: func.func public @main(%arg0: tensor<4x4xf32, #ttnn_layout{{[0-9]*}}>
// TTNN-COUNT-1: "ttnn.distribute_tensor"(%arg1
// TTNN: "ttnn.add"(%arg0,
// TTNN-COUNT-1: "ttnn.aggregate_tensor"
// TTNN-NOT: mesh_shard
// ODS: 0 violation(s)
module {
  sdy.mesh @mesh = <["x"=2]>
  func.func public @main(%arg0: tensor<8x4xf32> {ttcore.shard_status = #ttcore.shard_status<presharded>}, %arg1: tensor<8x4xf32> {ttcore.shard_status = #ttcore.shard_status<unsharded>}) -> (tensor<8x4xf32> {ttcore.shard_status = #ttcore.shard_status<presharded>}, tensor<8x4xf32>) {
    %0:2 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"x"}, {}]>, <@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>, <@mesh, [{"x"}, {}]>] manual_axes={"x"} (%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) {
      %1 = stablehlo.add %a, %b : tensor<4x4xf32>
      sdy.return %1, %1 : tensor<4x4xf32>, tensor<4x4xf32>
    } : (tensor<8x4xf32>, tensor<8x4xf32>) -> (tensor<8x4xf32>, tensor<8x4xf32>)
    return %0#0, %0#1 : tensor<8x4xf32>, tensor<8x4xf32>
  }
}
