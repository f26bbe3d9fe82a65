// RUN: ttopt opt %s --split-input-file --ttir-fusing | FileCheck %s
// RUN: ttopt opt %s --split-input-file --ttir-fusing --trace 2>&1 >/dev/null | FileCheck %s --check-prefix=TRACE
// RUN: ttopt opt %s --split-input-file --ttir-to-ttnn-backend-pipeline | FileCheck %s --check-prefix=TTNN

// Three matmuls of one input: one matmul on the weights concatenated newest use first (HEAD's
// use-list order), a slice of its columns per result.
// CHECK-LABEL: func.func @three_matmuls
// CHECK: %[[W:.*]] = "ttir.concat"(%arg3, %arg2, %arg1) <{dim = 1 : si32}> : (tensor<256x64xbf16>, tensor<256x128xbf16>, tensor<256x32xbf16>) -> tensor<256x224xbf16>
// CHECK-NEXT: %[[M:.*]] = "ttir.matmul"(%arg0, %[[W]]) <{transpose_a = false, transpose_b = false}> : (tensor<32x256xbf16>, tensor<256x224xbf16>) -> tensor<32x224xbf16>
// CHECK-NEXT: %[[C:.*]] = "ttir.slice_static"(%[[M]]) <{begins = [0 : i32, 0 : i32], ends = [32 : i32, 64 : i32], step = [1 : i32, 1 : i32]}>
// CHECK-NEXT: %[[B:.*]] = "ttir.slice_static"(%[[M]]) <{begins = [0 : i32, 64 : i32], ends = [32 : i32, 192 : i32], step = [1 : i32, 1 : i32]}>
// CHECK-NEXT: %[[A:.*]] = "ttir.slice_static"(%[[M]]) <{begins = [0 : i32, 192 : i32], ends = [32 : i32, 224 : i32], step = [1 : i32, 1 : i32]}>
// CHECK-NEXT: return %[[A]], %[[B]], %[[C]]
// TRACE: ttir-fusing: shared_lhs_matmul at "a": applied: ttir.matmul {{.*}} (3 matmuls, width 224)
// TTNN-LABEL: func.func @three_matmuls
// TTNN-COUNT-1: "ttnn.matmul"
// TTNN-COUNT-3: "ttnn.slice_static"
func.func @three_matmuls(%x: tensor<32x256xbf16>, %w0: tensor<256x32xbf16>, %w1: tensor<256x128xbf16>, %w2: tensor<256x64xbf16>) -> (tensor<32x32xbf16>, tensor<32x128xbf16>, tensor<32x64xbf16>) {
  %0 = "ttir.matmul"(%x, %w0) : (tensor<32x256xbf16>, tensor<256x32xbf16>) -> tensor<32x32xbf16> loc("a")
  %1 = "ttir.matmul"(%x, %w1) : (tensor<32x256xbf16>, tensor<256x128xbf16>) -> tensor<32x128xbf16>
  %2 = "ttir.matmul"(%x, %w2) : (tensor<32x256xbf16>, tensor<256x64xbf16>) -> tensor<32x64xbf16>
  return %0, %1, %2 : tensor<32x32xbf16>, tensor<32x128xbf16>, tensor<32x64xbf16>
}

// -----

// Matmuls whose bias adds become linears first (HEAD forms linears in an earlier run): one linear
// on the concatenated weights and biases.
// CHECK-LABEL: func.func @matmuls_with_biases
// CHECK: %[[W:.*]] = "ttir.concat"(%arg5, %arg3, %arg1) <{dim = 1 : si32}>
// CHECK-NEXT: %[[B:.*]] = "ttir.concat"(%arg6, %arg4, %arg2) <{dim = 0 : si32}> : (tensor<64xbf16>, tensor<64xbf16>, tensor<64xbf16>) -> tensor<192xbf16>
// CHECK-NEXT: "ttir.linear"(%arg0, %[[W]], %[[B]]) <{transpose_a = false, transpose_b = false}> : (tensor<32x256xbf16>, tensor<256x192xbf16>, tensor<192xbf16>) -> tensor<32x192xbf16>
// CHECK-NOT: "ttir.add"
// TRACE-COUNT-3: ttir-fusing: linear at
// TRACE: ttir-fusing: shared_lhs_matmul at {{.*}}: applied: ttir.linear {{.*}} (3 linears, width 192)
func.func @matmuls_with_biases(%x: tensor<32x256xbf16>, %w0: tensor<256x64xbf16>, %b0: tensor<64xbf16>, %w1: tensor<256x64xbf16>, %b1: tensor<64xbf16>, %w2: tensor<256x64xbf16>, %b2: tensor<64xbf16>) -> (tensor<32x64xbf16>, tensor<32x64xbf16>, tensor<32x64xbf16>) {
  %0 = "ttir.matmul"(%x, %w0) : (tensor<32x256xbf16>, tensor<256x64xbf16>) -> tensor<32x64xbf16>
  %1 = "ttir.add"(%0, %b0) : (tensor<32x64xbf16>, tensor<64xbf16>) -> tensor<32x64xbf16>
  %2 = "ttir.matmul"(%x, %w1) : (tensor<32x256xbf16>, tensor<256x64xbf16>) -> tensor<32x64xbf16>
  %3 = "ttir.add"(%2, %b1) : (tensor<32x64xbf16>, tensor<64xbf16>) -> tensor<32x64xbf16>
  %4 = "ttir.matmul"(%x, %w2) : (tensor<32x256xbf16>, tensor<256x64xbf16>) -> tensor<32x64xbf16>
  %5 = "ttir.add"(%4, %b2) : (tensor<32x64xbf16>, tensor<64xbf16>) -> tensor<32x64xbf16>
  return %1, %3, %5 : tensor<32x64xbf16>, tensor<32x64xbf16>, tensor<32x64xbf16>
}

// -----

// Mixed transpose_b: the transposed weight is permuted to [K, N] and the fused op has no transpose.
// A weight permuted after the first matmul is re-emitted in front of it.
// CHECK-LABEL: func.func @mixed_transposes
// CHECK: %[[T:.*]] = "ttir.permute"(%arg3) <{permutation = array<i64: 1, 0>}> : (tensor<32x64xbf16>) -> tensor<64x32xbf16>
// CHECK-NEXT: %[[P:.*]] = "ttir.permute"(%arg2) <{permutation = array<i64: 1, 0>}> : (tensor<32x64xbf16>) -> tensor<64x32xbf16>
// CHECK-NEXT: %[[W:.*]] = "ttir.concat"(%[[T]], %[[P]], %arg1) <{dim = 1 : si32}> : (tensor<64x32xbf16>, tensor<64x32xbf16>, tensor<64x32xbf16>) -> tensor<64x96xbf16>
// CHECK-NEXT: "ttir.matmul"(%arg0, %[[W]]) <{transpose_a = false, transpose_b = false}> : (tensor<8x64xbf16>, tensor<64x96xbf16>) -> tensor<8x96xbf16>
// CHECK-NOT: "ttir.permute"
// TRACE: ttir-fusing: shared_lhs_matmul at {{.*}}: applied: {{.*}} (3 matmuls, width 96, transposed weights permuted)
func.func @mixed_transposes(%x: tensor<8x64xbf16>, %w0: tensor<64x32xbf16>, %w1t: tensor<32x64xbf16>, %w2t: tensor<32x64xbf16>) -> (tensor<8x32xbf16>, tensor<8x32xbf16>, tensor<8x32xbf16>) {
  %0 = "ttir.matmul"(%x, %w0) <{transpose_a = false, transpose_b = false}> : (tensor<8x64xbf16>, tensor<64x32xbf16>) -> tensor<8x32xbf16>
  %1 = "ttir.matmul"(%x, %w1t) <{transpose_a = false, transpose_b = true}> : (tensor<8x64xbf16>, tensor<32x64xbf16>) -> tensor<8x32xbf16>
  %p = "ttir.permute"(%w2t) <{permutation = array<i64: 1, 0>}> : (tensor<32x64xbf16>) -> tensor<64x32xbf16>
  %2 = "ttir.matmul"(%x, %p) <{transpose_a = false, transpose_b = false}> : (tensor<8x64xbf16>, tensor<64x32xbf16>) -> tensor<8x32xbf16>
  return %0, %1, %2 : tensor<8x32xbf16>, tensor<8x32xbf16>, tensor<8x32xbf16>
}

// -----

// Negatives, as HEAD: two matmuls; a weight computed by a two-operand op after the shared input
// (HEAD moves only single-operand chains above the fused op).
// CHECK-LABEL: func.func @two_matmuls
// CHECK-COUNT-2: "ttir.matmul"
// CHECK-NOT: "ttir.concat"
func.func @two_matmuls(%x: tensor<32x256xbf16>, %w0: tensor<256x64xbf16>, %w1: tensor<256x64xbf16>) -> (tensor<32x64xbf16>, tensor<32x64xbf16>) {
  %0 = "ttir.matmul"(%x, %w0) : (tensor<32x256xbf16>, tensor<256x64xbf16>) -> tensor<32x64xbf16>
  %1 = "ttir.matmul"(%x, %w1) : (tensor<32x256xbf16>, tensor<256x64xbf16>) -> tensor<32x64xbf16>
  return %0, %1 : tensor<32x64xbf16>, tensor<32x64xbf16>
}

// -----

// CHECK-LABEL: func.func @weight_from_two_operands
// CHECK-COUNT-3: "ttir.matmul"
// CHECK-NOT: "ttir.concat"
// TRACE: ttir-fusing: shared_lhs_matmul at {{.*}}: not applied: a weight is computed after the shared input by an op of other than one operand
func.func @weight_from_two_operands(%x: tensor<32x256xbf16>, %w0: tensor<256x64xbf16>, %w1: tensor<256x64xbf16>, %s: tensor<256x64xbf16>) -> (tensor<32x64xbf16>, tensor<32x64xbf16>, tensor<32x64xbf16>) {
  %y = "ttir.relu"(%x) : (tensor<32x256xbf16>) -> tensor<32x256xbf16>
  %0 = "ttir.matmul"(%y, %w0) : (tensor<32x256xbf16>, tensor<256x64xbf16>) -> tensor<32x64xbf16>
  %1 = "ttir.matmul"(%y, %w1) : (tensor<32x256xbf16>, tensor<256x64xbf16>) -> tensor<32x64xbf16>
  %w2 = "ttir.multiply"(%w1, %s) : (tensor<256x64xbf16>, tensor<256x64xbf16>) -> tensor<256x64xbf16>
  %2 = "ttir.matmul"(%y, %w2) : (tensor<32x256xbf16>, tensor<256x64xbf16>) -> tensor<32x64xbf16>
  return %0, %1, %2 : tensor<32x64xbf16>, tensor<32x64xbf16>, tensor<32x64xbf16>
}
