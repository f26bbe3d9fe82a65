// RUN: ttopt opt %s --ttcore-register-device --ttnn-operation-validation-and-fallback --mlir-print-debuginfo | FileCheck %s
// RUN: not ttopt opt %s --ttcore-register-device --ttnn-operation-validation-and-fallback="max-fallback-attempts=1" 2>&1 | FileCheck %s --check-prefix=LIMIT

// An op whose kernel rejects an operand gets the nearest layout it accepts (an f32 weight becomes
// bf16 tile: a precision drop costs less than a page-layout change); the output the kernel then
// writes is reverted to the program's type under the op's name + "_revert_layout".
#dram = #ttnn.buffer_type<dram>
#u32 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x1x!ttcore.tile<32x32, u32>, #dram>, <interleaved>>
#f32w = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x1x!ttcore.tile<32x32, f32>, #dram>, <interleaved>>
#out = #ttnn.ttnn_layout<(d0, d1, d2) -> (d0 * 32 + d1, d2), <1x1>, memref<32x1x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#img = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 256 + d1 * 16 + d2, d3), <1x1>, memref<8x1x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#big = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 1024 + d1 * 32 + d2, d3), <1x1>, memref<32x1x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>

// CHECK-DAG: #[[RM:ttnn_layout[0-9]*]] = #ttnn.ttnn_layout<{{.*}}memref<256x32xbf16, #dram>, <interleaved>>
// CHECK-DAG: #[[RMOUT:ttnn_layout[0-9]*]] = #ttnn.ttnn_layout<{{.*}}memref<1024x32xbf16, #dram>, <interleaved>>
// CHECK-LABEL: func.func @embedding
// CHECK: %[[W:.*]] = "ttnn.to_tensor_spec"(%arg1) {{.*}} -> tensor<64x32xbf16, #[[WL:.*]]>
// CHECK: "ttnn.embedding"(%arg0, %[[W]])
// CHECK-NOT: to_tensor_spec
// LIMIT: error: OperationValidationAndFallback: Operation ttnn.embedding failed validation (original error: operand 1: data type f32 is not one of bf16). No fallback configuration worked (tested up to 1 combinations).
func.func @embedding(%arg0: tensor<32x32xui32, #u32>, %arg1: tensor<64x32xf32, #f32w>) -> tensor<32x32x32xbf16, #out> {
  %0 = "ttnn.embedding"(%arg0, %arg1) : (tensor<32x32xui32, #u32>, tensor<64x32xf32, #f32w>) -> tensor<32x32x32xbf16, #out>
  return %0 : tensor<32x32x32xbf16, #out>
}

// CHECK-LABEL: func.func @upsample
// CHECK: %[[IN:.*]] = "ttnn.to_tensor_spec"(%arg0) {{.*}} -> tensor<1x16x16x32xbf16, #[[RM]]>
// CHECK: %[[UP:.*]] = "ttnn.upsample"(%[[IN]]) {{.*}} -> tensor<1x32x32x32xbf16, #[[RMOUT]]> loc("up")
// CHECK: "ttnn.to_tensor_spec"(%[[UP]]) : (tensor<1x32x32x32xbf16, #[[RMOUT]]>) -> tensor<1x32x32x32xbf16, #{{.*}}> loc("up_revert_layout"("up"))
func.func @upsample(%arg0: tensor<1x16x16x32xbf16, #img>) -> tensor<1x32x32x32xbf16, #big> {
  %0 = "ttnn.upsample"(%arg0) <{mode = "nearest", scale_factor = 2 : si32}> : (tensor<1x16x16x32xbf16, #img>) -> tensor<1x32x32x32xbf16, #big> loc("up")
  return %0 : tensor<1x32x32x32xbf16, #big>
}
