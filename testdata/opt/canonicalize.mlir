// RUN: ttopt opt %s --allow-unregistered-dialect --canonicalize | FileCheck %s
// RUN: ttopt opt %s --allow-unregistered-dialect --pass-pipeline='builtin.module(canonicalize)' | FileCheck %s

// Dead side-effect-free ops disappear, transitively; used ones and side effects stay.
// CHECK-LABEL: func.func @dead_chain
// CHECK-NEXT:    %[[A:.*]] = stablehlo.add %arg0, %arg0
// CHECK-NEXT:    return %[[A]]
func.func @dead_chain(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %cst = stablehlo.constant dense<1.000000e+00> : tensor<4xf32>
  %0 = stablehlo.multiply %arg0, %cst : tensor<4xf32>
  %1 = stablehlo.exponential %0 : tensor<4xf32>
  %2 = stablehlo.add %arg0, %arg0 : tensor<4xf32>
  return %2 : tensor<4xf32>
}

// An identity layout conversion folds away; an unknown op is kept even if unused.
// CHECK-LABEL: func.func @identity_to_layout
// CHECK-NOT:     ttnn.to_layout
// CHECK:         "mydialect.effect"(%arg0)
// CHECK:         return %arg0
func.func @identity_to_layout(%arg0: tensor<32x32xbf16>) -> tensor<32x32xbf16> {
  %0 = "ttnn.to_layout"(%arg0) : (tensor<32x32xbf16>) -> tensor<32x32xbf16>
  %1 = "mydialect.effect"(%arg0) : (tensor<32x32xbf16>) -> tensor<32x32xbf16>
  return %0 : tensor<32x32xbf16>
}
