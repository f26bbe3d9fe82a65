// Hand-written TTNN IR in the textual syntax of shared/spec/reference/ttnn-optimizer-upstream.md §1:
// a ResNet-style stem (conv2d 7x7/2 + relu, max_pool2d 3x3/2, reshape, permute, mean).
// Exercises: 4-D affine maps with multipliers "(d0, d1, d2, d3) -> (d0 * 50176 + d1 * 50176 + d2, d3)",
// row-major DRAM and system_memory layouts (element type instead of !ttcore.tile), flattened NHWC
// conv activations 1x1x(N*H*W)xC, the conv2d attribute set from the reference (array<i32: ..>,
// #ttnn.conv2d_config<...> with a nested <op_type = relu>, #ttnn.conv2d_slice_config<l1_full, 0>,
// #ttcore.supportedDataTypes<bf16>), reshape with a list of "N : i32" attrs, permute with
// array<i64: ..>, mean with dim_arg/keep_dim, func result in parentheses, module name @resnet_stem,
// FileLineCol locations with a col-only range and NameLoc children.
#dram = #ttnn.buffer_type<dram>
#system_memory = #ttnn.buffer_type<system_memory>
#system_desc = #ttcore.system_desc<[{role = host, target_triple = "x86_64-pc-linux-gnu"}], [{arch = <wormhole_b0>, grid = 8x8, coord_translation_offsets = 18x18, l1_size = 1499136, num_dram_channels = 12, dram_channel_size = 1073741824, noc_l1_address_align_bytes = 16, pcie_address_align_bytes = 32, noc_dram_address_align_bytes = 32, l1_unreserved_base = 1024, erisc_l1_unreserved_base = 1024, dram_unreserved_base = 1024, dram_unreserved_end = 1073741824, supported_data_types = [<f32>, <f16>, <bf16>, <bfp_f8>, <bfp_bf8>, <bfp_f4>, <bfp_bf4>, <bfp_f2>, <bfp_bf2>, <u32>, <u16>, <u8>, <si32>], supported_tile_sizes = [ 4x16,  16x16,  32x16,  4x32,  16x32,  32x32], dst_physical_size_tiles = 16, num_cbs = 32, num_compute_threads = 1, num_datamovement_threads = 2, dram_grid = 1x12, dram_bank_to_logical_worker_noc0 = [(7, 3), (0, 0), (0, 4), (4, 0), (4, 4), (7, 7), (7, 0), (0, 7), (3, 3), (4, 7), (7, 4), (3, 0)], dram_bank_to_logical_worker_noc1 = [(7, 4), (0, 1), (0, 5), (4, 1), (4, 5), (7, 6), (7, 1), (0, 6), (3, 4), (4, 6), (7, 5), (3, 1)]}], [0], [1 : i32], [ 0x0x0x0]>
#ttnn_layout = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 50176 + d1 * 50176 + d2, d3), <1x1>, memref<50176x3xbf16, #dram>, <interleaved>>
#ttnn_layout1 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 21 + d1 * 7 + d2, d3), <1x1>, memref<1344x7xbf16, #system_memory>>
#ttnn_layout2 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 + d1 + d2, d3), <1x1>, memref<1x64xbf16, #system_memory>>
#ttnn_layout3 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 12544 + d1 * 12544 + d2, d3), <1x1>, memref<392x2x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout4 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 3136 + d1 * 3136 + d2, d3), <1x1>, memref<98x2x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout5 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 3584 + d1 * 64 + d2, d3), <1x1>, memref<112x2x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout6 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 4096 + d1 * 64 + d2, d3), <1x1>, memref<128x2x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout7 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 2048 + d1 * 32 + d2, d3), <1x1>, memref<64x1x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout8 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x2x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
module @resnet_stem attributes {ttcore.system_desc = #system_desc, ttnn.tensor_l1_usage_cap = 1.400000e-01 : f32} {
  func.func @forward(%arg0: tensor<1x1x50176x3xbf16, #ttnn_layout> {ttcore.argument_type = #ttcore.argument_type<input>} loc("pixel_values"), %arg1: tensor<64x3x7x7xbf16, #ttnn_layout1> {ttcore.argument_type = #ttcore.argument_type<parameter>} loc("conv1.weight"), %arg2: tensor<1x1x1x64xbf16, #ttnn_layout2> {ttcore.argument_type = #ttcore.argument_type<parameter>} loc("conv1.bias")) -> (tensor<1x64xbf16, #ttnn_layout8>) attributes {tt.function_type = "forward_device"} {
    %0 = "ttnn.get_device"() <{mesh_offset = #ttnn<mesh_offset 0x0>, mesh_shape = #ttnn<mesh_shape 1x1>}> : () -> !ttnn.device loc(#loc)
    %1 = "ttnn.conv2d"(%arg0, %arg1, %arg2, %0) <{batch_size = 1 : i32, conv2d_config = #ttnn.conv2d_config<weights_dtype = bf16, activation = <op_type = relu>, deallocate_activation = true, act_block_h_override = 0>, conv2d_slice_config = #ttnn.conv2d_slice_config<l1_full, 0>, dilation = array<i32: 1, 1>, dtype = #ttcore.supportedDataTypes<bf16>, groups = 1 : i32, in_channels = 3 : i32, input_height = 224 : i32, input_width = 224 : i32, kernel_size = array<i32: 7, 7>, out_channels = 64 : i32, padding = array<i32: 3, 3, 3, 3>, stride = array<i32: 2, 2>}> : (tensor<1x1x50176x3xbf16, #ttnn_layout>, tensor<64x3x7x7xbf16, #ttnn_layout1>, tensor<1x1x1x64xbf16, #ttnn_layout2>, !ttnn.device) -> tensor<1x1x12544x64xbf16, #ttnn_layout3> loc(#loc7)
    "ttnn.deallocate"(%arg0) <{force = false}> : (tensor<1x1x50176x3xbf16, #ttnn_layout>) -> () loc(#loc7)
    %2 = "ttnn.max_pool2d"(%1) <{batch_size = 1 : si32, ceil_mode = false, channels = 64 : si32, dilation = array<i32: 1, 1>, in_place_halo = false, input_height = 112 : si32, input_width = 112 : si32, kernel_size = array<i32: 3, 3>, padding = array<i32: 1, 1>, stride = array<i32: 2, 2>}> : (tensor<1x1x12544x64xbf16, #ttnn_layout3>) -> tensor<1x1x3136x64xbf16, #ttnn_layout4> loc(#loc8)
    %3 = "ttnn.reshape"(%2) <{shape = [1 : i32, 56 : i32, 56 : i32, 64 : i32]}> : (tensor<1x1x3136x64xbf16, #ttnn_layout4>) -> tensor<1x56x56x64xbf16, #ttnn_layout5> loc(#loc9)
    %4 = "ttnn.permute"(%3) <{permutation = array<i64: 0, 3, 1, 2>}> : (tensor<1x56x56x64xbf16, #ttnn_layout5>) -> tensor<1x64x56x56xbf16, #ttnn_layout6> loc(#loc10)
    %5 = "ttnn.mean"(%4) <{dim_arg = [2 : i32, 3 : i32], keep_dim = true}> : (tensor<1x64x56x56xbf16, #ttnn_layout6>) -> tensor<1x64x1x1xbf16, #ttnn_layout7> loc(#loc11)
    %6 = "ttnn.reshape"(%5) <{shape = [1 : i32, 64 : i32]}> : (tensor<1x64x1x1xbf16, #ttnn_layout7>) -> tensor<1x64xbf16, #ttnn_layout8> loc(#loc12)
    return %6 : tensor<1x64xbf16, #ttnn_layout8> loc(#loc)
  } loc(#loc)
} loc(#loc)
#loc = loc(unknown)
#loc1 = loc("resnet.py":41:15 to :48)
#loc2 = loc("resnet.py":42:15)
#loc3 = loc("resnet.py":43:12 to 44:30)
#loc4 = loc("resnet.py":45:8)
#loc5 = loc("resnet.py":46:8)
#loc6 = loc("resnet.py":47:8)
#loc7 = loc("conv2d_0"(#loc1))
#loc8 = loc("max_pool2d_1"(#loc2))
#loc9 = loc("reshape_2"(#loc3))
#loc10 = loc("permute_3"(#loc4))
#loc11 = loc("mean_4"(#loc5))
#loc12 = loc("reshape_5"(#loc6))
