// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline | FileCheck %s
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline --trace 2>&1 >/dev/null | FileCheck %s --check-prefix=TRACE
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="enable-fusing-pass=false" | FileCheck %s --check-prefix=OFF

// x * cos + rotate_half(x) * sin, with cos and sin broadcast over the heads: one rotary embedding
// reading x and the [1, 1, S, D] tables (the broadcasts are implicit), at every optimization level.
// CHECK-LABEL: func.func @rope
// CHECK: %[[R:.*]] = "ttnn.rotary_embedding"(%arg0, %arg1, %arg2) <{compute_config = #ttnn.device_compute_kernel_config<math_fidelity = hifi4, fp32_dest_acc_en = true>}> : (tensor<1x8x64x64xbf16, {{.*}}>, tensor<1x1x64x64xbf16, {{.*}}>, tensor<1x1x64x64xbf16, {{.*}}>) -> tensor<1x8x64x64xbf16
// CHECK-NOT: "ttnn.multiply"
// CHECK-NOT: "ttnn.neg"
// CHECK: return %[[R]]
// TRACE: ttnn-fusing: rope at "result": applied: ttnn.rotary_embedding {{.*}} vs 7 ops (add, concat, multiply, neg, slice_static)
// OFF-LABEL: func.func @rope
// OFF-NOT: rotary_embedding
// OFF: "ttnn.neg"
func.func @rope(%x: tensor<1x8x64x64xbf16>, %cos: tensor<1x1x64x64xbf16>, %sin: tensor<1x1x64x64xbf16>) -> tensor<1x8x64x64xbf16> {
  %cb = "ttir.broadcast"(%cos) <{broadcast_dimensions = array<i64: 1, 8, 1, 1>}> : (tensor<1x1x64x64xbf16>) -> tensor<1x8x64x64xbf16>
  %xc = "ttir.multiply"(%cb, %x) : (tensor<1x8x64x64xbf16>, tensor<1x8x64x64xbf16>) -> tensor<1x8x64x64xbf16>
  %hi = "ttir.slice_static"(%x) <{begins = [0 : i32, 0 : i32, 0 : i32, 32 : i32], ends = [1 : i32, 8 : i32, 64 : i32, 64 : i32], step = [1 : i32, 1 : i32, 1 : i32, 1 : i32]}> : (tensor<1x8x64x64xbf16>) -> tensor<1x8x64x32xbf16>
  %nh = "ttir.neg"(%hi) : (tensor<1x8x64x32xbf16>) -> tensor<1x8x64x32xbf16>
  %lo = "ttir.slice_static"(%x) <{begins = [0 : i32, 0 : i32, 0 : i32, 0 : i32], ends = [1 : i32, 8 : i32, 64 : i32, 32 : i32], step = [1 : i32, 1 : i32, 1 : i32, 1 : i32]}> : (tensor<1x8x64x64xbf16>) -> tensor<1x8x64x32xbf16>
  %rot = "ttir.concat"(%nh, %lo) <{dim = 3 : si32}> : (tensor<1x8x64x32xbf16>, tensor<1x8x64x32xbf16>) -> tensor<1x8x64x64xbf16>
  %sb = "ttir.broadcast"(%sin) <{broadcast_dimensions = array<i64: 1, 8, 1, 1>}> : (tensor<1x1x64x64xbf16>) -> tensor<1x8x64x64xbf16>
  %rs = "ttir.multiply"(%rot, %sb) : (tensor<1x8x64x64xbf16>, tensor<1x8x64x64xbf16>) -> tensor<1x8x64x64xbf16>
  %r = "ttir.add"(%rs, %xc) : (tensor<1x8x64x64xbf16>, tensor<1x8x64x64xbf16>) -> tensor<1x8x64x64xbf16> loc("result")
  return %r : tensor<1x8x64x64xbf16>
}

// The expanded (trig identity) form on half-width tables: cos and sin are doubled by a concat.
// CHECK-LABEL: func.func @rope_expanded
// CHECK: %[[C:.*]] = "ttnn.concat"(%arg1, %arg1) <{dim = 3 : si32}> : (tensor<1x1x1x32xbf16, {{.*}}>, tensor<1x1x1x32xbf16, {{.*}}>) -> tensor<1x1x1x64xbf16
// CHECK: %[[S:.*]] = "ttnn.concat"(%arg2, %arg2) <{dim = 3 : si32}>
// CHECK: "ttnn.rotary_embedding"(%arg0, %[[C]], %[[S]])
// CHECK-NOT: "ttnn.subtract"
// TRACE: ttnn-fusing: rope_expanded at "expanded": applied
func.func @rope_expanded(%x: tensor<16x8x1x64xbf16>, %c: tensor<1x1x1x32xbf16>, %s: tensor<1x1x1x32xbf16>) -> tensor<16x8x1x64xbf16> {
  %x1 = "ttir.slice_static"(%x) <{begins = [0 : i32, 0 : i32, 0 : i32, 0 : i32], ends = [16 : i32, 8 : i32, 1 : i32, 32 : i32], step = [1 : i32, 1 : i32, 1 : i32, 1 : i32]}> : (tensor<16x8x1x64xbf16>) -> tensor<16x8x1x32xbf16>
  %x2 = "ttir.slice_static"(%x) <{begins = [0 : i32, 0 : i32, 0 : i32, 32 : i32], ends = [16 : i32, 8 : i32, 1 : i32, 64 : i32], step = [1 : i32, 1 : i32, 1 : i32, 1 : i32]}> : (tensor<16x8x1x64xbf16>) -> tensor<16x8x1x32xbf16>
  %0 = "ttir.multiply"(%x1, %c) : (tensor<16x8x1x32xbf16>, tensor<1x1x1x32xbf16>) -> tensor<16x8x1x32xbf16>
  %1 = "ttir.multiply"(%x2, %s) : (tensor<16x8x1x32xbf16>, tensor<1x1x1x32xbf16>) -> tensor<16x8x1x32xbf16>
  %2 = "ttir.subtract"(%0, %1) : (tensor<16x8x1x32xbf16>, tensor<16x8x1x32xbf16>) -> tensor<16x8x1x32xbf16>
  %3 = "ttir.multiply"(%x2, %c) : (tensor<16x8x1x32xbf16>, tensor<1x1x1x32xbf16>) -> tensor<16x8x1x32xbf16>
  %4 = "ttir.multiply"(%x1, %s) : (tensor<16x8x1x32xbf16>, tensor<1x1x1x32xbf16>) -> tensor<16x8x1x32xbf16>
  %5 = "ttir.add"(%3, %4) : (tensor<16x8x1x32xbf16>, tensor<16x8x1x32xbf16>) -> tensor<16x8x1x32xbf16>
  %6 = "ttir.concat"(%2, %5) <{dim = 3 : si32}> : (tensor<16x8x1x32xbf16>, tensor<16x8x1x32xbf16>) -> tensor<16x8x1x64xbf16> loc("expanded")
  return %6 : tensor<16x8x1x64xbf16>
}

// Negative: the first half is negated (concat(-x[:D/2], x[D/2:]) is not rotate_half).
// CHECK-LABEL: func.func @wrong_half_negated
// CHECK-NOT: rotary_embedding
// CHECK: "ttnn.add"
func.func @wrong_half_negated(%x: tensor<1x8x32x64xbf16>, %cos: tensor<1x1x32x64xbf16>, %sin: tensor<1x1x32x64xbf16>) -> tensor<1x8x32x64xbf16> {
  %xc = "ttir.multiply"(%x, %cos) : (tensor<1x8x32x64xbf16>, tensor<1x1x32x64xbf16>) -> tensor<1x8x32x64xbf16>
  %lo = "ttir.slice_static"(%x) <{begins = [0 : i32, 0 : i32, 0 : i32, 0 : i32], ends = [1 : i32, 8 : i32, 32 : i32, 32 : i32], step = [1 : i32, 1 : i32, 1 : i32, 1 : i32]}> : (tensor<1x8x32x64xbf16>) -> tensor<1x8x32x32xbf16>
  %nl = "ttir.neg"(%lo) : (tensor<1x8x32x32xbf16>) -> tensor<1x8x32x32xbf16>
  %hi = "ttir.slice_static"(%x) <{begins = [0 : i32, 0 : i32, 0 : i32, 32 : i32], ends = [1 : i32, 8 : i32, 32 : i32, 64 : i32], step = [1 : i32, 1 : i32, 1 : i32, 1 : i32]}> : (tensor<1x8x32x64xbf16>) -> tensor<1x8x32x32xbf16>
  %rot = "ttir.concat"(%nl, %hi) <{dim = 3 : si32}> : (tensor<1x8x32x32xbf16>, tensor<1x8x32x32xbf16>) -> tensor<1x8x32x64xbf16>
  %rs = "ttir.multiply"(%rot, %sin) : (tensor<1x8x32x64xbf16>, tensor<1x1x32x64xbf16>) -> tensor<1x8x32x64xbf16>
  %r = "ttir.add"(%xc, %rs) : (tensor<1x8x32x64xbf16>, tensor<1x8x32x64xbf16>) -> tensor<1x8x32x64xbf16>
  return %r : tensor<1x8x32x64xbf16>
}

// Negative: the tables hold one position for 32 (the kernel reads cos/sin per position).
// CHECK-LABEL: func.func @too_few_positions
// CHECK-NOT: rotary_embedding
// CHECK: "ttnn.add"
// TRACE: ttnn-fusing: rope at "short": not applied: cos/sin hold 1 positions, fewer than x's 32
func.func @too_few_positions(%x: tensor<1x8x32x64xbf16>, %cos: tensor<1x1x1x64xbf16>, %sin: tensor<1x1x1x64xbf16>) -> tensor<1x8x32x64xbf16> {
  %xc = "ttir.multiply"(%x, %cos) : (tensor<1x8x32x64xbf16>, tensor<1x1x1x64xbf16>) -> tensor<1x8x32x64xbf16>
  %hi = "ttir.slice_static"(%x) <{begins = [0 : i32, 0 : i32, 0 : i32, 32 : i32], ends = [1 : i32, 8 : i32, 32 : i32, 64 : i32], step = [1 : i32, 1 : i32, 1 : i32, 1 : i32]}> : (tensor<1x8x32x64xbf16>) -> tensor<1x8x32x32xbf16>
  %nh = "ttir.neg"(%hi) : (tensor<1x8x32x32xbf16>) -> tensor<1x8x32x32xbf16>
  %lo = "ttir.slice_static"(%x) <{begins = [0 : i32, 0 : i32, 0 : i32, 0 : i32], ends = [1 : i32, 8 : i32, 32 : i32, 32 : i32], step = [1 : i32, 1 : i32, 1 : i32, 1 : i32]}> : (tensor<1x8x32x64xbf16>) -> tensor<1x8x32x32xbf16>
  %rot = "ttir.concat"(%nh, %lo) <{dim = 3 : si32}> : (tensor<1x8x32x32xbf16>, tensor<1x8x32x32xbf16>) -> tensor<1x8x32x64xbf16>
  %rs = "ttir.multiply"(%rot, %sin) : (tensor<1x8x32x64xbf16>, tensor<1x1x1x64xbf16>) -> tensor<1x8x32x64xbf16>
  %r = "ttir.add"(%xc, %rs) : (tensor<1x8x32x64xbf16>, tensor<1x8x32x64xbf16>) -> tensor<1x8x32x64xbf16> loc("short")
  return %r : tensor<1x8x32x64xbf16>
}

// Negative: a permute on the sine branch before the add breaks the axis agreement.
// CHECK-LABEL: func.func @permuted_branch
// CHECK-NOT: rotary_embedding
// TRACE: ttnn-fusing: rope at "permuted": not applied: x, cos and sin do not resolve
func.func @permuted_branch(%x: tensor<1x32x32x64xbf16>, %cos: tensor<1x1x32x64xbf16>, %sin: tensor<1x1x32x64xbf16>) -> tensor<1x32x32x64xbf16> {
  %xc = "ttir.multiply"(%x, %cos) : (tensor<1x32x32x64xbf16>, tensor<1x1x32x64xbf16>) -> tensor<1x32x32x64xbf16>
  %hi = "ttir.slice_static"(%x) <{begins = [0 : i32, 0 : i32, 0 : i32, 32 : i32], ends = [1 : i32, 32 : i32, 32 : i32, 64 : i32], step = [1 : i32, 1 : i32, 1 : i32, 1 : i32]}> : (tensor<1x32x32x64xbf16>) -> tensor<1x32x32x32xbf16>
  %nh = "ttir.neg"(%hi) : (tensor<1x32x32x32xbf16>) -> tensor<1x32x32x32xbf16>
  %lo = "ttir.slice_static"(%x) <{begins = [0 : i32, 0 : i32, 0 : i32, 0 : i32], ends = [1 : i32, 32 : i32, 32 : i32, 32 : i32], step = [1 : i32, 1 : i32, 1 : i32, 1 : i32]}> : (tensor<1x32x32x64xbf16>) -> tensor<1x32x32x32xbf16>
  %rot = "ttir.concat"(%nh, %lo) <{dim = 3 : si32}> : (tensor<1x32x32x32xbf16>, tensor<1x32x32x32xbf16>) -> tensor<1x32x32x64xbf16>
  %rs = "ttir.multiply"(%rot, %sin) : (tensor<1x32x32x64xbf16>, tensor<1x1x32x64xbf16>) -> tensor<1x32x32x64xbf16>
  %rp = "ttir.permute"(%rs) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<1x32x32x64xbf16>) -> tensor<1x32x32x64xbf16>
  %r = "ttir.add"(%xc, %rp) : (tensor<1x32x32x64xbf16>, tensor<1x32x32x64xbf16>) -> tensor<1x32x32x64xbf16> loc("permuted")
  return %r : tensor<1x32x32x64xbf16>
}
