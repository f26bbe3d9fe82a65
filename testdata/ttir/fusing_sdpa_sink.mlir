// RUN: ttopt opt %s --ttir-fusing | FileCheck %s
// RUN: ttopt opt %s --ttir-fusing --trace 2>&1 >/dev/null | FileCheck %s --check-prefix=TRACE
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline | FileCheck %s --check-prefix=TTNN

// An attention sink as a softmax-padding column: one logit per KV head, expanded to the query heads,
// concatenated after the scores, the softmax taken over both and the column sliced off again. The
// attention fuses with the [1, Hq, 1, 1] sink as its attention_sink; TTNN divides it by the scale
// (0.125: times a constant 8, which const-eval hoists) before the kernel, and the decode form takes it as an [Hq, 32] tile.
// CHECK-LABEL: func.func @decode
// CHECK: %[[S:.*]] = "ttir.repeat_interleave"(%arg4) {{.*}} -> tensor<1x8x1x1xbf16>
// CHECK: "ttir.scaled_dot_product_attention"(%arg0, %arg1, %arg2, %{{.*}}, %[[S]]) <{is_causal = false, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>, scale = 1.250000e-01 : f32}>
// CHECK-NOT: "ttir.concat"
// CHECK-NOT: "ttir.softmax"
// CHECK-NOT: "ttir.slice_static"
// TRACE: ttir-fusing: sdpa at {{.*}}: applied: ttir.scaled_dot_product_attention {{.*}}(scale 0.125, masked, attention sink from the softmax-padding column)
// TTNN-LABEL: func.func private @decode_const_eval_0
// TTNN: "ttnn.full"{{.*}}fill_value = 8.000000e+00 : f32, shape = #ttnn.shape<1x8x1x1>
// TTNN-LABEL: func.func @decode(
// TTNN: %[[FULL:.*]] = ttcore.load_cached(@decode_const_eval_0, [])
// TTNN: %[[SINK:.*]] = "ttnn.repeat_interleave"(%arg4)
// TTNN: %[[SCALED:.*]] = "ttnn.multiply"(%[[SINK]], %[[FULL]])
// TTNN: %[[FLAT:.*]] = "ttnn.reshape"(%[[SCALED]]) <{shape = [8 : i32, 1 : i32]}> {{.*}} -> tensor<8x1xbf16
// TTNN: %[[TILE:.*]] = "ttnn.pad"(%[[FLAT]]) <{padding = array<i32: 0, 0, 0, 31>, use_multicore = true, value = 0.000000e+00 : f32}> {{.*}} -> tensor<8x32xbf16
// TTNN: "ttnn.scaled_dot_product_attention_decode"({{.*}}, %[[TILE]]) <{is_causal = false, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 1>, scale = 1.250000e-01 : f32}>
module {
  func.func @decode(%q: tensor<4x8x1x64xbf16>, %k: tensor<4x8x64x64xbf16>, %v: tensor<4x8x64x64xbf16>, %m: tensor<4x1x1x64xbf16>, %sink: tensor<1x2x1x1xbf16>) -> tensor<4x8x1x64xbf16> {
    %c = "ttir.constant"() <{value = dense<0.125> : tensor<1x1x1x1xbf16>}> : () -> tensor<1x1x1x1xbf16>
    %kt = "ttir.permute"(%k) <{permutation = array<i64: 0, 1, 3, 2>}> : (tensor<4x8x64x64xbf16>) -> tensor<4x8x64x64xbf16>
    %s = "ttir.matmul"(%q, %kt) : (tensor<4x8x1x64xbf16>, tensor<4x8x64x64xbf16>) -> tensor<4x8x1x64xbf16>
    %ss = "ttir.multiply"(%s, %c) : (tensor<4x8x1x64xbf16>, tensor<1x1x1x1xbf16>) -> tensor<4x8x1x64xbf16>
    %mb = "ttir.broadcast"(%m) <{broadcast_dimensions = array<i64: 1, 8, 1, 1>}> : (tensor<4x1x1x64xbf16>) -> tensor<4x8x1x64xbf16>
    %sm = "ttir.add"(%ss, %mb) : (tensor<4x8x1x64xbf16>, tensor<4x8x1x64xbf16>) -> tensor<4x8x1x64xbf16>
    %se = "ttir.repeat_interleave"(%sink) <{repeats = 4 : ui32, dim = 1 : si32}> : (tensor<1x2x1x1xbf16>) -> tensor<1x8x1x1xbf16>
    %sb = "ttir.broadcast"(%se) <{broadcast_dimensions = array<i64: 4, 1, 1, 1>}> : (tensor<1x8x1x1xbf16>) -> tensor<4x8x1x1xbf16>
    %p = "ttir.concat"(%sm, %sb) <{dim = 3 : si32}> : (tensor<4x8x1x64xbf16>, tensor<4x8x1x1xbf16>) -> tensor<4x8x1x65xbf16>
    %w = "ttir.softmax"(%p) <{dimension = 3 : si32}> : (tensor<4x8x1x65xbf16>) -> tensor<4x8x1x65xbf16>
    %wt = "ttir.slice_static"(%w) <{begins = [0 : i32, 0 : i32, 0 : i32, 0 : i32], ends = [4 : i32, 8 : i32, 1 : i32, 64 : i32], step = [1 : i32, 1 : i32, 1 : i32, 1 : i32]}> : (tensor<4x8x1x65xbf16>) -> tensor<4x8x1x64xbf16>
    %o = "ttir.matmul"(%wt, %v) : (tensor<4x8x1x64xbf16>, tensor<4x8x64x64xbf16>) -> tensor<4x8x1x64xbf16>
    return %o : tensor<4x8x1x64xbf16>
  }
}
