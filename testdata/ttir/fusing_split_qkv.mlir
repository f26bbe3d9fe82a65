// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline | FileCheck %s
// RUN: ttopt opt %s --ttir-fusing --trace 2>&1 >/dev/null | FileCheck %s --check-prefix=TRACE

// Grouped-query projections emitted K, Q, V: the shared-LHS fusion concatenates them V, Q, K
// (HEAD's use-list order), then the split puts the Q weight first. With no attention op to trace,
// the two 2-head slices are K and V in slice order (HEAD's fallback): the old V block is the key.
// CHECK-LABEL: func.func @gqa
// CHECK: %[[W:.*]] = "ttnn.concat"(%arg2, %arg3, %arg1) <{dim = 0 : si32}> : (tensor<512x512xbf16, {{.*}}>, tensor<128x512xbf16, {{.*}}>, tensor<128x512xbf16, {{.*}}>) -> tensor<768x512xbf16
// CHECK: %[[M:.*]] = "ttnn.matmul"(%{{.*}}, %[[W]]) <{compute_config = #ttnn.device_compute_kernel_config<math_fidelity = hifi4, fp32_dest_acc_en = true>, transpose_a = false, transpose_b = true}>
// CHECK: %[[R:.*]] = "ttnn.reshape"(%[[M]]) <{shape = [1 : i32, 32 : i32, 768 : i32]}>
// CHECK: %query, %key, %value = "ttnn.split_query_key_value_and_split_heads"(%[[R]]) <{num_heads = 8 : ui32, num_kv_heads = 2 : ui32, transpose_key = false}>
// CHECK: return %value, %query, %key
// TRACE: ttir-fusing: shared_lhs_matmul at "k_proj": applied: ttir.matmul {{.*}}(3 matmuls, width 768)
// TRACE: ttir-fusing: split_qkv at "k_proj": applied: {{.*}}(8 query heads, 2 key/value heads, weights reordered)
func.func @gqa(%x: tensor<32x512xbf16>, %wk: tensor<128x512xbf16>, %wq: tensor<512x512xbf16>, %wv: tensor<128x512xbf16>) -> (tensor<1x2x32x64xbf16>, tensor<1x8x32x64xbf16>, tensor<1x2x32x64xbf16>) {
  %k0 = "ttir.matmul"(%x, %wk) <{transpose_a = false, transpose_b = true}> : (tensor<32x512xbf16>, tensor<128x512xbf16>) -> tensor<32x128xbf16> loc("k_proj")
  %k1 = "ttir.reshape"(%k0) <{shape = [1 : i32, 32 : i32, 2 : i32, 64 : i32]}> : (tensor<32x128xbf16>) -> tensor<1x32x2x64xbf16>
  %k2 = "ttir.permute"(%k1) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<1x32x2x64xbf16>) -> tensor<1x2x32x64xbf16>
  %q0 = "ttir.matmul"(%x, %wq) <{transpose_a = false, transpose_b = true}> : (tensor<32x512xbf16>, tensor<512x512xbf16>) -> tensor<32x512xbf16>
  %q1 = "ttir.reshape"(%q0) <{shape = [1 : i32, 32 : i32, 8 : i32, 64 : i32]}> : (tensor<32x512xbf16>) -> tensor<1x32x8x64xbf16>
  %q2 = "ttir.permute"(%q1) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<1x32x8x64xbf16>) -> tensor<1x8x32x64xbf16>
  %v0 = "ttir.matmul"(%x, %wv) <{transpose_a = false, transpose_b = true}> : (tensor<32x512xbf16>, tensor<128x512xbf16>) -> tensor<32x128xbf16>
  %v1 = "ttir.reshape"(%v0) <{shape = [1 : i32, 32 : i32, 2 : i32, 64 : i32]}> : (tensor<32x128xbf16>) -> tensor<1x32x2x64xbf16>
  %v2 = "ttir.permute"(%v1) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<1x32x2x64xbf16>) -> tensor<1x2x32x64xbf16>
  return %k2, %q2, %v2 : tensor<1x2x32x64xbf16>, tensor<1x8x32x64xbf16>, tensor<1x2x32x64xbf16>
}

// Negative: a head's slice read elsewhere too (the V projection is also returned): the projections
// are one matmul on the concatenated weights (shared-LHS), but its slices are not split into heads.
// CHECK-LABEL: func.func @projection_read_twice
// CHECK-NOT: split_query_key_value_and_split_heads
// CHECK-COUNT-1: "ttnn.matmul"
// CHECK-COUNT-3: "ttnn.slice_static"
// CHECK-NOT: "ttnn.matmul"
func.func @projection_read_twice(%x: tensor<32x512xbf16>, %wq: tensor<512x512xbf16>, %wk: tensor<512x512xbf16>, %wv: tensor<512x512xbf16>) -> (tensor<1x8x32x64xbf16>, tensor<1x8x32x64xbf16>, tensor<1x8x32x64xbf16>, tensor<32x512xbf16>) {
  %q0 = "ttir.matmul"(%x, %wq) <{transpose_a = false, transpose_b = true}> : (tensor<32x512xbf16>, tensor<512x512xbf16>) -> tensor<32x512xbf16>
  %q1 = "ttir.reshape"(%q0) <{shape = [1 : i32, 32 : i32, 8 : i32, 64 : i32]}> : (tensor<32x512xbf16>) -> tensor<1x32x8x64xbf16>
  %q2 = "ttir.permute"(%q1) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<1x32x8x64xbf16>) -> tensor<1x8x32x64xbf16>
  %k0 = "ttir.matmul"(%x, %wk) <{transpose_a = false, transpose_b = true}> : (tensor<32x512xbf16>, tensor<512x512xbf16>) -> tensor<32x512xbf16>
  %k1 = "ttir.reshape"(%k0) <{shape = [1 : i32, 32 : i32, 8 : i32, 64 : i32]}> : (tensor<32x512xbf16>) -> tensor<1x32x8x64xbf16>
  %k2 = "ttir.permute"(%k1) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<1x32x8x64xbf16>) -> tensor<1x8x32x64xbf16>
  %v0 = "ttir.matmul"(%x, %wv) <{transpose_a = false, transpose_b = true}> : (tensor<32x512xbf16>, tensor<512x512xbf16>) -> tensor<32x512xbf16>
  %v1 = "ttir.reshape"(%v0) <{shape = [1 : i32, 32 : i32, 8 : i32, 64 : i32]}> : (tensor<32x512xbf16>) -> tensor<1x32x8x64xbf16>
  %v2 = "ttir.permute"(%v1) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<1x32x8x64xbf16>) -> tensor<1x8x32x64xbf16>
  return %q2, %k2, %v2, %v0 : tensor<1x8x32x64xbf16>, tensor<1x8x32x64xbf16>, tensor<1x8x32x64xbf16>, tensor<32x512xbf16>
}
