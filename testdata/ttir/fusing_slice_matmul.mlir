// RUN: ttopt opt %s --split-input-file --ttir-fusing | FileCheck %s
// RUN: ttopt opt %s --split-input-file --ttir-fusing="enable-permute-slice-after-matmul-fusion=false" | FileCheck %s --check-prefix=OFF
// RUN: ttopt opt %s --split-input-file --ttir-to-ttnn-backend-pipeline="enable-permute-slice-after-matmul-fusion=false" | FileCheck %s --check-prefix=PIPEOFF
// RUN: ttopt opt %s --split-input-file --ttir-fusing --trace 2>&1 >/dev/null | FileCheck %s --check-prefix=TRACE

// The last row of a matmul (a decoder's last token through the LM head): only that row of the
// left operand is multiplied (tt-mlir's PermuteSliceAfterMatmulPattern, on by default).
// CHECK-LABEL: func.func @last_row
// CHECK: %[[A:.*]] = "ttir.slice_static"(%arg0) <{begins = [127 : i32, 0 : i32], ends = [128 : i32, 256 : i32], step = [1 : i32, 1 : i32]}> : (tensor<128x256xbf16>) -> tensor<1x256xbf16>
// CHECK-NEXT: %[[M:.*]] = "ttir.matmul"(%[[A]], %arg1) <{transpose_a = false, transpose_b = false}> : (tensor<1x256xbf16>, tensor<256x4096xbf16>) -> tensor<1x4096xbf16>
// CHECK-NEXT: return %[[M]]
// OFF-LABEL: func.func @last_row
// OFF: "ttir.matmul"(%arg0, %arg1) : (tensor<128x256xbf16>, tensor<256x4096xbf16>) -> tensor<128x4096xbf16>
// OFF: "ttir.slice_static"
// PIPEOFF-LABEL: func.func @last_row
// PIPEOFF: "ttnn.matmul"{{.*}} -> tensor<128x4096xbf16
// PIPEOFF: "ttnn.slice_static"
// TRACE: ttir-fusing: permute_slice_after_matmul at "last": applied: ttir.matmul {{.*}} (rows sliced before the matmul)
func.func @last_row(%a: tensor<128x256xbf16>, %w: tensor<256x4096xbf16>) -> tensor<1x4096xbf16> {
  %0 = "ttir.matmul"(%a, %w) : (tensor<128x256xbf16>, tensor<256x4096xbf16>) -> tensor<128x4096xbf16>
  %1 = "ttir.slice_static"(%0) <{begins = [127 : i32, 0 : i32], ends = [128 : i32, 4096 : i32], step = [1 : i32, 1 : i32]}> : (tensor<128x4096xbf16>) -> tensor<1x4096xbf16> loc("last")
  return %1 : tensor<1x4096xbf16>
}

// -----

// A column slice of a linear slices the (transposed) weight's rows and the bias.
// CHECK-LABEL: func.func @linear_columns
// CHECK: %[[W:.*]] = "ttir.slice_static"(%arg1) <{begins = [64 : i32, 0 : i32], ends = [128 : i32, 256 : i32], step = [1 : i32, 1 : i32]}> : (tensor<4096x256xbf16>) -> tensor<64x256xbf16>
// CHECK-NEXT: %[[B:.*]] = "ttir.slice_static"(%arg2) <{begins = [64 : i32], ends = [128 : i32], step = [1 : i32]}> : (tensor<4096xbf16>) -> tensor<64xbf16>
// CHECK-NEXT: "ttir.linear"(%arg0, %[[W]], %[[B]]) <{transpose_a = false, transpose_b = true}> : (tensor<128x256xbf16>, tensor<64x256xbf16>, tensor<64xbf16>) -> tensor<128x64xbf16>
func.func @linear_columns(%a: tensor<128x256xbf16>, %w: tensor<4096x256xbf16>, %b: tensor<4096xbf16>) -> tensor<128x64xbf16> {
  %0 = "ttir.linear"(%a, %w, %b) <{transpose_a = false, transpose_b = true}> : (tensor<128x256xbf16>, tensor<4096x256xbf16>, tensor<4096xbf16>) -> tensor<128x4096xbf16>
  %1 = "ttir.slice_static"(%0) <{begins = [0 : i32, 64 : i32], ends = [128 : i32, 128 : i32], step = [1 : i32, 1 : i32]}> : (tensor<128x4096xbf16>) -> tensor<128x64xbf16>
  return %1 : tensor<128x64xbf16>
}

// -----

// The full output is read too: the slice stays.
// CHECK-LABEL: func.func @read_twice
// CHECK: "ttir.matmul"(%arg0, %arg1)
// CHECK-NEXT: "ttir.slice_static"
// TRACE: ttir-fusing: permute_slice_after_matmul at "twice": not applied: the matmul has other users
func.func @read_twice(%a: tensor<128x256xbf16>, %w: tensor<256x4096xbf16>) -> (tensor<1x4096xbf16>, tensor<128x4096xbf16>) {
  %0 = "ttir.matmul"(%a, %w) : (tensor<128x256xbf16>, tensor<256x4096xbf16>) -> tensor<128x4096xbf16>
  %1 = "ttir.slice_static"(%0) <{begins = [127 : i32, 0 : i32], ends = [128 : i32, 4096 : i32], step = [1 : i32, 1 : i32]}> : (tensor<128x4096xbf16>) -> tensor<1x4096xbf16> loc("twice")
  return %1, %0 : tensor<1x4096xbf16>, tensor<128x4096xbf16>
}
