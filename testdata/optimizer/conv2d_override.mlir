// RUN: ttopt opt %s --ttnn-optimizer --override-conv2d-config conv=act_block_h_override#64:activation#relu --mlir-print-debuginfo | FileCheck %s --check-prefix=DEFAULT
// RUN: ttopt opt %s --pass-pipeline='builtin.module(ttnn-optimizer{override-conv2d-config=conv=act_block_h_override#64:activation#relu})' --mlir-print-debuginfo | FileCheck %s --check-prefix=DEFAULT
// RUN: ttopt opt %s --ttnn-optimizer --memory-layout-analysis-enabled --memory-layout-analysis-policy DFSharding --override-conv2d-config conv=act_block_h_override#32:enable_act_double_buffer#true --mlir-print-debuginfo | FileCheck %s --check-prefix=CHAIN
// RUN: ttopt opt %s --ttnn-optimizer --memory-layout-analysis-enabled --memory-layout-analysis-policy DFSharding --override-conv2d-config conv=act_block_h_override#32:enable_act_double_buffer#true --trace 2>&1 >/dev/null | FileCheck %s --check-prefix=SPACE
// RUN: ttopt opt %s --ttnn-optimizer --memory-layout-analysis-enabled --memory-layout-analysis-policy DFSharding --override-conv2d-config conv=weights_dtype#bf16:activation#relu:deallocate_activation#false:reallocate_halo_output#true:act_block_h_override#64:act_block_w_div#1:reshard_if_not_optimal#false:override_sharding_config#false:shard_layout#height_sharded:core_grid#8x8:transpose_shards#false:output_layout#tile:enable_act_double_buffer#true:enable_weights_double_buffer#true --mlir-print-debuginfo | FileCheck %s --check-prefix=FULL
// RUN: ttopt opt %s --ttnn-optimizer --memory-layout-analysis-enabled --memory-layout-analysis-policy DFSharding --override-conv2d-config conv=weights_dtype#bf16:activation#relu:deallocate_activation#false:reallocate_halo_output#true:act_block_h_override#64:act_block_w_div#1:reshard_if_not_optimal#false:override_sharding_config#false:shard_layout#height_sharded:core_grid#8x8:transpose_shards#false:output_layout#tile:enable_act_double_buffer#true:enable_weights_double_buffer#true --trace 2>&1 >/dev/null | FileCheck %s --check-prefix=FULLSPACE
// RUN: ttopt opt %s --ttnn-optimizer --memory-layout-analysis-enabled --memory-layout-analysis-policy DFSharding --trace 2>&1 >/dev/null | FileCheck %s --check-prefix=SEARCH

// --override-conv2d-config on the conv of a ResNet-style block (reference §2.14, §2.4). The override
// is set on the conv's own conv2d_config (weights_dtype from the op / weight tensor) and its keys
// are not searched: act_block_h_override#64 pins the activation block even without the memory
// layout analysis (the op's default DRAM config), and in the chain the solver only sees configs
// with act_block_h_override 32. The search space act_block_h_override in {0, 64, 32} x
// deallocate_activation in {true} gives 3 configs per legal layout (30 legal, 24 sharded, SEARCH);
// pinning act_block_h leaves one per layout (10 / 8); so does a full override (every key given),
// which short-circuits the search. Values print as tt-mlir prints them, in its parameter order.

// DEFAULT: "ttnn.conv2d"{{.*}}conv2d_config = #ttnn.conv2d_config<weights_dtype = bf16, activation = <op_type = relu>, deallocate_activation = true, act_block_h_override = 64>{{.*}} -> tensor<1x1x3136x64xbf16, #ttnn_layout> loc("conv")

// CHAIN: "ttnn.to_memory_config"(%arg0) {{.*}} loc("conv_mem_reconfig")
// CHAIN-NEXT: "ttnn.conv2d"{{.*}}conv2d_config = #ttnn.conv2d_config<weights_dtype = bf16, deallocate_activation = true, act_block_h_override = 32, enable_act_double_buffer = true>{{.*}} loc("conv")

// SPACE: conv {{ *}}ttnn.conv2d {{ *}}10 {{ *}}8
// SPACE: conv (ttnn.conv2d): 8 sharded config(s)
// SPACE-NEXT: 0: l1 height_sharded 49x1 [2x2 tiles], act_block_h 32; 49 cores

// SEARCH: conv {{ *}}ttnn.conv2d {{ *}}30 {{ *}}24
// SEARCH: 0: l1 height_sharded 49x1 [2x2 tiles], act_block_h 0; 49 cores
// SEARCH: 8: l1 height_sharded 49x1 [2x2 tiles], act_block_h 64; 49 cores
// SEARCH: 16: l1 height_sharded 49x1 [2x2 tiles], act_block_h 32; 49 cores

// FULL: "ttnn.conv2d"{{.*}}conv2d_config = #ttnn.conv2d_config<weights_dtype = bf16, activation = <op_type = relu>, deallocate_activation = false, reallocate_halo_output = true, act_block_h_override = 64, act_block_w_div = 1, reshard_if_not_optimal = false, override_sharding_config = false, shard_layout = height_sharded, core_grid = #ttnn.core_range_set<[#ttnn.core_range<(0, 0), (7, 7)>]>, transpose_shards = false, output_layout = tile, enable_act_double_buffer = true, enable_weights_double_buffer = true>

// FULLSPACE: conv {{ *}}ttnn.conv2d {{ *}}10 {{ *}}8

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
