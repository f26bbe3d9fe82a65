// RUN: ttopt opt %s --allow-unregistered-dialect --canonicalize | FileCheck %s
// RUN: ttopt opt %s --allow-unregistered-dialect --pass-pipeline='builtin.module(canonicalize)' | FileCheck %s

// Dead side-effect-free ops disappear, transitively; used ones and side effects stay.
// CHECK-LABEL: func.func @dead_chain
// CHECK-NEXT:    %[[A:.*]] = stablehlo.add %arg0, %arg0
// CHECK-NEXT:    return %[[A]]
func.func @dead_chain(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %cst = stablehlo.constant dense<1.000000e+00> : tensor<4xf32>
  %0 = stablehlo.multiply %arg0, %cst : tensor<4xf32>
  %1 = stablehlo.exponential %0 : tensor<4xf32>
  %2 = stablehlo.add %arg0, %arg0 : tensor<4xf32>
  return %2 : tensor<4xf32>
}

// An identity layout conversion folds away; an unknown op is kept even if unused.
// CHECK-LABEL: func.func @identity_to_layout
// CHECK-NOT:     ttnn.to_layout
// CHECK:         "mydialect.effect"(%arg0)
// CHECK:         return %arg0
func.func @identity_to_layout(%arg0: tensor<32x32xbf16>) -> tensor<32x32xbf16> {
  %0 = "ttnn.to_layout"(%arg0) : (tensor<32x32xbf16>) -> tensor<32x32xbf16>
  %1 = "mydialect.effect"(%arg0) : (tensor<32x32xbf16>) -> tensor<32x32xbf16>
  return %0 : tensor<32x32xbf16>
}

// TTNN views fold as tt-mlir's folders fold them: a reshape of a reshape reshapes the first one's
// input (the first one goes when nothing else reads it), permutes compose, an identity permute
// and a reshape to its input's type are their inputs.
// CHECK-LABEL: func.func @views
// CHECK-NEXT:    %[[R:.*]] = "ttnn.reshape"(%arg0) <{shape = [4 : i32, 8 : i32]}> : (tensor<32xbf16>) -> tensor<4x8xbf16>
// CHECK-NEXT:    %[[P:.*]] = "ttnn.permute"(%arg1) <{permutation = array<i64: 2, 0, 1>}> : (tensor<2x3x4xbf16>) -> tensor<4x2x3xbf16>
// CHECK-NEXT:    return %[[R]], %[[P]], %arg1, %arg0
func.func @views(%arg0: tensor<32xbf16>, %arg1: tensor<2x3x4xbf16>) -> (tensor<4x8xbf16>, tensor<4x2x3xbf16>, tensor<2x3x4xbf16>, tensor<32xbf16>) {
  %0 = "ttnn.reshape"(%arg0) <{shape = [2 : i32, 16 : i32]}> : (tensor<32xbf16>) -> tensor<2x16xbf16>
  %1 = "ttnn.reshape"(%0) <{shape = [4 : i32, 8 : i32]}> : (tensor<2x16xbf16>) -> tensor<4x8xbf16>
  %2 = "ttnn.permute"(%arg1) <{permutation = array<i64: 1, 2, 0>}> : (tensor<2x3x4xbf16>) -> tensor<3x4x2xbf16>
  %3 = "ttnn.permute"(%2) <{permutation = array<i64: 1, 2, 0>}> : (tensor<3x4x2xbf16>) -> tensor<4x2x3xbf16>
  %4 = "ttnn.permute"(%arg1) <{permutation = array<i64: 0, 1, 2>}> : (tensor<2x3x4xbf16>) -> tensor<2x3x4xbf16>
  %5 = "ttnn.reshape"(%arg0) <{shape = [32 : i32]}> : (tensor<32xbf16>) -> tensor<32xbf16>
  return %1, %3, %4, %5 : tensor<4x8xbf16>, tensor<4x2x3xbf16>, tensor<2x3x4xbf16>, tensor<32xbf16>
}

// A permute that moves only size-1 dims is a reshape; a slice that takes one whole input of a
// concat is that input (the concat goes when nothing else reads it); a rank-4 matmul reads a
// B repeated along its batch dim 1 unrepeated (TTNN broadcasts it), and the repeat goes
// (tt-mlir's TTNN canonicalizations). A permute that reorders sizes > 1 stays.
// CHECK-LABEL: func.func @ttnn_canonical_forms
// CHECK-NOT:     ttnn.repeat
// CHECK-NOT:     ttnn.concat
// CHECK:         %[[R:.*]] = "ttnn.reshape"(%arg0) <{shape = [1 : i32, 1 : i32, 32 : i32, 64 : i32]}> : (tensor<1x32x1x64xbf16>) -> tensor<1x1x32x64xbf16>
// CHECK:         %[[P:.*]] = "ttnn.permute"(%arg0) <{permutation = array<i64: 0, 3, 2, 1>}>
// CHECK:         %[[M:.*]] = "ttnn.matmul"(%arg1, %arg2)
// CHECK-NOT:     ttnn.repeat
// CHECK-NOT:     ttnn.concat
// CHECK:         return %[[R]], %[[P]], %arg4, %[[M]]
func.func @ttnn_canonical_forms(%arg0: tensor<1x32x1x64xbf16>, %arg1: tensor<1x16x32x64xbf16>, %arg2: tensor<1x1x64x64xbf16>,
                                %arg3: tensor<32x64xbf16>, %arg4: tensor<32x64xbf16>)
    -> (tensor<1x1x32x64xbf16>, tensor<1x64x1x32xbf16>, tensor<32x64xbf16>, tensor<1x16x32x64xbf16>) {
  %0 = "ttnn.permute"(%arg0) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<1x32x1x64xbf16>) -> tensor<1x1x32x64xbf16>
  %1 = "ttnn.permute"(%arg0) <{permutation = array<i64: 0, 3, 2, 1>}> : (tensor<1x32x1x64xbf16>) -> tensor<1x64x1x32xbf16>
  %2 = "ttnn.concat"(%arg3, %arg4) <{dim = 0 : si32}> : (tensor<32x64xbf16>, tensor<32x64xbf16>) -> tensor<64x64xbf16>
  %3 = "ttnn.slice_static"(%2) <{begins = [32 : i32, 0 : i32], ends = [64 : i32, 64 : i32], step = [1 : i32, 1 : i32]}> : (tensor<64x64xbf16>) -> tensor<32x64xbf16>
  %4 = "ttnn.repeat"(%arg2) <{repeat_dims = #ttnn.shape<1x16x1x1>}> : (tensor<1x1x64x64xbf16>) -> tensor<1x16x64x64xbf16>
  %5 = "ttnn.matmul"(%arg1, %4) <{transpose_a = false, transpose_b = false}> : (tensor<1x16x32x64xbf16>, tensor<1x16x64x64xbf16>) -> tensor<1x16x32x64xbf16>
  return %0, %1, %3, %5 : tensor<1x1x32x64xbf16>, tensor<1x64x1x32xbf16>, tensor<32x64xbf16>, tensor<1x16x32x64xbf16>
}

// A slice that takes only part of a concat input, or one with a step, stays.
// CHECK-LABEL: func.func @slice_of_concat_kept
// CHECK-COUNT-2: ttnn.slice_static
func.func @slice_of_concat_kept(%arg0: tensor<32x64xbf16>, %arg1: tensor<32x64xbf16>) -> (tensor<16x64xbf16>, tensor<16x64xbf16>) {
  %0 = "ttnn.concat"(%arg0, %arg1) <{dim = 0 : si32}> : (tensor<32x64xbf16>, tensor<32x64xbf16>) -> tensor<64x64xbf16>
  %1 = "ttnn.slice_static"(%0) <{begins = [32 : i32, 0 : i32], ends = [48 : i32, 64 : i32], step = [1 : i32, 1 : i32]}> : (tensor<64x64xbf16>) -> tensor<16x64xbf16>
  %2 = "ttnn.slice_static"(%0) <{begins = [32 : i32, 0 : i32], ends = [64 : i32, 64 : i32], step = [2 : i32, 1 : i32]}> : (tensor<64x64xbf16>) -> tensor<16x64xbf16>
  return %1, %2 : tensor<16x64xbf16>, tensor<16x64xbf16>
}

// A repeat of a B that has 2 batches is not TTNN's single-batch broadcast: it stays.
// CHECK-LABEL: func.func @matmul_repeat_of_two_batches_kept
// CHECK: "ttnn.repeat"
// CHECK: "ttnn.matmul"(%arg0, %0)
func.func @matmul_repeat_of_two_batches_kept(%arg0: tensor<1x4x32x32xbf16>, %arg1: tensor<1x2x32x32xbf16>) -> tensor<1x4x32x32xbf16> {
  %0 = "ttnn.repeat"(%arg1) <{repeat_dims = #ttnn.shape<1x2x1x1>}> : (tensor<1x2x32x32xbf16>) -> tensor<1x4x32x32xbf16>
  %1 = "ttnn.matmul"(%arg0, %0) <{transpose_a = false, transpose_b = false}> : (tensor<1x4x32x32xbf16>, tensor<1x4x32x32xbf16>) -> tensor<1x4x32x32xbf16>
  return %1 : tensor<1x4x32x32xbf16>
}
