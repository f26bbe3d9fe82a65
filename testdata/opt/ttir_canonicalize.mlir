// RUN: ttopt opt %s --canonicalize | FileCheck %s
// RUN: ttopt opt %s --canonicalize | ttopt opt --canonicalize | FileCheck %s

// TTIR canonicalization as tt-mlir's TTIR folders and patterns do it.

// relu6 spelled as a clamp of a clamp: the clamps merge to (0, 6), which is relu6.
// CHECK-LABEL: func.func @clamp_chain_is_relu6
// CHECK-NEXT:    %[[R:.*]] = "ttir.relu6"(%arg0)
// CHECK-NEXT:    return %[[R]]
func.func @clamp_chain_is_relu6(%arg0: tensor<8x32xbf16>) -> tensor<8x32xbf16> {
  %0 = "ttir.clamp_scalar"(%arg0) <{max = 0x7F800000 : f32, min = 0.000000e+00 : f32}> : (tensor<8x32xbf16>) -> tensor<8x32xbf16>
  %1 = "ttir.clamp_scalar"(%0) <{max = 6.000000e+00 : f32, min = 0xFF800000 : f32}> : (tensor<8x32xbf16>) -> tensor<8x32xbf16>
  return %1 : tensor<8x32xbf16>
}

// clamp_tensor with constant bounds (splat constants reaching it through a typecast and a
// reshape, which fold into fulls) is a clamp_scalar.
// CHECK-LABEL: func.func @clamp_tensor_of_constants
// CHECK-NEXT:    %[[C:.*]] = "ttir.clamp_scalar"(%arg0) <{max = 5.000000e+00 : f32, min = 2.000000e+00 : f32}> : (tensor<1x16xbf16>) -> tensor<1x16xbf16>
// CHECK-NEXT:    return %[[C]]
func.func @clamp_tensor_of_constants(%arg0: tensor<1x16xbf16>) -> tensor<1x16xbf16> {
  %0 = "ttir.constant"() <{value = dense<2.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %1 = "ttir.typecast"(%0) : (tensor<1xf32>) -> tensor<1xbf16>
  %2 = "ttir.reshape"(%1) <{shape = [1 : i32, 1 : i32]}> : (tensor<1xbf16>) -> tensor<1x1xbf16>
  %3 = "ttir.constant"() <{value = dense<5.0> : tensor<1x1xbf16>}> : () -> tensor<1x1xbf16>
  %4 = "ttir.clamp_tensor"(%arg0, %2, %3) : (tensor<1x16xbf16>, tensor<1x1xbf16>, tensor<1x1xbf16>) -> tensor<1x16xbf16>
  return %4 : tensor<1x16xbf16>
}

// neg(neg(x)) is x; abs(abs(x)) is abs(x); a permute pair composes to the identity and goes.
// CHECK-LABEL: func.func @involution_idempotence_permutes
// CHECK-NEXT:    %[[A:.*]] = "ttir.abs"(%arg0)
// CHECK-NEXT:    %[[S:.*]] = "ttir.add"(%arg0, %[[A]])
// CHECK-NEXT:    return %[[S]]
func.func @involution_idempotence_permutes(%arg0: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %0 = "ttir.neg"(%arg0) : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %1 = "ttir.neg"(%0) : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %2 = "ttir.permute"(%1) <{permutation = array<i64: 2, 0, 1>}> : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  %3 = "ttir.permute"(%2) <{permutation = array<i64: 1, 2, 0>}> : (tensor<4x2x3xf32>) -> tensor<2x3x4xf32>
  %4 = "ttir.abs"(%arg0) : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %5 = "ttir.abs"(%4) : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %6 = "ttir.add"(%3, %5) : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %6 : tensor<2x3x4xf32>
}

// Constants fold through elementwise ops and data movement; a splat result is a full.
// CHECK-LABEL: func.func @constant_folds
// CHECK-NEXT:    %[[F:.*]] = "ttir.full"() <{fill_value = -3.000000e+00 : f32, shape = array<i32: 2, 2>}> : () -> tensor<2x2xf32>
// CHECK-NEXT:    %[[C:.*]] = "ttir.constant"() <{value = dense<{{\[\[}}1, 3], [2, 4]]> : tensor<2x2xsi32>}> : () -> tensor<2x2xsi32>
// CHECK-NEXT:    return %[[F]], %[[C]]
func.func @constant_folds() -> (tensor<2x2xf32>, tensor<2x2xsi32>) {
  %0 = "ttir.full"() <{fill_value = 1.000000e+00 : f32, shape = array<i32: 1, 4>}> : () -> tensor<1x4xf32>
  %1 = "ttir.constant"() <{value = dense<2.0> : tensor<1x4xf32>}> : () -> tensor<1x4xf32>
  %2 = "ttir.add"(%0, %1) : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  %3 = "ttir.reshape"(%2) <{shape = [2 : i32, 2 : i32]}> : (tensor<1x4xf32>) -> tensor<2x2xf32>
  %4 = "ttir.neg"(%3) : (tensor<2x2xf32>) -> tensor<2x2xf32>
  %5 = "ttir.constant"() <{value = dense<[[1, 2], [3, 4]]> : tensor<2x2xsi32>}> : () -> tensor<2x2xsi32>
  %6 = "ttir.permute"(%5) <{permutation = array<i64: 1, 0>}> : (tensor<2x2xsi32>) -> tensor<2x2xsi32>
  return %4, %6 : tensor<2x2xf32>, tensor<2x2xsi32>
}

// where of a ones condition is its second operand; le(a, b) is ge(b, a).
// CHECK-LABEL: func.func @where_and_comparison
// CHECK-NEXT:    %[[G:.*]] = "ttir.ge"(%arg1, %arg0)
// CHECK-NEXT:    return %arg0, %[[G]]
func.func @where_and_comparison(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = "ttir.ones"() <{shape = array<i32: 4>}> : () -> tensor<4xf32>
  %1 = "ttir.where"(%0, %arg0, %arg1) : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %2 = "ttir.le"(%arg0, %arg1) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %1, %2 : tensor<4xf32>, tensor<4xf32>
}
