// RUN: not ttopt opt %s --ttir-to-ttnn-backend-pipeline --split-input-file 2>&1 | FileCheck %s
// RUN: not ttopt opt %s --ttir-to-ttnn-backend-pipeline="optimization-level=3" 2>&1 | FileCheck %s --check-prefix=LEVEL
// RUN: not ttopt opt %s --ttir-to-ttnn-backend-pipeline="mesh-shape=2,4" 2>&1 | FileCheck %s --check-prefix=MESH

// Ops the lowering cannot convert are errors at the op, never left behind; bad options are usage
// errors before the input is read; a mesh-shape the program was not sharded for is an error.

// CHECK: errors.mlir:[[# @LINE + 3]]:10: error: convert-ttir-to-ttnn: 'ttir.dot_general' lowers to ttnn.matmul only with leading batch dimensions, one contracting dimension and one free dimension per side
module {
  func.func @f(%a: tensor<4x8x16xbf16>, %b: tensor<8x16x32xbf16>) -> tensor<4x32xbf16> {
    %0 = "ttir.dot_general"(%a, %b) <{batch_dims_lhs = array<i64>, contract_dims_lhs = array<i64: 1, 2>, batch_dims_rhs = array<i64>, contract_dims_rhs = array<i64: 0, 1>}> : (tensor<4x8x16xbf16>, tensor<8x16x32xbf16>) -> tensor<4x32xbf16>
    return %0 : tensor<4x32xbf16>
  }
}

// -----

// CHECK: errors.mlir:[[# @LINE + 3]]:10: error: convert-ttir-to-ttnn: 'ttir.typecast' has element type i4, which has no TTNN data type
module {
  func.func @f(%a: tensor<32xi32>) -> tensor<32xi4> {
    %0 = "ttir.typecast"(%a) : (tensor<32xi32>) -> tensor<32xi4>
    return %0 : tensor<32xi4>
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
// MESH: error: ttir-to-ttnn-backend-pipeline: mesh-shape 2x4 does not match the program: the module has no ttcore.meshes (a single-device program)
