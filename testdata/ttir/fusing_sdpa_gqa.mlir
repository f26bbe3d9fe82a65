// RUN: ttopt opt %s --ttir-fusing | FileCheck %s
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline | FileCheck %s --check-prefix=TTNN

// GQA: K and V expanded from 2 to 8 heads by repeat_interleave over the heads dim (after a typecast
// for K). The attention fuses on the 2-head tensors, the cast re-applied on the smaller K.
// CHECK-LABEL: func.func @gqa
// CHECK: %[[K:.*]] = "ttir.typecast"(%arg1) : (tensor<1x2x64x32xf32>) -> tensor<1x2x64x32xbf16>
// CHECK-NEXT: %[[A:.*]] = "ttir.scaled_dot_product_attention"(%arg0, %[[K]], %arg2) <{is_causal = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>, scale = 1.250000e-01 : f32}> : (tensor<1x8x64x32xbf16>, tensor<1x2x64x32xbf16>, tensor<1x2x64x32xbf16>) -> tensor<1x8x64x32xbf16>
// CHECK-NOT: "ttir.repeat_interleave"
// CHECK: return %[[A]]
// TTNN-LABEL: func.func @gqa
// TTNN-NOT: "ttnn.repeat_interleave"
// TTNN: "ttnn.scaled_dot_product_attention"{{.*}} : (tensor<1x8x64x32xbf16, {{.*}}>, tensor<1x2x64x32xbf16, {{.*}}>, tensor<1x2x64x32xbf16, {{.*}}>) -> tensor<1x8x64x32xbf16
module {
  func.func @gqa(%q: tensor<1x8x64x32xbf16>, %k: tensor<1x2x64x32xf32>, %v: tensor<1x2x64x32xbf16>) -> tensor<1x8x64x32xbf16> {
    %c = "ttir.full"() <{fill_value = 1.250000e-01 : f32, shape = array<i32: 1, 1, 1, 1>}> : () -> tensor<1x1x1x1xbf16>
    %ke = "ttir.repeat_interleave"(%k) <{dim = 1 : si32, repeats = 4 : ui32}> : (tensor<1x2x64x32xf32>) -> tensor<1x8x64x32xf32>
    %kc = "ttir.typecast"(%ke) : (tensor<1x8x64x32xf32>) -> tensor<1x8x64x32xbf16>
    %ve = "ttir.repeat_interleave"(%v) <{dim = 1 : si32, repeats = 4 : ui32}> : (tensor<1x2x64x32xbf16>) -> tensor<1x8x64x32xbf16>
    %kt = "ttir.permute"(%kc) <{permutation = array<i64: 0, 1, 3, 2>}> : (tensor<1x8x64x32xbf16>) -> tensor<1x8x32x64xbf16>
    %s = "ttir.matmul"(%q, %kt) : (tensor<1x8x64x32xbf16>, tensor<1x8x32x64xbf16>) -> tensor<1x8x64x64xbf16>
    %cb = "ttir.broadcast"(%c) <{broadcast_dimensions = array<i64: 1, 8, 64, 64>}> : (tensor<1x1x1x1xbf16>) -> tensor<1x8x64x64xbf16>
    %ss = "ttir.multiply"(%s, %cb) : (tensor<1x8x64x64xbf16>, tensor<1x8x64x64xbf16>) -> tensor<1x8x64x64xbf16>
    %p = "ttir.softmax"(%ss) <{dimension = 3 : si32}> : (tensor<1x8x64x64xbf16>) -> tensor<1x8x64x64xbf16>
    %o = "ttir.matmul"(%p, %ve) : (tensor<1x8x64x64xbf16>, tensor<1x8x64x32xbf16>) -> tensor<1x8x64x32xbf16>
    return %o : tensor<1x8x64x32xbf16>
  }
}
