// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="enable-const-eval=false" | FileCheck %s

// One-to-one conversions write HEAD's default-valued attributes out.
// CHECK-LABEL: func.func @direct
// CHECK: "ttnn.dropout"(%arg0) <{prob = 2.000000e-01 : f32, scale = 1.000000e+00 : f32, seed = 0 : ui32, use_per_device_seed = true}>
// CHECK: "ttnn.gelu_bw"(%arg0, %arg0) <{approximate = "none"}>
// CHECK: "ttnn.repeat_interleave"(%arg0) <{dim = 0 : si32, repeats = 2 : ui32}>
func.func @direct(%arg0: tensor<64x128xbf16>) -> (tensor<64x128xbf16>, tensor<64x128xbf16>, tensor<128x128xbf16>) {
  %0 = "ttir.dropout"(%arg0) <{prob = 0.2 : f32}> : (tensor<64x128xbf16>) -> tensor<64x128xbf16>
  %1 = "ttir.gelu_bw"(%arg0, %arg0) : (tensor<64x128xbf16>, tensor<64x128xbf16>) -> tensor<64x128xbf16>
  %2 = "ttir.repeat_interleave"(%arg0) {repeats = 2 : ui32, dim = 0 : si32} : (tensor<64x128xbf16>) -> tensor<128x128xbf16>
  return %0, %1, %2 : tensor<64x128xbf16>, tensor<64x128xbf16>, tensor<128x128xbf16>
}

// A head size that is not a multiple of 32: slices, reshapes and permutes (HEAD's workaround).
// CHECK-LABEL: func.func @split_qkv
// CHECK-COUNT-3: "ttnn.slice_static"(%arg0)
// CHECK-COUNT-3: "ttnn.reshape"
// CHECK-COUNT-3: "ttnn.permute"({{.*}}) <{permutation = array<i64: 0, 2, 1, 3>}>
// CHECK-NOT: ttnn.split_query_key_value_and_split_heads
func.func @split_qkv(%arg0: tensor<1x174x648xf32>) -> (tensor<1x4x174x54xf32>, tensor<1x4x174x54xf32>, tensor<1x4x174x54xf32>) {
  %q, %k, %v = "ttir.split_query_key_value_and_split_heads"(%arg0) <{num_heads = 4 : ui32, transpose_key = false}> : (tensor<1x174x648xf32>) -> (tensor<1x4x174x54xf32>, tensor<1x4x174x54xf32>, tensor<1x4x174x54xf32>)
  return %q, %k, %v : tensor<1x4x174x54xf32>, tensor<1x4x174x54xf32>, tensor<1x4x174x54xf32>
}

// topk_router_gpt: k rounded up to a multiple of 8, both results sliced back; the kernel writes
// them row-major in L1 (HEAD's workaround), tiled and moved to DRAM after it (the last result's
// conversion first, as HEAD puts each right after the op).
// CHECK-LABEL: func.func @router
// CHECK: %[[I:[a-z_0-9]+]], %[[W:[a-z_0-9]+]] = "ttnn.topk_router_gpt"(%arg0, %arg1, %arg2) <{k = 8 : i32, num_experts = 128 : i32}>
// CHECK-SAME: -> (tensor<32x8xui16, #[[IL1:ttnn_layout[0-9]*]]>, tensor<32x8xbf16, #[[WL1:ttnn_layout[0-9]*]]>)
// CHECK: %[[WT:.*]] = "ttnn.to_layout"(%[[W]])
// CHECK: %[[WD:.*]] = "ttnn.to_memory_config"(%[[WT]])
// CHECK: %[[IT:.*]] = "ttnn.to_layout"(%[[I]])
// CHECK: %[[ID:.*]] = "ttnn.to_memory_config"(%[[IT]])
// CHECK: "ttnn.slice_static"(%[[ID]]) <{begins = [0 : i32, 0 : i32], ends = [32 : i32, 4 : i32]
// CHECK: "ttnn.slice_static"(%[[WD]]) <{begins = [0 : i32, 0 : i32], ends = [32 : i32, 4 : i32]
func.func @router(%arg0: tensor<32x64xbf16>, %arg1: tensor<64x128xbf16>, %arg2: tensor<32x128xbf16>) -> (tensor<32x4xui16>, tensor<32x4xbf16>) {
  %i, %w = "ttir.topk_router_gpt"(%arg0, %arg1, %arg2) <{k = 4 : i32, num_experts = 128 : i32}> : (tensor<32x64xbf16>, tensor<64x128xbf16>, tensor<32x128xbf16>) -> (tensor<32x4xui16>, tensor<32x4xbf16>)
  return %i, %w : tensor<32x4xui16>, tensor<32x4xbf16>
}

// conv_transpose2d reads and writes the flattened NHWC form, like conv2d; padding is (height, width).
// Without the optimizer its input is row-major (HEAD's conv workaround).
// CHECK-LABEL: func.func @deconv
// CHECK: %[[F:.*]] = "ttnn.reshape"(%arg0) <{shape = [1 : i32, 1 : i32, 192 : i32, 256 : i32]}>
// CHECK: %[[X:.*]] = "ttnn.to_layout"(%[[F]])
// CHECK: %[[Y:.*]] = "ttnn.conv_transpose2d"(%[[X]], %arg1, %arg2, %{{.*}}) <{batch_size = 3 : i32, compute_config = #ttnn.device_compute_kernel_config<math_fidelity = hifi4, fp32_dest_acc_en = true>, dilation = array<i32: 1, 1>, groups = 1 : i32, in_channels = 256 : i32, input_height = 8 : i32, input_width = 8 : i32, kernel_size = array<i32: 3, 3>, out_channels = 256 : i32, output_padding = array<i32: 0, 0>, padding = array<i32: 0, 0>, stride = array<i32: 1, 1>}>
// CHECK-SAME: -> tensor<1x1x300x256xbf16
// CHECK: "ttnn.reshape"(%[[Y]]) <{shape = [3 : i32, 10 : i32, 10 : i32, 256 : i32]}>
func.func @deconv(%arg0: tensor<3x8x8x256xbf16>, %arg1: tensor<256x256x3x3xbf16>, %arg2: tensor<1x1x1x256xbf16>) -> tensor<3x10x10x256xbf16> {
  %0 = "ttir.conv_transpose2d"(%arg0, %arg1, %arg2) <{stride = 1 : i32, padding = 0 : i32, output_padding = 0 : i32, dilation = 1 : i32, groups = 1 : i32}> : (tensor<3x8x8x256xbf16>, tensor<256x256x3x3xbf16>, tensor<1x1x1x256xbf16>) -> tensor<3x10x10x256xbf16>
  return %0 : tensor<3x10x10x256xbf16>
}
