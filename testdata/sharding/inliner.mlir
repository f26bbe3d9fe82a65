// RUN: ttopt opt %s --inliner | FileCheck %s
// RUN: ttopt opt %s --pass-pipeline='builtin.module(inline)' | FileCheck %s

// Calls of private functions are inlined callee-first; private functions left without uses go.
// A public callee and a declaration keep their calls; a recursive cycle stays as calls.
// CHECK-LABEL: func.func public @main
// CHECK-NEXT:    %0 = stablehlo.multiply %arg0, %arg0 : tensor<4xf32>
// CHECK-NEXT:    %cst = stablehlo.constant dense<1.000000e+00> : tensor<4xf32>
// CHECK-NEXT:    %1 = stablehlo.add %0, %cst : tensor<4xf32>
// CHECK-NEXT:    %2 = stablehlo.multiply %1, %1 : tensor<4xf32>
// CHECK-NEXT:    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<4xf32>
// CHECK-NEXT:    %3 = stablehlo.add %2, %cst_0 : tensor<4xf32>
// CHECK-NEXT:    %4 = call @public_helper(%3)
// CHECK-NEXT:    %5 = call @external(%4)
// CHECK-NEXT:    %6 = call @rec(%5)
// CHECK-NEXT:    return %6
// CHECK-NOT:   @square_plus_one
// CHECK-NOT:   @square
// CHECK:       func.func public @public_helper
// CHECK:       func.func private @external
// CHECK:       func.func private @rec
func.func public @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = call @square_plus_one(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = call @square_plus_one(%0) : (tensor<4xf32>) -> tensor<4xf32>
  %2 = call @public_helper(%1) : (tensor<4xf32>) -> tensor<4xf32>
  %3 = call @external(%2) : (tensor<4xf32>) -> tensor<4xf32>
  %4 = call @rec(%3) : (tensor<4xf32>) -> tensor<4xf32>
  return %4 : tensor<4xf32>
}
func.func private @square_plus_one(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = call @square(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
  %cst = stablehlo.constant dense<1.000000e+00> : tensor<4xf32>
  %1 = stablehlo.add %0, %cst : tensor<4xf32>
  return %1 : tensor<4xf32>
}
func.func private @square(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.multiply %arg0, %arg0 : tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func public @public_helper(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  return %arg0 : tensor<4xf32>
}
func.func private @external(tensor<4xf32>) -> tensor<4xf32>
func.func private @rec(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = call @rec(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// JAX's nested jit helpers (testdata/jax/call_private_helper.mlir): every call inlined, helpers gone.
// RUN: ttopt opt %S/../jax/call_private_helper.mlir --inliner | FileCheck %s --check-prefix=JAX
// JAX-LABEL: func.func public @main
// JAX-NOT:   call
// JAX:       stablehlo.tanh {{.*}} : tensor<16x64xf32>
// JAX:       stablehlo.tanh {{.*}} : tensor<16x32xf32>
// JAX:       return
// JAX-NOT:   func.func private
