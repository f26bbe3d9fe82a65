// RUN: ttopt opt %s --ttcore-register-device --ttnn-operation-validation-and-fallback | FileCheck %s
// RUN: not ttopt opt %s --ttcore-register-device --ttnn-operation-validation-and-fallback="max-fallback-attempts=10" 2>&1 | FileCheck %s --check-prefix=LIMIT

// A 512x512x64 conv with l1_full and act_block_h_override = 0 needs more L1 per core than there is
// (its whole activation block); the search keeps l1_full and lowers act_block_h_override from 1024 in
// steps of 32 until the activation block fits: 288. Ten misses are not enough.
// CHECK: "ttnn.conv2d"{{.*}}conv2d_config = #ttnn.conv2d_config<weights_dtype = bf16, deallocate_activation = true, act_block_h_override = 288>, conv2d_slice_config = #ttnn.conv2d_slice_config<l1_full, 0>
// LIMIT: error: OperationValidationAndFallback: Operation ttnn.conv2d failed validation (original error: out of L1 memory with its slice config). No fallback configuration worked (tested up to 10 combinations).
#dram = #ttnn.buffer_type<dram>
#system_memory = #ttnn.buffer_type<system_memory>
#in = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 262144 + d1 * 262144 + d2, d3), <1x1>, memref<8192x2x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#w = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 192 + d1 * 3 + d2, d3), <1x1>, memref<12288x3xbf16, #system_memory>>
func.func @conv(%arg0: tensor<1x1x262144x64xbf16, #in>, %arg1: tensor<64x64x3x3xbf16, #w>) -> tensor<1x1x262144x64xbf16, #in> {
  %0 = "ttnn.get_device"() <{mesh_shape = #ttnn<mesh_shape 1x1>}> : () -> !ttnn.device
  %1 = "ttnn.conv2d"(%arg0, %arg1, %0) <{batch_size = 1 : i32, conv2d_config = #ttnn.conv2d_config<weights_dtype = bf16, deallocate_activation = true, act_block_h_override = 0>, conv2d_slice_config = #ttnn.conv2d_slice_config<l1_full, 0>, dilation = array<i32: 1, 1>, dtype = #ttcore.supportedDataTypes<bf16>, groups = 1 : i32, in_channels = 64 : i32, input_height = 512 : i32, input_width = 512 : i32, kernel_size = array<i32: 3, 3>, out_channels = 64 : i32, padding = array<i32: 1, 1, 1, 1>, stride = array<i32: 1, 1>}> : (tensor<1x1x262144x64xbf16, #in>, tensor<64x64x3x3xbf16, #w>, !ttnn.device) -> tensor<1x1x262144x64xbf16, #in>
  return %1 : tensor<1x1x262144x64xbf16, #in>
}
