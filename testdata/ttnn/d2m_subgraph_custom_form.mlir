// Hand-written TTNN IR in the textual syntax of shared/spec/reference/ttnn-optimizer-upstream.md §1,
// modelled on the reference's d2m_optimizer_linear_chain.mlir description (64x64 bf16, args L1
// interleaved, two height-sharded matmuls, D2M output buffer block-sharded <2x1>, final matmul
// block-sharded <2x2>, then a spill to DRAM).
// EXPECTED TO FAIL in jaxlib: "ttnn.d2m_subgraph" is the one TTNN op that tt-mlir prints in a custom
// assembly form (reference §1.5):  %r = ttnn.d2m_subgraph @callee <newline> ins(%a : T) <newline> outs(%buf : T) : T
// and jaxlib cannot parse custom forms of unregistered dialects. dispatch_d2m_generic_form.mlir is
// the same graph with the op in generic form. The callee's argument list (ins only) is a guess.
#dram = #ttnn.buffer_type<dram>
#l1 = #ttnn.buffer_type<l1>
#system_desc = #ttcore.system_desc<[{role = host, target_triple = "x86_64-pc-linux-gnu"}], [{arch = <wormhole_b0>, grid = 8x8, coord_translation_offsets = 18x18, l1_size = 1499136, num_dram_channels = 12, dram_channel_size = 1073741824, noc_l1_address_align_bytes = 16, pcie_address_align_bytes = 32, noc_dram_address_align_bytes = 32, l1_unreserved_base = 1024, erisc_l1_unreserved_base = 1024, dram_unreserved_base = 1024, dram_unreserved_end = 1073741824, supported_data_types = [<f32>, <f16>, <bf16>, <bfp_f8>, <bfp_bf8>, <bfp_f4>, <bfp_bf4>, <bfp_f2>, <bfp_bf2>, <u32>, <u16>, <u8>, <si32>], supported_tile_sizes = [ 4x16,  16x16,  32x16,  4x32,  16x32,  32x32], dst_physical_size_tiles = 16, num_cbs = 32, num_compute_threads = 1, num_datamovement_threads = 2, dram_grid = 1x12, dram_bank_to_logical_worker_noc0 = [(7, 3), (0, 0), (0, 4), (4, 0), (4, 4), (7, 7), (7, 0), (0, 7), (3, 3), (4, 7), (7, 4), (3, 0)], dram_bank_to_logical_worker_noc1 = [(7, 4), (0, 1), (0, 5), (4, 1), (4, 5), (7, 6), (7, 1), (0, 6), (3, 4), (4, 6), (7, 5), (3, 1)]}], [0], [1 : i32], [ 0x0x0x0]>
#ttnn_layout = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <8x8>, memref<1x1x!ttcore.tile<32x32, bf16>, #l1>, <interleaved>>
#ttnn_layout1 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <2x1>, memref<1x2x!ttcore.tile<32x32, bf16>, #l1>, <height_sharded>, core_ranges = <[#ttnn.core_range<(0, 0), (1, 0)>]>>
#ttnn_layout2 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <2x1>, memref<1x2x!ttcore.tile<32x32, bf16>, #l1>, <block_sharded>, core_ranges = <[#ttnn.core_range<(0, 0), (0, 1)>]>>
#ttnn_layout3 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <2x2>, memref<1x1x!ttcore.tile<32x32, bf16>, #l1>, <block_sharded>, core_ranges = <[#ttnn.core_range<(0, 0), (1, 1)>]>>
#ttnn_layout4 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x2x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
module attributes {ttcore.system_desc = #system_desc} {
  func.func @d2m_linear_chain(%arg0: tensor<64x64xbf16, #ttnn_layout> loc("a"), %arg1: tensor<64x64xbf16, #ttnn_layout> loc("b"), %arg2: tensor<64x64xbf16, #ttnn_layout> loc("c"), %arg3: tensor<64x64xbf16, #ttnn_layout> loc("d")) -> tensor<64x64xbf16, #ttnn_layout4> attributes {tt.function_type = "forward_device"} {
    %0 = "ttnn.get_device"() <{mesh_shape = #ttnn<mesh_shape 1x1>}> : () -> !ttnn.device loc(#loc)
    %1 = "ttnn.matmul"(%arg0, %arg1) <{transpose_a = false, transpose_b = false}> : (tensor<64x64xbf16, #ttnn_layout>, tensor<64x64xbf16, #ttnn_layout>) -> tensor<64x64xbf16, #ttnn_layout1> loc(#loc1)
    %2 = "ttnn.matmul"(%1, %arg2) <{transpose_a = false, transpose_b = false}> : (tensor<64x64xbf16, #ttnn_layout1>, tensor<64x64xbf16, #ttnn_layout>) -> tensor<64x64xbf16, #ttnn_layout1> loc(#loc2)
    %3 = "ttnn.empty"(%0) <{shape = #ttnn.shape<64x64>}> : (!ttnn.device) -> tensor<64x64xbf16, #ttnn_layout2> loc(#loc3)
    %4 = ttnn.d2m_subgraph @d2m_subgraph_0
    ins(%2 : tensor<64x64xbf16, #ttnn_layout1>)
    outs(%3 : tensor<64x64xbf16, #ttnn_layout2>) : tensor<64x64xbf16, #ttnn_layout2> loc(#loc4)
    %5 = "ttnn.matmul"(%4, %arg3) <{transpose_a = false, transpose_b = false}> : (tensor<64x64xbf16, #ttnn_layout2>, tensor<64x64xbf16, #ttnn_layout>) -> tensor<64x64xbf16, #ttnn_layout3> loc(#loc5)
    %6 = "ttnn.to_layout"(%5) : (tensor<64x64xbf16, #ttnn_layout3>) -> tensor<64x64xbf16, #ttnn_layout4> loc(#loc6)
    return %6 : tensor<64x64xbf16, #ttnn_layout4> loc(#loc)
  } loc(#loc)
  func.func private @d2m_subgraph_0(%arg0: tensor<64x64xbf16, #ttnn_layout1> loc(unknown)) -> tensor<64x64xbf16, #ttnn_layout2> {
    %0 = "ttnn.exp"(%arg0) : (tensor<64x64xbf16, #ttnn_layout1>) -> tensor<64x64xbf16, #ttnn_layout1> loc(#loc7)
    %1 = "ttnn.neg"(%0) : (tensor<64x64xbf16, #ttnn_layout1>) -> tensor<64x64xbf16, #ttnn_layout1> loc(#loc8)
    %2 = "ttnn.abs"(%1) : (tensor<64x64xbf16, #ttnn_layout1>) -> tensor<64x64xbf16, #ttnn_layout2> loc(#loc9)
    return %2 : tensor<64x64xbf16, #ttnn_layout2> loc(#loc)
  } loc(#loc)
} loc(#loc)
#loc = loc(unknown)
#loc1 = loc("matmul_0")
#loc2 = loc("matmul_1")
#loc3 = loc("d2m_subgraph_0_output")
#loc4 = loc("d2m_subgraph_0")
#loc5 = loc("matmul_2")
#loc6 = loc("matmul_2_spill")
#loc7 = loc("exp_0")
#loc8 = loc("neg_1")
#loc9 = loc("abs_2")
