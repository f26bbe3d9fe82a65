// RUN: not ttopt opt %s --split-input-file 2>&1 | FileCheck %s
// RUN: not ttopt analyze %s 2>&1 | FileCheck %s --check-prefix=ANALYZE

// ttnn.matmul / ttnn.linear verifier (tt-mlir's MatmulOp / LinearOp::verify, with their messages): contracting dims agree (after
// transpose_a / transpose_b), batch dims broadcast, and the result has the shape they give.
// Checked on every parse, so neither `opt` nor the optimizer nor `analyze` computes on a bad matmul
// (here, not in testdata/ttnn/, whose corpus files must all carry layouts and a system desc).

// CHECK: matmul_verify.mlir:[[# @LINE + 3]]:10: error: 'ttnn.matmul' op Output shape dimension[0](128) doesn't match the expected output shape dimension[0](64)
// ANALYZE: matmul_verify.mlir:[[# @LINE + 2]]:10: error: 'ttnn.matmul' op Output shape dimension[0](128) doesn't match the expected output shape dimension[0](64)
func.func @wrong_result(%a: tensor<64x64xbf16>, %b: tensor<64x64xbf16>) -> tensor<128x32xbf16> {
    %0 = "ttnn.matmul"(%a, %b) <{transpose_a = false, transpose_b = false}> : (tensor<64x64xbf16>, tensor<64x64xbf16>) -> tensor<128x32xbf16>
    return %0 : tensor<128x32xbf16>
}

// -----

// CHECK: matmul_verify.mlir:[[# @LINE + 2]]:10: error: 'ttnn.matmul' op Input A[-1](64) and B[-2](32) must have matching inner dimensions
func.func @contracting(%a: tensor<64x64xbf16>, %b: tensor<32x64xbf16>) -> tensor<64x64xbf16> {
    %0 = "ttnn.matmul"(%a, %b) <{transpose_a = false, transpose_b = false}> : (tensor<64x64xbf16>, tensor<32x64xbf16>) -> tensor<64x64xbf16>
    return %0 : tensor<64x64xbf16>
}

// -----

// CHECK: matmul_verify.mlir:[[# @LINE + 2]]:10: error: 'ttnn.matmul' op Batch dimensions of input A(2) and B(3) are not broadcast compatible
func.func @batch(%a: tensor<2x64x64xbf16>, %b: tensor<3x64x64xbf16>) -> tensor<2x64x64xbf16> {
    %0 = "ttnn.matmul"(%a, %b) : (tensor<2x64x64xbf16>, tensor<3x64x64xbf16>) -> tensor<2x64x64xbf16>
    return %0 : tensor<2x64x64xbf16>
}

// -----

// CHECK: matmul_verify.mlir:[[# @LINE + 2]]:10: error: 'ttnn.linear' op Output shape(64,32) must match the broadcasted shape(64,64)
func.func @linear(%a: tensor<64x128xbf16>, %b: tensor<128x64xbf16>, %bias: tensor<64xbf16>) -> tensor<64x32xbf16> {
    %0 = "ttnn.linear"(%a, %b, %bias) <{transpose_a = false, transpose_b = false}> : (tensor<64x128xbf16>, tensor<128x64xbf16>, tensor<64xbf16>) -> tensor<64x32xbf16>
    return %0 : tensor<64x32xbf16>
}

// -----

// Valid: transposes, broadcast batch, rank-1 operands (a vector-vector product is tensor<1>, as
// tt-mlir writes it: TTNN has no rank-0 tensors), dynamic and unranked shapes.
// CHECK-NOT: error
func.func @valid(%a: tensor<64x128xbf16>, %b: tensor<32x128xbf16>, %c: tensor<4x1x64x128xbf16>, %d: tensor<3x128x32xbf16>,
                 %v: tensor<128xbf16>, %e: tensor<?x128xbf16>, %u: tensor<*xbf16>) -> () {
    %0 = "ttnn.matmul"(%a, %b) <{transpose_a = false, transpose_b = true}> : (tensor<64x128xbf16>, tensor<32x128xbf16>) -> tensor<64x32xbf16>
    %1 = "ttnn.matmul"(%a, %a) <{transpose_a = true, transpose_b = false}> : (tensor<64x128xbf16>, tensor<64x128xbf16>) -> tensor<128x128xbf16>
    %2 = "ttnn.matmul"(%c, %d) : (tensor<4x1x64x128xbf16>, tensor<3x128x32xbf16>) -> tensor<4x3x64x32xbf16>
    %3 = "ttnn.matmul"(%a, %v) : (tensor<64x128xbf16>, tensor<128xbf16>) -> tensor<64xbf16>
    %4 = "ttnn.matmul"(%v, %v) : (tensor<128xbf16>, tensor<128xbf16>) -> tensor<1xbf16>
    %5 = "ttnn.matmul"(%e, %d) : (tensor<?x128xbf16>, tensor<3x128x32xbf16>) -> tensor<3x?x32xbf16>
    %6 = "ttnn.matmul"(%u, %d) : (tensor<*xbf16>, tensor<3x128x32xbf16>) -> tensor<*xbf16>
    return
}
