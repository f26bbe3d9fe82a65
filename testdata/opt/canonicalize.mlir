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

// TTNN views fold as tt-mlir's folders fold them: a reshape of a reshape reshapes the first one's
// input (the first one goes when nothing else reads it), permutes compose, an identity permute
// and a reshape to its input's type are their inputs.
// CHECK-LABEL: func.func @views
// CHECK-NEXT:    %[[R:.*]] = "ttnn.reshape"(%arg0) <{shape = [4 : i32, 8 : i32]}> : (tensor<32xbf16>) -> tensor<4x8xbf16>
// CHECK-NEXT:    %[[P:.*]] = "ttnn.permute"(%arg1) <{permutation = array<i64: 2, 0, 1>}> : (tensor<2x3x4xbf16>) -> tensor<4x2x3xbf16>
// CHECK-NEXT:    return %[[R]], %[[P]], %arg1, %arg0
func.func @views(%arg0: tensor<32xbf16>, %arg1: tensor<2x3x4xbf16>) -> (tensor<4x8xbf16>, tensor<4x2x3xbf16>, tensor<2x3x4xbf16>, tensor<32xbf16>) {
  %0 = "ttnn.reshape"(%arg0) <{shape = [2 : i32, 16 : i32]}> : (tensor<32xbf16>) -> tensor<2x16xbf16>
  %1 = "ttnn.reshape"(%0) <{shape = [4 : i32, 8 : i32]}> : (tensor<2x16xbf16>) -> tensor<4x8xbf16>
  %2 = "ttnn.permute"(%arg1) <{permutation = array<i64: 1, 2, 0>}> : (tensor<2x3x4xbf16>) -> tensor<3x4x2xbf16>
  %3 = "ttnn.permute"(%2) <{permutation = array<i64: 1, 2, 0>}> : (tensor<3x4x2xbf16>) -> tensor<4x2x3xbf16>
  %4 = "ttnn.permute"(%arg1) <{permutation = array<i64: 0, 1, 2>}> : (tensor<2x3x4xbf16>) -> tensor<2x3x4xbf16>
  %5 = "ttnn.reshape"(%arg0) <{shape = [32 : i32]}> : (tensor<32xbf16>) -> tensor<32xbf16>
  return %1, %3, %4, %5 : tensor<4x8xbf16>, tensor<4x2x3xbf16>, tensor<2x3x4xbf16>, tensor<32xbf16>
}
