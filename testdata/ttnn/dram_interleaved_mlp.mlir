// Hand-written TTNN IR in the textual syntax of shared/spec/reference/ttnn-optimizer-upstream.md §1
// (tt-mlir lit tests at LEGACY), as tt-mlir prints it *without* --mlir-print-local-scope: attribute
// aliases first, then the module, then the #loc aliases (forward references).
// Exercises: full #ttcore.system_desc, #dram/#system_memory aliases, DRAM-interleaved and
// system-memory (row-major, no memory-layout) ttnn_layouts, rank-1 map "(d0) -> (0, d0)",
// argument attributes + arg locations, ttnn.get_device, to_layout, matmul, add, relu,
// deallocate (no results), typecast, NameLoc/FileLineCol/unknown locations.
// The system_desc numbers follow the reference; the dram_bank_to_logical_worker lists are made up.
#dram = #ttnn.buffer_type<dram>
#system_memory = #ttnn.buffer_type<system_memory>
#system_desc = #ttcore.system_desc<[{role = host, target_triple = "x86_64-pc-linux-gnu"}], [{arch = <wormhole_b0>, grid = 8x8, coord_translation_offsets = 18x18, l1_size = 1499136, num_dram_channels = 12, dram_channel_size = 1073741824, noc_l1_address_align_bytes = 16, pcie_address_align_bytes = 32, noc_dram_address_align_bytes = 32, l1_unreserved_base = 1024, erisc_l1_unreserved_base = 1024, dram_unreserved_base = 1024, dram_unreserved_end = 1073741824, supported_data_types = [<f32>, <f16>, <bf16>, <bfp_f8>, <bfp_bf8>, <bfp_f4>, <bfp_bf4>, <bfp_f2>, <bfp_bf2>, <u32>, <u16>, <u8>, <si32>], supported_tile_sizes = [ 4x16,  16x16,  32x16,  4x32,  16x32,  32x32], dst_physical_size_tiles = 16, num_cbs = 32, num_compute_threads = 1, num_datamovement_threads = 2, dram_grid = 1x12, dram_bank_to_logical_worker_noc0 = [(7, 3), (0, 0), (0, 4), (4, 0), (4, 4), (7, 7), (7, 0), (0, 7), (3, 3), (4, 7), (7, 4), (3, 0)], dram_bank_to_logical_worker_noc1 = [(7, 4), (0, 1), (0, 5), (4, 1), (4, 5), (7, 6), (7, 1), (0, 6), (3, 4), (4, 6), (7, 5), (3, 1)]}], [0], [1 : i32], [ 0x0x0x0]>
#ttnn_layout = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<64x128xbf16, #system_memory>>
#ttnn_layout1 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<4x8x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout2 = #ttnn.ttnn_layout<(d0) -> (0, d0), <1x1>, memref<1x8x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout3 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<8x2x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout4 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x2x!ttcore.tile<32x32, f32>, #system_memory>>
#ttnn_layout5 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x4x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout6 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x8x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout7 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x2x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout8 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x2x!ttcore.tile<32x32, f32>, #dram>, <interleaved>>
module attributes {ttcore.system_desc = #system_desc} {
  func.func @forward(%arg0: tensor<64x128xbf16, #ttnn_layout> {ttcore.argument_type = #ttcore.argument_type<input>} loc("x"), %arg1: tensor<128x256xbf16, #ttnn_layout1> {ttcore.argument_type = #ttcore.argument_type<parameter>} loc("w1"), %arg2: tensor<256xbf16, #ttnn_layout2> {ttcore.argument_type = #ttcore.argument_type<parameter>} loc("b1"), %arg3: tensor<256x64xbf16, #ttnn_layout3> {ttcore.argument_type = #ttcore.argument_type<constant>} loc("w2")) -> tensor<64x64xf32, #ttnn_layout4> attributes {tt.function_type = "forward_device"} {
    %0 = "ttnn.get_device"() <{mesh_offset = #ttnn<mesh_offset 0x0>, mesh_shape = #ttnn<mesh_shape 1x1>}> : () -> !ttnn.device loc(#loc)
    %1 = "ttnn.to_layout"(%arg0) : (tensor<64x128xbf16, #ttnn_layout>) -> tensor<64x128xbf16, #ttnn_layout5> loc(#loc8)
    %2 = "ttnn.matmul"(%1, %arg1) <{transpose_a = false, transpose_b = false}> : (tensor<64x128xbf16, #ttnn_layout5>, tensor<128x256xbf16, #ttnn_layout1>) -> tensor<64x256xbf16, #ttnn_layout6> loc(#loc9)
    "ttnn.deallocate"(%1) <{force = false}> : (tensor<64x128xbf16, #ttnn_layout5>) -> () loc(#loc9)
    %3 = "ttnn.add"(%2, %arg2) <{dtype = #ttcore.supportedDataTypes<bf16>}> : (tensor<64x256xbf16, #ttnn_layout6>, tensor<256xbf16, #ttnn_layout2>) -> tensor<64x256xbf16, #ttnn_layout6> loc(#loc10)
    "ttnn.deallocate"(%2) <{force = false}> : (tensor<64x256xbf16, #ttnn_layout6>) -> () loc(#loc10)
    %4 = "ttnn.relu"(%3) : (tensor<64x256xbf16, #ttnn_layout6>) -> tensor<64x256xbf16, #ttnn_layout6> loc(#loc11)
    %5 = "ttnn.matmul"(%4, %arg3) <{activation = "gelu", transpose_a = false, transpose_b = false}> {ttcore.weight_dtype = "bfp_bf8"} : (tensor<64x256xbf16, #ttnn_layout6>, tensor<256x64xbf16, #ttnn_layout3>) -> tensor<64x64xbf16, #ttnn_layout7> loc(#loc12)
    %6 = "ttnn.typecast"(%5) : (tensor<64x64xbf16, #ttnn_layout7>) -> tensor<64x64xf32, #ttnn_layout8> loc(#loc13)
    %7 = "ttnn.from_device"(%6) : (tensor<64x64xf32, #ttnn_layout8>) -> tensor<64x64xf32, #ttnn_layout4> loc(#loc14)
    return %7 : tensor<64x64xf32, #ttnn_layout4> loc(#loc)
  } loc(#loc)
} loc(#loc)
#loc = loc(unknown)
#loc1 = loc("mlp.py:10_0_0":0:4)
#loc2 = loc("mlp.py:11_0_0":0:4)
#loc3 = loc("mlp.py:11_1_0":0:4)
#loc4 = loc("mlp.py:12_0_0":0:4)
#loc5 = loc("mlp.py:13_0_0":0:4)
#loc6 = loc("mlp.py:13_1_0":0:4)
#loc7 = loc("mlp.py:14_0_0":0:4)
#loc8 = loc("to_layout_0"(#loc1))
#loc9 = loc("matmul_1"(#loc2))
#loc10 = loc("add_2"(#loc3))
#loc11 = loc("relu_3"(#loc4))
#loc12 = loc("matmul_4"(#loc5))
#loc13 = loc("typecast_5"(#loc6))
#loc14 = loc("from_device_6"(#loc7))
