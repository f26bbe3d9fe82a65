// RUN: not ttopt opt %s --split-input-file 2>&1 | FileCheck %s

// ttir.dot_general's dimension lists are checked as StableHLO's dot_general states them (HEAD's op
// has no verifier; its decomposition would index out of range). ttir.conv2d's verifier is HEAD's,
// checked against HEAD's own negative tests (python bench/ttmlir_conformance.py --suite ttir-verifiers).

// CHECK: error: 'ttir.dot_general' op lhs batch and contracting dimensions [0, 4, 3] are not distinct dimensions of rank 4
func.func @out_of_range(%a: tensor<2x8x4x32xbf16>, %b: tensor<2x6x4x32xbf16>) -> tensor<2x4x8x6xbf16> {
  %0 = "ttir.dot_general"(%a, %b) <{batch_dims_lhs = array<i64: 0, 4>, batch_dims_rhs = array<i64: 0, 2>, contract_dims_lhs = array<i64: 3>, contract_dims_rhs = array<i64: 3>}> : (tensor<2x8x4x32xbf16>, tensor<2x6x4x32xbf16>) -> tensor<2x4x8x6xbf16>
  return %0 : tensor<2x4x8x6xbf16>
}

// -----

// CHECK: error: 'ttir.dot_general' op batch dimensions [0] / [0, 2] or contracting dimensions [3] / [3] do not pair up
func.func @unpaired(%a: tensor<2x8x4x32xbf16>, %b: tensor<2x6x4x32xbf16>) -> tensor<2x4x8x6xbf16> {
  %0 = "ttir.dot_general"(%a, %b) <{batch_dims_lhs = array<i64: 0>, batch_dims_rhs = array<i64: 0, 2>, contract_dims_lhs = array<i64: 3>, contract_dims_rhs = array<i64: 3>}> : (tensor<2x8x4x32xbf16>, tensor<2x6x4x32xbf16>) -> tensor<2x4x8x6xbf16>
  return %0 : tensor<2x4x8x6xbf16>
}

// -----

// CHECK: error: 'ttir.dot_general' op contracting dimension sizes differ: 32 (lhs dimension 3) vs 16 (rhs dimension 3)
func.func @sizes(%a: tensor<2x8x4x32xbf16>, %b: tensor<2x6x4x16xbf16>) -> tensor<2x4x8x6xbf16> {
  %0 = "ttir.dot_general"(%a, %b) <{batch_dims_lhs = array<i64: 0, 2>, batch_dims_rhs = array<i64: 0, 2>, contract_dims_lhs = array<i64: 3>, contract_dims_rhs = array<i64: 3>}> : (tensor<2x8x4x32xbf16>, tensor<2x6x4x16xbf16>) -> tensor<2x4x8x6xbf16>
  return %0 : tensor<2x4x8x6xbf16>
}

// -----

// CHECK: error: 'ttir.dot_general' op result shape [2, 4, 6, 8] is not the batch and free dimensions [2, 4, 8, 6]
func.func @result(%a: tensor<2x8x4x32xbf16>, %b: tensor<2x6x4x32xbf16>) -> tensor<2x4x6x8xbf16> {
  %0 = "ttir.dot_general"(%a, %b) <{batch_dims_lhs = array<i64: 0, 2>, batch_dims_rhs = array<i64: 0, 2>, contract_dims_lhs = array<i64: 3>, contract_dims_rhs = array<i64: 3>}> : (tensor<2x8x4x32xbf16>, tensor<2x6x4x32xbf16>) -> tensor<2x4x6x8xbf16>
  return %0 : tensor<2x4x6x8xbf16>
}

// -----

// A stride of 0 was divided by in the TTNN conv lowering; it is HEAD's verifier error now.
// CHECK: error: 'ttir.conv2d' op Stride attribute values must be > 0.
func.func @conv_stride(%x: tensor<1x16x16x64xbf16>, %w: tensor<64x64x3x3xbf16>) -> tensor<1x16x16x64xbf16> {
  %0 = "ttir.conv2d"(%x, %w) <{dilation = array<i32: 1, 1>, groups = 1 : i32, padding = array<i32: 1, 1, 1, 1>, stride = array<i32: 1, 0>}> : (tensor<1x16x16x64xbf16>, tensor<64x64x3x3xbf16>) -> tensor<1x16x16x64xbf16>
  return %0 : tensor<1x16x16x64xbf16>
}

// -----

// Operand segments that do not cover the operands (split by them, an operand would go missing).
// CHECK: error: 'ttir.rms_norm' op operand count (3) does not match with the total size (4) specified in attribute 'operandSegmentSizes'
func.func @segments(%x: tensor<2x4x16xf32>, %w: tensor<16xf32>, %b: tensor<16xf32>) -> tensor<2x4x16xf32> {
  %0 = "ttir.rms_norm"(%x, %w, %b) <{epsilon = 1.000000e-05 : f32, normalized_shape = array<i64: 16>, operandSegmentSizes = array<i32: 2, 1, 1>}> : (tensor<2x4x16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<2x4x16xf32>
  return %0 : tensor<2x4x16xf32>
}
