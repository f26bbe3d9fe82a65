#loc = loc("ResNetForImageClassification")
#dram = #ttnn.buffer_type<dram>
#ttnn_layout = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 448 + d1 * 32 + d2, d3), <1x1>, memref<112x32x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout1 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 32 + d1 * 32 + d2, d3), <1x1>, memref<1x16x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout2 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 65536 + d1 * 32 + d2, d3), <1x1>, memref<2048x1x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#system_memory = #ttnn.buffer_type<system_memory>
#ttnn_layout3 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 1024 + d1 + d2, d3), <1x1>, memref<524288x1xbf16, #system_memory>>
#ttnn_layout4 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 1536 + d1 * 3 + d2, d3), <1x1>, memref<786432x3xbf16, #system_memory>>
#ttnn_layout5 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 512 + d1 + d2, d3), <1x1>, memref<1048576x1xbf16, #system_memory>>
#ttnn_layout6 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 1024 + d1 + d2, d3), <1x1>, memref<2097152x1xbf16, #system_memory>>
#ttnn_layout7 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 1568 + d1 * 1568 + d2, d3), <1x1>, memref<49x32x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout8 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 1568 + d1 * 1568 + d2, d3), <1x1>, memref<49x16x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout9 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 448 + d1 * 32 + d2, d3), <1x1>, memref<112x16x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout10 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 416 + d1 * 416 + d2, d3), <1x1>, memref<13x16x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout11 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 224 + d1 * 32 + d2, d3), <1x1>, memref<56x16x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout12 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 416 + d1 * 416 + d2, d3), <1x1>, memref<13x64x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout13 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 224 + d1 * 32 + d2, d3), <1x1>, memref<56x64x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout14 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 14336 + d1 * 2048 + d2, d3), <1x1>, memref<3584x1x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout15 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 65536 + d1 * 32 + d2, d3), <1x1>, memref<16384x1x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#l1 = #ttnn.buffer_type<l1>
#ttnn_layout16 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 448 + d1 * 32 + d2, d3), <8x8>, memref<14x4x!ttcore.tile<32x32, bf16>, #l1>, <block_sharded>, core_ranges = <[#ttnn.core_range<(0, 0), (7, 7)>]>>
#ttnn_layout17 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 1568 + d1 * 1568 + d2, d3), <7x8>, memref<7x2x!ttcore.tile<32x32, bf16>, #l1>, <block_sharded>, core_ranges = <[#ttnn.core_range<(0, 0), (7, 6)>]>>
#ttnn_layout18 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 448 + d1 * 32 + d2, d3), <8x8>, memref<1x28x!ttcore.tile<32x32, bf16>, #l1>, <interleaved>>
#ttnn_layout19 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 448 + d1 * 32 + d2, d3), <8x8>, memref<14x2x!ttcore.tile<32x32, bf16>, #l1>, <block_sharded>, core_ranges = <[#ttnn.core_range<(0, 0), (7, 7)>]>>
#ttnn_layout20 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 1568 + d1 * 1568 + d2, d3), <8x8>, memref<1x13x!ttcore.tile<32x32, bf16>, #l1>, <interleaved>>
#ttnn_layout21 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 416 + d1 * 416 + d2, d3), <7x8>, memref<2x2x!ttcore.tile<32x32, bf16>, #l1>, <block_sharded>, core_ranges = <[#ttnn.core_range<(0, 0), (7, 6)>]>>
#ttnn_layout22 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 224 + d1 * 32 + d2, d3), <8x8>, memref<7x2x!ttcore.tile<32x32, bf16>, #l1>, <block_sharded>, core_ranges = <[#ttnn.core_range<(0, 0), (7, 7)>]>>
#ttnn_layout23 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 416 + d1 * 416 + d2, d3), <8x8>, memref<1x4x!ttcore.tile<32x32, bf16>, #l1>, <interleaved>>
#ttnn_layout24 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 416 + d1 * 416 + d2, d3), <7x8>, memref<2x8x!ttcore.tile<32x32, bf16>, #l1>, <block_sharded>, core_ranges = <[#ttnn.core_range<(0, 0), (7, 6)>]>>
#ttnn_layout25 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 65536 + d1 * 32 + d2, d3), <64x1>, memref<256x1x!ttcore.tile<32x32, bf16>, #l1>, <height_sharded>, core_ranges = <[#ttnn.core_range<(0, 0), (7, 7)>]>>
#ttnn_layout26 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 1568 + d1 * 1568 + d2, d3), <7x8>, memref<7x4x!ttcore.tile<32x32, bf16>, #l1>, <block_sharded>, core_ranges = <[#ttnn.core_range<(0, 0), (7, 6)>]>>
#ttnn_layout27 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 448 + d1 * 32 + d2, d3), <8x8>, memref<1x56x!ttcore.tile<32x32, bf16>, #l1>, <interleaved>>
#ttnn_layout28 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 224 + d1 * 32 + d2, d3), <8x8>, memref<1x14x!ttcore.tile<32x32, bf16>, #l1>, <interleaved>>
module @ResNetLayer4Module1 {
  func.func @forward(%arg0: tensor<8x14x14x1024xbf16, #ttnn_layout> {ttcore.argument_type = #ttcore.argument_type<input>, ttir.name = "input"}, %arg1: tensor<1x1x1x512xbf16, #ttnn_layout1> {ttcore.argument_type = #ttcore.argument_type<constant>, ttir.name = "input_0_multiply_703"}, %arg2: tensor<1x1x1x512xbf16, #ttnn_layout1> {ttcore.argument_type = #ttcore.argument_type<constant>, ttir.name = "input_0_multiply_703_fork_clone287"}, %arg3: tensor<1x1x1x512xbf16, #ttnn_layout1> {ttcore.argument_type = #ttcore.argument_type<constant>, ttir.name = "input_0_multiply_719"}, %arg4: tensor<1x1x1x512xbf16, #ttnn_layout1> {ttcore.argument_type = #ttcore.argument_type<constant>, ttir.name = "input_0_multiply_719_fork_clone190"}, %arg5: tensor<1x2048x1x1xbf16, #ttnn_layout2> {ttcore.argument_type = #ttcore.argument_type<constant>, ttir.name = "input_0_multiply_735"}, %arg6: tensor<1x2048x1x1xbf16, #ttnn_layout2> {ttcore.argument_type = #ttcore.argument_type<constant>, ttir.name = "input_0_multiply_735_fork_clone101"}, %arg7: tensor<1x2048x1x1xbf16, #ttnn_layout2> {ttcore.argument_type = #ttcore.argument_type<constant>, ttir.name = "input_0_multiply_750"}, %arg8: tensor<1x2048x1x1xbf16, #ttnn_layout2> {ttcore.argument_type = #ttcore.argument_type<constant>, ttir.name = "input_0_multiply_750_fork_clone105"}, %arg9: tensor<512x1024x1x1xbf16, #ttnn_layout3> {ttcore.argument_type = #ttcore.argument_type<parameter>, ttir.name = "resnet.encoder.stages.3.layers.0.layer.0.convolution.weight"}, %arg10: tensor<512x512x3x3xbf16, #ttnn_layout4> {ttcore.argument_type = #ttcore.argument_type<parameter>, ttir.name = "resnet.encoder.stages.3.layers.0.layer.1.convolution.weight"}, %arg11: tensor<2048x512x1x1xbf16, #ttnn_layout5> {ttcore.argument_type = #ttcore.argument_type<parameter>, ttir.name = "resnet.encoder.stages.3.layers.0.layer.2.convolution.weight"}, %arg12: tensor<2048x1024x1x1xbf16, #ttnn_layout6> {ttcore.argument_type = #ttcore.argument_type<parameter>, ttir.name = "resnet.encoder.stages.3.layers.0.shortcut.convolution.weight"}) -> (tensor<8x2048x7x7xbf16, #ttnn_layout15> {ttir.name = "output"}) {
    %0 = "ttnn.relu"(%arg0) : (tensor<8x14x14x1024xbf16, #ttnn_layout>) -> tensor<8x14x14x1024xbf16, #ttnn_layout16> loc(#loc1)
    %1 = "ttnn.to_layout"(%0) : (tensor<8x14x14x1024xbf16, #ttnn_layout16>) -> tensor<8x14x14x1024xbf16, #ttnn_layout27> loc("initial_relu_spill")
    "ttnn.deallocate"(%0) <{force = false}> : (tensor<8x14x14x1024xbf16, #ttnn_layout16>) -> ()
    %2 = "ttnn.reshape"(%1) <{shape = [1 : i32, 1 : i32, 1568 : i32, 1024 : i32]}> : (tensor<8x14x14x1024xbf16, #ttnn_layout27>) -> tensor<1x1x1568x1024xbf16, #ttnn_layout7> loc(#loc2)
    %3 = "ttnn.get_device"() <{mesh_shape = #ttnn<mesh_shape 1x1>}> : () -> !ttnn.device
    %4 = "ttnn.to_layout"(%2) : (tensor<1x1x1568x1024xbf16, #ttnn_layout7>) -> tensor<1x1x1568x1024xbf16, #ttnn_layout26> loc("conv1_mem_reconfig")
    "ttnn.deallocate"(%2) <{force = false}> : (tensor<1x1x1568x1024xbf16, #ttnn_layout7>) -> ()
    %5 = "ttnn.conv2d"(%4, %arg9, %3) <{batch_size = 8 : i32, conv2d_config = #ttnn.conv2d_config<weights_dtype = bf16, deallocate_activation = true, act_block_h_override = 0>, conv2d_slice_config = #ttnn.conv2d_slice_config<l1_full, 0>, dilation = array<i32: 1, 1>, groups = 1 : i32, in_channels = 1024 : i32, input_height = 14 : i32, input_width = 14 : i32, kernel_size = array<i32: 1, 1>, out_channels = 512 : i32, padding = array<i32: 0, 0, 0, 0>, stride = array<i32: 1, 1>}> : (tensor<1x1x1568x1024xbf16, #ttnn_layout26>, tensor<512x1024x1x1xbf16, #ttnn_layout3>, !ttnn.device) -> tensor<1x1x1568x512xbf16, #ttnn_layout17> loc(#loc2)
    "ttnn.deallocate"(%4) <{force = false}> : (tensor<1x1x1568x1024xbf16, #ttnn_layout26>) -> ()
    %6 = "ttnn.to_layout"(%5) : (tensor<1x1x1568x512xbf16, #ttnn_layout17>) -> tensor<1x1x1568x512xbf16, #ttnn_layout20> loc("conv1_spill")
    "ttnn.deallocate"(%5) <{force = false}> : (tensor<1x1x1568x512xbf16, #ttnn_layout17>) -> ()
    %7 = "ttnn.reshape"(%6) <{shape = [8 : i32, 14 : i32, 14 : i32, 512 : i32]}> : (tensor<1x1x1568x512xbf16, #ttnn_layout20>) -> tensor<8x14x14x512xbf16, #ttnn_layout18> loc(#loc2)
    "ttnn.deallocate"(%6) <{force = false}> : (tensor<1x1x1568x512xbf16, #ttnn_layout20>) -> ()
    %8 = "ttnn.multiply"(%7, %arg1) : (tensor<8x14x14x512xbf16, #ttnn_layout18>, tensor<1x1x1x512xbf16, #ttnn_layout1>) -> tensor<8x14x14x512xbf16, #ttnn_layout19> loc(#loc3)
    "ttnn.deallocate"(%7) <{force = false}> : (tensor<8x14x14x512xbf16, #ttnn_layout18>) -> ()
    %9 = "ttnn.add"(%8, %arg2) : (tensor<8x14x14x512xbf16, #ttnn_layout19>, tensor<1x1x1x512xbf16, #ttnn_layout1>) -> tensor<8x14x14x512xbf16, #ttnn_layout19> loc(#loc4)
    "ttnn.deallocate"(%8) <{force = false}> : (tensor<8x14x14x512xbf16, #ttnn_layout19>) -> ()
    %10 = "ttnn.relu"(%9) : (tensor<8x14x14x512xbf16, #ttnn_layout19>) -> tensor<8x14x14x512xbf16, #ttnn_layout19> loc(#loc5)
    "ttnn.deallocate"(%9) <{force = false}> : (tensor<8x14x14x512xbf16, #ttnn_layout19>) -> ()
    %11 = "ttnn.to_layout"(%10) : (tensor<8x14x14x512xbf16, #ttnn_layout19>) -> tensor<8x14x14x512xbf16, #ttnn_layout18> loc("conv1_relu_spill")
    "ttnn.deallocate"(%10) <{force = false}> : (tensor<8x14x14x512xbf16, #ttnn_layout19>) -> ()
    %12 = "ttnn.reshape"(%11) <{shape = [1 : i32, 1 : i32, 1568 : i32, 512 : i32]}> : (tensor<8x14x14x512xbf16, #ttnn_layout18>) -> tensor<1x1x1568x512xbf16, #ttnn_layout20> loc(#loc6)
    "ttnn.deallocate"(%11) <{force = false}> : (tensor<8x14x14x512xbf16, #ttnn_layout18>) -> ()
    %13 = "ttnn.to_layout"(%12) : (tensor<1x1x1568x512xbf16, #ttnn_layout20>) -> tensor<1x1x1568x512xbf16, #ttnn_layout17> loc("conv2_mem_reconfig")
    "ttnn.deallocate"(%12) <{force = false}> : (tensor<1x1x1568x512xbf16, #ttnn_layout20>) -> ()
    %14 = "ttnn.conv2d"(%13, %arg10, %3) <{batch_size = 8 : i32, conv2d_config = #ttnn.conv2d_config<weights_dtype = bf16, deallocate_activation = true, act_block_h_override = 0>, conv2d_slice_config = #ttnn.conv2d_slice_config<l1_full, 0>, dilation = array<i32: 1, 1>, groups = 1 : i32, in_channels = 512 : i32, input_height = 14 : i32, input_width = 14 : i32, kernel_size = array<i32: 3, 3>, out_channels = 512 : i32, padding = array<i32: 1, 1, 1, 1>, stride = array<i32: 2, 2>}> : (tensor<1x1x1568x512xbf16, #ttnn_layout17>, tensor<512x512x3x3xbf16, #ttnn_layout4>, !ttnn.device) -> tensor<1x1x392x512xbf16, #ttnn_layout21> loc(#loc6)
    "ttnn.deallocate"(%13) <{force = false}> : (tensor<1x1x1568x512xbf16, #ttnn_layout17>) -> ()
    %15 = "ttnn.to_layout"(%14) : (tensor<1x1x392x512xbf16, #ttnn_layout21>) -> tensor<1x1x392x512xbf16, #ttnn_layout10> loc("conv2_spill")
    "ttnn.deallocate"(%14) <{force = false}> : (tensor<1x1x392x512xbf16, #ttnn_layout21>) -> ()
    %16 = "ttnn.reshape"(%15) <{shape = [8 : i32, 7 : i32, 7 : i32, 512 : i32]}> : (tensor<1x1x392x512xbf16, #ttnn_layout10>) -> tensor<8x7x7x512xbf16, #ttnn_layout11> loc(#loc6)
    "ttnn.deallocate"(%15) <{force = false}> : (tensor<1x1x392x512xbf16, #ttnn_layout10>) -> ()
    %17 = "ttnn.multiply"(%16, %arg3) : (tensor<8x7x7x512xbf16, #ttnn_layout11>, tensor<1x1x1x512xbf16, #ttnn_layout1>) -> tensor<8x7x7x512xbf16, #ttnn_layout22> loc(#loc7)
    "ttnn.deallocate"(%16) <{force = false}> : (tensor<8x7x7x512xbf16, #ttnn_layout11>) -> ()
    %18 = "ttnn.add"(%17, %arg4) : (tensor<8x7x7x512xbf16, #ttnn_layout22>, tensor<1x1x1x512xbf16, #ttnn_layout1>) -> tensor<8x7x7x512xbf16, #ttnn_layout22> loc(#loc8)
    "ttnn.deallocate"(%17) <{force = false}> : (tensor<8x7x7x512xbf16, #ttnn_layout22>) -> ()
    %19 = "ttnn.relu"(%18) : (tensor<8x7x7x512xbf16, #ttnn_layout22>) -> tensor<8x7x7x512xbf16, #ttnn_layout22> loc(#loc9)
    "ttnn.deallocate"(%18) <{force = false}> : (tensor<8x7x7x512xbf16, #ttnn_layout22>) -> ()
    %20 = "ttnn.to_layout"(%19) : (tensor<8x7x7x512xbf16, #ttnn_layout22>) -> tensor<8x7x7x512xbf16, #ttnn_layout28> loc("conv2_relu_spill")
    "ttnn.deallocate"(%19) <{force = false}> : (tensor<8x7x7x512xbf16, #ttnn_layout22>) -> ()
    %21 = "ttnn.reshape"(%20) <{shape = [1 : i32, 1 : i32, 392 : i32, 512 : i32]}> : (tensor<8x7x7x512xbf16, #ttnn_layout28>) -> tensor<1x1x392x512xbf16, #ttnn_layout23> loc(#loc10)
    "ttnn.deallocate"(%20) <{force = false}> : (tensor<8x7x7x512xbf16, #ttnn_layout28>) -> ()
    %22 = "ttnn.to_layout"(%21) : (tensor<1x1x392x512xbf16, #ttnn_layout23>) -> tensor<1x1x392x512xbf16, #ttnn_layout21> loc("conv3_mem_reconfig")
    "ttnn.deallocate"(%21) <{force = false}> : (tensor<1x1x392x512xbf16, #ttnn_layout23>) -> ()
    %23 = "ttnn.conv2d"(%22, %arg11, %3) <{batch_size = 8 : i32, conv2d_config = #ttnn.conv2d_config<weights_dtype = bf16, deallocate_activation = true, act_block_h_override = 0>, conv2d_slice_config = #ttnn.conv2d_slice_config<l1_full, 0>, dilation = array<i32: 1, 1>, groups = 1 : i32, in_channels = 512 : i32, input_height = 7 : i32, input_width = 7 : i32, kernel_size = array<i32: 1, 1>, out_channels = 2048 : i32, padding = array<i32: 0, 0, 0, 0>, stride = array<i32: 1, 1>}> : (tensor<1x1x392x512xbf16, #ttnn_layout21>, tensor<2048x512x1x1xbf16, #ttnn_layout5>, !ttnn.device) -> tensor<1x1x392x2048xbf16, #ttnn_layout24> loc(#loc10)
    "ttnn.deallocate"(%22) <{force = false}> : (tensor<1x1x392x512xbf16, #ttnn_layout21>) -> ()
    %24 = "ttnn.to_layout"(%23) : (tensor<1x1x392x2048xbf16, #ttnn_layout24>) -> tensor<1x1x392x2048xbf16, #ttnn_layout12> loc("conv3_spill")
    "ttnn.deallocate"(%23) <{force = false}> : (tensor<1x1x392x2048xbf16, #ttnn_layout24>) -> ()
    %25 = "ttnn.reshape"(%24) <{shape = [8 : i32, 7 : i32, 7 : i32, 2048 : i32]}> : (tensor<1x1x392x2048xbf16, #ttnn_layout12>) -> tensor<8x7x7x2048xbf16, #ttnn_layout13> loc(#loc10)
    "ttnn.deallocate"(%24) <{force = false}> : (tensor<1x1x392x2048xbf16, #ttnn_layout12>) -> ()
    %26 = "ttnn.permute"(%25) <{permutation = array<i64: 0, 1, 3, 2>}> : (tensor<8x7x7x2048xbf16, #ttnn_layout13>) -> tensor<8x7x2048x7xbf16, #ttnn_layout14> loc(#loc11)
    "ttnn.deallocate"(%25) <{force = false}> : (tensor<8x7x7x2048xbf16, #ttnn_layout13>) -> ()
    %27 = "ttnn.permute"(%26) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<8x7x2048x7xbf16, #ttnn_layout14>) -> tensor<8x2048x7x7xbf16, #ttnn_layout15> loc(#loc12)
    "ttnn.deallocate"(%26) <{force = false}> : (tensor<8x7x2048x7xbf16, #ttnn_layout14>) -> ()
    %28 = "ttnn.multiply"(%27, %arg5) : (tensor<8x2048x7x7xbf16, #ttnn_layout15>, tensor<1x2048x1x1xbf16, #ttnn_layout2>) -> tensor<8x2048x7x7xbf16, #ttnn_layout25> loc(#loc13)
    "ttnn.deallocate"(%27) <{force = false}> : (tensor<8x2048x7x7xbf16, #ttnn_layout15>) -> ()
    %29 = "ttnn.add"(%28, %arg6) : (tensor<8x2048x7x7xbf16, #ttnn_layout25>, tensor<1x2048x1x1xbf16, #ttnn_layout2>) -> tensor<8x2048x7x7xbf16, #ttnn_layout25> loc(#loc14)
    "ttnn.deallocate"(%28) <{force = false}> : (tensor<8x2048x7x7xbf16, #ttnn_layout25>) -> ()
    %30 = "ttnn.to_layout"(%29) : (tensor<8x2048x7x7xbf16, #ttnn_layout25>) -> tensor<8x2048x7x7xbf16, #ttnn_layout15> loc("conv3_bias_spill")
    "ttnn.deallocate"(%29) <{force = false}> : (tensor<8x2048x7x7xbf16, #ttnn_layout25>) -> ()
    %31 = "ttnn.reshape"(%1) <{shape = [1 : i32, 1 : i32, 1568 : i32, 1024 : i32]}> : (tensor<8x14x14x1024xbf16, #ttnn_layout27>) -> tensor<1x1x1568x1024xbf16, #ttnn_layout7> loc(#loc15)
    "ttnn.deallocate"(%1) <{force = false}> : (tensor<8x14x14x1024xbf16, #ttnn_layout27>) -> ()
    %32 = "ttnn.to_layout"(%31) : (tensor<1x1x1568x1024xbf16, #ttnn_layout7>) -> tensor<1x1x1568x1024xbf16, #ttnn_layout26> loc("shortcut_mem_reconfig")
    "ttnn.deallocate"(%31) <{force = false}> : (tensor<1x1x1568x1024xbf16, #ttnn_layout7>) -> ()
    %33 = "ttnn.conv2d"(%32, %arg12, %3) <{batch_size = 8 : i32, conv2d_config = #ttnn.conv2d_config<weights_dtype = bf16, deallocate_activation = true, act_block_h_override = 0>, conv2d_slice_config = #ttnn.conv2d_slice_config<l1_full, 0>, dilation = array<i32: 1, 1>, groups = 1 : i32, in_channels = 1024 : i32, input_height = 14 : i32, input_width = 14 : i32, kernel_size = array<i32: 1, 1>, out_channels = 2048 : i32, padding = array<i32: 0, 0, 0, 0>, stride = array<i32: 2, 2>}> : (tensor<1x1x1568x1024xbf16, #ttnn_layout26>, tensor<2048x1024x1x1xbf16, #ttnn_layout6>, !ttnn.device) -> tensor<1x1x392x2048xbf16, #ttnn_layout24> loc(#loc15)
    "ttnn.deallocate"(%32) <{force = false}> : (tensor<1x1x1568x1024xbf16, #ttnn_layout26>) -> ()
    %34 = "ttnn.to_layout"(%33) : (tensor<1x1x392x2048xbf16, #ttnn_layout24>) -> tensor<1x1x392x2048xbf16, #ttnn_layout12> loc("shortcut_spill")
    "ttnn.deallocate"(%33) <{force = false}> : (tensor<1x1x392x2048xbf16, #ttnn_layout24>) -> ()
    %35 = "ttnn.reshape"(%34) <{shape = [8 : i32, 7 : i32, 7 : i32, 2048 : i32]}> : (tensor<1x1x392x2048xbf16, #ttnn_layout12>) -> tensor<8x7x7x2048xbf16, #ttnn_layout13> loc(#loc15)
    "ttnn.deallocate"(%34) <{force = false}> : (tensor<1x1x392x2048xbf16, #ttnn_layout12>) -> ()
    %36 = "ttnn.permute"(%35) <{permutation = array<i64: 0, 1, 3, 2>}> : (tensor<8x7x7x2048xbf16, #ttnn_layout13>) -> tensor<8x7x2048x7xbf16, #ttnn_layout14> loc(#loc16)
    "ttnn.deallocate"(%35) <{force = false}> : (tensor<8x7x7x2048xbf16, #ttnn_layout13>) -> ()
    %37 = "ttnn.permute"(%36) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<8x7x2048x7xbf16, #ttnn_layout14>) -> tensor<8x2048x7x7xbf16, #ttnn_layout15> loc(#loc17)
    "ttnn.deallocate"(%36) <{force = false}> : (tensor<8x7x2048x7xbf16, #ttnn_layout14>) -> ()
    %38 = "ttnn.multiply"(%37, %arg7) : (tensor<8x2048x7x7xbf16, #ttnn_layout15>, tensor<1x2048x1x1xbf16, #ttnn_layout2>) -> tensor<8x2048x7x7xbf16, #ttnn_layout25> loc(#loc18)
    "ttnn.deallocate"(%37) <{force = false}> : (tensor<8x2048x7x7xbf16, #ttnn_layout15>) -> ()
    %39 = "ttnn.add"(%38, %arg8) : (tensor<8x2048x7x7xbf16, #ttnn_layout25>, tensor<1x2048x1x1xbf16, #ttnn_layout2>) -> tensor<8x2048x7x7xbf16, #ttnn_layout25> loc(#loc19)
    "ttnn.deallocate"(%38) <{force = false}> : (tensor<8x2048x7x7xbf16, #ttnn_layout25>) -> ()
    %40 = "ttnn.add"(%30, %39) : (tensor<8x2048x7x7xbf16, #ttnn_layout15>, tensor<8x2048x7x7xbf16, #ttnn_layout25>) -> tensor<8x2048x7x7xbf16, #ttnn_layout25> loc(#loc20)
    "ttnn.deallocate"(%30) <{force = false}> : (tensor<8x2048x7x7xbf16, #ttnn_layout15>) -> ()
    "ttnn.deallocate"(%39) <{force = false}> : (tensor<8x2048x7x7xbf16, #ttnn_layout25>) -> ()
    %41 = "ttnn.to_layout"(%40) : (tensor<8x2048x7x7xbf16, #ttnn_layout25>) -> tensor<8x2048x7x7xbf16, #ttnn_layout15> loc("residual_add_spill")
    "ttnn.deallocate"(%40) <{force = false}> : (tensor<8x2048x7x7xbf16, #ttnn_layout25>) -> ()
    return %41 : tensor<8x2048x7x7xbf16, #ttnn_layout15>
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
#loc11 = loc("transpose1")
#loc12 = loc("transpose2")
#loc13 = loc("conv3_scale")
#loc14 = loc("conv3_bias")
#loc15 = loc("shortcut")
#loc16 = loc("shortcut_transpose1")
#loc17 = loc("shortcut_transpose2")
#loc18 = loc("shortcut_scale")
#loc19 = loc("shortcut_bias")
#loc20 = loc("residual_add")
