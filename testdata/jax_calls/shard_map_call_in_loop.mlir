// RUN: ttopt opt %s | FileCheck %s
// CHECK: sdy.manual_computation
// CHECK: func.call @
// a call in a stablehlo.while body inside a manual computation over axis x only (generate.py).
module @jit_body attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=4]> {stablehlo.mesh = {axes = [{name = "x", size = 2 : i64}, {name = "y", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<8x4xf32>) -> (tensor<8x4xf32> {jax.result_info = "result"}) {
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x", ?}, {?}]>] out_shardings=[<@mesh, [{"x", ?}, {?}]>] manual_axes={"x"} (%arg1: tensor<4x4xf32>) {
      %c = stablehlo.constant dense<0> : tensor<i32>
      %1:2 = stablehlo.while(%iterArg = %c, %iterArg_0 = %arg1) : tensor<i32>, tensor<4x4xf32>
      cond {
        %c_1 = stablehlo.constant dense<3> : tensor<i32>
        %4 = sdy.sharding_constraint %iterArg <@mesh, []> : tensor<i32>
        %5 = sdy.sharding_constraint %c_1 <@mesh, []> : tensor<i32>
        %6 = stablehlo.compare LT, %4, %5, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %6 : tensor<i1>
      } do {
        %4 = func.call @closed_call(%iterArg_0) : (tensor<4x4xf32>) -> tensor<4x4xf32>
        %c_1 = stablehlo.constant dense<1> : tensor<i32>
        %5 = sdy.sharding_constraint %iterArg <@mesh, []> : tensor<i32>
        %6 = sdy.sharding_constraint %c_1 <@mesh, []> : tensor<i32>
        %7 = stablehlo.add %5, %6 : tensor<i32>
        %8 = sdy.sharding_constraint %7 <@mesh, []> : tensor<i32>
        stablehlo.return %8, %4 : tensor<i32>, tensor<4x4xf32>
      }
      %2 = sdy.sharding_constraint %1#0 <@mesh, []> : tensor<i32>
      %3 = sdy.sharding_constraint %1#1 <@mesh, [{?}, {?}]> : tensor<4x4xf32>
      sdy.return %3 : tensor<4x4xf32>
    } : (tensor<8x4xf32>) -> tensor<8x4xf32>
    return %0 : tensor<8x4xf32>
  }
  func.func private @closed_call(%arg0: tensor<4x4xf32>) -> tensor<4x4xf32> {
    %0 = call @scale(%arg0) : (tensor<4x4xf32>) -> tensor<4x4xf32>
    return %0 : tensor<4x4xf32>
  }
  func.func private @scale(%arg0: tensor<4x4xf32>) -> tensor<4x4xf32> {
    %0 = stablehlo.tanh %arg0 : tensor<4x4xf32>
    %1 = sdy.sharding_constraint %0 <@mesh, [{?}, {?}]> : tensor<4x4xf32>
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
    %3 = sdy.sharding_constraint %2 <@mesh, [{?}, {?}]> : tensor<4x4xf32>
    %4 = stablehlo.multiply %1, %3 : tensor<4x4xf32>
    %5 = sdy.sharding_constraint %4 <@mesh, [{?}, {?}]> : tensor<4x4xf32>
    return %5 : tensor<4x4xf32>
  }
}
