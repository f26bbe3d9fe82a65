// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="enable-const-eval=false" | FileCheck %s
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline | ttopt opt | FileCheck %s --check-prefix=REPARSE
// TTIR forms converted as tt-mlir HEAD's backend pipeline converts them: argmax over all or several
// dimensions, a reshape with a -1 entry, linear biases tt-metal cannot fuse, quantized types.

// REPARSE-NOT: "ttir.
// REPARSE: func.func @argmax_all

// No dim_arg: every dimension, and no `dim` attribute.
// CHECK-LABEL: func.func @argmax_all
// CHECK: "ttnn.argmax"(%arg0) <{keep_dim = false}> : (tensor<2x4x32x32xf32, {{.*}}>) -> tensor<ui32,
func.func @argmax_all(%x: tensor<2x4x32x32xf32>) -> tensor<i32> {
  %0 = "ttir.argmax"(%x) <{keep_dim = false}> : (tensor<2x4x32x32xf32>) -> tensor<i32>
  return %0 : tensor<i32>
}

// Two dimensions: permuted last, flattened, reduced as one, reshaped back (keep_dim).
// CHECK-LABEL: func.func @argmax_two
// CHECK: %[[P:.*]] = "ttnn.permute"(%arg0) <{permutation = array<i64: 0, 2, 1, 3>}>
// CHECK: %[[R:.*]] = "ttnn.reshape"(%[[P]]) <{shape = [2 : i32, 32 : i32, 128 : i32]}>
// CHECK: "ttnn.argmax"(%[[R]]) <{dim = 2 : si32, keep_dim = true}> : ({{.*}}) -> tensor<2x32x1xui32
// CHECK: "ttnn.reshape"({{.*}}) <{shape = [2 : i32, 1 : i32, 32 : i32, 1 : i32]}>
func.func @argmax_two(%x: tensor<2x4x32x32xf32>) -> tensor<2x1x32x1xi32> {
  %0 = "ttir.argmax"(%x) <{dim_arg = [1 : i32, 3 : i32], keep_dim = true}> : (tensor<2x4x32x32xf32>) -> tensor<2x1x32x1xi32>
  return %0 : tensor<2x1x32x1xi32>
}

// CHECK-LABEL: func.func @reshape_inferred
// CHECK: "ttnn.reshape"(%arg0) <{shape = [2 : i32, -1 : i32, 32 : i32]}> : ({{.*}}) -> tensor<2x4x32xbf16
func.func @reshape_inferred(%x: tensor<4x2x32xbf16>) -> tensor<2x4x32xbf16> {
  %0 = "ttir.reshape"(%x) <{shape = [2 : i32, -1 : i32, 32 : i32]}> : (tensor<4x2x32xbf16>) -> tensor<2x4x32xbf16>
  return %0 : tensor<2x4x32xbf16>
}

// A row bias stays fused; a 2-D one becomes matmul + add.
// CHECK-LABEL: func.func @linear_biases
// CHECK: "ttnn.linear"(%arg0, %arg1, %arg2) <{transpose_a = false, transpose_b = false}>
// CHECK: %[[M:.*]] = "ttnn.matmul"(%arg0, %arg1) <{transpose_a = false, transpose_b = false}>
// CHECK: "ttnn.add"(%[[M]], %arg3)
func.func @linear_biases(%a: tensor<64x128xbf16>, %b: tensor<128x64xbf16>, %row: tensor<64xbf16>, %full: tensor<64x64xbf16>) -> (tensor<64x64xbf16>, tensor<64x64xbf16>) {
  %0 = "ttir.linear"(%a, %b, %row) : (tensor<64x128xbf16>, tensor<128x64xbf16>, tensor<64xbf16>) -> tensor<64x64xbf16>
  %1 = "ttir.linear"(%a, %b, %full) : (tensor<64x128xbf16>, tensor<128x64xbf16>, tensor<64x64xbf16>) -> tensor<64x64xbf16>
  return %0, %1 : tensor<64x64xbf16>, tensor<64x64xbf16>
}

// Scale and zero point from the type; the quantized type printed as MLIR prints it.
// CHECK-LABEL: func.func @requantize_per_axis
// CHECK: "ttnn.constant"({{.*}}) <{value = dense<[1.000000e-01, 2.000000e-01, 3.000000e-01]> : tensor<3xf32>}>
// CHECK: "ttnn.full"({{.*}}) <{fill_value = 0 : i32, shape = #ttnn.shape<3>}>
// CHECK: "ttnn.constant"({{.*}}) <{value = dense<[2.000000e-01, 4.000000e-01, 6.000000e-01]> : tensor<3xf32>}>
// CHECK: "ttnn.requantize"(%arg0, {{.*}}) <{axis = 1 : i32, output_dtype = #ttcore.supportedDataTypes<si32>}>
// CHECK-SAME: tensor<1x3x32x32x!quant.uniform<i32:f32:1, {1.000000e-01,2.000000e-01,3.000000e-01}>,
// CHECK-SAME: -> tensor<1x3x32x32x!quant.uniform<i32:f32:1, {2.000000e-01,4.000000e-01,6.000000e-01}>,
func.func @requantize_per_axis(%x: tensor<1x3x32x32x!quant.uniform<i32:f32:1, {0.1, 0.2, 0.3}>>) -> tensor<1x3x32x32x!quant.uniform<i32:f32:1, {0.2,0.4,0.6}>> {
  %0 = "ttir.requantize"(%x) : (tensor<1x3x32x32x!quant.uniform<i32:f32:1, {0.1, 0.2, 0.3}>>) -> tensor<1x3x32x32x!quant.uniform<i32:f32:1, {0.2,0.4,0.6}>>
  return %0 : tensor<1x3x32x32x!quant.uniform<i32:f32:1, {0.2,0.4,0.6}>>
}

// Constants behind another op move to the front in reverse order (HEAD's canonicalizer).
// CHECK-LABEL: func.func @dequantize_constants_hoisted
// CHECK: "ttnn.full"({{.*}}) <{fill_value = 0 : i32
// CHECK: "ttnn.full"({{.*}}) <{fill_value = 2.000000e-02 : f32
// CHECK: "ttnn.dequantize"(%arg0, {{.*}}) <{output_dtype = #ttcore.supportedDataTypes<f32>}>
func.func @dequantize_constants_hoisted(%x: tensor<1x3x32x32x!quant.uniform<i32:f32, 2.000000e-02>>) -> tensor<1x3x32x32xf32> {
  %e = ttir.empty() : tensor<1x3x32x32xf32>
  %s = "ttir.constant"() <{value = dense<2.000000e-02> : tensor<1xf32>}> : () -> tensor<1xf32>
  %z = "ttir.constant"() <{value = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %0 = "ttir.dequantize_unrolled"(%x, %s, %z) : (tensor<1x3x32x32x!quant.uniform<i32:f32, 2.000000e-02>>, tensor<1xf32>, tensor<1xi32>) -> tensor<1x3x32x32xf32>
  return %0 : tensor<1x3x32x32xf32>
}
