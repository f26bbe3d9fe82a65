// RUN: ttopt opt %s | FileCheck %s
// Integer literals in custom op forms may be hex, as MLIR's lexer reads them; they print in decimal.

// CHECK-LABEL: func.func @f
// CHECK: stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0]
// CHECK: stablehlo.transpose %arg0, dims = [1, 0]
// CHECK: stablehlo.get_tuple_element %arg2[1]
// CHECK: stablehlo.concatenate %arg0, %arg0, dim = 0
// CHECK: stablehlo.slice %arg0 [0:2, 1:3:2]
func.func @f(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>, %t: tuple<tensor<2x3xf32>, tensor<3x4xf32>>) -> tensor<2x4xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [0x1] x [0] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %1 = stablehlo.transpose %a, dims = [0x1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %2 = stablehlo.get_tuple_element %t[0x1] : (tuple<tensor<2x3xf32>, tensor<3x4xf32>>) -> tensor<3x4xf32>
  %3 = stablehlo.concatenate %a, %a, dim = 0x0 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  %4 = stablehlo.slice %a [0x0:0x2, 0x1:0x3:0x2] : (tensor<2x3xf32>) -> tensor<2x1xf32>
  return %0 : tensor<2x4xf32>
}
