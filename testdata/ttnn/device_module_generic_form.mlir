// Hand-written TTNN IR: device_module_custom_form.mlir with "ttcore.device_module" and
// "ttcore.device" written in generic form so that jaxlib can parse it. The generic attribute names of
// ttcore.device (sym_name, device_attr) and the #ttcore.device<...> wrapper are a guess: tt-mlir
// itself prints the custom form. Everything else (builtin.module with attributes nested in an
// unregistered op's region, no terminator) is plain MLIR.
#dram = #ttnn.buffer_type<dram>
#l1 = #ttnn.buffer_type<l1>
#system_desc = #ttcore.system_desc<[{role = host, target_triple = "x86_64-pc-linux-gnu"}], [{arch = <wormhole_b0>, grid = 8x8, coord_translation_offsets = 18x18, l1_size = 1499136, num_dram_channels = 12, dram_channel_size = 1073741824, noc_l1_address_align_bytes = 16, pcie_address_align_bytes = 32, noc_dram_address_align_bytes = 32, l1_unreserved_base = 1024, erisc_l1_unreserved_base = 1024, dram_unreserved_base = 1024, dram_unreserved_end = 1073741824, supported_data_types = [<f32>, <f16>, <bf16>, <bfp_f8>, <bfp_bf8>, <bfp_f4>, <bfp_bf4>, <bfp_f2>, <bfp_bf2>, <u32>, <u16>, <u8>, <si32>], supported_tile_sizes = [ 4x16,  16x16,  32x16,  4x32,  16x32,  32x32], dst_physical_size_tiles = 16, num_cbs = 32, num_compute_threads = 1, num_datamovement_threads = 2, dram_grid = 1x12, dram_bank_to_logical_worker_noc0 = [(7, 3), (0, 0), (0, 4), (4, 0), (4, 4), (7, 7), (7, 0), (0, 7), (3, 3), (4, 7), (7, 4), (3, 0)], dram_bank_to_logical_worker_noc1 = [(7, 4), (0, 1), (0, 5), (4, 1), (4, 5), (7, 6), (7, 1), (0, 6), (3, 4), (4, 6), (7, 5), (3, 1)]}], [0], [1 : i32], [ 0x0x0x0]>
#ttnn_layout = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 1024 + d1 * 32 + d2, d3), <1x1>, memref<32x2x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout1 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 32 + d1 * 32 + d2, d3), <1x1>, memref<1x2x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout2 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 1024 + d1 * 32 + d2, d3), <8x4>, memref<4x1x!ttcore.tile<32x32, bf16>, #l1>, <block_sharded>, core_ranges = <[#ttnn.core_range<(0, 0), (3, 7)>]>>
module {
  "ttcore.device_module"() ({
    builtin.module attributes {ttcore.system_desc = #system_desc} {
      "ttcore.device"() <{device_attr = #ttcore.device<workerGrid = #ttcore.grid<8x8, virt_to_physical_map = (d0, d1) -> (0, d0, d1), physical_to_virt_map = (d0, d1, d2) -> (d1, d2)>, dramGrid = #ttcore.grid<1x12>, l1Map = (d0, d1, d2)[s0] -> (0, d0, d1, d2 + s0), dramMap = (d0, d1, d2)[s0, s1, s2, s3, s4, s5, s6] -> (0, 0, (((d0 * s1) * (s2 * (s3 * s6)) + d1 * (s2 * (s3 * s6)) + d2) floordiv s4) mod 12, ((((d0 * s1) * (s2 * (s3 * s6)) + d1 * (s2 * (s3 * s6)) + d2) floordiv s4) floordiv 12) * s4 + ((d0 * s1) * (s2 * (s3 * s6)) + d1 * (s2 * (s3 * s6)) + d2) mod s4 + s5), meshShape = , chipIds = [0]>, sym_name = "default_device"}> : () -> () loc(#loc)
      func.func @forward(%arg0: tensor<1x32x32x64xbf16, #ttnn_layout> {ttcore.argument_type = #ttcore.argument_type<input>} loc("q"), %arg1: tensor<1x1x32x64xbf16, #ttnn_layout1> {ttcore.argument_type = #ttcore.argument_type<constant>} loc("cos"), %arg2: tensor<1x1x32x64xbf16, #ttnn_layout1> {ttcore.argument_type = #ttcore.argument_type<constant>} loc("sin")) -> tensor<1x32x32x64xbf16, #ttnn_layout> attributes {tt.function_type = "forward_device"} {
        %0 = "ttnn.to_memory_config"(%arg0) : (tensor<1x32x32x64xbf16, #ttnn_layout>) -> tensor<1x32x32x64xbf16, #ttnn_layout2> loc(#loc2)
        %1 = "ttnn.rotary_embedding"(%0, %arg1, %arg2) : (tensor<1x32x32x64xbf16, #ttnn_layout2>, tensor<1x1x32x64xbf16, #ttnn_layout1>, tensor<1x1x32x64xbf16, #ttnn_layout1>) -> tensor<1x32x32x64xbf16, #ttnn_layout2> loc(#loc3)
        %2 = "ttnn.to_memory_config"(%1) : (tensor<1x32x32x64xbf16, #ttnn_layout2>) -> tensor<1x32x32x64xbf16, #ttnn_layout> loc(#loc4)
        return %2 : tensor<1x32x32x64xbf16, #ttnn_layout> loc(#loc)
      } loc(#loc)
    } loc(#loc)
  }) : () -> () loc(#loc)
} loc(#loc)
#loc = loc(unknown)
#loc1 = loc("rope.py":12:4)
#loc2 = loc("rotary_embedding_0_mem_reconfig"(#loc1))
#loc3 = loc("rotary_embedding_0"(#loc1))
#loc4 = loc("rotary_embedding_0_spill"(#loc1))
