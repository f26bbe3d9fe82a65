// Hand-written TTNN IR in the textual syntax of shared/spec/reference/ttnn-optimizer-upstream.md §1.
// Exercises: a multi-result op (ttnn.sort, whose results tt-mlir prints by their ODS names: "%values,
// %indices = ..." with "-> (T1, T2)"), several element types in layouts (bf16/f32 tiles, u16 tile,
// ui32/si32 row-major), rank-1 layouts,
// softmax/sum/concat/argmax attrs (si32/i32/si8 integer attrs, negative integers), a private callee
// + "call" (private funcs are not forward_device), multiple results, and every location form:
// loc(unknown), NameLoc, NameLoc with child, FileLineCol with odd file names ("test_ops.py:17_0_0"),
// callsite(... at ...), fused[...] and fused<"meta">[...], nested aliases, inline loc("..") on args.
#dram = #ttnn.buffer_type<dram>
#system_desc = #ttcore.system_desc<[{role = host, target_triple = "x86_64-pc-linux-gnu"}], [{arch = <wormhole_b0>, grid = 8x8, coord_translation_offsets = 18x18, l1_size = 1499136, num_dram_channels = 12, dram_channel_size = 1073741824, noc_l1_address_align_bytes = 16, pcie_address_align_bytes = 32, noc_dram_address_align_bytes = 32, l1_unreserved_base = 1024, erisc_l1_unreserved_base = 1024, dram_unreserved_base = 1024, dram_unreserved_end = 1073741824, supported_data_types = [<f32>, <f16>, <bf16>, <bfp_f8>, <bfp_bf8>, <bfp_f4>, <bfp_bf4>, <bfp_f2>, <bfp_bf2>, <u32>, <u16>, <u8>, <si32>], supported_tile_sizes = [ 4x16,  16x16,  32x16,  4x32,  16x32,  32x32], dst_physical_size_tiles = 16, num_cbs = 32, num_compute_threads = 1, num_datamovement_threads = 2, dram_grid = 1x12, dram_bank_to_logical_worker_noc0 = [(7, 3), (0, 0), (0, 4), (4, 0), (4, 4), (7, 7), (7, 0), (0, 7), (3, 3), (4, 7), (7, 4), (3, 0)], dram_bank_to_logical_worker_noc1 = [(7, 4), (0, 1), (0, 5), (4, 1), (4, 5), (7, 6), (7, 1), (0, 6), (3, 4), (4, 6), (7, 5), (3, 1)]}], [0], [1 : i32], [ 0x0x0x0]>
#ttnn_layout = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x4x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout1 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<32x128xsi32, #dram>, <interleaved>>
#ttnn_layout2 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x4x!ttcore.tile<32x32, u16>, #dram>, <interleaved>>
#ttnn_layout3 = #ttnn.ttnn_layout<(d0) -> (0, d0), <1x1>, memref<1x1x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout4 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x8x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout5 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x8x!ttcore.tile<32x32, f32>, #dram>, <interleaved>>
#ttnn_layout6 = #ttnn.ttnn_layout<(d0) -> (0, d0), <1x1>, memref<1x32xui32, #dram>, <interleaved>>
module attributes {ttcore.system_desc = #system_desc} {
  func.func @forward(%arg0: tensor<32x128xbf16, #ttnn_layout> loc("logits"), %arg1: tensor<32x128xsi32, #ttnn_layout1> loc("ids")) -> (tensor<32x128xbf16, #ttnn_layout>, tensor<32x128xui16, #ttnn_layout2>, tensor<32xbf16, #ttnn_layout3>, tensor<32x256xf32, #ttnn_layout5>, tensor<32xui32, #ttnn_layout6>) attributes {tt.function_type = "forward_device"} {
    %0 = "ttnn.get_device"() <{mesh_shape = #ttnn<mesh_shape 1x1>}> : () -> !ttnn.device loc(#loc)
    %values, %indices = "ttnn.sort"(%arg0) <{descending = true, dim = -1 : si8, stable = false}> : (tensor<32x128xbf16, #ttnn_layout>) -> (tensor<32x128xbf16, #ttnn_layout>, tensor<32x128xui16, #ttnn_layout2>) loc(#loc9)
    %1 = "ttnn.softmax"(%values) <{dimension = 1 : si32}> : (tensor<32x128xbf16, #ttnn_layout>) -> tensor<32x128xbf16, #ttnn_layout> loc(#loc10)
    %2 = "ttnn.sum"(%1) <{dim_arg = [1 : i32], keep_dim = false}> : (tensor<32x128xbf16, #ttnn_layout>) -> tensor<32xbf16, #ttnn_layout3> loc(#loc11)
    %3 = call @scale(%arg0) : (tensor<32x128xbf16, #ttnn_layout>) -> tensor<32x128xbf16, #ttnn_layout> loc(#loc12)
    %4 = "ttnn.concat"(%1, %3) <{dim = 1 : si32}> : (tensor<32x128xbf16, #ttnn_layout>, tensor<32x128xbf16, #ttnn_layout>) -> tensor<32x256xbf16, #ttnn_layout4> loc(#loc13)
    %5 = "ttnn.typecast"(%4) : (tensor<32x256xbf16, #ttnn_layout4>) -> tensor<32x256xf32, #ttnn_layout5> loc(#loc14)
    %6 = "ttnn.typecast"(%arg1) : (tensor<32x128xsi32, #ttnn_layout1>) -> tensor<32x128xbf16, #ttnn_layout> loc(#loc15)
    %7 = "ttnn.argmax"(%6) <{dim = 1 : si32, keep_dim = false}> : (tensor<32x128xbf16, #ttnn_layout>) -> tensor<32xui32, #ttnn_layout6> loc(#loc15)
    return %1, %indices, %2, %5, %7 : tensor<32x128xbf16, #ttnn_layout>, tensor<32x128xui16, #ttnn_layout2>, tensor<32xbf16, #ttnn_layout3>, tensor<32x256xf32, #ttnn_layout5>, tensor<32xui32, #ttnn_layout6> loc(#loc)
  } loc(#loc)
  func.func private @scale(%arg0: tensor<32x128xbf16, #ttnn_layout> loc(unknown)) -> tensor<32x128xbf16, #ttnn_layout> {
    %0 = "ttnn.multiply"(%arg0, %arg0) : (tensor<32x128xbf16, #ttnn_layout>, tensor<32x128xbf16, #ttnn_layout>) -> tensor<32x128xbf16, #ttnn_layout> loc(#loc16)
    return %0 : tensor<32x128xbf16, #ttnn_layout> loc(#loc16)
  } loc(#loc)
} loc(#loc)
#loc = loc(unknown)
#loc1 = loc("test_ops.py:17_0_0":0:4)
#loc2 = loc("test_ops.py:18_0_0":0:4)
#loc3 = loc("model.py":20:11)
#loc4 = loc("model.py":31:4)
#loc5 = loc("forward"(#loc4))
#loc6 = loc(callsite(#loc3 at #loc5))
#loc7 = loc("model.py":22:9)
#loc8 = loc("model.py":23:9)
#loc9 = loc("sort_0"(#loc1))
#loc10 = loc("softmax_1"(#loc2))
#loc11 = loc("sum_2"(#loc6))
#loc12 = loc(callsite("scale" at "model.py":21:8))
#loc13 = loc(fused[#loc7, #loc8])
#loc14 = loc(fused<"typecast">[#loc13, "typecast_5"])
#loc15 = loc("argmax_6"("model.py":24:10))
#loc16 = loc("multiply_7"(#loc12))
