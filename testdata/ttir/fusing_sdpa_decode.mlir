// RUN: ttopt opt %s --ttir-fusing | FileCheck %s
// RUN: ttopt opt %s --ttir-fusing --trace 2>&1 >/dev/null | FileCheck %s --check-prefix=TRACE
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline | FileCheck %s --check-prefix=TTNN

// One query position (a decode step): fused as any attention, and lowered, as HEAD lowers it, to
// ttnn.scaled_dot_product_attention_decode with the query permuted to [1, B, H, D] and the result
// permuted back to [B, H, 1, D] (with B = 1 both move only size-1 dims: reshapes).
// CHECK-LABEL: func.func @decode
// CHECK: "ttir.scaled_dot_product_attention"
// CHECK-NOT: "ttir.softmax"
// TRACE: ttir-fusing: sdpa at "context": applied
// TTNN: "ttnn.reshape"({{.*}}) <{shape = [1 : i32, 1 : i32, 8 : i32, 64 : i32]}> : (tensor<1x8x1x64xbf16
// TTNN-NEXT: "ttnn.scaled_dot_product_attention_decode"({{.*}}) <{is_causal = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>, scale = 1.250000e-01 : f32}>
// TTNN: "ttnn.reshape"({{.*}}) <{shape = [1 : i32, 8 : i32, 1 : i32, 64 : i32]}> : (tensor<1x1x8x64xbf16
// TTNN-NOT: "ttnn.softmax"
func.func @decode(%q: tensor<1x8x1x64xbf16>, %k: tensor<1x8x128x64xbf16>, %v: tensor<1x8x128x64xbf16>) -> tensor<1x8x1x64xbf16> {
  %kt = "ttir.permute"(%k) <{permutation = array<i64: 0, 1, 3, 2>}> : (tensor<1x8x128x64xbf16>) -> tensor<1x8x64x128xbf16>
  %0 = "ttir.matmul"(%q, %kt) : (tensor<1x8x1x64xbf16>, tensor<1x8x64x128xbf16>) -> tensor<1x8x1x128xbf16>
  %c = "ttir.full"() <{fill_value = 1.250000e-01 : f32, shape = array<i32: 1, 1, 1, 1>}> : () -> tensor<1x1x1x1xbf16>
  %cb = "ttir.broadcast"(%c) <{broadcast_dimensions = array<i64: 1, 8, 1, 128>}> : (tensor<1x1x1x1xbf16>) -> tensor<1x8x1x128xbf16>
  %1 = "ttir.multiply"(%0, %cb) : (tensor<1x8x1x128xbf16>, tensor<1x8x1x128xbf16>) -> tensor<1x8x1x128xbf16>
  %2 = "ttir.softmax"(%1) <{dimension = -1 : si32}> : (tensor<1x8x1x128xbf16>) -> tensor<1x8x1x128xbf16>
  %3 = "ttir.matmul"(%2, %v) : (tensor<1x8x1x128xbf16>, tensor<1x8x128x64xbf16>) -> tensor<1x8x1x64xbf16> loc("context")
  return %3 : tensor<1x8x1x64xbf16>
}
