// RUN: ttopt opt %s --ttir-fusing | FileCheck %s
// RUN: ttopt opt %s --ttir-fusing --trace 2>&1 >/dev/null | FileCheck %s --check-prefix=TRACE

// A NaN-safety select zeroing fully masked rows of the weights: the attention fuses and the select
// is re-applied on its output, its predicate rebuilt from the mask (max over the keys == -inf).
// CHECK-LABEL: func.func @nan_safe
// CHECK: %[[A:.*]] = "ttir.scaled_dot_product_attention"(%arg0, %arg1, %arg2, %arg3) <{is_causal = false, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>, scale = 1.250000e-01 : f32}>
// CHECK: %[[M:.*]] = "ttir.max"(%arg3) <{dim_arg = [3 : i32], keep_dim = true}> : (tensor<1x1x64x64xbf16>) -> tensor<1x1x64x1xbf16>
// CHECK: %[[N:.*]] = "ttir.full"() <{fill_value = 0xFF800000 : f32, shape = array<i32: 1, 1, 64, 1>}>
// CHECK: %[[D:.*]] = "ttir.eq"(%[[M]], %[[N]])
// CHECK: %[[B:.*]] = "ttir.broadcast"(%[[D]]) <{broadcast_dimensions = array<i64: 1, 8, 1, 64>}>
// CHECK: %[[Z:.*]] = "ttir.zeros"() <{shape = array<i32: 1, 8, 64, 64>}>
// CHECK: %[[W:.*]] = "ttir.where"(%[[B]], %[[Z]], %[[A]])
// CHECK: return %[[W]]
// TRACE: ttir-fusing: sdpa at "ctx": applied: {{.*}}NaN-safe rows re-applied
func.func @nan_safe(%q: tensor<1x8x64x64xbf16>, %k: tensor<1x8x64x64xbf16>, %v: tensor<1x8x64x64xbf16>, %mask: tensor<1x1x64x64xbf16>) -> tensor<1x8x64x64xbf16> {
  %kt = "ttir.permute"(%k) <{permutation = array<i64: 0, 1, 3, 2>}> : (tensor<1x8x64x64xbf16>) -> tensor<1x8x64x64xbf16>
  %s = "ttir.matmul"(%q, %kt) : (tensor<1x8x64x64xbf16>, tensor<1x8x64x64xbf16>) -> tensor<1x8x64x64xbf16>
  %c = "ttir.full"() <{fill_value = 1.250000e-01 : f32, shape = array<i32: 1, 1, 1, 1>}> : () -> tensor<1x1x1x1xbf16>
  %ss = "ttir.multiply"(%s, %c) : (tensor<1x8x64x64xbf16>, tensor<1x1x1x1xbf16>) -> tensor<1x8x64x64xbf16>
  %sm = "ttir.add"(%ss, %mask) : (tensor<1x8x64x64xbf16>, tensor<1x1x64x64xbf16>) -> tensor<1x8x64x64xbf16>
  %ninf = "ttir.full"() <{fill_value = 0xFF800000 : f32, shape = array<i32: 1, 8, 64, 64>}> : () -> tensor<1x8x64x64xbf16>
  %isinf = "ttir.eq"(%sm, %ninf) : (tensor<1x8x64x64xbf16>, tensor<1x8x64x64xbf16>) -> tensor<1x8x64x64xbf16>
  %all = "ttir.reduce_and"(%isinf) <{dim_arg = [3 : i32], keep_dim = true}> : (tensor<1x8x64x64xbf16>) -> tensor<1x8x64x1xbf16>
  %allb = "ttir.broadcast"(%all) <{broadcast_dimensions = array<i64: 1, 1, 1, 64>}> : (tensor<1x8x64x1xbf16>) -> tensor<1x8x64x64xbf16>
  %p = "ttir.softmax"(%sm) <{dimension = -1 : si32}> : (tensor<1x8x64x64xbf16>) -> tensor<1x8x64x64xbf16>
  %z = "ttir.zeros"() <{shape = array<i32: 1, 8, 64, 64>}> : () -> tensor<1x8x64x64xbf16>
  %safe = "ttir.where"(%allb, %z, %p) : (tensor<1x8x64x64xbf16>, tensor<1x8x64x64xbf16>, tensor<1x8x64x64xbf16>) -> tensor<1x8x64x64xbf16>
  %o = "ttir.matmul"(%safe, %v) : (tensor<1x8x64x64xbf16>, tensor<1x8x64x64xbf16>) -> tensor<1x8x64x64xbf16> loc("ctx")
  return %o : tensor<1x8x64x64xbf16>
}

// Negative: the select's condition varies along the keys, so it does not zero whole rows and
// cannot move past the attention.
// CHECK-LABEL: func.func @select_per_key
// CHECK-NOT: scaled_dot_product_attention
// CHECK: "ttir.where"
func.func @select_per_key(%q: tensor<1x8x64x64xbf16>, %k: tensor<1x8x64x64xbf16>, %v: tensor<1x8x64x64xbf16>, %cond: tensor<1x8x64x64xbf16>) -> tensor<1x8x64x64xbf16> {
  %kt = "ttir.permute"(%k) <{permutation = array<i64: 0, 1, 3, 2>}> : (tensor<1x8x64x64xbf16>) -> tensor<1x8x64x64xbf16>
  %s = "ttir.matmul"(%q, %kt) : (tensor<1x8x64x64xbf16>, tensor<1x8x64x64xbf16>) -> tensor<1x8x64x64xbf16>
  %p = "ttir.softmax"(%s) <{dimension = -1 : si32}> : (tensor<1x8x64x64xbf16>) -> tensor<1x8x64x64xbf16>
  %z = "ttir.zeros"() <{shape = array<i32: 1, 8, 64, 64>}> : () -> tensor<1x8x64x64xbf16>
  %safe = "ttir.where"(%cond, %z, %p) : (tensor<1x8x64x64xbf16>, tensor<1x8x64x64xbf16>, tensor<1x8x64x64xbf16>) -> tensor<1x8x64x64xbf16>
  %o = "ttir.matmul"(%safe, %v) : (tensor<1x8x64x64xbf16>, tensor<1x8x64x64xbf16>) -> tensor<1x8x64x64xbf16>
  return %o : tensor<1x8x64x64xbf16>
}
