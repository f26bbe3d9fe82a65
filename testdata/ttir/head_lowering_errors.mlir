// RUN: not ttopt opt %s --ttir-to-ttnn-backend-pipeline --split-input-file 2>&1 | FileCheck %s
// Inputs tt-mlir HEAD rejects, with HEAD's messages: the ttir.constant verifier, and conversion
// failures HEAD reports through emitOpError ('ttir.foo' op ...).

// CHECK: head_lowering_errors.mlir:[[# @LINE + 3]]:10: error: 'ttir.constant' op value attribute must be one of DenseResourceElementsAttr or DenseElementsAttr.
module {
  func.func @f() -> tensor<1x2xbf16> {
    %0 = "ttir.constant"() <{value = sparse<[[0, 0], [0, 1]], [2.0, 2.0]> : tensor<1x2xbf16>}> : () -> tensor<1x2xbf16>
    return %0 : tensor<1x2xbf16>
  }
}

// -----

// CHECK: head_lowering_errors.mlir:[[# @LINE + 3]]:10: error: 'ttir.constant' op value attribute must be of int or float type.
module {
  func.func @f() -> tensor<2xcomplex<f32>> {
    %0 = "ttir.constant"() <{value = dense<[(2.0, 0.0), (3.0, 0.0)]> : tensor<2xcomplex<f32>>}> : () -> tensor<2xcomplex<f32>>
    return %0 : tensor<2xcomplex<f32>>
  }
}

// -----

// CHECK: head_lowering_errors.mlir:[[# @LINE + 3]]:10: error: 'ttir.avg_pool2d' op only supports lowering to TTNN for dilation of (1, 1)
module {
  func.func @f(%a: tensor<1x32x32x64xbf16>) -> tensor<1x28x28x64xbf16> {
    %0 = "ttir.avg_pool2d"(%a) <{kernel = array<i32: 3, 3>, stride = array<i32: 1, 1>, dilation = array<i32: 2, 2>, padding = array<i32: 0, 0, 0, 0>, ceil_mode = false}> : (tensor<1x32x32x64xbf16>) -> tensor<1x28x28x64xbf16>
    return %0 : tensor<1x28x28x64xbf16>
  }
}

// -----

// CHECK: head_lowering_errors.mlir:[[# @LINE + 3]]:10: error: 'ttir.conv_transpose2d' op TTNN only supports padding height/width attributes. Thus, padding_top/padding_left must equal padding_bottom/padding_right for the op to execute as expected.
module {
  func.func @f(%a: tensor<1x8x8x16xbf16>, %w: tensor<16x32x3x3xbf16>) -> tensor<1x16x14x32xbf16> {
    %0 = "ttir.conv_transpose2d"(%a, %w) <{dilation = array<i32: 1, 1>, groups = 1 : i32, output_padding = array<i32: 0, 0>, padding = array<i32: 1, 2, 0, 1>, stride = array<i32: 2, 2>}> : (tensor<1x8x8x16xbf16>, tensor<16x32x3x3xbf16>) -> tensor<1x16x14x32xbf16>
    return %0 : tensor<1x16x14x32xbf16>
  }
}

// -----

// CHECK: head_lowering_errors.mlir:[[# @LINE + 3]]:10: error: convert-ttir-to-ttnn: 'ttir.conv3d' ttnn.conv3d only supports groups == 1
module {
  func.func @f(%a: tensor<1x8x28x28x32xbf16>, %w: tensor<32x16x3x3x3xbf16>) -> tensor<1x6x26x26x32xbf16> {
    %0 = "ttir.conv3d"(%a, %w) <{stride = array<i32: 1, 1, 1>, padding = array<i32: 0, 0, 0>, groups = 2 : i32}> : (tensor<1x8x28x28x32xbf16>, tensor<32x16x3x3x3xbf16>) -> tensor<1x6x26x26x32xbf16>
    return %0 : tensor<1x6x26x26x32xbf16>
  }
}
