// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="enable-const-eval=false" | FileCheck %s
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="enable-const-eval=false optimization-level=1" | FileCheck %s --check-prefix=OPT
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="enable-ttnn-decomposition-pass=false" | FileCheck %s --check-prefix=FUSED

// tt-mlir's TTNN decomposition of group_norm: without the op model (optimization-level=0) every
// group norm becomes mean / variance primitives over a [N, H*W, G, C/G] view; with it, only one
// whose per-sample height H*W is not whole tiles (tt-metal's kernel reduces over the padded height).

// CHECK-LABEL: func.func @aligned
// CHECK-NOT: "ttnn.group_norm"
// CHECK: "ttnn.reshape"{{.*}}shape = [1 : i32, 64 : i32, 8 : i32, 60 : i32]
// CHECK: "ttnn.mean"{{.*}}dim_arg = [1 : i32, 3 : i32], keep_dim = true{{.*}}-> tensor<1x1x8x1xbf16
// CHECK: "ttnn.subtract"
// CHECK: "ttnn.multiply"
// CHECK: "ttnn.mean"
// CHECK: "ttnn.full"{{.*}}fill_value = 9.99999974E-6 : f32
// CHECK: "ttnn.add"
// CHECK: "ttnn.rsqrt"
// CHECK: "ttnn.multiply"
// CHECK: "ttnn.reshape"{{.*}}shape = [1 : i32, 1 : i32, 64 : i32, 480 : i32]
// CHECK: "ttnn.multiply"
// CHECK: "ttnn.add"
// OPT-LABEL: func.func @aligned
// OPT: "ttnn.group_norm"
// FUSED-LABEL: func.func @aligned
// FUSED: "ttnn.group_norm"
func.func @aligned(%arg0: tensor<1x1x64x480xbf16>) -> tensor<1x1x64x480xbf16> {
  %0 = "ttir.group_norm"(%arg0) <{num_groups = 8 : i64, epsilon = 1.000000e-05 : f32, operandSegmentSizes = array<i32: 1, 0, 0, 0>}> : (tensor<1x1x64x480xbf16>) -> tensor<1x1x64x480xbf16>
  return %0 : tensor<1x1x64x480xbf16>
}

// OPT-LABEL: func.func @not_aligned
// OPT-NOT: "ttnn.group_norm"
// OPT: "ttnn.mean"
// FUSED-LABEL: func.func @not_aligned
// FUSED: "ttnn.group_norm"
func.func @not_aligned(%arg0: tensor<1x1x50x480xbf16>) -> tensor<1x1x50x480xbf16> {
  %0 = "ttir.group_norm"(%arg0) <{num_groups = 8 : i64, epsilon = 1.000000e-05 : f32, operandSegmentSizes = array<i32: 1, 0, 0, 0>}> : (tensor<1x1x50x480xbf16>) -> tensor<1x1x50x480xbf16>
  return %0 : tensor<1x1x50x480xbf16>
}
