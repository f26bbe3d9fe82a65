// RUN: ttopt opt %s | FileCheck %s
// CHECK: sdy.manual_computation
// CHECK: func.call @
// a two-result helper and a helper calling helpers; a call outside too (generate.py).
module @jit__lambda attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=4]> {stablehlo.mesh = {axes = [{name = "x", size = 2 : i64}, {name = "y", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<8x4xf32>, %arg1: tensor<8x4xf32>) -> (tensor<8x4xf32> {jax.result_info = "result"}) {
    %0 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"x"}, {}]>, <@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x", "y"} (%arg2: tensor<4x4xf32>, %arg3: tensor<4x4xf32>) {
      %2:2 = func.call @two_results(%arg2, %arg3) : (tensor<4x4xf32>, tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>)
      %3 = func.call @chained(%2#0) : (tensor<4x4xf32>) -> tensor<4x4xf32>
      %4 = stablehlo.add %3, %2#1 : tensor<4x4xf32>
      sdy.return %4 : tensor<4x4xf32>
    } : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
    %1 = call @scale_0(%0) : (tensor<8x4xf32>) -> tensor<8x4xf32>
    return %1 : tensor<8x4xf32>
  }
  func.func private @two_results(%arg0: tensor<4x4xf32>, %arg1: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
    %0 = stablehlo.add %arg0, %arg1 : tensor<4x4xf32>
    %1 = stablehlo.multiply %arg0, %arg1 : tensor<4x4xf32>
    return %0, %1 : tensor<4x4xf32>, tensor<4x4xf32>
  }
  func.func private @chained(%arg0: tensor<4x4xf32>) -> tensor<4x4xf32> {
    %0 = call @scale(%arg0) : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %1 = stablehlo.multiply %arg0, %arg0 : tensor<4x4xf32>
    %2 = call @scale(%1) : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %3 = stablehlo.add %0, %2 : tensor<4x4xf32>
    return %3 : tensor<4x4xf32>
  }
  func.func private @scale(%arg0: tensor<4x4xf32>) -> tensor<4x4xf32> {
    %0 = stablehlo.tanh %arg0 : tensor<4x4xf32>
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
    %2 = stablehlo.multiply %0, %1 : tensor<4x4xf32>
    return %2 : tensor<4x4xf32>
  }
  func.func private @scale_0(%arg0: tensor<8x4xf32>) -> tensor<8x4xf32> {
    %0 = stablehlo.tanh %arg0 : tensor<8x4xf32>
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x4xf32>
    %2 = stablehlo.multiply %0, %1 : tensor<8x4xf32>
    return %2 : tensor<8x4xf32>
  }
}
