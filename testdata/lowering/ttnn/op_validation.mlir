// RUN: ttopt opt %s --ttcore-register-device --ttcore-mark-functions-as-forward --ttnn-operation-validation-and-fallback | FileCheck %s

// The op produces its input's data type and page layout; the program's type comes back through
// ttnn.to_tensor_spec.
#dram = #ttnn.buffer_type<dram>
#f32 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x1x!ttcore.tile<32x32, f32>, #dram>, <interleaved>>
#bf16 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x1x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
// CHECK-LABEL: func.func @tanh
// CHECK: %[[T:.*]] = "ttnn.tanh"(%arg0) : (tensor<32x32xf32, #[[F32:.*]]>) -> tensor<32x32xf32, #[[F32]]>
// CHECK: "ttnn.to_tensor_spec"(%[[T]]) : (tensor<32x32xf32, #[[F32]]>) -> tensor<32x32xbf16
// CHECK-LABEL: func.func @same
// CHECK-NOT: to_tensor_spec
func.func @tanh(%arg0: tensor<32x32xf32, #f32>) -> tensor<32x32xbf16, #bf16> {
  %0 = "ttnn.tanh"(%arg0) : (tensor<32x32xf32, #f32>) -> tensor<32x32xbf16, #bf16>
  return %0 : tensor<32x32xbf16, #bf16>
}
func.func @same(%arg0: tensor<32x32xf32, #f32>) -> tensor<32x32xf32, #f32> {
  %0 = "ttnn.tanh"(%arg0) : (tensor<32x32xf32, #f32>) -> tensor<32x32xf32, #f32>
  return %0 : tensor<32x32xf32, #f32>
}
