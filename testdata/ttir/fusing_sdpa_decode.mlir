// RUN: ttopt opt %s --ttir-fusing | FileCheck %s
// RUN: ttopt opt %s --ttir-fusing --trace 2>&1 >/dev/null | FileCheck %s --check-prefix=TRACE
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline | FileCheck %s --check-prefix=TTNN

// One query position (a decode step): HEAD lowers this SDPA form to
// ttnn.scaled_dot_product_attention_decode, which ttopt does not emit, so the pattern is declined
// and the unfused ops lower (before, the fused op was an error at convert-ttir-to-ttnn).
// CHECK-LABEL: func.func @decode
// CHECK-NOT: scaled_dot_product_attention
// CHECK: "ttir.softmax"
// TRACE: ttir-fusing: sdpa at "context": not applied: a query sequence of 1 is the decode form
// TTNN: "ttnn.softmax"
// TTNN: "ttnn.matmul"
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
