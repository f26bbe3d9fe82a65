// RUN: not ttopt opt %s --stablehlo-to-ttir-pipeline="enable-cpu-fallback=true" 2>&1 | FileCheck %s

// An op the conversion cannot take and the CPU fallback does not hoist (not on tt-mlir's
// allow-list) is an error at the op when the conversion runs again in full on the device module;
// the allow-listed einsum before it is hoisted, not reported.
// CHECK-NOT: stablehlo.einsum
// CHECK: cpu_fallback_errors.mlir:[[# @LINE + 5]]:10: error: failed to legalize operation 'stablehlo.dynamic_reshape' to TTIR
// CHECK-NOT: error
module {
  func.func @main(%arg0: tensor<2x3xi64>, %arg1: tensor<2xi64>, %arg2: tensor<4x8xf32>, %arg3: tensor<8x4xf32>) -> (tensor<3x2xi64>, tensor<4x4xf32>) {
    %0 = "stablehlo.einsum"(%arg2, %arg3) {einsum_config = "ij,jk->ik"} : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
    %1 = "stablehlo.dynamic_reshape"(%arg0, %arg1) : (tensor<2x3xi64>, tensor<2xi64>) -> tensor<3x2xi64>
    return %1, %0 : tensor<3x2xi64>, tensor<4x4xf32>
  }
}
