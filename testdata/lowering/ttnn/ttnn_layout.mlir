// RUN: ttopt opt %s --split-input-file --ttnn-layout | FileCheck %s
// RUN: ttopt opt %s --split-input-file --ttnn-layout --ttnn-workaround | FileCheck %s --check-prefix=WA

// TTNN ops without layouts: every tensor type gets tt-mlir's default, DRAM interleaved tiles, its
// element type normalized (i32 as si32); the workarounds then see the data types and page layouts.
// CHECK: #ttnn_layout = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x4x!ttcore.tile<32x32, f32>, #dram>, <interleaved>>
// CHECK: func.func @tanh_f32(%arg0: tensor<64x128xf32, #ttnn_layout>) -> tensor<64x128xf32, #ttnn_layout>
// CHECK: "ttnn.tanh"(%arg0) : (tensor<64x128xf32, #ttnn_layout>) -> tensor<64x128xf32, #ttnn_layout>
// WA-LABEL: func.func @tanh_f32
// WA: "ttnn.to_tensor_spec"(%arg0) {{.*}} -> tensor<64x128xbf16
// WA: "ttnn.tanh"
// WA: "ttnn.to_tensor_spec"{{.*}} -> tensor<64x128xf32
func.func @tanh_f32(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %0 = "ttnn.tanh"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
  return %0 : tensor<64x128xf32>
}

// -----

// A type that has a layout keeps it; a function of TTIR ops is left to convert-ttir-to-ttnn.
// CHECK: func.func @kept(%arg0: tensor<64x128xbf16, #rm>)
// CHECK: func.func @ttir(%arg0: tensor<64x128xbf16>) -> tensor<64x128xbf16>
// CHECK: "ttir.relu"(%arg0) : (tensor<64x128xbf16>) -> tensor<64x128xbf16>
#dram = #ttnn.buffer_type<dram>
#rm = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<64x128xbf16, #dram>, <interleaved>>
func.func @kept(%arg0: tensor<64x128xbf16, #rm>) -> tensor<64x128xbf16, #rm> {
  %0 = "ttnn.relu"(%arg0) : (tensor<64x128xbf16, #rm>) -> tensor<64x128xbf16, #rm>
  return %0 : tensor<64x128xbf16, #rm>
}
func.func @ttir(%arg0: tensor<64x128xbf16>) -> tensor<64x128xbf16> {
  %0 = "ttir.relu"(%arg0) : (tensor<64x128xbf16>) -> tensor<64x128xbf16>
  return %0 : tensor<64x128xbf16>
}
