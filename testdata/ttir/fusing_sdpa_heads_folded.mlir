// RUN: ttopt opt %s --ttir-fusing | FileCheck %s
// RUN: ttopt opt %s --ttir-fusing --trace 2>&1 >/dev/null | FileCheck %s --check-prefix=TRACE
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline | FileCheck %s --check-prefix=TTNN

// Heads folded into the batch: Q, K^T and V reshaped from [1, 2, 64, 32] to [2, 64, 32], 3-D
// matmuls, the scores unfolded to 4-D for the softmax and folded back. The op runs on the 4-D
// tensors; the reshape unfolding the attention output takes its result directly.
// CHECK-LABEL: func.func @folded
// CHECK-NEXT: %[[A:.*]] = "ttir.scaled_dot_product_attention"(%arg0, %arg1, %arg2) <{is_causal = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>, scale = 1.250000e-01 : f32}> : (tensor<1x2x64x32xbf16>, tensor<1x2x64x32xbf16>, tensor<1x2x64x32xbf16>) -> tensor<1x2x64x32xbf16>
// CHECK-NEXT: return %[[A]]
// TRACE: ttir-fusing: sdpa at {{.*}}: applied: ttir.scaled_dot_product_attention {{.*}}(scale 0.125, heads unfolded from the batch)
// TTNN-LABEL: func.func @folded
// TTNN-NOT: "ttnn.matmul"
// TTNN: "ttnn.scaled_dot_product_attention"
// TTNN-NOT: "ttnn.reshape"
// TTNN: return
module {
  func.func @folded(%q: tensor<1x2x64x32xbf16>, %k: tensor<1x2x64x32xbf16>, %v: tensor<1x2x64x32xbf16>) -> tensor<1x2x64x32xbf16> {
    %c = "ttir.full"() <{fill_value = 1.250000e-01 : f32, shape = array<i32: 1, 1, 1, 1>}> : () -> tensor<1x1x1x1xbf16>
    %q3 = "ttir.reshape"(%q) <{shape = [2 : i32, 64 : i32, 32 : i32]}> : (tensor<1x2x64x32xbf16>) -> tensor<2x64x32xbf16>
    %kt = "ttir.permute"(%k) <{permutation = array<i64: 0, 1, 3, 2>}> : (tensor<1x2x64x32xbf16>) -> tensor<1x2x32x64xbf16>
    %k3 = "ttir.reshape"(%kt) <{shape = [2 : i32, 32 : i32, 64 : i32]}> : (tensor<1x2x32x64xbf16>) -> tensor<2x32x64xbf16>
    %s3 = "ttir.matmul"(%q3, %k3) : (tensor<2x64x32xbf16>, tensor<2x32x64xbf16>) -> tensor<2x64x64xbf16>
    %s = "ttir.reshape"(%s3) <{shape = [1 : i32, 2 : i32, 64 : i32, 64 : i32]}> : (tensor<2x64x64xbf16>) -> tensor<1x2x64x64xbf16>
    %cb = "ttir.broadcast"(%c) <{broadcast_dimensions = array<i64: 1, 2, 64, 64>}> : (tensor<1x1x1x1xbf16>) -> tensor<1x2x64x64xbf16>
    %ss = "ttir.multiply"(%s, %cb) : (tensor<1x2x64x64xbf16>, tensor<1x2x64x64xbf16>) -> tensor<1x2x64x64xbf16>
    %p = "ttir.softmax"(%ss) <{dimension = 3 : si32}> : (tensor<1x2x64x64xbf16>) -> tensor<1x2x64x64xbf16>
    %p3 = "ttir.reshape"(%p) <{shape = [2 : i32, 64 : i32, 64 : i32]}> : (tensor<1x2x64x64xbf16>) -> tensor<2x64x64xbf16>
    %v3 = "ttir.reshape"(%v) <{shape = [2 : i32, 64 : i32, 32 : i32]}> : (tensor<1x2x64x32xbf16>) -> tensor<2x64x32xbf16>
    %o3 = "ttir.matmul"(%p3, %v3) : (tensor<2x64x64xbf16>, tensor<2x64x32xbf16>) -> tensor<2x64x32xbf16>
    %o = "ttir.reshape"(%o3) <{shape = [1 : i32, 2 : i32, 64 : i32, 32 : i32]}> : (tensor<2x64x32xbf16>) -> tensor<1x2x64x32xbf16>
    return %o : tensor<1x2x64x32xbf16>
  }
}
