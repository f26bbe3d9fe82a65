// Hand-written TTNN IR in the textual syntax of shared/spec/reference/ttnn-optimizer-upstream.md §1:
// what the legacy optimizer (DFShardingPolicy) writes back: an L1 chain with height-sharded,
// block-sharded and width-sharded results, reshards via "ttnn.to_layout", a spill to DRAM at the end.
// Exercises: #l1 alias, sharded ttnn_layouts with core_ranges (short form with one and with two
// ranges, long form #ttnn.core_range_set<[...]> with "(0,0)" written without spaces),
// ignorePhysicalLayout = true, L1 interleaved on the full <8x8> grid, matmul_program_config attrs
// (1-D with fused_activation, 2-D mcast), discardable {ttnn.hoist_generic_via_d2m} unit attr,
// ttnn.tensor_l1_usage_cap float module attribute, to_memory_config, ttnn.empty.
// Layout numbers follow the derivation rules of the reference §1.2; program-config field names of
// the 2-D config are a best guess (the reference spells out only the 1-D one).
#dram = #ttnn.buffer_type<dram>
#l1 = #ttnn.buffer_type<l1>
#system_desc = #ttcore.system_desc<[{role = host, target_triple = "x86_64-pc-linux-gnu"}], [{arch = <wormhole_b0>, grid = 8x8, coord_translation_offsets = 18x18, l1_size = 1499136, num_dram_channels = 12, dram_channel_size = 1073741824, noc_l1_address_align_bytes = 16, pcie_address_align_bytes = 32, noc_dram_address_align_bytes = 32, l1_unreserved_base = 1024, erisc_l1_unreserved_base = 1024, dram_unreserved_base = 1024, dram_unreserved_end = 1073741824, supported_data_types = [<f32>, <f16>, <bf16>, <bfp_f8>, <bfp_bf8>, <bfp_f4>, <bfp_bf4>, <bfp_f2>, <bfp_bf2>, <u32>, <u16>, <u8>, <si32>], supported_tile_sizes = [ 4x16,  16x16,  32x16,  4x32,  16x32,  32x32], dst_physical_size_tiles = 16, num_cbs = 32, num_compute_threads = 1, num_datamovement_threads = 2, dram_grid = 1x12, dram_bank_to_logical_worker_noc0 = [(7, 3), (0, 0), (0, 4), (4, 0), (4, 4), (7, 7), (7, 0), (0, 7), (3, 3), (4, 7), (7, 4), (3, 0)], dram_bank_to_logical_worker_noc1 = [(7, 4), (0, 1), (0, 5), (4, 1), (4, 5), (7, 6), (7, 1), (0, 6), (3, 4), (4, 6), (7, 5), (3, 1)]}], [0], [1 : i32], [ 0x0x0x0]>
#ttnn_layout = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<8x4x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout1 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<4x4x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout2 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <8x8>, memref<1x1x!ttcore.tile<32x32, bf16>, #l1>, <interleaved>>
#ttnn_layout3 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<4x16x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout4 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <8x1>, memref<1x4x!ttcore.tile<32x32, bf16>, #l1>, <height_sharded>, core_ranges = <[#ttnn.core_range<(0, 0), (7, 0)>]>>
#ttnn_layout5 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <4x4>, memref<2x1x!ttcore.tile<32x32, bf16>, #l1>, <block_sharded>, core_ranges = <[#ttnn.core_range<(0, 0), (3, 3)>]>>
#ttnn_layout6 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <4x4>, memref<2x4x!ttcore.tile<32x32, bf16>, #l1>, <block_sharded>, core_ranges = <[#ttnn.core_range<(0, 0), (3, 3)>]>>
#ttnn_layout7 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<8x16x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout8 = #ttnn.ttnn_layout<(d0, d1, d2) -> (d0 * 32 + d1, d2), <1x1>, memref<12x2x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout9 = #ttnn.ttnn_layout<(d0, d1, d2) -> (d0 * 32 + d1, d2), <12x1>, memref<1x2x!ttcore.tile<32x32, bf16>, #l1>, <height_sharded>, core_ranges = <[#ttnn.core_range<(0, 0), (7, 0)>, #ttnn.core_range<(0, 1), (3, 1)>]>>
#ttnn_layout10 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x32x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout11 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x8>, memref<1x4x!ttcore.tile<32x32, bf16>, #l1>, <width_sharded>, core_ranges = #ttnn.core_range_set<[#ttnn.core_range<(0,0), (7,0)>]>>
#ttnn_layout12 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x8>, memref<1x4x!ttcore.tile<32x32, bf16>, #l1>, <width_sharded>, ignorePhysicalLayout = true>
module attributes {ttcore.system_desc = #system_desc, ttnn.tensor_l1_usage_cap = 0.949999988 : f32} {
  func.func @mlp_chain(%arg0: tensor<256x128xbf16, #ttnn_layout> loc("input"), %arg1: tensor<128x128xbf16, #ttnn_layout1> loc("w0"), %arg2: tensor<1x128xbf16, #ttnn_layout2> loc("b0"), %arg3: tensor<128x512xbf16, #ttnn_layout3> loc("w1")) -> tensor<256x512xbf16, #ttnn_layout7> attributes {tt.function_type = "forward_device"} {
    %0 = "ttnn.matmul"(%arg0, %arg1) <{matmul_program_config = #ttnn.matmul_multi_core_reuse_multi_cast_1d_program_config<compute_with_storage_grid_size = #ttnn.core_coord<8, 1>, in0_block_w = 4, out_subblock_h = 1, out_subblock_w = 4, out_block_h = 1, out_block_w = 4, per_core_m = 1, per_core_n = 4, fuse_batch = true, fused_activation = #ttnn.unary_with_param<op_type = relu>, mcast_in0 = false, gather_in0 = false, hop_cores = #ttnn.core_range_set<>, num_global_cb_receivers = 0, untilize_out = false>, transpose_a = false, transpose_b = false}> : (tensor<256x128xbf16, #ttnn_layout>, tensor<128x128xbf16, #ttnn_layout1>) -> tensor<256x128xbf16, #ttnn_layout4> loc(#loc1)
    %1 = "ttnn.add"(%0, %arg2) <{dtype = #ttcore.supportedDataTypes<bf16>}> : (tensor<256x128xbf16, #ttnn_layout4>, tensor<1x128xbf16, #ttnn_layout2>) -> tensor<256x128xbf16, #ttnn_layout4> loc(#loc2)
    %2 = "ttnn.to_layout"(%1) : (tensor<256x128xbf16, #ttnn_layout4>) -> tensor<256x128xbf16, #ttnn_layout5> loc(#loc3)
    %3 = "ttnn.matmul"(%2, %arg3) <{matmul_program_config = #ttnn.matmul_multi_core_reuse_multi_cast_program_config<compute_with_storage_grid_size = #ttnn.core_coord<4, 4>, in0_block_w = 1, out_subblock_h = 1, out_subblock_w = 4, out_block_h = 2, out_block_w = 4, per_core_m = 2, per_core_n = 4, transpose_mcast = false, fuse_batch = false>, transpose_a = false, transpose_b = false}> : (tensor<256x128xbf16, #ttnn_layout5>, tensor<128x512xbf16, #ttnn_layout3>) -> tensor<256x512xbf16, #ttnn_layout6> loc(#loc4)
    %4 = "ttnn.to_layout"(%3) {ttnn.hoist_generic_via_d2m} : (tensor<256x512xbf16, #ttnn_layout6>) -> tensor<256x512xbf16, #ttnn_layout7> loc(#loc5)
    return %4 : tensor<256x512xbf16, #ttnn_layout7> loc(#loc)
  } loc(#loc)
  func.func @height_and_width_sharded(%arg0: tensor<12x32x64xbf16, #ttnn_layout8> loc("h"), %arg1: tensor<32x1024xbf16, #ttnn_layout10> loc("w")) -> (tensor<12x32x64xbf16, #ttnn_layout8>, tensor<32x1024xbf16, #ttnn_layout10>) attributes {tt.function_type = "forward_device"} {
    %0 = "ttnn.get_device"() <{mesh_shape = #ttnn<mesh_shape 1x1>}> : () -> !ttnn.device loc(#loc)
    %1 = "ttnn.to_memory_config"(%arg0) : (tensor<12x32x64xbf16, #ttnn_layout8>) -> tensor<12x32x64xbf16, #ttnn_layout9> loc(#loc6)
    %2 = "ttnn.gelu"(%1) : (tensor<12x32x64xbf16, #ttnn_layout9>) -> tensor<12x32x64xbf16, #ttnn_layout9> loc(#loc7)
    %3 = "ttnn.to_memory_config"(%2) : (tensor<12x32x64xbf16, #ttnn_layout9>) -> tensor<12x32x64xbf16, #ttnn_layout8> loc(#loc8)
    %4 = "ttnn.empty"(%0) <{shape = #ttnn.shape<32x1024>}> : (!ttnn.device) -> tensor<32x1024xbf16, #ttnn_layout11> loc(#loc9)
    %5 = "ttnn.to_layout"(%arg1) : (tensor<32x1024xbf16, #ttnn_layout10>) -> tensor<32x1024xbf16, #ttnn_layout12> loc(#loc10)
    %6 = "ttnn.silu"(%5) : (tensor<32x1024xbf16, #ttnn_layout12>) -> tensor<32x1024xbf16, #ttnn_layout11> loc(#loc11)
    %7 = "ttnn.multiply"(%6, %4) : (tensor<32x1024xbf16, #ttnn_layout11>, tensor<32x1024xbf16, #ttnn_layout11>) -> tensor<32x1024xbf16, #ttnn_layout11> loc(#loc12)
    %8 = "ttnn.to_layout"(%7) : (tensor<32x1024xbf16, #ttnn_layout11>) -> tensor<32x1024xbf16, #ttnn_layout10> loc(#loc13)
    return %3, %8 : tensor<12x32x64xbf16, #ttnn_layout8>, tensor<32x1024xbf16, #ttnn_layout10> loc(#loc)
  } loc(#loc)
} loc(#loc)
#loc = loc(unknown)
#loc1 = loc("matmul_0")
#loc2 = loc("add_1")
#loc3 = loc("add_1_mem_reconfig")
#loc4 = loc("matmul_2")
#loc5 = loc("matmul_2_spill")
#loc6 = loc("gelu_0_mem_reconfig")
#loc7 = loc("gelu_0")
#loc8 = loc("gelu_0_spill")
#loc9 = loc("empty_1")
#loc10 = loc("silu_2_mem_reconfig")
#loc11 = loc("silu_2")
#loc12 = loc("multiply_3")
#loc13 = loc("multiply_3_spill")
