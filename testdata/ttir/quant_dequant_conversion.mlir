// RUN: ttopt opt %s --ttir-quant-dequant-conversion | FileCheck %s
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline | FileCheck %s --check-prefix=TTNN
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="enable-quant-dequant-conversion-pass=false" | FileCheck %s --check-prefix=OFF

// A dequantize moves below the ops that run on quantized tensors: a sigmoid has no quantized form,
// so its result is quantized to the dequantized operand's type and dequantized again; the max pool
// then runs on that quantized tensor, and the quantize after it reads the max pool through a
// requantize.
// CHECK-LABEL: func.func @chain
// CHECK: %[[Q:.*]] = "ttir.quantize"(%arg0)
// CHECK: %[[DQ:.*]] = "ttir.dequantize"(%[[Q]])
// CHECK: %[[S:.*]] = "ttir.sigmoid"(%[[DQ]])
// CHECK: %[[Q2:.*]] = "ttir.quantize"(%[[S]]) {{.*}} -> tensor<1x32x32x64x!quant.uniform<i8:f32, 1.000000e-01>>
// CHECK: %[[P:.*]] = "ttir.max_pool2d"(%[[Q2]]) {{.*}} -> tensor<1x16x16x64x!quant.uniform<i8:f32, 1.000000e-01>>
// CHECK: %[[R:.*]] = "ttir.requantize"(%[[P]]) {{.*}} -> tensor<1x16x16x64x!quant.uniform<i8:f32, 2.000000e-01>>
// CHECK: return %[[R]]
// TTNN-LABEL: func.func @chain
// TTNN: "ttnn.quantize"
// TTNN: "ttnn.dequantize"
// TTNN: "ttnn.sigmoid"
// TTNN: "ttnn.quantize"
// TTNN: "ttnn.max_pool2d"
// TTNN: "ttnn.requantize"
// OFF-LABEL: func.func @chain
// OFF: "ttnn.dequantize"
// OFF: "ttnn.sigmoid"
// OFF: "ttnn.max_pool2d"
// OFF: "ttnn.quantize"
// OFF-NOT: "ttnn.requantize"
func.func @chain(%arg0: tensor<1x32x32x64xf32>) -> tensor<1x16x16x64x!quant.uniform<i8:f32, 2.000000e-01>> {
  %0 = "ttir.quantize"(%arg0) : (tensor<1x32x32x64xf32>) -> tensor<1x32x32x64x!quant.uniform<i8:f32, 1.000000e-01>>
  %1 = "ttir.dequantize"(%0) : (tensor<1x32x32x64x!quant.uniform<i8:f32, 1.000000e-01>>) -> tensor<1x32x32x64xf32>
  %2 = "ttir.sigmoid"(%1) : (tensor<1x32x32x64xf32>) -> tensor<1x32x32x64xf32>
  %3 = "ttir.max_pool2d"(%2) <{kernel = array<i32: 2, 2>, stride = array<i32: 2, 2>, dilation = array<i32: 1, 1>, padding = array<i32: 0, 0, 0, 0>, ceil_mode = false}> : (tensor<1x32x32x64xf32>) -> tensor<1x16x16x64xf32>
  %4 = "ttir.quantize"(%3) : (tensor<1x16x16x64xf32>) -> tensor<1x16x16x64x!quant.uniform<i8:f32, 2.000000e-01>>
  return %4 : tensor<1x16x16x64x!quant.uniform<i8:f32, 2.000000e-01>>
}

// A conv of an 8-bit input and per-output-channel weights runs quantized: its result is i32 with
// the input scale times each channel's weight scale (output channel dim 1), then dequantized.
// CHECK-LABEL: func.func @conv
// CHECK: %[[C:.*]] = "ttir.conv2d"(%{{.*}}, %{{.*}}) {{.*}} -> tensor<1x2x8x8x!quant.uniform<i32:f32:1, {5.000000e-02,2.500000e-02}>>
// CHECK: "ttir.dequantize"(%[[C]]) {{.*}} -> tensor<1x2x8x8xf32>
// TTNN-LABEL: func.func @conv
// TTNN: "ttnn.quantize"
// TTNN: "ttnn.quantize"
// TTNN: "ttnn.conv2d"
// TTNN: "ttnn.dequantize"
func.func @conv(%x: tensor<1x4x8x8xf32>, %w: tensor<2x4x3x3xf32>) -> tensor<1x2x8x8xf32> {
  %0 = "ttir.quantize"(%x) : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8x!quant.uniform<i8:f32, 5.000000e-01>>
  %1 = "ttir.dequantize"(%0) : (tensor<1x4x8x8x!quant.uniform<i8:f32, 5.000000e-01>>) -> tensor<1x4x8x8xf32>
  %2 = "ttir.quantize"(%w) : (tensor<2x4x3x3xf32>) -> tensor<2x4x3x3x!quant.uniform<i8:f32:0, {1.000000e-01,5.000000e-02}>>
  %3 = "ttir.dequantize"(%2) : (tensor<2x4x3x3x!quant.uniform<i8:f32:0, {1.000000e-01,5.000000e-02}>>) -> tensor<2x4x3x3xf32>
  %4 = "ttir.conv2d"(%1, %3) <{stride = array<i32: 1, 1>, padding = array<i32: 1, 1, 1, 1>, dilation = array<i32: 1, 1>, groups = 1 : i32, batch_dim = 0 : i64, channel_dim = 1 : i64, height_dim = 2 : i64, width_dim = 3 : i64}> : (tensor<1x4x8x8xf32>, tensor<2x4x3x3xf32>) -> tensor<1x2x8x8xf32>
  return %4 : tensor<1x2x8x8xf32>
}
