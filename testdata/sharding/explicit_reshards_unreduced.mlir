// RUN: ttopt opt %s --split-input-file --pass-pipeline='builtin.module(insert-explicit-reshards)' | FileCheck %s --check-prefix=FULL
// RUN: ttopt opt %s --split-input-file --pass-pipeline='builtin.module(insert-explicit-reshards{enable-full-version=false})' | FileCheck %s --check-prefix=PARTIAL

// Unreduced axes a user (or the function result) does not keep unreduced are reduced by an
// sdy.all_reduce with the sharding's reduction kind; a reduction whose result keeps an axis
// unreduced does not all_reduce it.
// FULL-LABEL: func.func @unreduced
// FULL-NEXT: %0 = sdy.all_reduce max {"y"} %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<4x8xf32>
// FULL-NEXT: %1 = stablehlo.multiply %0, %arg1
// FULL: stablehlo.reduce
// FULL-SAME: unreduced={"x"}
// FULL-NEXT: %3 = sdy.all_reduce {"x"} %2 out_sharding=<@mesh, [{}]> : tensor<4xf32>
// FULL-NEXT: return %1, %3
// PARTIAL-LABEL: func.func @unreduced
// PARTIAL-NEXT: %0 = sdy.all_reduce max {"y"} %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<4x8xf32>
// PARTIAL: %3 = sdy.all_reduce {"x"} %2 out_sharding=<@mesh, [{}]> : tensor<4xf32>
// PARTIAL-NEXT: return %1, %3
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @unreduced(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced=max{"y"}>}, %arg1: tensor<4x8xf32>, %arg2: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) -> (tensor<4x8xf32>, tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], replicated={"y"}>}) {
  %0 = stablehlo.multiply %arg0, %arg1 : tensor<4x8xf32>
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %1 = stablehlo.reduce(%arg2 init: %cst) applies stablehlo.add across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}], unreduced={"x"}>]>} : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  return %0, %1 : tensor<4x8xf32>, tensor<4xf32>
}
