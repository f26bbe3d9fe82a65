#loc = loc("ResNetForImageClassification")
#dram = #ttnn.buffer_type<dram>
#ttnn_layout = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 3584 + d1 * 64 + d2, d3), <1x1>, memref<896x8x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#system_memory = #ttnn.buffer_type<system_memory>
#ttnn_layout1 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 256 + d1 + d2, d3), <1x1>, memref<32768x1xbf16, #system_memory>>
#ttnn_layout2 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 32 + d1 * 32 + d2, d3), <1x1>, memref<1x4x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout3 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 384 + d1 * 3 + d2, d3), <1x1>, memref<49152x3xbf16, #system_memory>>
#ttnn_layout4 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 128 + d1 + d2, d3), <1x1>, memref<65536x1xbf16, #system_memory>>
#ttnn_layout5 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 32 + d1 * 32 + d2, d3), <1x1>, memref<1x16x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout6 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 256 + d1 + d2, d3), <1x1>, memref<131072x1xbf16, #system_memory>>
#ttnn_layout7 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 25088 + d1 * 25088 + d2, d3), <1x1>, memref<784x8x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout8 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 25088 + d1 * 25088 + d2, d3), <1x1>, memref<784x4x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout9 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 3584 + d1 * 64 + d2, d3), <1x1>, memref<896x4x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout10 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 6272 + d1 * 6272 + d2, d3), <1x1>, memref<196x4x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout11 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 896 + d1 * 32 + d2, d3), <1x1>, memref<224x4x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout12 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 6272 + d1 * 6272 + d2, d3), <1x1>, memref<196x16x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout13 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 896 + d1 * 32 + d2, d3), <1x1>, memref<224x16x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#l1 = #ttnn.buffer_type<l1>
#ttnn_layout14 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 3584 + d1 * 64 + d2, d3), <64x1>, memref<14x8x!ttcore.tile<32x32, bf16>, #l1>, <height_sharded>, core_ranges = <[#ttnn.core_range<(0, 0), (7, 7)>]>>
#ttnn_layout15 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 25088 + d1 * 25088 + d2, d3), <61x1>, memref<13x4x!ttcore.tile<32x32, bf16>, #l1>, <height_sharded>, core_ranges = <[#ttnn.core_range<(0, 0), (7, 6)>, #ttnn.core_range<(0, 7), (4, 7)>]>>
#ttnn_layout16 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 3584 + d1 * 64 + d2, d3), <8x8>, memref<1x56x!ttcore.tile<32x32, bf16>, #l1>, <interleaved>>
#ttnn_layout17 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 3584 + d1 * 64 + d2, d3), <64x1>, memref<14x4x!ttcore.tile<32x32, bf16>, #l1>, <height_sharded>, core_ranges = <[#ttnn.core_range<(0, 0), (7, 7)>]>>
#ttnn_layout18 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 25088 + d1 * 25088 + d2, d3), <8x8>, memref<1x49x!ttcore.tile<32x32, bf16>, #l1>, <interleaved>>
#ttnn_layout19 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 6272 + d1 * 6272 + d2, d3), <49x1>, memref<4x4x!ttcore.tile<32x32, bf16>, #l1>, <height_sharded>, core_ranges = <[#ttnn.core_range<(0, 0), (7, 5)>, #ttnn.core_range<(0, 6), (0, 6)>]>>
#ttnn_layout20 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 896 + d1 * 32 + d2, d3), <8x8>, memref<1x14x!ttcore.tile<32x32, bf16>, #l1>, <interleaved>>
#ttnn_layout21 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 896 + d1 * 32 + d2, d3), <56x1>, memref<4x4x!ttcore.tile<32x32, bf16>, #l1>, <height_sharded>, core_ranges = <[#ttnn.core_range<(0, 0), (7, 6)>]>>
#ttnn_layout22 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 6272 + d1 * 6272 + d2, d3), <8x8>, memref<1x13x!ttcore.tile<32x32, bf16>, #l1>, <interleaved>>
#ttnn_layout23 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 6272 + d1 * 6272 + d2, d3), <49x1>, memref<4x16x!ttcore.tile<32x32, bf16>, #l1>, <height_sharded>, core_ranges = <[#ttnn.core_range<(0, 0), (7, 5)>, #ttnn.core_range<(0, 6), (0, 6)>]>>
#ttnn_layout24 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 896 + d1 * 32 + d2, d3), <8x8>, memref<1x56x!ttcore.tile<32x32, bf16>, #l1>, <interleaved>>
#ttnn_layout25 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 896 + d1 * 32 + d2, d3), <8x8>, memref<28x2x!ttcore.tile<32x32, bf16>, #l1>, <block_sharded>, core_ranges = <[#ttnn.core_range<(0, 0), (7, 7)>]>>
#ttnn_layout26 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 6272 + d1 * 6272 + d2, d3), <8x8>, memref<25x2x!ttcore.tile<32x32, bf16>, #l1>, <block_sharded>, core_ranges = <[#ttnn.core_range<(0, 0), (7, 7)>]>>
#ttnn_layout27 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 25088 + d1 * 25088 + d2, d3), <61x1>, memref<13x8x!ttcore.tile<32x32, bf16>, #l1>, <height_sharded>, core_ranges = <[#ttnn.core_range<(0, 0), (7, 6)>, #ttnn.core_range<(0, 7), (4, 7)>]>>
#ttnn_layout28 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 25088 + d1 * 25088 + d2, d3), <49x1>, memref<16x4x!ttcore.tile<32x32, bf16>, #l1>, <height_sharded>, core_ranges = <[#ttnn.core_range<(0, 0), (7, 5)>, #ttnn.core_range<(0, 6), (0, 6)>]>>
#ttnn_layout29 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 25088 + d1 * 25088 + d2, d3), <8x8>, memref<98x1x!ttcore.tile<32x32, bf16>, #l1>, <block_sharded>, core_ranges = <[#ttnn.core_range<(0, 0), (7, 7)>]>>
#ttnn_layout30 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 3584 + d1 * 64 + d2, d3), <8x8>, memref<1x112x!ttcore.tile<32x32, bf16>, #l1>, <interleaved>>
#ttnn_layout31 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 6272 + d1 * 6272 + d2, d3), <8x8>, memref<1x49x!ttcore.tile<32x32, bf16>, #l1>, <interleaved>>
module @ResNetLayer2Module1 {
  func.func @forward(%arg0: tensor<8x56x56x256xbf16, #ttnn_layout> {ttcore.argument_type = #ttcore.argument_type<input>, ttir.name = "input"}, %arg1: tensor<128x256x1x1xbf16, #ttnn_layout1> {ttcore.argument_type = #ttcore.argument_type<parameter>, ttir.name = "resnet.encoder.stages.1.layers.0.layer.0.convolution.weight"}, %arg2: tensor<1x1x1x128xbf16, #ttnn_layout2> {ttcore.argument_type = #ttcore.argument_type<constant>, ttir.name = "input_0_multiply_183"}, %arg3: tensor<1x1x1x128xbf16, #ttnn_layout2> {ttcore.argument_type = #ttcore.argument_type<constant>, ttir.name = "input_0_multiply_183_fork_clone1065"}, %arg4: tensor<128x128x3x3xbf16, #ttnn_layout3> {ttcore.argument_type = #ttcore.argument_type<parameter>, ttir.name = "resnet.encoder.stages.1.layers.0.layer.1.convolution.weight"}, %arg5: tensor<1x1x1x128xbf16, #ttnn_layout2> {ttcore.argument_type = #ttcore.argument_type<constant>, ttir.name = "input_0_multiply_199"}, %arg6: tensor<1x1x1x128xbf16, #ttnn_layout2> {ttcore.argument_type = #ttcore.argument_type<constant>, ttir.name = "input_0_multiply_199_fork_clone962"}, %arg7: tensor<512x128x1x1xbf16, #ttnn_layout4> {ttcore.argument_type = #ttcore.argument_type<parameter>, ttir.name = "resnet.encoder.stages.1.layers.0.layer.2.convolution.weight"}, %arg8: tensor<1x1x1x512xbf16, #ttnn_layout5> {ttcore.argument_type = #ttcore.argument_type<constant>, ttir.name = "input_0_multiply_215"}, %arg9: tensor<1x1x1x512xbf16, #ttnn_layout5> {ttcore.argument_type = #ttcore.argument_type<constant>, ttir.name = "input_0_multiply_215_fork_clone853"}, %arg10: tensor<512x256x1x1xbf16, #ttnn_layout6> {ttcore.argument_type = #ttcore.argument_type<parameter>, ttir.name = "resnet.encoder.stages.1.layers.0.shortcut.convolution.weight"}, %arg11: tensor<1x1x1x512xbf16, #ttnn_layout5> {ttcore.argument_type = #ttcore.argument_type<constant>, ttir.name = "input_0_multiply_230"}, %arg12: tensor<1x1x1x512xbf16, #ttnn_layout5> {ttcore.argument_type = #ttcore.argument_type<constant>, ttir.name = "input_0_multiply_230_fork_clone857"}) -> (tensor<8x28x28x512xbf16, #ttnn_layout13> {ttir.name = "output"}) {
    %0 = "ttnn.relu"(%arg0) : (tensor<8x56x56x256xbf16, #ttnn_layout>) -> tensor<8x56x56x256xbf16, #ttnn_layout14> loc(#loc1)
    %1 = "ttnn.to_layout"(%0) : (tensor<8x56x56x256xbf16, #ttnn_layout14>) -> tensor<8x56x56x256xbf16, #ttnn_layout30> loc("initial_relu_spill")
    "ttnn.deallocate"(%0) <{force = false}> : (tensor<8x56x56x256xbf16, #ttnn_layout14>) -> ()
    %2 = "ttnn.reshape"(%1) <{shape = [1 : i32, 1 : i32, 25088 : i32, 256 : i32]}> : (tensor<8x56x56x256xbf16, #ttnn_layout30>) -> tensor<1x1x25088x256xbf16, #ttnn_layout7> loc(#loc2)
    %3 = "ttnn.get_device"() <{mesh_shape = #ttnn<mesh_shape 1x1>}> : () -> !ttnn.device
    %4 = "ttnn.to_layout"(%2) : (tensor<1x1x25088x256xbf16, #ttnn_layout7>) -> tensor<1x1x25088x256xbf16, #ttnn_layout27> loc("conv1_mem_reconfig")
    "ttnn.deallocate"(%2) <{force = false}> : (tensor<1x1x25088x256xbf16, #ttnn_layout7>) -> ()
    %5 = "ttnn.conv2d"(%4, %arg1, %3) <{batch_size = 8 : i32, conv2d_config = #ttnn.conv2d_config<weights_dtype = bf16, deallocate_activation = true, act_block_h_override = 0>, conv2d_slice_config = #ttnn.conv2d_slice_config<l1_full, 0>, dilation = array<i32: 1, 1>, groups = 1 : i32, in_channels = 256 : i32, input_height = 56 : i32, input_width = 56 : i32, kernel_size = array<i32: 1, 1>, out_channels = 128 : i32, padding = array<i32: 0, 0, 0, 0>, stride = array<i32: 1, 1>}> : (tensor<1x1x25088x256xbf16, #ttnn_layout27>, tensor<128x256x1x1xbf16, #ttnn_layout1>, !ttnn.device) -> tensor<1x1x25088x128xbf16, #ttnn_layout15> loc(#loc2)
    "ttnn.deallocate"(%4) <{force = false}> : (tensor<1x1x25088x256xbf16, #ttnn_layout27>) -> ()
    %6 = "ttnn.to_layout"(%5) : (tensor<1x1x25088x128xbf16, #ttnn_layout15>) -> tensor<1x1x25088x128xbf16, #ttnn_layout18> loc("conv1_spill")
    "ttnn.deallocate"(%5) <{force = false}> : (tensor<1x1x25088x128xbf16, #ttnn_layout15>) -> ()
    %7 = "ttnn.reshape"(%6) <{shape = [8 : i32, 56 : i32, 56 : i32, 128 : i32]}> : (tensor<1x1x25088x128xbf16, #ttnn_layout18>) -> tensor<8x56x56x128xbf16, #ttnn_layout16> loc(#loc2)
    "ttnn.deallocate"(%6) <{force = false}> : (tensor<1x1x25088x128xbf16, #ttnn_layout18>) -> ()
    %8 = "ttnn.multiply"(%7, %arg2) : (tensor<8x56x56x128xbf16, #ttnn_layout16>, tensor<1x1x1x128xbf16, #ttnn_layout2>) -> tensor<8x56x56x128xbf16, #ttnn_layout17> loc(#loc3)
    "ttnn.deallocate"(%7) <{force = false}> : (tensor<8x56x56x128xbf16, #ttnn_layout16>) -> ()
    %9 = "ttnn.add"(%8, %arg3) : (tensor<8x56x56x128xbf16, #ttnn_layout17>, tensor<1x1x1x128xbf16, #ttnn_layout2>) -> tensor<8x56x56x128xbf16, #ttnn_layout17> loc(#loc4)
    "ttnn.deallocate"(%8) <{force = false}> : (tensor<8x56x56x128xbf16, #ttnn_layout17>) -> ()
    %10 = "ttnn.relu"(%9) : (tensor<8x56x56x128xbf16, #ttnn_layout17>) -> tensor<8x56x56x128xbf16, #ttnn_layout17> loc(#loc5)
    "ttnn.deallocate"(%9) <{force = false}> : (tensor<8x56x56x128xbf16, #ttnn_layout17>) -> ()
    %11 = "ttnn.to_layout"(%10) : (tensor<8x56x56x128xbf16, #ttnn_layout17>) -> tensor<8x56x56x128xbf16, #ttnn_layout16> loc("conv1_relu_spill")
    "ttnn.deallocate"(%10) <{force = false}> : (tensor<8x56x56x128xbf16, #ttnn_layout17>) -> ()
    %12 = "ttnn.reshape"(%11) <{shape = [1 : i32, 1 : i32, 25088 : i32, 128 : i32]}> : (tensor<8x56x56x128xbf16, #ttnn_layout16>) -> tensor<1x1x25088x128xbf16, #ttnn_layout18> loc(#loc6)
    "ttnn.deallocate"(%11) <{force = false}> : (tensor<8x56x56x128xbf16, #ttnn_layout16>) -> ()
    %13 = "ttnn.to_layout"(%12) : (tensor<1x1x25088x128xbf16, #ttnn_layout18>) -> tensor<1x1x25088x128xbf16, #ttnn_layout28> loc("conv2_mem_reconfig")
    "ttnn.deallocate"(%12) <{force = false}> : (tensor<1x1x25088x128xbf16, #ttnn_layout18>) -> ()
    %14 = "ttnn.conv2d"(%13, %arg4, %3) <{batch_size = 8 : i32, conv2d_config = #ttnn.conv2d_config<weights_dtype = bf16, deallocate_activation = true, act_block_h_override = 0>, conv2d_slice_config = #ttnn.conv2d_slice_config<l1_full, 0>, dilation = array<i32: 1, 1>, groups = 1 : i32, in_channels = 128 : i32, input_height = 56 : i32, input_width = 56 : i32, kernel_size = array<i32: 3, 3>, out_channels = 128 : i32, padding = array<i32: 1, 1, 1, 1>, stride = array<i32: 2, 2>}> : (tensor<1x1x25088x128xbf16, #ttnn_layout28>, tensor<128x128x3x3xbf16, #ttnn_layout3>, !ttnn.device) -> tensor<1x1x6272x128xbf16, #ttnn_layout19> loc(#loc6)
    "ttnn.deallocate"(%13) <{force = false}> : (tensor<1x1x25088x128xbf16, #ttnn_layout28>) -> ()
    %15 = "ttnn.to_layout"(%14) : (tensor<1x1x6272x128xbf16, #ttnn_layout19>) -> tensor<1x1x6272x128xbf16, #ttnn_layout22> loc("conv2_spill")
    "ttnn.deallocate"(%14) <{force = false}> : (tensor<1x1x6272x128xbf16, #ttnn_layout19>) -> ()
    %16 = "ttnn.reshape"(%15) <{shape = [8 : i32, 28 : i32, 28 : i32, 128 : i32]}> : (tensor<1x1x6272x128xbf16, #ttnn_layout22>) -> tensor<8x28x28x128xbf16, #ttnn_layout20> loc(#loc6)
    "ttnn.deallocate"(%15) <{force = false}> : (tensor<1x1x6272x128xbf16, #ttnn_layout22>) -> ()
    %17 = "ttnn.multiply"(%16, %arg5) : (tensor<8x28x28x128xbf16, #ttnn_layout20>, tensor<1x1x1x128xbf16, #ttnn_layout2>) -> tensor<8x28x28x128xbf16, #ttnn_layout21> loc(#loc7)
    "ttnn.deallocate"(%16) <{force = false}> : (tensor<8x28x28x128xbf16, #ttnn_layout20>) -> ()
    %18 = "ttnn.add"(%17, %arg6) : (tensor<8x28x28x128xbf16, #ttnn_layout21>, tensor<1x1x1x128xbf16, #ttnn_layout2>) -> tensor<8x28x28x128xbf16, #ttnn_layout21> loc(#loc8)
    "ttnn.deallocate"(%17) <{force = false}> : (tensor<8x28x28x128xbf16, #ttnn_layout21>) -> ()
    %19 = "ttnn.relu"(%18) : (tensor<8x28x28x128xbf16, #ttnn_layout21>) -> tensor<8x28x28x128xbf16, #ttnn_layout21> loc(#loc9)
    "ttnn.deallocate"(%18) <{force = false}> : (tensor<8x28x28x128xbf16, #ttnn_layout21>) -> ()
    %20 = "ttnn.to_layout"(%19) : (tensor<8x28x28x128xbf16, #ttnn_layout21>) -> tensor<8x28x28x128xbf16, #ttnn_layout20> loc("conv2_relu_spill")
    "ttnn.deallocate"(%19) <{force = false}> : (tensor<8x28x28x128xbf16, #ttnn_layout21>) -> ()
    %21 = "ttnn.reshape"(%20) <{shape = [1 : i32, 1 : i32, 6272 : i32, 128 : i32]}> : (tensor<8x28x28x128xbf16, #ttnn_layout20>) -> tensor<1x1x6272x128xbf16, #ttnn_layout22> loc(#loc10)
    "ttnn.deallocate"(%20) <{force = false}> : (tensor<8x28x28x128xbf16, #ttnn_layout20>) -> ()
    %22 = "ttnn.to_layout"(%21) : (tensor<1x1x6272x128xbf16, #ttnn_layout22>) -> tensor<1x1x6272x128xbf16, #ttnn_layout19> loc("conv3_mem_reconfig")
    "ttnn.deallocate"(%21) <{force = false}> : (tensor<1x1x6272x128xbf16, #ttnn_layout22>) -> ()
    %23 = "ttnn.conv2d"(%22, %arg7, %3) <{batch_size = 8 : i32, conv2d_config = #ttnn.conv2d_config<weights_dtype = bf16, deallocate_activation = true, act_block_h_override = 0>, conv2d_slice_config = #ttnn.conv2d_slice_config<l1_full, 0>, dilation = array<i32: 1, 1>, groups = 1 : i32, in_channels = 128 : i32, input_height = 28 : i32, input_width = 28 : i32, kernel_size = array<i32: 1, 1>, out_channels = 512 : i32, padding = array<i32: 0, 0, 0, 0>, stride = array<i32: 1, 1>}> : (tensor<1x1x6272x128xbf16, #ttnn_layout19>, tensor<512x128x1x1xbf16, #ttnn_layout4>, !ttnn.device) -> tensor<1x1x6272x512xbf16, #ttnn_layout23> loc(#loc10)
    "ttnn.deallocate"(%22) <{force = false}> : (tensor<1x1x6272x128xbf16, #ttnn_layout19>) -> ()
    %24 = "ttnn.to_layout"(%23) : (tensor<1x1x6272x512xbf16, #ttnn_layout23>) -> tensor<1x1x6272x512xbf16, #ttnn_layout31> loc("conv3_spill")
    "ttnn.deallocate"(%23) <{force = false}> : (tensor<1x1x6272x512xbf16, #ttnn_layout23>) -> ()
    %25 = "ttnn.reshape"(%24) <{shape = [8 : i32, 28 : i32, 28 : i32, 512 : i32]}> : (tensor<1x1x6272x512xbf16, #ttnn_layout31>) -> tensor<8x28x28x512xbf16, #ttnn_layout24> loc(#loc10)
    "ttnn.deallocate"(%24) <{force = false}> : (tensor<1x1x6272x512xbf16, #ttnn_layout31>) -> ()
    %26 = "ttnn.multiply"(%25, %arg8) : (tensor<8x28x28x512xbf16, #ttnn_layout24>, tensor<1x1x1x512xbf16, #ttnn_layout5>) -> tensor<8x28x28x512xbf16, #ttnn_layout25> loc(#loc11)
    "ttnn.deallocate"(%25) <{force = false}> : (tensor<8x28x28x512xbf16, #ttnn_layout24>) -> ()
    %27 = "ttnn.add"(%26, %arg9) : (tensor<8x28x28x512xbf16, #ttnn_layout25>, tensor<1x1x1x512xbf16, #ttnn_layout5>) -> tensor<8x28x28x512xbf16, #ttnn_layout25> loc(#loc12)
    "ttnn.deallocate"(%26) <{force = false}> : (tensor<8x28x28x512xbf16, #ttnn_layout25>) -> ()
    %28 = "ttnn.reshape"(%1) <{shape = [1 : i32, 1 : i32, 25088 : i32, 256 : i32]}> : (tensor<8x56x56x256xbf16, #ttnn_layout30>) -> tensor<1x1x25088x256xbf16, #ttnn_layout7> loc(#loc13)
    "ttnn.deallocate"(%1) <{force = false}> : (tensor<8x56x56x256xbf16, #ttnn_layout30>) -> ()
    %29 = "ttnn.to_layout"(%28) : (tensor<1x1x25088x256xbf16, #ttnn_layout7>) -> tensor<1x1x25088x256xbf16, #ttnn_layout29> loc("shortcut_mem_reconfig")
    "ttnn.deallocate"(%28) <{force = false}> : (tensor<1x1x25088x256xbf16, #ttnn_layout7>) -> ()
    %30 = "ttnn.conv2d"(%29, %arg10, %3) <{batch_size = 8 : i32, conv2d_config = #ttnn.conv2d_config<weights_dtype = bf16, deallocate_activation = true, act_block_h_override = 0>, conv2d_slice_config = #ttnn.conv2d_slice_config<l1_full, 0>, dilation = array<i32: 1, 1>, groups = 1 : i32, in_channels = 256 : i32, input_height = 56 : i32, input_width = 56 : i32, kernel_size = array<i32: 1, 1>, out_channels = 512 : i32, padding = array<i32: 0, 0, 0, 0>, stride = array<i32: 2, 2>}> : (tensor<1x1x25088x256xbf16, #ttnn_layout29>, tensor<512x256x1x1xbf16, #ttnn_layout6>, !ttnn.device) -> tensor<1x1x6272x512xbf16, #ttnn_layout26> loc(#loc13)
    "ttnn.deallocate"(%29) <{force = false}> : (tensor<1x1x25088x256xbf16, #ttnn_layout29>) -> ()
    %31 = "ttnn.to_layout"(%30) : (tensor<1x1x6272x512xbf16, #ttnn_layout26>) -> tensor<1x1x6272x512xbf16, #ttnn_layout31> loc("shortcut_spill")
    "ttnn.deallocate"(%30) <{force = false}> : (tensor<1x1x6272x512xbf16, #ttnn_layout26>) -> ()
    %32 = "ttnn.reshape"(%31) <{shape = [8 : i32, 28 : i32, 28 : i32, 512 : i32]}> : (tensor<1x1x6272x512xbf16, #ttnn_layout31>) -> tensor<8x28x28x512xbf16, #ttnn_layout24> loc(#loc13)
    "ttnn.deallocate"(%31) <{force = false}> : (tensor<1x1x6272x512xbf16, #ttnn_layout31>) -> ()
    %33 = "ttnn.multiply"(%32, %arg11) : (tensor<8x28x28x512xbf16, #ttnn_layout24>, tensor<1x1x1x512xbf16, #ttnn_layout5>) -> tensor<8x28x28x512xbf16, #ttnn_layout25> loc(#loc14)
    "ttnn.deallocate"(%32) <{force = false}> : (tensor<8x28x28x512xbf16, #ttnn_layout24>) -> ()
    %34 = "ttnn.add"(%33, %arg12) : (tensor<8x28x28x512xbf16, #ttnn_layout25>, tensor<1x1x1x512xbf16, #ttnn_layout5>) -> tensor<8x28x28x512xbf16, #ttnn_layout25> loc(#loc15)
    "ttnn.deallocate"(%33) <{force = false}> : (tensor<8x28x28x512xbf16, #ttnn_layout25>) -> ()
    %35 = "ttnn.add"(%27, %34) : (tensor<8x28x28x512xbf16, #ttnn_layout25>, tensor<8x28x28x512xbf16, #ttnn_layout25>) -> tensor<8x28x28x512xbf16, #ttnn_layout25> loc(#loc16)
    "ttnn.deallocate"(%27) <{force = false}> : (tensor<8x28x28x512xbf16, #ttnn_layout25>) -> ()
    "ttnn.deallocate"(%34) <{force = false}> : (tensor<8x28x28x512xbf16, #ttnn_layout25>) -> ()
    %36 = "ttnn.to_layout"(%35) : (tensor<8x28x28x512xbf16, #ttnn_layout25>) -> tensor<8x28x28x512xbf16, #ttnn_layout13> loc("residual_add_spill")
    "ttnn.deallocate"(%35) <{force = false}> : (tensor<8x28x28x512xbf16, #ttnn_layout25>) -> ()
    return %36 : tensor<8x28x28x512xbf16, #ttnn_layout13>
  }
}
#loc1 = loc("initial_relu")
#loc2 = loc("conv1")
#loc3 = loc("conv1_scale")
#loc4 = loc("conv1_bias")
#loc5 = loc("conv1_relu")
#loc6 = loc("conv2")
#loc7 = loc("conv2_scale")
#loc8 = loc("conv2_bias")
#loc9 = loc("conv2_relu")
#loc10 = loc("conv3")
#loc11 = loc("conv3_scale")
#loc12 = loc("conv3_bias")
#loc13 = loc("shortcut")
#loc14 = loc("shortcut_scale")
#loc15 = loc("shortcut_bias")
#loc16 = loc("residual_add")
