// RUN: not ttopt opt %s --split-input-file --update-global-to-local-shapes 2>&1 | FileCheck %s
// Bad input to update-global-to-local-shapes: each chunk is one diagnostic naming the op.

// Indivisible dimension.
// CHECK: errors_local.mlir:[[# @LINE + 4]]:10: error: 'stablehlo.negate' op result #0: dimension 0 of size 6 is not divisible into 4 shards (axes "y")
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%arg0: tensor<6x8xf32>) -> tensor<6x8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{}, {"x"}]>] out_shardings=[<@mesh, [{}, {"x"}]>] manual_axes={} (%arg1: tensor<6x8xf32>) {
    %1 = stablehlo.negate %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {"x"}]>]>} : tensor<6x8xf32>
    sdy.return %1 : tensor<6x8xf32>
  } : (tensor<6x8xf32>) -> tensor<6x8xf32>
  return %0 : tensor<6x8xf32>
}

// -----

// A collective over a sub-axis.
// CHECK: errors_local.mlir:[[# @LINE + 4]]:10: error: 'sdy.all_gather' op uses the sub-axis "y":(1)2; collectives over sub-axes are not supported
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"y":(1)2}, {}]>] out_shardings=[<@mesh, [{}, {}]>] manual_axes={} (%arg1: tensor<8x8xf32>) {
    %1 = sdy.all_gather [{"y":(1)2}, {}] %arg1 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
    sdy.return %1 : tensor<8x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// A reshard that reshard-to-collectives (step 10) did not lower.
// CHECK: errors_local.mlir:[[# @LINE + 4]]:10: error: 'sdy.reshard' op is still here; reshard-to-collectives (step 10) must turn it into collectives before update-global-to-local-shapes
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{}, {}]>] manual_axes={} (%arg1: tensor<8x8xf32>) {
    %1 = sdy.reshard %arg1 <@mesh, [{}, {}]> : tensor<8x8xf32>
    sdy.return %1 : tensor<8x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// Shardings that disagree without a reshard between them.
// CHECK: errors_local.mlir:[[# @LINE + 4]]:10: error: 'stablehlo.add' op with shardings <@mesh, [{"x"}, {}]>: operand #0 has local shape 4x2 but the result has 4x8
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {"y"}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={} (%arg1: tensor<8x8xf32>) {
    %1 = stablehlo.add %arg1, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x8xf32>
    sdy.return %1 : tensor<8x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// An op with a sharding rule but no sharding (so: replicated) that reads a sharded value without a
// reshard in between.
// CHECK: errors_local.mlir:[[# @LINE + 4]]:10: error: 'stablehlo.negate' op with shardings none (replicated results): operand #0 has local shape 4x8 but the result has 8x8
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{}, {}]>] manual_axes={} (%arg1: tensor<8x8xf32>) {
    %1 = stablehlo.negate %arg1 : tensor<8x8xf32>
    sdy.return %1 : tensor<8x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// A call inside the computation (the inliner did not run).
// CHECK: errors_local.mlir:[[# @LINE + 4]]:10: error: 'func.call' op calls a function inside the manual computation; run the inliner first
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={} (%arg1: tensor<8x8xf32>) {
    %1 = func.call @f(%arg1) : (tensor<8x8xf32>) -> tensor<8x8xf32>
    sdy.return %1 : tensor<8x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
func.func private @f(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  return %arg0 : tensor<8x8xf32>
}

// -----

// A result whose local type does not fit out_shardings.
// CHECK: errors_local.mlir:[[# @LINE + 4]]:5: error: 'sdy.return' op operand #0 has local type tensor<4x8xf32>, but out_shardings[0] <@mesh, [{}, {}]> of the global tensor<8x8xf32> needs tensor<8x8xf32> (a reshard is missing)
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{}, {}]>] manual_axes={} (%arg1: tensor<8x8xf32>) {
    sdy.return %arg1 : tensor<8x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
