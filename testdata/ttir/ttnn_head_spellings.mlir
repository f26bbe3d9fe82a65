// RUN: ttopt opt %s --convert-ttir-to-ttnn --split-input-file | FileCheck %s

// TTNN ops spelled as tt-mlir HEAD's ODS defines them: prod reduces one si64 dimension (or, without
// dim_arg, all of them).

// CHECK-LABEL: func.func @prod
// CHECK: %[[N:.*]] = "ttnn.neg"(%arg0)
// CHECK: "ttnn.prod"(%[[N]]) <{dim_arg = 1 : si64, keep_dim = false}>
// CHECK: "ttnn.prod"(%[[N]]) <{keep_dim = false}>
module {
  func.func @prod(%a: tensor<32x64xf32>) -> (tensor<32xf32>, tensor<f32>) {
    %n = "ttir.neg"(%a) : (tensor<32x64xf32>) -> tensor<32x64xf32>
    %0 = "ttir.prod"(%n) <{dim_arg = [1 : i32], keep_dim = false}> : (tensor<32x64xf32>) -> tensor<32xf32>
    %1 = "ttir.prod"(%n) <{dim_arg = [0 : i32, 1 : i32], keep_dim = false}> : (tensor<32x64xf32>) -> tensor<f32>
    return %0, %1 : tensor<32xf32>, tensor<f32>
  }
}

// -----

// pow is pow_tensor, or pow_scalar when the exponent is a non-negative constant fill (HEAD's rule).
// CHECK-LABEL: func.func @pow
// CHECK: %[[T:.*]] = "ttnn.pow_tensor"(%arg0, %arg1)
// CHECK: "ttnn.pow_scalar"(%[[T]]) <{rhs = 2.000000e+00 : f32}>
// CHECK: "ttnn.pow_tensor"(%[[T]], %{{.*}})
// CHECK-NOT: "ttnn.pow"
module {
  func.func @pow(%a: tensor<32x64xf32>, %b: tensor<32x64xf32>) -> (tensor<32x64xf32>, tensor<32x64xf32>) {
    %two = "ttir.full"() <{fill_value = 2.000000e+00 : f32, shape = array<i32: 32, 64>}> : () -> tensor<32x64xf32>
    %neg = "ttir.full"() <{fill_value = -2.000000e+00 : f32, shape = array<i32: 32, 64>}> : () -> tensor<32x64xf32>
    %0 = "ttir.pow"(%a, %b) : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    %1 = "ttir.pow"(%0, %two) : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    %2 = "ttir.pow"(%0, %neg) : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    return %1, %2 : tensor<32x64xf32>, tensor<32x64xf32>
  }
}

// -----

// repeat keeps its repetitions as HEAD's repeat_dims shape.
// CHECK-LABEL: func.func @repeat
// CHECK: "ttnn.repeat"(%{{.*}}) <{repeat_dims = #ttnn.shape<2x1>}>
module {
  func.func @repeat(%a: tensor<32x64xf32>) -> tensor<64x64xf32> {
    %n = "ttir.neg"(%a) : (tensor<32x64xf32>) -> tensor<32x64xf32>
    %0 = "ttir.repeat"(%n) <{repeat_dimensions = array<i64: 2, 1>}> : (tensor<32x64xf32>) -> tensor<64x64xf32>
    return %0 : tensor<64x64xf32>
  }
}

// -----

// transpose is the permute swapping its two dimensions (HEAD canonicalizes it so).
// CHECK-LABEL: func.func @transpose
// CHECK: "ttnn.permute"(%{{.*}}) <{permutation = array<i64: 0, 2, 1>}>
// CHECK-NOT: ttnn.transpose
module {
  func.func @transpose(%a: tensor<2x32x64xf32>) -> tensor<2x64x32xf32> {
    %n = "ttir.neg"(%a) : (tensor<2x32x64xf32>) -> tensor<2x32x64xf32>
    %0 = "ttir.transpose"(%n) <{dim0 = -1 : si32, dim1 = 1 : si32}> : (tensor<2x32x64xf32>) -> tensor<2x64x32xf32>
    return %0 : tensor<2x64x32xf32>
  }
}
