// RUN: not ttopt opt %s --ttnn-optimizer --override-conv2d-config relu=act_block_h_override#32 2>&1 | FileCheck %s --check-prefix=NOTCONV
// RUN: not ttopt opt %s --ttnn-optimizer --override-conv2d-config nosuch=act_block_h_override#32 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not ttopt opt %s --ttnn-optimizer --override-conv2d-config conv=act_block_h#32 2>&1 | FileCheck %s --check-prefix=KEY
// RUN: not ttopt opt %s --ttnn-optimizer --override-conv2d-config conv=act_block_h_override#48 2>&1 | FileCheck %s --check-prefix=ABH
// RUN: not ttopt opt %s --ttnn-optimizer --override-conv2d-config conv=deallocate_activation#yes 2>&1 | FileCheck %s --check-prefix=BOOL
// RUN: not ttopt opt %s --ttnn-optimizer --override-conv2d-config conv=shard_layout#interleaved 2>&1 | FileCheck %s --check-prefix=SHARD
// RUN: not ttopt opt %s --ttnn-optimizer --override-conv2d-config conv=core_grid#9x8 2>&1 | FileCheck %s --check-prefix=GRID
// RUN: not ttopt opt %s --ttnn-optimizer --override-conv2d-config conv=weights_dtype#int4 2>&1 | FileCheck %s --check-prefix=DTYPE
// RUN: not ttopt opt %s --ttnn-optimizer --override-conv2d-config conv=activation#relu:activation#silu 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: not ttopt opt %s --ttnn-optimizer --override-conv2d-config conv=activation 2>&1 | FileCheck %s --check-prefix=SHAPE

// A bad --override-conv2d-config is an error naming the op, the key and what was expected; nothing
// is optimized. A malformed value is a usage error (`Error:`, exit 2, before the input is read);
// one that does not fit the input (an unknown op, not a conv, a grid larger than the device) an error.
// NOTCONV: error: ttnn-optimizer: --override-conv2d-config: 'relu' is a ttnn.relu, not a ttnn.conv2d or ttnn.conv_transpose2d
// UNKNOWN: error: ttnn-optimizer: --override-conv2d-config: no op named 'nosuch' in the forward functions (op names: conv, relu, residual)
// KEY: Error: ttnn-optimizer: --override-conv2d-config: 'conv': unknown key 'act_block_h' (expected one of weights_dtype, activation, deallocate_activation, reallocate_halo_output, act_block_h_override, act_block_w_div, reshard_if_not_optimal, override_sharding_config, shard_layout, core_grid, transpose_shards, output_layout, enable_act_double_buffer, enable_weights_double_buffer)
// ABH: Error: ttnn-optimizer: --override-conv2d-config: 'conv': bad value '48' for act_block_h_override (expected 0 (let the op choose) or a multiple of 32)
// BOOL: Error: ttnn-optimizer: --override-conv2d-config: 'conv': bad value 'yes' for deallocate_activation (expected true or false)
// SHARD: Error: ttnn-optimizer: --override-conv2d-config: 'conv': bad value 'interleaved' for shard_layout (expected one of height_sharded, width_sharded, block_sharded)
// GRID: error: ttnn-optimizer: --override-conv2d-config: 'conv': core_grid 9x8 does not fit the 8x8 worker grid
// DTYPE: Error: ttnn-optimizer: --override-conv2d-config: 'conv': bad value 'int4' for weights_dtype (expected a data type (f32, f16, bf16,
// TWICE: Error: ttnn-optimizer: --override-conv2d-config: 'conv': key 'activation' given twice
// SHAPE: Error: ttnn-optimizer: --override-conv2d-config: 'conv': expected key#value, got 'activation'

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
