// RUN: ttopt opt %s --split-input-file --ttnn-workaround --mlir-print-local-scope | FileCheck %s
// RUN: ttopt opt %s --split-input-file --ttnn-workaround="ttnn-optimization-level=2" | FileCheck %s --check-prefix=OPT
// RUN: ttopt opt %s --split-input-file --ttnn-workaround="ttnn-enable-layout-workaround-pass=false" | FileCheck %s --check-prefix=NOLAYOUT
// RUN: ttopt opt %s --split-input-file --ttnn-workaround --canonicalize --mlir-print-local-scope | FileCheck %s --check-prefix=CANON

// ttnn-workaround's page-layout workarounds on TTNN input, as tt-mlir's TTNNWorkarounds applies
// them: a to_tensor_spec to the layout the kernel reads before the op, one back after it.

#dram = #ttnn.buffer_type<dram>
#idx = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x1x!ttcore.tile<32x32, si32>, #dram>, <interleaved>>
#tab = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<16x4x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#out = #ttnn.ttnn_layout<(d0, d1, d2) -> (d0 * 32 + d1, d2), <1x1>, memref<1x4x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
// Embedding: indices row-major ui32 and the table row-major, at every level (tt-mlir lists it
// among the ops whose layout workarounds run with the optimizer too).
// CHECK-LABEL: func.func @embedding
// CHECK: %[[I:.*]] = "ttnn.to_tensor_spec"(%arg0) {{.*}} -> tensor<1x32xui32, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x32xui32, #ttnn.buffer_type<dram>>, <interleaved>>>
// CHECK: %[[W:.*]] = "ttnn.to_tensor_spec"(%arg1) {{.*}} -> tensor<512x128xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<512x128xbf16, #ttnn.buffer_type<dram>>, <interleaved>>>
// CHECK: "ttnn.embedding"(%[[I]], %[[W]])
// CHECK-NOT: to_tensor_spec
// CHECK: return
// OPT-LABEL: func.func @embedding
// OPT-COUNT-2: "ttnn.to_tensor_spec"
// NOLAYOUT-LABEL: func.func @embedding
// NOLAYOUT-NOT: to_tensor_spec
// NOLAYOUT: return
func.func @embedding(%arg0: tensor<1x32xsi32, #idx>, %arg1: tensor<512x128xbf16, #tab>) -> tensor<1x32x128xbf16, #out> {
  %0 = "ttnn.embedding"(%arg0, %arg1) : (tensor<1x32xsi32, #idx>, tensor<512x128xbf16, #tab>) -> tensor<1x32x128xbf16, #out>
  return %0 : tensor<1x32x128xbf16, #out>
}

// -----

#dram = #ttnn.buffer_type<dram>
#in = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 1024 + d1 * 1024 + d2, d3), <1x1>, memref<32x2x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#po = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 256 + d1 * 256 + d2, d3), <1x1>, memref<8x2x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
// Pooling reads and writes row-major; without the optimizer only (from level 1 the optimizer picks
// its layouts).
// CHECK-LABEL: func.func @pool
// CHECK: %[[X:.*]] = "ttnn.to_tensor_spec"(%arg0) {{.*}} memref<1024x64xbf16, #ttnn.buffer_type<dram>>
// CHECK: %[[P:.*]] = "ttnn.max_pool2d"(%[[X]]) {{.*}} -> tensor<1x1x256x64xbf16, #ttnn.ttnn_layout<{{.*}}memref<256x64xbf16, #ttnn.buffer_type<dram>>
// CHECK: "ttnn.to_tensor_spec"(%[[P]]) {{.*}} -> tensor<1x1x256x64xbf16, #ttnn.ttnn_layout<{{.*}}memref<8x2x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<dram>>
// OPT-LABEL: func.func @pool
// OPT-NOT: to_tensor_spec
// OPT: return
func.func @pool(%arg0: tensor<1x1x1024x64xbf16, #in>) -> tensor<1x1x256x64xbf16, #po> {
  %0 = "ttnn.max_pool2d"(%arg0) <{batch_size = 1 : si32, ceil_mode = false, channels = 64 : si32, dilation = array<i32: 1, 1>, input_height = 32 : si32, input_width = 32 : si32, kernel_size = array<i32: 2, 2>, padding = array<i32: 0, 0>, stride = array<i32: 2, 2>}> : (tensor<1x1x1024x64xbf16, #in>) -> tensor<1x1x256x64xbf16, #po>
  return %0 : tensor<1x1x256x64xbf16, #po>
}

// -----

#dram = #ttnn.buffer_type<dram>
#x = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x1x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#rm = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<8x32xbf16, #dram>, <interleaved>>
#p = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x2x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
// A binary op with a row-major operand tiles it; a front pad runs row-major, a back pad tiled.
// CHECK-LABEL: func.func @tiles_and_pads
// CHECK: %[[T:.*]] = "ttnn.to_tensor_spec"(%arg1) {{.*}} memref<1x1x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<dram>>
// CHECK: "ttnn.add"(%arg0, %[[T]])
// CHECK: %[[F:.*]] = "ttnn.to_tensor_spec"(%arg0) {{.*}} memref<8x32xbf16, #ttnn.buffer_type<dram>>
// CHECK: %[[FP:.*]] = "ttnn.pad"(%[[F]]) <{padding = array<i32: 0, 0, 1, 2>
// CHECK: "ttnn.to_tensor_spec"(%[[FP]])
// CHECK: "ttnn.pad"(%arg0) <{padding = array<i32: 0, 0, 0, 3>
func.func @tiles_and_pads(%arg0: tensor<8x32xbf16, #x>, %arg1: tensor<8x32xbf16, #rm>) -> (tensor<8x32xbf16, #x>, tensor<8x35xbf16, #p>, tensor<8x35xbf16, #p>) {
  %0 = "ttnn.add"(%arg0, %arg1) : (tensor<8x32xbf16, #x>, tensor<8x32xbf16, #rm>) -> tensor<8x32xbf16, #x>
  %1 = "ttnn.pad"(%arg0) <{padding = array<i32: 0, 0, 1, 2>, use_multicore = true, value = 0.000000e+00 : f32}> : (tensor<8x32xbf16, #x>) -> tensor<8x35xbf16, #p>
  %2 = "ttnn.pad"(%arg0) <{padding = array<i32: 0, 0, 0, 3>, use_multicore = true, value = 0.000000e+00 : f32}> : (tensor<8x32xbf16, #x>) -> tensor<8x35xbf16, #p>
  return %0, %1, %2 : tensor<8x32xbf16, #x>, tensor<8x35xbf16, #p>, tensor<8x35xbf16, #p>
}

// -----

#dram = #ttnn.buffer_type<dram>
#in = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 64 + d1 * 8 + d2, d3), <1x1>, memref<2x1x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#up = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 256 + d1 * 16 + d2, d3), <1x1>, memref<8x1x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
// Bilinear upsample of 30 channels: padded to 32, upsampled row-major, sliced back.
// CHECK-LABEL: func.func @bilinear
// CHECK: %[[P:.*]] = "ttnn.pad"(%arg0) <{padding = array<i32: 0, 0, 0, 0, 0, 0, 0, 2>, use_multicore = false
// CHECK: %[[R:.*]] = "ttnn.to_tensor_spec"(%[[P]]) {{.*}} -> tensor<1x8x8x32xbf16
// CHECK: %[[U:.*]] = "ttnn.upsample"(%[[R]]) {{.*}} -> tensor<1x16x16x32xbf16
// CHECK: %[[T:.*]] = "ttnn.to_tensor_spec"(%[[U]])
// CHECK: "ttnn.slice_static"(%[[T]]) <{begins = [0 : i32, 0 : i32, 0 : i32, 0 : i32], ends = [1 : i32, 16 : i32, 16 : i32, 30 : i32]
// NOLAYOUT-LABEL: func.func @bilinear
// NOLAYOUT: "ttnn.pad"
// NOLAYOUT-NEXT: "ttnn.upsample"
// NOLAYOUT-NEXT: "ttnn.slice_static"
func.func @bilinear(%arg0: tensor<1x8x8x30xbf16, #in>) -> tensor<1x16x16x30xbf16, #up> {
  %0 = "ttnn.upsample"(%arg0) <{mode = "bilinear", scale_factor = 2 : si32}> : (tensor<1x8x8x30xbf16, #in>) -> tensor<1x16x16x30xbf16, #up>
  return %0 : tensor<1x16x16x30xbf16, #up>
}

// -----

#dram = #ttnn.buffer_type<dram>
#x = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x1x!ttcore.tile<32x32, f32>, #dram>, <interleaved>>
#i = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x1x!ttcore.tile<32x32, si32>, #dram>, <interleaved>>
// An si32 gather index: clamped at 0, read as ui32; a negative index reads NaN.
// CHECK-LABEL: func.func @gather
// CHECK: %[[D:.*]] = "ttnn.get_device"
// CHECK: %[[Z:.*]] = "ttnn.full"(%[[D]]) <{fill_value = 0 : i32
// CHECK: %[[M:.*]] = "ttnn.lt"(%arg1, %[[Z]]) {{.*}} -> tensor<2x3xf32
// CHECK: %[[S:.*]] = "ttnn.maximum"(%arg1, %[[Z]])
// CHECK: %[[U:.*]] = "ttnn.to_tensor_spec"(%[[S]]) {{.*}} -> tensor<2x3xui32
// CHECK: %[[G:.*]] = "ttnn.gather"(%arg0, %[[U]])
// CHECK: %[[N:.*]] = "ttnn.full"(%[[D]]) <{fill_value = 0x7FC00000 : f32
// CHECK: %[[W:.*]] = "ttnn.where"(%[[M]], %[[N]], %[[G]])
// CHECK: return %[[W]]
func.func @gather(%arg0: tensor<5x3xf32, #x>, %arg1: tensor<2x3xsi32, #i>) -> tensor<2x3xf32, #x> {
  %0 = "ttnn.gather"(%arg0, %arg1) <{dim = 0 : si32}> : (tensor<5x3xf32, #x>, tensor<2x3xsi32, #i>) -> tensor<2x3xf32, #x>
  return %0 : tensor<2x3xf32, #x>
}

// -----

#dram = #ttnn.buffer_type<dram>
#sys = #ttnn.buffer_type<system_memory>
#h = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<32x32xf32, #sys>>
#d = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x1x!ttcore.tile<32x32, f32>, #dram>, <interleaved>>
#o = #ttnn.ttnn_layout<(d0) -> (0, d0), <1x1>, memref<1x1x!ttcore.tile<32x32, f32>, #dram>, <interleaved>>
// canonicalize folds a conversion of a conversion into one (tt-mlir's foldConsecutiveToLayoutOp)
// and erases the first when nothing else reads it: argmax reads the host tensor moved to a
// row-major device tensor in one step.
// CANON-LABEL: func.func @consecutive
// CANON: %[[X:.*]] = "ttnn.to_tensor_spec"(%arg0) {{.*}} -> tensor<32x32xf32, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<32x32xf32, #ttnn.buffer_type<dram>>, <interleaved>>>
// CANON-NEXT: "ttnn.argmax"(%[[X]])
func.func @consecutive(%arg0: tensor<32x32xf32, #h>) -> tensor<32xui32, #o> {
  %0 = "ttnn.to_tensor_spec"(%arg0) : (tensor<32x32xf32, #h>) -> tensor<32x32xf32, #d>
  %1 = "ttnn.argmax"(%0) <{dim = 1 : si32, keep_dim = false}> : (tensor<32x32xf32, #d>) -> tensor<32xui32, #o>
  return %1 : tensor<32xui32, #o>
}

// -----

#dram = #ttnn.buffer_type<dram>
#in = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 576 + d1 * 18 + d2, d3), <1x1>, memref<18x2x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#c = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 2048 + d1 * 64 + d2, d3), <1x1>, memref<64x2x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
// A cache fill of 18 rows writes 32 (the input's tile padding): the input is zero-padded first.
// CHECK-LABEL: func.func @fill
// CHECK: %[[P:.*]] = "ttnn.pad"(%arg1) <{padding = array<i32: 0, 0, 0, 0, 0, 14, 0, 0>, use_multicore = true, value = 0.000000e+00 : f32}>
// CHECK: "ttnn.fill_cache"(%arg0, %[[P]])
func.func @fill(%arg0: tensor<1x32x64x64xbf16, #c>, %arg1: tensor<1x32x18x64xbf16, #in>) {
  "ttnn.fill_cache"(%arg0, %arg1) <{batch_offset = 0 : i32}> : (tensor<1x32x64x64xbf16, #c>, tensor<1x32x18x64xbf16, #in>) -> ()
  return
}

// -----

#dram = #ttnn.buffer_type<dram>
#x = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x1x!ttcore.tile<32x32, si32>, #dram>, <interleaved>>
#o = #ttnn.ttnn_layout<(d0) -> (0, d0), <1x1>, memref<1x1x!ttcore.tile<32x32, si32>, #dram>, <interleaved>>
// An integer prod over 3 entries is exact as two multiplies of its slices; a float one runs in bf16.
// CHECK-LABEL: func.func @prod
// CHECK: %[[A:.*]] = "ttnn.slice_static"(%arg0) <{begins = [0 : i32, 0 : i32], ends = [4 : i32, 1 : i32]
// CHECK: %[[B:.*]] = "ttnn.slice_static"(%arg0) <{begins = [0 : i32, 1 : i32], ends = [4 : i32, 2 : i32]
// CHECK: %[[AB:.*]] = "ttnn.multiply"(%[[A]], %[[B]])
// CHECK: %[[C:.*]] = "ttnn.slice_static"(%arg0) <{begins = [0 : i32, 2 : i32], ends = [4 : i32, 3 : i32]
// CHECK: %[[ABC:.*]] = "ttnn.multiply"(%[[AB]], %[[C]])
// CHECK: %[[R:.*]] = "ttnn.reshape"(%[[ABC]]) <{shape = [4 : i32]}>
// CHECK-NOT: ttnn.prod
// CHECK: return %[[R]]
func.func @prod(%arg0: tensor<4x3xsi32, #x>) -> tensor<4xsi32, #o> {
  %0 = "ttnn.prod"(%arg0) <{dim_arg = 1 : si64, keep_dim = false}> : (tensor<4x3xsi32, #x>) -> tensor<4xsi32, #o>
  return %0 : tensor<4xsi32, #o>
}

// -----

#dram = #ttnn.buffer_type<dram>
#f = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x1x!ttcore.tile<32x32, f32>, #dram>, <interleaved>>
#b = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x1x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#u = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x1x!ttcore.tile<32x32, u32>, #dram>, <interleaved>>
// A typecast of a typecast nothing else reads casts once (tt-mlir's foldConsecutiveDataCastOps drops
// the intermediate type); one back to the input's type goes.
// CANON-LABEL: func.func @casts
// CANON-NEXT: %[[U:.*]] = "ttnn.typecast"(%arg0) {{.*}} -> tensor<32x32xui32
// CANON-NEXT: return %arg0, %[[U]]
func.func @casts(%arg0: tensor<32x32xf32, #f>) -> (tensor<32x32xf32, #f>, tensor<32x32xui32, #u>) {
  %0 = "ttnn.typecast"(%arg0) : (tensor<32x32xf32, #f>) -> tensor<32x32xbf16, #b>
  %1 = "ttnn.typecast"(%0) : (tensor<32x32xbf16, #b>) -> tensor<32x32xf32, #f>
  %2 = "ttnn.typecast"(%arg0) : (tensor<32x32xf32, #f>) -> tensor<32x32xbf16, #b>
  %3 = "ttnn.typecast"(%2) : (tensor<32x32xbf16, #b>) -> tensor<32x32xui32, #u>
  return %1, %3 : tensor<32x32xf32, #f>, tensor<32x32xui32, #u>
}

// -----

#dram = #ttnn.buffer_type<dram>
#x = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x1x!ttcore.tile<32x32, bfp_bf8>, #dram>, <interleaved>>
#p = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x2x!ttcore.tile<32x32, bfp_bf8>, #dram>, <interleaved>>
// Block floats exist only as tiles: a row-major target of one is bf16.
// CHECK-LABEL: func.func @block_float_pad
// CHECK: %[[R:.*]] = "ttnn.to_tensor_spec"(%arg0) {{.*}} -> tensor<8x32xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<8x32xbf16, #ttnn.buffer_type<dram>>, <interleaved>>>
// CHECK: "ttnn.pad"(%[[R]])
func.func @block_float_pad(%arg0: tensor<8x32x!ttcore.tile<32x32, bfp_bf8>, #x>) -> tensor<8x35x!ttcore.tile<32x32, bfp_bf8>, #p> {
  %0 = "ttnn.pad"(%arg0) <{padding = array<i32: 0, 0, 1, 2>, use_multicore = true, value = 0.000000e+00 : f32}> : (tensor<8x32x!ttcore.tile<32x32, bfp_bf8>, #x>) -> tensor<8x35x!ttcore.tile<32x32, bfp_bf8>, #p>
  return %0 : tensor<8x35x!ttcore.tile<32x32, bfp_bf8>, #p>
}

// -----

#dram = #ttnn.buffer_type<dram>
#i = #ttnn.ttnn_layout<(d0) -> (0, d0), <1x1>, memref<1x1x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#o = #ttnn.ttnn_layout<(d0) -> (0, d0), <1x1>, memref<1x2x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
// A rank-1 all_gather runs on [1, n]: its dimension moves by one.
// CHECK-LABEL: func.func @gather_1d
// CHECK: %[[W:.*]] = "ttnn.reshape"(%arg0) <{shape = [1 : i32, 32 : i32]}>
// CHECK: %[[G:.*]] = "ttnn.all_gather"(%[[W]]) <{all_gather_dim = 1 : si32, cluster_axis = 1 : ui32}> {{.*}} -> tensor<1x64xbf16
// CHECK: %[[R:.*]] = "ttnn.reshape"(%[[G]]) <{shape = [64 : i32]}>
// CHECK: return %[[R]]
func.func @gather_1d(%arg0: tensor<32xbf16, #i>) -> tensor<64xbf16, #o> {
  %0 = "ttnn.all_gather"(%arg0) <{all_gather_dim = 0 : si32, cluster_axis = 1 : ui32}> : (tensor<32xbf16, #i>) -> tensor<64xbf16, #o>
  return %0 : tensor<64xbf16, #o>
}

// -----

#dram = #ttnn.buffer_type<dram>
#x = #ttnn.ttnn_layout<(d0, d1, d2) -> (d0 * 32 + d1, d2), <1x1>, memref<2x25000x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#y = #ttnn.ttnn_layout<(d0, d1, d2) -> (d0 * 32 + d1, d2), <1x1>, memref<2x12500x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#small = #ttnn.ttnn_layout<(d0, d1, d2) -> (d0 * 32 + d1, d2), <1x1>, memref<2x2x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
// The slice kernel double-buffers one output row of the last dim: 400000 bf16 twice overflow
// wormhole_b0's L1 (no system desc), so the slice runs on the last dim swapped with dim 1 (the
// nearest whose row fits), its bounds permuted alike; a 64-wide row stays as it is.
// CHECK-LABEL: func.func @slice_row_past_l1
// CHECK: %[[P:.*]] = "ttnn.permute"(%arg0) <{permutation = array<i64: 0, 2, 1>}> {{.*}} -> tensor<2x800000x3xbf16
// CHECK: %[[S:.*]] = "ttnn.slice_static"(%[[P]]) <{begins = [0 : i32, 0 : i32, 1 : i32], ends = [2 : i32, 800000 : i32, 3 : i32], step = [1 : i32, 2 : i32, 1 : i32]}> {{.*}} -> tensor<2x400000x2xbf16
// CHECK: %[[B:.*]] = "ttnn.permute"(%[[S]]) <{permutation = array<i64: 0, 2, 1>}> {{.*}} -> tensor<2x2x400000xbf16
// CHECK: return %[[B]]
// CHECK-LABEL: func.func @slice_row_fits
// CHECK-NOT: ttnn.permute
// CHECK: "ttnn.slice_static"(%arg0)
// NOLAYOUT-LABEL: func.func @slice_row_past_l1
// NOLAYOUT: "ttnn.permute"
func.func @slice_row_past_l1(%arg0: tensor<2x3x800000xbf16, #x>) -> tensor<2x2x400000xbf16, #y> {
  %0 = "ttnn.slice_static"(%arg0) <{begins = [0 : i32, 1 : i32, 0 : i32], ends = [2 : i32, 3 : i32, 800000 : i32], step = [1 : i32, 1 : i32, 2 : i32]}> : (tensor<2x3x800000xbf16, #x>) -> tensor<2x2x400000xbf16, #y>
  return %0 : tensor<2x2x400000xbf16, #y>
}
func.func @slice_row_fits(%arg0: tensor<2x3x64xbf16, #small>) -> tensor<2x1x64xbf16, #small> {
  %0 = "ttnn.slice_static"(%arg0) <{begins = [0 : i32, 2 : i32, 0 : i32], ends = [2 : i32, 3 : i32, 64 : i32], step = [1 : i32, 1 : i32, 1 : i32]}> : (tensor<2x3x64xbf16, #small>) -> tensor<2x1x64xbf16, #small>
  return %0 : tensor<2x1x64xbf16, #small>
}

// -----

#dram = #ttnn.buffer_type<dram>
#in = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 32 + d1 * 32 + d2, d3), <1x1>, memref<1x2x!ttcore.tile<32x32, f32>, #dram>, <interleaved>>
#idx = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 32 + d1 * 32 + d2, d3), <1x1>, memref<32x8xui16, #dram>, <interleaved>>
#map = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x1x!ttcore.tile<32x32, u32>, #dram>, <interleaved>>
#dout = #ttnn.ttnn_layout<(d0, d1, d2) -> (d0 * 64 + d1, d2), <1x1>, memref<2x2x!ttcore.tile<32x32, f32>, #dram>, <interleaved>>
#iout = #ttnn.ttnn_layout<(d0, d1, d2) -> (d0 * 64 + d1, d2), <1x1>, memref<64x8xui16, #dram>, <interleaved>>
#sout = #ttnn.ttnn_layout<(d0, d1, d2) -> (d0 * 64 + d1, d2), <1x1>, memref<2x1x!ttcore.tile<32x32, f32>, #dram>, <interleaved>>
// all_to_all_dispatch_metadata reads input, indices and scores row-major from L1 interleaved, on
// the DRAM tensors' own 1x1 grid (all pages in one row), the mapping row-major ui16; it writes the
// dispatched tokens row-major bf16 and the gathered indices and scores height sharded in L1 on one
// core, each cast back to the declared layout. At optimization level 2 it keeps these (tt-mlir
// lists it among the ops whose page layouts the optimizer leaves).
// CHECK-LABEL: func.func @dispatch_metadata
// CHECK: %[[IN:.*]] = "ttnn.to_tensor_spec"(%arg0) {{.*}} -> tensor<1x1x32x64xbf16, #ttnn.ttnn_layout<{{.*}}, <1x1>, memref<1x2048xbf16, #ttnn.buffer_type<l1>>, <interleaved>>>
// CHECK: %[[IDX:.*]] = "ttnn.to_tensor_spec"(%arg1) {{.*}} -> tensor<1x1x32x8xui16, #ttnn.ttnn_layout<{{.*}}, <1x1>, memref<1x256xui16, #ttnn.buffer_type<l1>>, <interleaved>>>
// CHECK: %[[SC:.*]] = "ttnn.to_tensor_spec"(%arg2) {{.*}} -> tensor<1x1x32x8xbf16, #ttnn.ttnn_layout<{{.*}}, <1x1>, memref<1x256xbf16, #ttnn.buffer_type<l1>>, <interleaved>>>
// CHECK: %[[MAP:.*]] = "ttnn.to_tensor_spec"(%arg3) {{.*}} -> tensor<2x8xui16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x8xui16, #ttnn.buffer_type<dram>>, <interleaved>>>
// CHECK: %[[D:.*]], %[[I:.*]], %[[S:.*]] = "ttnn.all_to_all_dispatch_metadata"(%[[IN]], %[[IDX]], %[[SC]], %[[MAP]])
// CHECK-SAME: -> (tensor<1x64x64xbf16, #ttnn.ttnn_layout<{{.*}} memref<64x64xbf16, #ttnn.buffer_type<dram>>, <interleaved>>>, tensor<1x64x8xui16, #ttnn.ttnn_layout<{{.*}}, <1x1>, memref<64x8xui16, #ttnn.buffer_type<l1>>, <height_sharded>, core_ranges = <[#ttnn.core_range<(0, 0), (0, 0)>]>>>, tensor<1x64x8xbf16, #ttnn.ttnn_layout<{{.*}}, <1x1>, memref<64x8xbf16, #ttnn.buffer_type<l1>>, <height_sharded>, core_ranges = <[#ttnn.core_range<(0, 0), (0, 0)>]>>>)
// The results' casts back, the last result's first (each is put right after the op, as HEAD does).
// CHECK: %[[S2:.*]] = "ttnn.to_tensor_spec"(%[[S]]) {{.*}} -> tensor<1x64x8xf32
// CHECK: %[[I2:.*]] = "ttnn.to_tensor_spec"(%[[I]]) {{.*}} -> tensor<1x64x8xui16, #ttnn.ttnn_layout<{{.*}} memref<64x8xui16, #ttnn.buffer_type<dram>>, <interleaved>>>
// CHECK: %[[D2:.*]] = "ttnn.to_tensor_spec"(%[[D]]) {{.*}} -> tensor<1x64x64xf32
// CHECK: return %[[D2]], %[[I2]], %[[S2]]
// OPT: #[[L1:ttnn_layout[0-9]*]] = #ttnn.ttnn_layout<{{.*}}, <1x1>, memref<1x2048xbf16, #l1>, <interleaved>>
// OPT-LABEL: func.func @dispatch_metadata
// OPT: "ttnn.to_tensor_spec"(%arg0) {{.*}} -> tensor<1x1x32x64xbf16, #[[L1]]>
func.func @dispatch_metadata(%arg0: tensor<1x1x32x64xf32, #in>, %arg1: tensor<1x1x32x8xui16, #idx>, %arg2: tensor<1x1x32x8xf32, #in>, %arg3: tensor<2x8xui32, #map>) -> (tensor<1x64x64xf32, #dout>, tensor<1x64x8xui16, #iout>, tensor<1x64x8xf32, #sout>) {
  %0:3 = "ttnn.all_to_all_dispatch_metadata"(%arg0, %arg1, %arg2, %arg3) <{cluster_axis = 1 : i64, num_devices = 2 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0, 0>}> : (tensor<1x1x32x64xf32, #in>, tensor<1x1x32x8xui16, #idx>, tensor<1x1x32x8xf32, #in>, tensor<2x8xui32, #map>) -> (tensor<1x64x64xf32, #dout>, tensor<1x64x8xui16, #iout>, tensor<1x64x8xf32, #sout>)
  return %0#0, %0#1, %0#2 : tensor<1x64x64xf32, #dout>, tensor<1x64x8xui16, #iout>, tensor<1x64x8xf32, #sout>
}
