// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="enable-const-eval=false" | FileCheck %s
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline | ttopt opt | FileCheck %s --check-prefix=REPARSE
// The TTIR the StableHLO gather / scatter / reduce_window / pad / dynamic-slice lowerings produce,
// converted to TTNN (tt-mlir's TTIRToTTNN forms); the output re-parses and verifies.

// REPARSE-NOT: "ttir.
// REPARSE: func.func @gather_scatter

// CHECK-LABEL: func.func @gather_scatter
// HEAD's si32 gather workaround: the index clamped at 0 and read as ui32, negative lanes NaN.
// CHECK: %[[ZERO:.*]] = "ttnn.full"(%{{.*}}) <{fill_value = 0 : i32
// CHECK: %[[NEG:.*]] = "ttnn.lt"(%arg1, %[[ZERO]])
// CHECK: %[[SAFE:.*]] = "ttnn.maximum"(%arg1, %[[ZERO]])
// CHECK: %[[U:.*]] = "ttnn.typecast"(%[[SAFE]]) {{.*}} -> tensor<4x3xui32
// CHECK: %[[G:.*]] = "ttnn.gather"(%arg0, %[[U]]) <{dim = 1 : si32}>
// CHECK: %[[NAN:.*]] = "ttnn.full"(%{{.*}}) <{fill_value = 0x7FC00000 : f32
// CHECK: "ttnn.where"(%[[NEG]], %[[NAN]], %[[G]])
// HEAD's scatter workarounds: bf16 / 32-bit integer operands row-major, the result tiled again.
// CHECK: %[[X:.*]] = "ttnn.to_layout"(%arg0)
// CHECK: %[[I:.*]] = "ttnn.to_layout"(%arg1)
// CHECK: %[[S:.*]] = "ttnn.to_layout"(%arg2)
// CHECK: %[[R:.*]] = "ttnn.scatter"(%[[X]], %[[I]], %[[S]]) <{dim = 1 : si32, scatter_reduce_type = #ttcore.reduce_type<sum>}>
// CHECK: "ttnn.to_layout"(%[[R]])
func.func @gather_scatter(%x: tensor<4x6xbf16>, %i: tensor<4x3xi32>, %s: tensor<4x3xbf16>) -> (tensor<4x3xbf16>, tensor<4x6xbf16>) {
  %0 = "ttir.gather"(%x, %i) <{dim = 1 : i32}> : (tensor<4x6xbf16>, tensor<4x3xi32>) -> tensor<4x3xbf16>
  %1 = "ttir.scatter"(%x, %i, %s) <{dim = 1 : i32, scatter_reduce_type = #ttcore.reduce_type<sum>}> : (tensor<4x6xbf16>, tensor<4x3xi32>, tensor<4x3xbf16>) -> tensor<4x6xbf16>
  return %0, %1 : tensor<4x3xbf16>, tensor<4x6xbf16>
}

// Indices squeezed to [B, S] and padded to a multiple of 32 with the gradient; [B, 1, 1, S] indices,
// a [1, 1, R, C] gradient, the [1, 1, V, D] result reshaped to the table.
// CHECK-LABEL: func.func @embedding_grad
// CHECK: %[[I:.*]] = "ttnn.reshape"(%arg0) <{shape = [1 : i32, 10 : i32]}>
// CHECK: %[[IP:.*]] = "ttnn.pad"(%[[I]]) <{padding = array<i32: 0, 0, 0, 22>, use_multicore = true, value = 0.000000e+00 : f32}>
// CHECK: %[[GP:.*]] = "ttnn.pad"(%arg2) <{padding = array<i32: 0, 0, 0, 22, 0, 0>, use_multicore = true, value = 0.000000e+00 : f32}>
// CHECK: %[[G4:.*]] = "ttnn.reshape"(%[[GP]]) <{shape = [1 : i32, 1 : i32, 32 : i32, 64 : i32]}>
// CHECK: %[[I4:.*]] = "ttnn.reshape"(%[[IP]]) <{shape = [1 : i32, 1 : i32, 1 : i32, 32 : i32]}>
// HEAD's embedding_bw workaround: the indices row-major ui32.
// CHECK: %[[IC:.*]] = "ttnn.typecast"(%[[I4]]) {{.*}} -> tensor<1x1x1x32xui32
// CHECK: %[[IU:.*]] = "ttnn.to_layout"(%[[IC]]) {{.*}} -> tensor<1x1x1x32xui32
// CHECK: %[[E:.*]] = "ttnn.embedding_bw"(%[[IU]], %arg1, %[[G4]]) : ({{.*}}) -> tensor<1x1x16x64xbf16
// CHECK: "ttnn.reshape"(%[[E]]) <{shape = [16 : i32, 64 : i32]}>
func.func @embedding_grad(%i: tensor<1x10x1xi32>, %w: tensor<16x64xbf16>, %g: tensor<1x10x64xbf16>) -> tensor<16x64xbf16> {
  %0 = "ttir.embedding_backward"(%i, %w, %g) : (tensor<1x10x1xi32>, tensor<16x64xbf16>, tensor<1x10x64xbf16>) -> tensor<16x64xbf16>
  return %0 : tensor<16x64xbf16>
}

// CHECK-LABEL: func.func @scans_and_slices
// CHECK: "ttnn.cumsum"(%arg0) <{dim = 1 : si32}>
// HEAD's workarounds: slice_dynamic reads its input row-major and its bounds as ui32; a front pad
// runs row-major, on the same row-major copy (cse after the workarounds, as tt-mlir).
// CHECK: %[[X:.*]] = "ttnn.to_layout"(%arg0)
// CHECK: %[[B:.*]] = "ttnn.typecast"(%arg1) {{.*}} -> tensor<2xui32
// CHECK: %[[E:.*]] = "ttnn.typecast"(%arg2) {{.*}} -> tensor<2xui32
// CHECK: "ttnn.slice_dynamic"(%[[X]], %[[B]], %[[E]])
// CHECK-NOT: "ttnn.to_layout"(%arg0)
// CHECK: "ttnn.pad"(%[[X]]) <{padding = array<i32: 0, 0, 1, 2>, use_multicore = true, value = 0.000000e+00 : f32}>
// CHECK: "ttnn.repeat"(%arg0) <{repeat_dims = #ttnn.shape<2x1>}>
func.func @scans_and_slices(%x: tensor<8x32xbf16>, %b: tensor<2xi32>, %e: tensor<2xi32>) -> (tensor<8x32xbf16>, tensor<4x16xbf16>, tensor<8x35xbf16>, tensor<16x32xbf16>) {
  %0 = "ttir.cumsum"(%x) <{dim = 1 : i64}> : (tensor<8x32xbf16>) -> tensor<8x32xbf16>
  %1 = "ttir.slice_dynamic"(%x, %b, %e) : (tensor<8x32xbf16>, tensor<2xi32>, tensor<2xi32>) -> tensor<4x16xbf16>
  %2 = "ttir.pad"(%x) <{padding = array<i32: 0, 0, 1, 2>, value = 0.000000e+00 : f32}> : (tensor<8x32xbf16>) -> tensor<8x35xbf16>
  %3 = "ttir.repeat"(%x) <{repeat_dimensions = array<i64: 2, 1>}> : (tensor<8x32xbf16>) -> tensor<16x32xbf16>
  return %0, %1, %2, %3 : tensor<8x32xbf16>, tensor<4x16xbf16>, tensor<8x35xbf16>, tensor<16x32xbf16>
}

// Pooling on the flattened NHWC input; asymmetric padding as (top, left, bottom, right). The pools
// read and write row-major, their indices as ui16 (HEAD's workarounds), tiled again after (the last
// result's conversion first, as HEAD puts each right after the op).
// CHECK-LABEL: func.func @pools
// CHECK: "ttnn.max_pool2d"(%{{.*}}) <{batch_size = 1 : si32, ceil_mode = false, channels = 32 : si32, dilation = array<i32: 1, 1>, input_height = 8 : si32, input_width = 8 : si32, kernel_size = array<i32: 3, 3>, padding = array<i32: 0, 0, 1, 1>, stride = array<i32: 2, 2>}>
// CHECK: "ttnn.avg_pool2d"(%{{.*}}) <{{.*}}count_include_pad = false{{.*}}padding = array<i32: 0, 0>
// CHECK: %[[P:[a-z_0-9]+]], %[[PI:[a-z_0-9]+]] = "ttnn.max_pool2d_with_indices"{{.*}} -> (tensor<1x1x16x32xbf16, {{.*}}>, tensor<1x1x16x32xui16
// CHECK: %[[PIT:.*]] = "ttnn.to_layout"(%[[PI]])
// CHECK: %[[PIS:.*]] = "ttnn.typecast"(%[[PIT]]) {{.*}} -> tensor<1x1x16x32xsi32
// CHECK: %[[PT:.*]] = "ttnn.to_layout"(%[[P]])
// CHECK: "ttnn.reshape"(%[[PT]]) <{shape = [1 : i32, 4 : i32, 4 : i32, 32 : i32]}>
// CHECK: "ttnn.reshape"(%[[PIS]]) <{shape = [1 : i32, 4 : i32, 4 : i32, 32 : i32]}>
func.func @pools(%x: tensor<1x8x8x32xbf16>) -> (tensor<1x4x4x32xbf16>, tensor<1x4x4x32xbf16>, tensor<1x4x4x32xbf16>, tensor<1x4x4x32xi32>) {
  %0 = "ttir.max_pool2d"(%x) <{ceil_mode = false, dilation = array<i32: 1, 1>, kernel = array<i32: 3, 3>, padding = array<i32: 0, 0, 1, 1>, stride = array<i32: 2, 2>}> : (tensor<1x8x8x32xbf16>) -> tensor<1x4x4x32xbf16>
  %1 = "ttir.avg_pool2d"(%x) <{ceil_mode = false, count_include_pad = false, dilation = array<i32: 1, 1>, kernel = array<i32: 2, 2>, padding = array<i32: 0, 0, 0, 0>, stride = array<i32: 2, 2>}> : (tensor<1x8x8x32xbf16>) -> tensor<1x4x4x32xbf16>
  %e0 = ttir.empty() : tensor<1x4x4x32xbf16>
  %e1 = ttir.empty() : tensor<1x4x4x32xi32>
  %2:2 = "ttir.max_pool2d_with_indices"(%x, %e0, %e1) <{ceil_mode = false, dilation = array<i32: 1, 1>, kernel = array<i32: 2, 2>, padding = array<i32: 0, 0, 0, 0>, stride = array<i32: 2, 2>}> : (tensor<1x8x8x32xbf16>, tensor<1x4x4x32xbf16>, tensor<1x4x4x32xi32>) -> (tensor<1x4x4x32xbf16>, tensor<1x4x4x32xi32>)
  return %0, %1, %2#0, %2#1 : tensor<1x4x4x32xbf16>, tensor<1x4x4x32xbf16>, tensor<1x4x4x32xbf16>, tensor<1x4x4x32xi32>
}

// ttir-to-ttir-decomposition first: dot_general -> permutes + matmul; reverse -> an embedding lookup.
// The reverse's index constant is hoisted to the front, as HEAD's canonicalizer after the decomposition does.
// CHECK-LABEL: func.func @contractions
// CHECK: %[[R:.*]] = "ttnn.constant"(%{{.*}}) <{value = dense<[5, 4, 3, 2, 1, 0]> : tensor<6xsi32>}>
// CHECK: %[[A:.*]] = "ttnn.permute"(%arg0) <{permutation = array<i64: 0, 2, 1, 3>}>
// CHECK: %[[B:.*]] = "ttnn.permute"(%arg1) <{permutation = array<i64: 0, 2, 3, 1>}>
// CHECK: "ttnn.matmul"(%[[A]], %[[B]])
// ttnn-workaround: embedding takes row-major ui32 indices and a row-major table.
// CHECK: %[[RC:.*]] = "ttnn.typecast"(%[[R]]) : ({{.*}}) -> tensor<6xui32
// CHECK: %[[RU:.*]] = "ttnn.to_layout"(%[[RC]]) : ({{.*}}) -> tensor<6xui32
// CHECK: %[[T:.*]] = "ttnn.to_layout"({{.*}}) : ({{.*}}) -> tensor<6x4xbf16
// CHECK: "ttnn.embedding"(%[[RU]], %[[T]])
func.func @contractions(%a: tensor<2x8x4x32xbf16>, %b: tensor<2x6x4x32xbf16>, %r: tensor<4x6xbf16>) -> (tensor<2x4x8x6xbf16>, tensor<4x6xbf16>) {
  %0 = "ttir.dot_general"(%a, %b) <{batch_dims_lhs = array<i64: 0, 2>, batch_dims_rhs = array<i64: 0, 2>, contract_dims_lhs = array<i64: 3>, contract_dims_rhs = array<i64: 3>}> : (tensor<2x8x4x32xbf16>, tensor<2x6x4x32xbf16>) -> tensor<2x4x8x6xbf16>
  %1 = "ttir.reverse"(%r) <{dimensions = array<i64: 1>}> : (tensor<4x6xbf16>) -> tensor<4x6xbf16>
  return %0, %1 : tensor<2x4x8x6xbf16>, tensor<4x6xbf16>
}
