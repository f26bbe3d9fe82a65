// RUN: ttopt opt %s --ttnn-optimizer --memory-layout-analysis-enabled --memory-layout-analysis-policy DFSharding --mlir-print-debuginfo | FileCheck %s
// RUN: ttopt opt %s --ttnn-optimizer --memory-layout-analysis-enabled --memory-layout-analysis-policy DFSharding --trace 2>&1 >/dev/null | FileCheck %s --check-prefix=TRACE

// A ResNet-style conv block: conv2d -> relu -> add(residual). A conv2d starting a chain always gets
// an input reshard (reference §2.6), here from the DRAM argument to the height-sharded layout the
// solver picked (`conv_mem_reconfig`); the conv gets its conv2d_config (act_block_h_override from
// the search space) and `conv2d_slice_config = <l1_full, 0>`; relu and the add follow in L1; the
// residual operand stays DRAM; the chain spills before return.

// CHECK: #[[H:ttnn_layout[0-9]+]] = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 3136 + d1 * 3136 + d2, d3), <49x1>, memref<2x2x!ttcore.tile<32x32, bf16>, #l1>, <height_sharded>
// CHECK: %[[DEV:.*]] = "ttnn.get_device"
// CHECK-NEXT: %[[R:.*]] = "ttnn.to_memory_config"(%arg0) : (tensor<1x1x3136x64xbf16, #ttnn_layout>) -> tensor<1x1x3136x64xbf16, #[[H]]> loc("conv_mem_reconfig")
// CHECK-NEXT: %[[C:.*]] = "ttnn.conv2d"(%[[R]], %arg1, %arg2, %[[DEV]]) <{batch_size = 1 : i32, conv2d_config = #ttnn.conv2d_config<weights_dtype = bf16, deallocate_activation = true, act_block_h_override = 0>, conv2d_slice_config = #ttnn.conv2d_slice_config<l1_full, 0>, {{.*}} -> tensor<1x1x3136x64xbf16, #[[H]]> loc("conv")
// CHECK-NEXT: %[[RL:.*]] = "ttnn.relu"(%[[C]]) {{.*}} -> tensor<1x1x3136x64xbf16, #[[H]]> loc("relu")
// CHECK-NEXT: %[[A:.*]] = "ttnn.add"(%[[RL]], %arg0) : (tensor<1x1x3136x64xbf16, #[[H]]>, tensor<1x1x3136x64xbf16, #ttnn_layout>) -> tensor<1x1x3136x64xbf16, #[[H]]> loc("residual")
// CHECK-NEXT: %[[S:.*]] = "ttnn.to_memory_config"(%[[A]]) {{.*}} loc("residual_spill")
// CHECK-NEXT: return %[[S]]

// TRACE: chain 0: [conv, relu, residual]
// TRACE: reshard: reshard on block argument -> conv#0: 24 consumer config(s) reachable
// TRACE: preprocess: first op conv always reshards its input (conv)
// TRACE: pick conv: config 0 (accumulated core usage 147)
// TRACE: reshard block argument -> conv#0: l1 height_sharded 49x1 [2x2 tiles] (inserted conv_mem_reconfig)

#dram = #ttnn.buffer_type<dram>
#system_memory = #ttnn.buffer_type<system_memory>
#ttnn_layout = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 3136 + d1 * 3136 + d2, d3), <1x1>, memref<98x2x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout1 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 192 + d1 * 3 + d2, d3), <1x1>, memref<12288x3xbf16, #system_memory>>
#ttnn_layout2 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 + d1 + d2, d3), <1x1>, memref<1x64xbf16, #system_memory>>
module {
  func.func @block(%x: tensor<1x1x3136x64xbf16, #ttnn_layout>, %w: tensor<64x64x3x3xbf16, #ttnn_layout1>, %b: tensor<1x1x1x64xbf16, #ttnn_layout2>) -> tensor<1x1x3136x64xbf16, #ttnn_layout> attributes {tt.function_type = "forward_device"} {
    %0 = "ttnn.get_device"() <{mesh_shape = #ttnn<mesh_shape 1x1>}> : () -> !ttnn.device
    %1 = "ttnn.conv2d"(%x, %w, %b, %0) <{batch_size = 1 : i32, conv2d_config = #ttnn.conv2d_config<weights_dtype = bf16, deallocate_activation = true, act_block_h_override = 0>, dilation = array<i32: 1, 1>, dtype = #ttcore.supportedDataTypes<bf16>, groups = 1 : i32, in_channels = 64 : i32, input_height = 56 : i32, input_width = 56 : i32, kernel_size = array<i32: 3, 3>, out_channels = 64 : i32, padding = array<i32: 1, 1, 1, 1>, stride = array<i32: 1, 1>}> : (tensor<1x1x3136x64xbf16, #ttnn_layout>, tensor<64x64x3x3xbf16, #ttnn_layout1>, tensor<1x1x1x64xbf16, #ttnn_layout2>, !ttnn.device) -> tensor<1x1x3136x64xbf16, #ttnn_layout> loc("conv")
    %2 = "ttnn.relu"(%1) : (tensor<1x1x3136x64xbf16, #ttnn_layout>) -> tensor<1x1x3136x64xbf16, #ttnn_layout> loc("relu")
    %3 = "ttnn.add"(%2, %x) : (tensor<1x1x3136x64xbf16, #ttnn_layout>, tensor<1x1x3136x64xbf16, #ttnn_layout>) -> tensor<1x1x3136x64xbf16, #ttnn_layout> loc("residual")
    return %3 : tensor<1x1x3136x64xbf16, #ttnn_layout>
  }
}
