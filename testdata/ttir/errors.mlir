// RUN: not ttopt opt %s --ttir-to-ttnn-backend-pipeline --split-input-file 2>&1 | FileCheck %s
// RUN: not ttopt opt %s --ttir-to-ttnn-backend-pipeline="optimization-level=3" 2>&1 | FileCheck %s --check-prefix=LEVEL
// RUN: not ttopt opt %s --ttir-to-ttnn-backend-pipeline="mesh-shape=2,4" 2>&1 | FileCheck %s --check-prefix=MESH

// Ops the lowering cannot convert are errors at the op, never left behind; bad options are usage
// errors before the input is read.

// CHECK: errors.mlir:[[# @LINE + 3]]:10: error: convert-ttir-to-ttnn: 'ttir.reduce_or' has no TTNN lowering (TTNN has no logical reduction)
module {
  func.func @f(%a: tensor<32x32xbf16>) -> tensor<32xbf16> {
    %0 = "ttir.reduce_or"(%a) <{keep_dim = false, dim_arg = [1 : i32]}> : (tensor<32x32xbf16>) -> tensor<32xbf16>
    return %0 : tensor<32xbf16>
  }
}

// -----

// CHECK: errors.mlir:[[# @LINE + 3]]:10: error: convert-ttir-to-ttnn: 'ttir.sum' has a rank-0 tensor (tensor<bf16>); TTNN layouts need rank >= 1
module {
  func.func @f(%a: tensor<32xbf16>) -> tensor<bf16> {
    %0 = "ttir.sum"(%a) <{keep_dim = false}> : (tensor<32xbf16>) -> tensor<bf16>
    return %0 : tensor<bf16>
  }
}

// -----

// CHECK: errors.mlir:[[# @LINE + 3]]:10: error: convert-ttir-to-ttnn: 'ttir.cumsum' has no TTNN lowering
module {
  func.func @f(%a: tensor<32x32xbf16>) -> tensor<32x32xbf16> {
    %0 = "ttir.cumsum"(%a) <{dim = 1 : i64}> : (tensor<32x32xbf16>) -> tensor<32x32xbf16>
    return %0 : tensor<32x32xbf16>
  }
}

// LEVEL: Error: ttir-to-ttnn-backend-pipeline: optimization-level must be 0, 1 or 2, got 3
// MESH: Error: ttir-to-ttnn-backend-pipeline: mesh-shape 2x4 is not supported here: only 1,1
