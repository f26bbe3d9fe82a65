// RUN: ttopt opt %s --ttir-flatten-sliding-window | FileCheck %s
// RUN: ttopt opt %s --ttir-flatten-sliding-window --mlir-print-debuginfo | FileCheck %s --check-prefix=LOC
// RUN: ttopt opt %s --ttir-flatten-sliding-window --convert-ttir-to-ttnn | FileCheck %s --check-prefix=TTNN

// Every NHWC conv2d / conv_transpose2d / pool becomes reshape(1x1x(N*H*W)xC) -> the op on the flat
// tensor, marked with the N, H and W it lost -> reshape back. Weights, biases and attributes stay.
// The conversion then reads the flat op as it is: no reshape of its own around it.

// Two convs (batch 2, stride 2 then 1) with a relu between: a reshape pair between them.
// CHECK-LABEL: func.func @conv_relu_conv
// CHECK: %[[X:.*]] = "ttir.reshape"(%arg0) <{shape = [1 : i32, 1 : i32, 128 : i32, 8 : i32]}> : (tensor<2x8x8x8xbf16>) -> tensor<1x1x128x8xbf16>
// CHECK: %[[C1:.*]] = "ttir.conv2d"(%[[X]], %arg1, %arg2) <{dilation = 1 : i32, flattened_compat_info = #ttir<flattened_compat batch_size = 2, input_height = 8, input_width = 8>, groups = 1 : i32, padding = array<i32: 1, 1, 1, 1>, stride = 2 : i32}> : (tensor<1x1x128x8xbf16>, tensor<16x8x3x3xbf16>, tensor<1x1x1x16xbf16>) -> tensor<1x1x32x16xbf16>
// CHECK: %[[B1:.*]] = "ttir.reshape"(%[[C1]]) <{shape = [2 : i32, 4 : i32, 4 : i32, 16 : i32]}> : (tensor<1x1x32x16xbf16>) -> tensor<2x4x4x16xbf16>
// CHECK: %[[R:.*]] = "ttir.relu"(%[[B1]])
// CHECK: %[[F2:.*]] = "ttir.reshape"(%[[R]]) <{shape = [1 : i32, 1 : i32, 32 : i32, 16 : i32]}>
// CHECK: %[[C2:.*]] = "ttir.conv2d"(%[[F2]], %arg3) <{{.*}}flattened_compat_info = #ttir<flattened_compat batch_size = 2, input_height = 4, input_width = 4>{{.*}}-> tensor<1x1x8x32xbf16>
// CHECK: %[[B2:.*]] = "ttir.reshape"(%[[C2]]) <{shape = [2 : i32, 2 : i32, 2 : i32, 32 : i32]}>
// CHECK: return %[[B2]]
// TTNN-LABEL: func.func @conv_relu_conv
// TTNN: %[[X:.*]] = "ttnn.reshape"(%arg0) <{shape = [1 : i32, 1 : i32, 128 : i32, 8 : i32]}>
// TTNN: %[[C1:.*]] = "ttnn.conv2d"(%[[X]], %arg1, %arg2, %{{.*}}) <{batch_size = 2 : i32, dilation = array<i32: 1, 1>, groups = 1 : i32, in_channels = 8 : i32, input_height = 8 : i32, input_width = 8 : i32, kernel_size = array<i32: 3, 3>, out_channels = 16 : i32, padding = array<i32: 1, 1, 1, 1>, stride = array<i32: 2, 2>}>
// TTNN-SAME: -> tensor<1x1x32x16xbf16
// TTNN-NEXT: %[[B1:.*]] = "ttnn.reshape"(%[[C1]]) <{shape = [2 : i32, 4 : i32, 4 : i32, 16 : i32]}>
// TTNN: %[[C2:.*]] = "ttnn.conv2d"({{.*}}) <{batch_size = 2 : i32, {{.*}}input_height = 4 : i32, input_width = 4 : i32
// TTNN-NEXT: %[[B2:.*]] = "ttnn.reshape"(%[[C2]]) <{shape = [2 : i32, 2 : i32, 2 : i32, 32 : i32]}>
// TTNN-NEXT: return %[[B2]]
func.func @conv_relu_conv(%arg0: tensor<2x8x8x8xbf16>, %arg1: tensor<16x8x3x3xbf16>, %arg2: tensor<1x1x1x16xbf16>, %arg3: tensor<32x16x3x3xbf16>) -> tensor<2x2x2x32xbf16> {
  %0 = "ttir.conv2d"(%arg0, %arg1, %arg2) <{stride = 2 : i32, padding = array<i32: 1, 1, 1, 1>, dilation = 1 : i32, groups = 1 : i32}> : (tensor<2x8x8x8xbf16>, tensor<16x8x3x3xbf16>, tensor<1x1x1x16xbf16>) -> tensor<2x4x4x16xbf16>
  %1 = "ttir.relu"(%0) : (tensor<2x4x4x16xbf16>) -> tensor<2x4x4x16xbf16>
  %2 = "ttir.conv2d"(%1, %arg3) <{stride = array<i32: 1, 1>, padding = array<i32: 0, 0>, dilation = array<i32: 1, 1>, groups = 1 : i32}> : (tensor<2x4x4x16xbf16>, tensor<32x16x3x3xbf16>) -> tensor<2x2x2x32xbf16>
  return %2 : tensor<2x2x2x32xbf16>
}

// A transposed conv (output_padding, uneven stride) keeps its attributes; its result is flat too.
// CHECK-LABEL: func.func @conv_transpose
// CHECK: "ttir.reshape"(%arg0) <{shape = [1 : i32, 1 : i32, 30 : i32, 4 : i32]}>
// CHECK: "ttir.conv_transpose2d"({{.*}}) <{dilation = 1 : i32, flattened_compat_info = #ttir<flattened_compat batch_size = 2, input_height = 3, input_width = 5>, groups = 2 : i32, output_padding = array<i32: 1, 0>, padding = array<i32: 1, 0, 1, 0>, stride = array<i32: 2, 1>}> : (tensor<1x1x30x4xf32>, tensor<4x3x3x2xf32>) -> tensor<1x1x72x6xf32>
// CHECK: "ttir.reshape"({{.*}}) <{shape = [2 : i32, 6 : i32, 6 : i32, 6 : i32]}>
// TTNN-LABEL: func.func @conv_transpose
// TTNN: "ttnn.conv_transpose2d"({{.*}}) <{batch_size = 2 : i32, {{.*}}input_height = 3 : i32, input_width = 5 : i32
func.func @conv_transpose(%arg0: tensor<2x3x5x4xf32>, %arg1: tensor<4x3x3x2xf32>) -> tensor<2x6x6x6xf32> {
  %0 = "ttir.conv_transpose2d"(%arg0, %arg1) <{stride = array<i32: 2, 1>, padding = array<i32: 1, 0, 1, 0>, output_padding = array<i32: 1, 0>, dilation = 1 : i32, groups = 2 : i32}> : (tensor<2x3x5x4xf32>, tensor<4x3x3x2xf32>) -> tensor<2x6x6x6xf32>
  return %0 : tensor<2x6x6x6xf32>
}

// Pools: padding, count_include_pad and a one-integer kernel stay as written.
// CHECK-LABEL: func.func @pools
// CHECK: "ttir.max_pool2d"({{.*}}) <{ceil_mode = false, dilation = array<i32: 1, 1>, flattened_compat_info = #ttir<flattened_compat batch_size = 1, input_height = 6, input_width = 6>, kernel = 3 : i32, padding = array<i32: 1, 1, 1, 1>, stride = array<i32: 2, 2>}> : (tensor<1x1x36x32xf32>) -> tensor<1x1x9x32xf32>
// CHECK: "ttir.avg_pool2d"({{.*}}) <{ceil_mode = false, count_include_pad = false, dilation = array<i32: 1, 1>, flattened_compat_info = #ttir<flattened_compat batch_size = 1, input_height = 3, input_width = 3>{{.*}} : (tensor<1x1x9x32xf32>) -> tensor<1x1x4x32xf32>
// TTNN-LABEL: func.func @pools
// TTNN: "ttnn.max_pool2d"({{.*}}) <{batch_size = 1 : si32, {{.*}}input_height = 6 : si32, input_width = 6 : si32
// TTNN: "ttnn.avg_pool2d"({{.*}}) <{batch_size = 1 : si32, {{.*}}count_include_pad = false, {{.*}}input_height = 3 : si32, input_width = 3 : si32
func.func @pools(%arg0: tensor<1x6x6x32xf32>) -> tensor<1x2x2x32xf32> {
  %0 = "ttir.max_pool2d"(%arg0) <{kernel = 3 : i32, stride = array<i32: 2, 2>, dilation = array<i32: 1, 1>, padding = array<i32: 1, 1, 1, 1>, ceil_mode = false}> : (tensor<1x6x6x32xf32>) -> tensor<1x3x3x32xf32>
  %1 = "ttir.avg_pool2d"(%0) <{kernel = array<i32: 2, 2>, stride = array<i32: 1, 1>, dilation = array<i32: 1, 1>, padding = array<i32: 0, 0, 0, 0>, ceil_mode = false, count_include_pad = false}> : (tensor<1x3x3x32xf32>) -> tensor<1x2x2x32xf32>
  return %1 : tensor<1x2x2x32xf32>
}

// Destination-passing max_pool2d_with_indices: two new ttir.empty outputs of the flat types (the
// old ones go), both results reshaped back.
// CHECK-LABEL: func.func @max_pool_with_indices
// CHECK: %[[X:.*]] = "ttir.reshape"(%arg0) <{shape = [1 : i32, 1 : i32, 64 : i32, 16 : i32]}>
// CHECK-NEXT: %[[E0:.*]] = ttir.empty() : tensor<1x1x16x16xbf16>
// CHECK-NEXT: %[[E1:.*]] = ttir.empty() : tensor<1x1x16x16xi32>
// CHECK-NEXT: %result, %result_indices = "ttir.max_pool2d_with_indices"(%[[X]], %[[E0]], %[[E1]]) <{{.*}}flattened_compat_info = #ttir<flattened_compat batch_size = 1, input_height = 8, input_width = 8>
// CHECK-NEXT: %[[V:.*]] = "ttir.reshape"(%result) <{shape = [1 : i32, 4 : i32, 4 : i32, 16 : i32]}>
// CHECK-NEXT: %[[I:.*]] = "ttir.reshape"(%result_indices) <{shape = [1 : i32, 4 : i32, 4 : i32, 16 : i32]}>
// CHECK-NEXT: return %[[V]], %[[I]]
// TTNN-LABEL: func.func @max_pool_with_indices
// TTNN-NOT: ttnn.empty
// TTNN: %result, %indices = "ttnn.max_pool2d_with_indices"
func.func @max_pool_with_indices(%arg0: tensor<1x8x8x16xbf16>) -> (tensor<1x4x4x16xbf16>, tensor<1x4x4x16xi32>) {
  %0 = ttir.empty() : tensor<1x4x4x16xbf16>
  %1 = ttir.empty() : tensor<1x4x4x16xi32>
  %2, %3 = "ttir.max_pool2d_with_indices"(%arg0, %0, %1) <{kernel = array<i32: 2, 2>, stride = array<i32: 2, 2>, dilation = array<i32: 1, 1>, padding = array<i32: 0, 0, 0, 0>, ceil_mode = false}> : (tensor<1x8x8x16xbf16>, tensor<1x4x4x16xbf16>, tensor<1x4x4x16xi32>) -> (tensor<1x4x4x16xbf16>, tensor<1x4x4x16xi32>)
  return %2, %3 : tensor<1x4x4x16xbf16>, tensor<1x4x4x16xi32>
}

// Left alone: a conv flattened already, and one in NCHW (the conversion makes it NHWC first and
// then converts it unflattened).
// CHECK-LABEL: func.func @left_alone
// CHECK-NEXT: %[[C:.*]] = "ttir.conv2d"(%arg0, %arg1) <{{.*}}flattened_compat_info = #ttir<flattened_compat batch_size = 1, input_height = 4, input_width = 4>
// CHECK-NEXT: "ttir.conv2d"(%arg2, %arg1) <{batch_dim = 0 : i64, channel_dim = 1 : i64, dilation = 1 : i32, groups = 1 : i32, height_dim = 2 : i64, padding = 0 : i32, stride = 1 : i32, width_dim = 3 : i64}>
// CHECK-NOT: ttir.reshape
// CHECK: return
// TTNN-LABEL: func.func @left_alone
// TTNN: "ttnn.conv2d"(%arg0, %arg1, %{{.*}}) <{batch_size = 1 : i32, {{.*}}input_height = 4 : i32, input_width = 4 : i32
// TTNN: "ttnn.permute"(%arg2)
// TTNN: "ttnn.reshape"
// TTNN: "ttnn.conv2d"
func.func @left_alone(%arg0: tensor<1x1x16x8xf32>, %arg1: tensor<8x8x1x1xf32>, %arg2: tensor<1x8x4x4xf32>) -> (tensor<1x1x16x8xf32>, tensor<1x8x4x4xf32>) {
  %0 = "ttir.conv2d"(%arg0, %arg1) <{stride = 1 : i32, padding = 0 : i32, dilation = 1 : i32, groups = 1 : i32, flattened_compat_info = #ttir<flattened_compat batch_size = 1, input_height = 4, input_width = 4>}> : (tensor<1x1x16x8xf32>, tensor<8x8x1x1xf32>) -> tensor<1x1x16x8xf32>
  %1 = "ttir.conv2d"(%arg2, %arg1) <{stride = 1 : i32, padding = 0 : i32, dilation = 1 : i32, groups = 1 : i32, batch_dim = 0 : i64, channel_dim = 1 : i64, height_dim = 2 : i64, width_dim = 3 : i64}> : (tensor<1x8x4x4xf32>, tensor<8x8x1x1xf32>) -> tensor<1x8x4x4xf32>
  return %0, %1 : tensor<1x1x16x8xf32>, tensor<1x8x4x4xf32>
}

// Locations: the input reshape at the input's location with `_reshape` appended, the op and its
// output reshape at the op's (a name suffixed, the original kept as the child).
// LOC-LABEL: func.func @locations
// LOC: "ttir.reshape"(%0) {{.*}} loc("act_reshape"("act"))
// LOC-NEXT: "ttir.max_pool2d"({{.*}} loc("pool")
// LOC-NEXT: "ttir.reshape"({{.*}} loc("pool_reshape"("pool"))
func.func @locations(%arg0: tensor<1x4x4x32xf32>) -> tensor<1x2x2x32xf32> {
  %0 = "ttir.relu"(%arg0) : (tensor<1x4x4x32xf32>) -> tensor<1x4x4x32xf32> loc("act")
  %1 = "ttir.max_pool2d"(%0) <{kernel = array<i32: 2, 2>, stride = array<i32: 2, 2>, dilation = array<i32: 1, 1>, padding = array<i32: 0, 0, 0, 0>, ceil_mode = false}> : (tensor<1x4x4x32xf32>) -> tensor<1x2x2x32xf32> loc("pool")
  return %1 : tensor<1x2x2x32xf32>
}
