// RUN: not ttopt opt %s --ttir-to-ttnn-backend-pipeline --split-input-file 2>&1 | FileCheck %s
// RUN: not ttopt opt %s --ttir-to-ttnn-backend-pipeline="optimization-level=3" 2>&1 | FileCheck %s --check-prefix=LEVEL

// Ops the lowering cannot convert are errors at the op, never left behind; bad options are usage
// errors before the input is read (mesh-shape: testdata/ttir/mesh_shape.mlir).

// A pooling op of rank 3 is HEAD's verifier error before any pass runs.
// CHECK: errors.mlir:[[# @LINE + 3]]:10: error: 'ttir.max_pool2d' op input must be a 4D tensor
module {
  func.func @f(%a: tensor<8x8x16xbf16>) -> tensor<4x4x16xbf16> {
    %0 = "ttir.max_pool2d"(%a) <{kernel = array<i32: 2, 2>, stride = array<i32: 2, 2>, dilation = array<i32: 1, 1>, padding = array<i32: 0, 0, 0, 0>, ceil_mode = false}> : (tensor<8x8x16xbf16>) -> tensor<4x4x16xbf16>
    return %0 : tensor<4x4x16xbf16>
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

// HEAD has no TTNN op for the ops it compiles only through D2M.
// CHECK: errors.mlir:[[# @LINE + 3]]:10: error: convert-ttir-to-ttnn: 'ttir.selu' has no TTNN lowering (tt-mlir HEAD compiles it only through D2M, its ttir-to-ttmetal path)
module {
  func.func @f(%a: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %1 = "ttir.selu"(%a) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %1 : tensor<64x128xf32>
  }
}

// -----

// CHECK: errors.mlir:[[# @LINE + 3]]:10: error: 'ttir.collective_broadcast' op input and output must have the same type
module attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x2>]>} {
  func.func @f(%a: tensor<64x128xf32>) -> tensor<64x128xbf16> {
    %1 = "ttir.collective_broadcast"(%a) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<64x128xf32>) -> tensor<64x128xbf16>
    return %1 : tensor<64x128xbf16>
  }
}

// -----

// CHECK: errors.mlir:[[# @LINE + 3]]:10: error: convert-ttir-to-ttnn: 'ttir.moe_gpt' takes input, expert indices, expert scores, expert mapping, w0_w1 and w2, and has five results
module {
  func.func @f(%a: tensor<64x128xf32>) -> tensor<64x128xbf16> {
    %1 = "ttir.moe_gpt"(%a) : (tensor<64x128xf32>) -> tensor<64x128xbf16>
    return %1 : tensor<64x128xbf16>
  }
}

// -----

// An op that lowers, written without the operands its conversion reads, is an error at the op.
// CHECK: errors.mlir:[[# @LINE + 3]]:10: error: convert-ttir-to-ttnn: 'ttir.selective_reduce_combine' has 1 operands and no operandSegmentSizes; expected dense_input_tensor, dense_activations_tensor, dense_token_maps_tensor, dense_token_counts_tensor
module {
  func.func @f(%a: tensor<64x128xf32>) -> tensor<64x128xbf16> {
    %1 = "ttir.selective_reduce_combine"(%a) : (tensor<64x128xf32>) -> tensor<64x128xbf16>
    return %1 : tensor<64x128xbf16>
  }
}

// -----

// A ttcore.system_desc that is not a system desc (a string) is an error at the attribute.
// CHECK: errors.mlir:[[# @LINE + 1]]:20: error: ttcore-register-device: ttcore.system_desc: "chip" is not a #ttcore.system_desc
module attributes {ttcore.system_desc = "chip"} {
  func.func @f(%a: tensor<64x128xbf16>) -> tensor<64x128xbf16> {
    %1 = "ttir.relu"(%a) : (tensor<64x128xbf16>) -> tensor<64x128xbf16>
    return %1 : tensor<64x128xbf16>
  }
}

// LEVEL: Error: ttir-to-ttnn-backend-pipeline: optimization-level must be 0, 1 or 2, got 3
