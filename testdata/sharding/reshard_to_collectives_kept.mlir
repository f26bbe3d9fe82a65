// RUN: ttopt opt %s --split-input-file --pass-pipeline='builtin.module(reshard-to-collectives{keep-redundant-reshards=true})' | FileCheck %s --check-prefix=KEEP
// RUN: ttopt opt %s --split-input-file --reshard-to-collectives | FileCheck %s --check-prefix=DROP

// keep-redundant-reshards keeps a reshard to the sharding its input already has (a missing
// sharding counts as replicated); one that moves data is lowered either way.
// KEEP-LABEL: func.func @redundant
// KEEP-NEXT: %0 = sdy.reshard %arg0 <@mesh, [{"x"}, {"y"}]> : tensor<16x8xf32>
// KEEP-NEXT: %1 = sdy.reshard %arg1 <@mesh, [{}, {}]> : tensor<16x8xf32>
// KEEP-NEXT: %2 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{"y"}, {"x"}]> : tensor<16x8xf32>
// DROP-LABEL: func.func @redundant
// DROP-NEXT: %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{"y"}, {"x"}]> : tensor<16x8xf32>
// DROP-NEXT: return %arg0, %arg1, %0
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @redundant(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, %arg1: tensor<16x8xf32>) -> (tensor<16x8xf32>, tensor<16x8xf32>, tensor<16x8xf32>) {
  %0 = sdy.reshard %arg0 <@mesh, [{"x"}, {"y"}]> : tensor<16x8xf32>
  %1 = sdy.reshard %arg1 <@mesh, [{}, {}]> : tensor<16x8xf32>
  %2 = sdy.reshard %arg0 <@mesh, [{"y"}, {"x"}]> : tensor<16x8xf32>
  return %0, %1, %2 : tensor<16x8xf32>, tensor<16x8xf32>, tensor<16x8xf32>
}

// -----

// A reshard from or to a single-device (maximal) mesh is left to the single-device lowering, with
// or without the option.
// KEEP-LABEL: func.func @single_device
// KEEP-NEXT: %0 = sdy.reshard %arg0 <@dev0, []> : tensor<f32>
// DROP-LABEL: func.func @single_device
// DROP-NEXT: %0 = sdy.reshard %arg0 <@dev0, []> : tensor<f32>
// DROP-NEXT: return %0
sdy.mesh @mesh = <["x"=2, "y"=2]>
sdy.mesh @dev0 = <[], device_ids=[0]>
func.func @single_device(%arg0: tensor<f32> {sdy.sharding = #sdy.sharding<@mesh, []>}) -> tensor<f32> {
  %0 = sdy.reshard %arg0 <@dev0, []> : tensor<f32>
  return %0 : tensor<f32>
}
