// RUN: ttopt opt %s --convert-ttir-to-ttnn | FileCheck %s

// TTNN ops spelled as tt-mlir HEAD's ODS defines them: prod reduces one si64 dimension (or, without
// dim_arg, all of them).

// CHECK-LABEL: func.func @prod
// CHECK: %[[N:.*]] = "ttnn.neg"(%arg0)
// CHECK: "ttnn.prod"(%[[N]]) <{dim_arg = 1 : si64, keep_dim = false}>
// CHECK: "ttnn.prod"(%[[N]]) <{keep_dim = false}>
module {
  func.func @prod(%a: tensor<32x64xf32>) -> (tensor<32xf32>, tensor<1xf32>) {
    %n = "ttir.neg"(%a) : (tensor<32x64xf32>) -> tensor<32x64xf32>
    %0 = "ttir.prod"(%n) <{dim_arg = [1 : i32], keep_dim = false}> : (tensor<32x64xf32>) -> tensor<32xf32>
    %1 = "ttir.prod"(%n) <{dim_arg = [0 : i32, 1 : i32], keep_dim = false}> : (tensor<32x64xf32>) -> tensor<1xf32>
    return %0, %1 : tensor<32xf32>, tensor<1xf32>
  }
}
