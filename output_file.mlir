#dram = #ttnn.buffer_type<dram>
#ttnn_layout = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 1024 + d1 * 32 + d2, d3), <1x1>, memref<512x2x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#system_memory = #ttnn.buffer_type<system_memory>
#ttnn_layout1 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 192 + d1 * 3 + d2, d3), <1x1>, memref<12288x3xbf16, #system_memory>>
#ttnn_layout2 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 + d1 + d2, d3), <1x1>, memref<1x64xbf16, #system_memory>>
#ttnn_layout3 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 16384 + d1 * 16384 + d2, d3), <1x1>, memref<512x2x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#l1 = #ttnn.buffer_type<l1>
#ttnn_layout4 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 16384 + d1 * 16384 + d2, d3), <64x1>, memref<8x2x!ttcore.tile<32x32, bf16>, #l1>, <height_sharded>, core_ranges = <[#ttnn.core_range<(0, 0), (7, 7)>]>>
#ttnn_layout5 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 1024 + d1 * 32 + d2, d3), <8x8>, memref<1x16x!ttcore.tile<32x32, bf16>, #l1>, <interleaved>>
#ttnn_layout6 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 1024 + d1 * 32 + d2, d3), <64x1>, memref<8x2x!ttcore.tile<32x32, bf16>, #l1>, <height_sharded>, core_ranges = <[#ttnn.core_range<(0, 0), (7, 7)>]>>
#ttnn_layout7 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 16384 + d1 * 16384 + d2, d3), <8x8>, memref<1x16x!ttcore.tile<32x32, bf16>, #l1>, <interleaved>>
module {
  func.func @forward(%arg0: tensor<16x32x32x64xbf16, #ttnn_layout>, %arg1: tensor<64x64x3x3xbf16, #ttnn_layout1>, %arg2: tensor<1x1x1x64xbf16, #ttnn_layout2>) -> tensor<16x32x32x64xbf16, #ttnn_layout> {
    %0 = "ttnn.reshape"(%arg0) <{shape = [1 : i32, 1 : i32, 16384 : i32, 64 : i32]}> : (tensor<16x32x32x64xbf16, #ttnn_layout>) -> tensor<1x1x16384x64xbf16, #ttnn_layout3>
    %1 = "ttnn.get_device"() <{mesh_shape = #ttnn<mesh_shape 1x1>}> : () -> !ttnn.device
    %2 = "ttnn.to_layout"(%0) : (tensor<1x1x16384x64xbf16, #ttnn_layout3>) -> tensor<1x1x16384x64xbf16, #ttnn_layout4>
    "ttnn.deallocate"(%0) <{force = false}> : (tensor<1x1x16384x64xbf16, #ttnn_layout3>) -> ()
    %3 = "ttnn.conv2d"(%2, %arg1, %arg2, %1) <{batch_size = 16 : i32, conv2d_config = #ttnn.conv2d_config<weights_dtype = bf16, deallocate_activation = true, act_block_h_override = 0>, conv2d_slice_config = #ttnn.conv2d_slice_config<l1_full, 0>, dilation = array<i32: 1, 1>, groups = 1 : i32, in_channels = 64 : i32, input_height = 32 : i32, input_width = 32 : i32, kernel_size = array<i32: 3, 3>, out_channels = 64 : i32, padding = array<i32: 1, 1, 1, 1>, stride = array<i32: 1, 1>}> : (tensor<1x1x16384x64xbf16, #ttnn_layout4>, tensor<64x64x3x3xbf16, #ttnn_layout1>, tensor<1x1x1x64xbf16, #ttnn_layout2>, !ttnn.device) -> tensor<1x1x16384x64xbf16, #ttnn_layout4>
    "ttnn.deallocate"(%2) <{force = false}> : (tensor<1x1x16384x64xbf16, #ttnn_layout4>) -> ()
    %4 = "ttnn.to_layout"(%3) : (tensor<1x1x16384x64xbf16, #ttnn_layout4>) -> tensor<1x1x16384x64xbf16, #ttnn_layout7>
    "ttnn.deallocate"(%3) <{force = false}> : (tensor<1x1x16384x64xbf16, #ttnn_layout4>) -> ()
    %5 = "ttnn.reshape"(%4) <{shape = [16 : i32, 32 : i32, 32 : i32, 64 : i32]}> : (tensor<1x1x16384x64xbf16, #ttnn_layout7>) -> tensor<16x32x32x64xbf16, #ttnn_layout5>
    "ttnn.deallocate"(%4) <{force = false}> : (tensor<1x1x16384x64xbf16, #ttnn_layout7>) -> ()
    %6 = "ttnn.add"(%5, %5) : (tensor<16x32x32x64xbf16, #ttnn_layout5>, tensor<16x32x32x64xbf16, #ttnn_layout5>) -> tensor<16x32x32x64xbf16, #ttnn_layout6>
    "ttnn.deallocate"(%5) <{force = false}> : (tensor<16x32x32x64xbf16, #ttnn_layout5>) -> ()
    %7 = "ttnn.to_layout"(%6) : (tensor<16x32x32x64xbf16, #ttnn_layout6>) -> tensor<16x32x32x64xbf16, #ttnn_layout>
    "ttnn.deallocate"(%6) <{force = false}> : (tensor<16x32x32x64xbf16, #ttnn_layout6>) -> ()
    return %7 : tensor<16x32x32x64xbf16, #ttnn_layout>
  }
}
