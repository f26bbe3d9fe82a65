#loc = loc("ResNetForImageClassification")
#dram = #ttnn.buffer_type<dram>
#ttnn_layout = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 65536 + d1 * 32 + d2, d3), <1x1>, memref<16384x1x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout1 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 32 + d1 * 32 + d2, d3), <1x1>, memref<1x16x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout2 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 65536 + d1 * 32 + d2, d3), <1x1>, memref<2048x1x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#system_memory = #ttnn.buffer_type<system_memory>
#ttnn_layout3 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 2048 + d1 + d2, d3), <1x1>, memref<1048576x1xbf16, #system_memory>>
#ttnn_layout4 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 1536 + d1 * 3 + d2, d3), <1x1>, memref<786432x3xbf16, #system_memory>>
#ttnn_layout5 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 512 + d1 + d2, d3), <1x1>, memref<1048576x1xbf16, #system_memory>>
#ttnn_layout6 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<64x32x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout7 = #ttnn.ttnn_layout<(d0) -> (0, d0), <1x1>, memref<1x32x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout8 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 14336 + d1 * 2048 + d2, d3), <1x1>, memref<3584x1x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout9 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 224 + d1 * 32 + d2, d3), <1x1>, memref<56x64x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout10 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 416 + d1 * 416 + d2, d3), <1x1>, memref<13x64x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout11 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 416 + d1 * 416 + d2, d3), <1x1>, memref<13x16x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout12 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 224 + d1 * 32 + d2, d3), <1x1>, memref<56x16x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout13 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 2048 + d1 * 2048 + d2, d3), <1x1>, memref<512x2x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout14 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 64 + d1 * 64 + d2, d3), <1x1>, memref<16x64x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout15 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 32 + d1 * 32 + d2, d3), <1x1>, memref<8x64x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout16 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x64x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout17 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x32x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#l1 = #ttnn.buffer_type<l1>
#ttnn_layout18 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 65536 + d1 * 32 + d2, d3), <64x1>, memref<256x1x!ttcore.tile<32x32, bf16>, #l1>, <height_sharded>, core_ranges = <[#ttnn.core_range<(0, 0), (7, 7)>]>>
#ttnn_layout19 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 416 + d1 * 416 + d2, d3), <7x8>, memref<2x2x!ttcore.tile<32x32, bf16>, #l1>, <block_sharded>, core_ranges = <[#ttnn.core_range<(0, 0), (7, 6)>]>>
#ttnn_layout20 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 224 + d1 * 32 + d2, d3), <8x8>, memref<7x2x!ttcore.tile<32x32, bf16>, #l1>, <block_sharded>, core_ranges = <[#ttnn.core_range<(0, 0), (7, 7)>]>>
#ttnn_layout21 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 416 + d1 * 416 + d2, d3), <8x8>, memref<1x4x!ttcore.tile<32x32, bf16>, #l1>, <interleaved>>
#ttnn_layout22 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 416 + d1 * 416 + d2, d3), <7x8>, memref<2x8x!ttcore.tile<32x32, bf16>, #l1>, <block_sharded>, core_ranges = <[#ttnn.core_range<(0, 0), (7, 6)>]>>
#ttnn_layout23 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 2048 + d1 * 2048 + d2, d3), <8x8>, memref<1x16x!ttcore.tile<32x32, bf16>, #l1>, <interleaved>>
#ttnn_layout24 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x32>, memref<1x1x!ttcore.tile<32x32, bf16>, #l1>, <width_sharded>, core_ranges = <[#ttnn.core_range<(0, 0), (7, 3)>]>>
#ttnn_layout25 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 224 + d1 * 32 + d2, d3), <8x8>, memref<1x14x!ttcore.tile<32x32, bf16>, #l1>, <interleaved>>
#ttnn_layout26 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 65536 + d1 * 32 + d2, d3), <8x8>, memref<1x256x!ttcore.tile<32x32, bf16>, #l1>, <interleaved>>
module @ResNetLayer4Module2 {
  func.func @forward(%arg0: tensor<8x2048x7x7xbf16, #ttnn_layout> {ttcore.argument_type = #ttcore.argument_type<input>, ttir.name = "input"}, %arg1: tensor<1x1x1x512xbf16, #ttnn_layout1> {ttcore.argument_type = #ttcore.argument_type<constant>, ttir.name = "input_0_multiply_816"}, %arg2: tensor<1x1x1x512xbf16, #ttnn_layout1> {ttcore.argument_type = #ttcore.argument_type<constant>, ttir.name = "input_0_multiply_816_fork_clone178"}, %arg3: tensor<1x1x1x512xbf16, #ttnn_layout1> {ttcore.argument_type = #ttcore.argument_type<constant>, ttir.name = "input_0_multiply_832"}, %arg4: tensor<1x1x1x512xbf16, #ttnn_layout1> {ttcore.argument_type = #ttcore.argument_type<constant>, ttir.name = "input_0_multiply_832_fork_clone89"}, %arg5: tensor<1x2048x1x1xbf16, #ttnn_layout2> {ttcore.argument_type = #ttcore.argument_type<constant>, ttir.name = "input_0_multiply_848"}, %arg6: tensor<1x2048x1x1xbf16, #ttnn_layout2> {ttcore.argument_type = #ttcore.argument_type<constant>, ttir.name = "input_0_multiply_848_fork_clone32"}, %arg7: tensor<512x2048x1x1xbf16, #ttnn_layout3> {ttcore.argument_type = #ttcore.argument_type<parameter>, ttir.name = "resnet.encoder.stages.3.layers.2.layer.0.convolution.weight"}, %arg8: tensor<512x512x3x3xbf16, #ttnn_layout4> {ttcore.argument_type = #ttcore.argument_type<parameter>, ttir.name = "resnet.encoder.stages.3.layers.2.layer.1.convolution.weight"}, %arg9: tensor<2048x512x1x1xbf16, #ttnn_layout5> {ttcore.argument_type = #ttcore.argument_type<parameter>, ttir.name = "resnet.encoder.stages.3.layers.2.layer.2.convolution.weight"}, %arg10: tensor<2048x1000xbf16, #ttnn_layout6> {ttcore.argument_type = #ttcore.argument_type<parameter>, ttir.name = "classifier.1.weight"}, %arg11: tensor<1000xbf16, #ttnn_layout7> {ttcore.argument_type = #ttcore.argument_type<parameter>, ttir.name = "classifier.1.bias"}) -> (tensor<8x1000xbf16, #ttnn_layout17> {ttir.name = "output"}) {
    %0 = "ttnn.relu"(%arg0) : (tensor<8x2048x7x7xbf16, #ttnn_layout>) -> tensor<8x2048x7x7xbf16, #ttnn_layout18> loc(#loc1)
    %1 = "ttnn.to_layout"(%0) : (tensor<8x2048x7x7xbf16, #ttnn_layout18>) -> tensor<8x2048x7x7xbf16, #ttnn_layout> loc("input_relu_spill")
    "ttnn.deallocate"(%0) <{force = false}> : (tensor<8x2048x7x7xbf16, #ttnn_layout18>) -> ()
    %2 = "ttnn.permute"(%1) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<8x2048x7x7xbf16, #ttnn_layout>) -> tensor<8x7x2048x7xbf16, #ttnn_layout8> loc(#loc2)
    %3 = "ttnn.permute"(%2) <{permutation = array<i64: 0, 1, 3, 2>}> : (tensor<8x7x2048x7xbf16, #ttnn_layout8>) -> tensor<8x7x7x2048xbf16, #ttnn_layout9> loc(#loc3)
    "ttnn.deallocate"(%2) <{force = false}> : (tensor<8x7x2048x7xbf16, #ttnn_layout8>) -> ()
    %4 = "ttnn.reshape"(%3) <{shape = [1 : i32, 1 : i32, 392 : i32, 2048 : i32]}> : (tensor<8x7x7x2048xbf16, #ttnn_layout9>) -> tensor<1x1x392x2048xbf16, #ttnn_layout10> loc(#loc4)
    "ttnn.deallocate"(%3) <{force = false}> : (tensor<8x7x7x2048xbf16, #ttnn_layout9>) -> ()
    %5 = "ttnn.get_device"() <{mesh_shape = #ttnn<mesh_shape 1x1>}> : () -> !ttnn.device
    %6 = "ttnn.to_layout"(%4) : (tensor<1x1x392x2048xbf16, #ttnn_layout10>) -> tensor<1x1x392x2048xbf16, #ttnn_layout22> loc("conv1_mem_reconfig")
    "ttnn.deallocate"(%4) <{force = false}> : (tensor<1x1x392x2048xbf16, #ttnn_layout10>) -> ()
    %7 = "ttnn.conv2d"(%6, %arg7, %5) <{batch_size = 8 : i32, conv2d_config = #ttnn.conv2d_config<weights_dtype = bf16, deallocate_activation = true, act_block_h_override = 0>, conv2d_slice_config = #ttnn.conv2d_slice_config<l1_full, 0>, dilation = array<i32: 1, 1>, groups = 1 : i32, in_channels = 2048 : i32, input_height = 7 : i32, input_width = 7 : i32, kernel_size = array<i32: 1, 1>, out_channels = 512 : i32, padding = array<i32: 0, 0, 0, 0>, stride = array<i32: 1, 1>}> : (tensor<1x1x392x2048xbf16, #ttnn_layout22>, tensor<512x2048x1x1xbf16, #ttnn_layout3>, !ttnn.device) -> tensor<1x1x392x512xbf16, #ttnn_layout19> loc(#loc4)
    "ttnn.deallocate"(%6) <{force = false}> : (tensor<1x1x392x2048xbf16, #ttnn_layout22>) -> ()
    %8 = "ttnn.to_layout"(%7) : (tensor<1x1x392x512xbf16, #ttnn_layout19>) -> tensor<1x1x392x512xbf16, #ttnn_layout11> loc("conv1_spill")
    "ttnn.deallocate"(%7) <{force = false}> : (tensor<1x1x392x512xbf16, #ttnn_layout19>) -> ()
    %9 = "ttnn.reshape"(%8) <{shape = [8 : i32, 7 : i32, 7 : i32, 512 : i32]}> : (tensor<1x1x392x512xbf16, #ttnn_layout11>) -> tensor<8x7x7x512xbf16, #ttnn_layout12> loc(#loc4)
    "ttnn.deallocate"(%8) <{force = false}> : (tensor<1x1x392x512xbf16, #ttnn_layout11>) -> ()
    %10 = "ttnn.multiply"(%9, %arg1) : (tensor<8x7x7x512xbf16, #ttnn_layout12>, tensor<1x1x1x512xbf16, #ttnn_layout1>) -> tensor<8x7x7x512xbf16, #ttnn_layout20> loc(#loc5)
    "ttnn.deallocate"(%9) <{force = false}> : (tensor<8x7x7x512xbf16, #ttnn_layout12>) -> ()
    %11 = "ttnn.add"(%10, %arg2) : (tensor<8x7x7x512xbf16, #ttnn_layout20>, tensor<1x1x1x512xbf16, #ttnn_layout1>) -> tensor<8x7x7x512xbf16, #ttnn_layout20> loc(#loc6)
    "ttnn.deallocate"(%10) <{force = false}> : (tensor<8x7x7x512xbf16, #ttnn_layout20>) -> ()
    %12 = "ttnn.relu"(%11) : (tensor<8x7x7x512xbf16, #ttnn_layout20>) -> tensor<8x7x7x512xbf16, #ttnn_layout20> loc(#loc7)
    "ttnn.deallocate"(%11) <{force = false}> : (tensor<8x7x7x512xbf16, #ttnn_layout20>) -> ()
    %13 = "ttnn.to_layout"(%12) : (tensor<8x7x7x512xbf16, #ttnn_layout20>) -> tensor<8x7x7x512xbf16, #ttnn_layout25> loc("conv1_relu_spill")
    "ttnn.deallocate"(%12) <{force = false}> : (tensor<8x7x7x512xbf16, #ttnn_layout20>) -> ()
    %14 = "ttnn.reshape"(%13) <{shape = [1 : i32, 1 : i32, 392 : i32, 512 : i32]}> : (tensor<8x7x7x512xbf16, #ttnn_layout25>) -> tensor<1x1x392x512xbf16, #ttnn_layout21> loc(#loc8)
    "ttnn.deallocate"(%13) <{force = false}> : (tensor<8x7x7x512xbf16, #ttnn_layout25>) -> ()
    %15 = "ttnn.to_layout"(%14) : (tensor<1x1x392x512xbf16, #ttnn_layout21>) -> tensor<1x1x392x512xbf16, #ttnn_layout19> loc("conv2_mem_reconfig")
    "ttnn.deallocate"(%14) <{force = false}> : (tensor<1x1x392x512xbf16, #ttnn_layout21>) -> ()
    %16 = "ttnn.conv2d"(%15, %arg8, %5) <{batch_size = 8 : i32, conv2d_config = #ttnn.conv2d_config<weights_dtype = bf16, deallocate_activation = true, act_block_h_override = 0>, conv2d_slice_config = #ttnn.conv2d_slice_config<l1_full, 0>, dilation = array<i32: 1, 1>, groups = 1 : i32, in_channels = 512 : i32, input_height = 7 : i32, input_width = 7 : i32, kernel_size = array<i32: 3, 3>, out_channels = 512 : i32, padding = array<i32: 1, 1, 1, 1>, stride = array<i32: 1, 1>}> : (tensor<1x1x392x512xbf16, #ttnn_layout19>, tensor<512x512x3x3xbf16, #ttnn_layout4>, !ttnn.device) -> tensor<1x1x392x512xbf16, #ttnn_layout19> loc(#loc8)
    "ttnn.deallocate"(%15) <{force = false}> : (tensor<1x1x392x512xbf16, #ttnn_layout19>) -> ()
    %17 = "ttnn.to_layout"(%16) : (tensor<1x1x392x512xbf16, #ttnn_layout19>) -> tensor<1x1x392x512xbf16, #ttnn_layout11> loc("conv2_spill")
    "ttnn.deallocate"(%16) <{force = false}> : (tensor<1x1x392x512xbf16, #ttnn_layout19>) -> ()
    %18 = "ttnn.reshape"(%17) <{shape = [8 : i32, 7 : i32, 7 : i32, 512 : i32]}> : (tensor<1x1x392x512xbf16, #ttnn_layout11>) -> tensor<8x7x7x512xbf16, #ttnn_layout12> loc(#loc8)
    "ttnn.deallocate"(%17) <{force = false}> : (tensor<1x1x392x512xbf16, #ttnn_layout11>) -> ()
    %19 = "ttnn.multiply"(%18, %arg3) : (tensor<8x7x7x512xbf16, #ttnn_layout12>, tensor<1x1x1x512xbf16, #ttnn_layout1>) -> tensor<8x7x7x512xbf16, #ttnn_layout20> loc(#loc9)
    "ttnn.deallocate"(%18) <{force = false}> : (tensor<8x7x7x512xbf16, #ttnn_layout12>) -> ()
    %20 = "ttnn.add"(%19, %arg4) : (tensor<8x7x7x512xbf16, #ttnn_layout20>, tensor<1x1x1x512xbf16, #ttnn_layout1>) -> tensor<8x7x7x512xbf16, #ttnn_layout20> loc(#loc10)
    "ttnn.deallocate"(%19) <{force = false}> : (tensor<8x7x7x512xbf16, #ttnn_layout20>) -> ()
    %21 = "ttnn.relu"(%20) : (tensor<8x7x7x512xbf16, #ttnn_layout20>) -> tensor<8x7x7x512xbf16, #ttnn_layout20> loc(#loc11)
    "ttnn.deallocate"(%20) <{force = false}> : (tensor<8x7x7x512xbf16, #ttnn_layout20>) -> ()
    %22 = "ttnn.to_layout"(%21) : (tensor<8x7x7x512xbf16, #ttnn_layout20>) -> tensor<8x7x7x512xbf16, #ttnn_layout25> loc("conv2_relu_spill")
    "ttnn.deallocate"(%21) <{force = false}> : (tensor<8x7x7x512xbf16, #ttnn_layout20>) -> ()
    %23 = "ttnn.reshape"(%22) <{shape = [1 : i32, 1 : i32, 392 : i32, 512 : i32]}> : (tensor<8x7x7x512xbf16, #ttnn_layout25>) -> tensor<1x1x392x512xbf16, #ttnn_layout21> loc(#loc12)
    "ttnn.deallocate"(%22) <{force = false}> : (tensor<8x7x7x512xbf16, #ttnn_layout25>) -> ()
    %24 = "ttnn.to_layout"(%23) : (tensor<1x1x392x512xbf16, #ttnn_layout21>) -> tensor<1x1x392x512xbf16, #ttnn_layout19> loc("conv3_mem_reconfig")
    "ttnn.deallocate"(%23) <{force = false}> : (tensor<1x1x392x512xbf16, #ttnn_layout21>) -> ()
    %25 = "ttnn.conv2d"(%24, %arg9, %5) <{batch_size = 8 : i32, conv2d_config = #ttnn.conv2d_config<weights_dtype = bf16, deallocate_activation = true, act_block_h_override = 0>, conv2d_slice_config = #ttnn.conv2d_slice_config<l1_full, 0>, dilation = array<i32: 1, 1>, groups = 1 : i32, in_channels = 512 : i32, input_height = 7 : i32, input_width = 7 : i32, kernel_size = array<i32: 1, 1>, out_channels = 2048 : i32, padding = array<i32: 0, 0, 0, 0>, stride = array<i32: 1, 1>}> : (tensor<1x1x392x512xbf16, #ttnn_layout19>, tensor<2048x512x1x1xbf16, #ttnn_layout5>, !ttnn.device) -> tensor<1x1x392x2048xbf16, #ttnn_layout22> loc(#loc12)
    "ttnn.deallocate"(%24) <{force = false}> : (tensor<1x1x392x512xbf16, #ttnn_layout19>) -> ()
    %26 = "ttnn.to_layout"(%25) : (tensor<1x1x392x2048xbf16, #ttnn_layout22>) -> tensor<1x1x392x2048xbf16, #ttnn_layout10> loc("conv3_spill")
    "ttnn.deallocate"(%25) <{force = false}> : (tensor<1x1x392x2048xbf16, #ttnn_layout22>) -> ()
    %27 = "ttnn.reshape"(%26) <{shape = [8 : i32, 7 : i32, 7 : i32, 2048 : i32]}> : (tensor<1x1x392x2048xbf16, #ttnn_layout10>) -> tensor<8x7x7x2048xbf16, #ttnn_layout9> loc(#loc12)
    "ttnn.deallocate"(%26) <{force = false}> : (tensor<1x1x392x2048xbf16, #ttnn_layout10>) -> ()
    %28 = "ttnn.permute"(%27) <{permutation = array<i64: 0, 1, 3, 2>}> : (tensor<8x7x7x2048xbf16, #ttnn_layout9>) -> tensor<8x7x2048x7xbf16, #ttnn_layout8> loc(#loc13)
    "ttnn.deallocate"(%27) <{force = false}> : (tensor<8x7x7x2048xbf16, #ttnn_layout9>) -> ()
    %29 = "ttnn.permute"(%28) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<8x7x2048x7xbf16, #ttnn_layout8>) -> tensor<8x2048x7x7xbf16, #ttnn_layout> loc(#loc14)
    "ttnn.deallocate"(%28) <{force = false}> : (tensor<8x7x2048x7xbf16, #ttnn_layout8>) -> ()
    %30 = "ttnn.multiply"(%29, %arg5) : (tensor<8x2048x7x7xbf16, #ttnn_layout>, tensor<1x2048x1x1xbf16, #ttnn_layout2>) -> tensor<8x2048x7x7xbf16, #ttnn_layout18> loc(#loc15)
    "ttnn.deallocate"(%29) <{force = false}> : (tensor<8x2048x7x7xbf16, #ttnn_layout>) -> ()
    %31 = "ttnn.add"(%30, %arg6) : (tensor<8x2048x7x7xbf16, #ttnn_layout18>, tensor<1x2048x1x1xbf16, #ttnn_layout2>) -> tensor<8x2048x7x7xbf16, #ttnn_layout18> loc(#loc16)
    "ttnn.deallocate"(%30) <{force = false}> : (tensor<8x2048x7x7xbf16, #ttnn_layout18>) -> ()
    %32 = "ttnn.add"(%31, %1) : (tensor<8x2048x7x7xbf16, #ttnn_layout18>, tensor<8x2048x7x7xbf16, #ttnn_layout>) -> tensor<8x2048x7x7xbf16, #ttnn_layout18> loc(#loc17)
    "ttnn.deallocate"(%1) <{force = false}> : (tensor<8x2048x7x7xbf16, #ttnn_layout>) -> ()
    "ttnn.deallocate"(%31) <{force = false}> : (tensor<8x2048x7x7xbf16, #ttnn_layout18>) -> ()
    %33 = "ttnn.relu"(%32) : (tensor<8x2048x7x7xbf16, #ttnn_layout18>) -> tensor<8x2048x7x7xbf16, #ttnn_layout18> loc(#loc18)
    "ttnn.deallocate"(%32) <{force = false}> : (tensor<8x2048x7x7xbf16, #ttnn_layout18>) -> ()
    %34 = "ttnn.to_layout"(%33) : (tensor<8x2048x7x7xbf16, #ttnn_layout18>) -> tensor<8x2048x7x7xbf16, #ttnn_layout26> loc("final_relu_spill")
    "ttnn.deallocate"(%33) <{force = false}> : (tensor<8x2048x7x7xbf16, #ttnn_layout18>) -> ()
    %35 = "ttnn.reshape"(%34) <{shape = [8 : i32, 1 : i32, 2048 : i32, 49 : i32]}> : (tensor<8x2048x7x7xbf16, #ttnn_layout26>) -> tensor<8x1x2048x49xbf16, #ttnn_layout23> loc(#loc19)
    "ttnn.deallocate"(%34) <{force = false}> : (tensor<8x2048x7x7xbf16, #ttnn_layout26>) -> ()
    %36 = "ttnn.permute"(%35) <{permutation = array<i64: 0, 1, 3, 2>}> : (tensor<8x1x2048x49xbf16, #ttnn_layout23>) -> tensor<8x1x49x2048xbf16, #ttnn_layout14> loc(#loc20)
    "ttnn.deallocate"(%35) <{force = false}> : (tensor<8x1x2048x49xbf16, #ttnn_layout23>) -> ()
    %37 = "ttnn.mean"(%36) <{dim_arg = [-2 : i32], keep_dim = true}> : (tensor<8x1x49x2048xbf16, #ttnn_layout14>) -> tensor<8x1x1x2048xbf16, #ttnn_layout15> loc(#loc21)
    "ttnn.deallocate"(%36) <{force = false}> : (tensor<8x1x49x2048xbf16, #ttnn_layout14>) -> ()
    %38 = "ttnn.reshape"(%37) <{shape = [8 : i32, 2048 : i32]}> : (tensor<8x1x1x2048xbf16, #ttnn_layout15>) -> tensor<8x2048xbf16, #ttnn_layout16> loc(#loc22)
    "ttnn.deallocate"(%37) <{force = false}> : (tensor<8x1x1x2048xbf16, #ttnn_layout15>) -> ()
    %39 = "ttnn.matmul"(%38, %arg10) <{matmul_program_config = #ttnn.matmul_multi_core_reuse_multi_cast_1d_program_config<compute_with_storage_grid_size = #ttnn.core_coord<8, 4>, in0_block_w = 8, out_subblock_h = 1, out_subblock_w = 1, out_block_h = 1, out_block_w = 1, per_core_m = 1, per_core_n = 1, fuse_batch = true, mcast_in0 = true, gather_in0 = false, hop_cores = #ttnn.core_range_set<>, num_global_cb_receivers = 0, untilize_out = false>, transpose_a = false, transpose_b = false}> : (tensor<8x2048xbf16, #ttnn_layout16>, tensor<2048x1000xbf16, #ttnn_layout6>) -> tensor<8x1000xbf16, #ttnn_layout24> loc(#loc23)
    "ttnn.deallocate"(%38) <{force = false}> : (tensor<8x2048xbf16, #ttnn_layout16>) -> ()
    %40 = "ttnn.add"(%39, %arg11) : (tensor<8x1000xbf16, #ttnn_layout24>, tensor<1000xbf16, #ttnn_layout7>) -> tensor<8x1000xbf16, #ttnn_layout24> loc(#loc24)
    "ttnn.deallocate"(%39) <{force = false}> : (tensor<8x1000xbf16, #ttnn_layout24>) -> ()
    %41 = "ttnn.to_layout"(%40) : (tensor<8x1000xbf16, #ttnn_layout24>) -> tensor<8x1000xbf16, #ttnn_layout17> loc("final_add_spill")
    "ttnn.deallocate"(%40) <{force = false}> : (tensor<8x1000xbf16, #ttnn_layout24>) -> ()
    return %41 : tensor<8x1000xbf16, #ttnn_layout17>
  }
}
#loc1 = loc("input_relu")
#loc2 = loc("input_transpose1")
#loc3 = loc("input_transpose2")
#loc4 = loc("conv1")
#loc5 = loc("conv1_scale")
#loc6 = loc("conv1_bias")
#loc7 = loc("conv1_relu")
#loc8 = loc("conv2")
#loc9 = loc("conv2_scale")
#loc10 = loc("conv2_bias")
#loc11 = loc("conv2_relu")
#loc12 = loc("conv3")
#loc13 = loc("transpose1")
#loc14 = loc("transpose2")
#loc15 = loc("conv3_scale")
#loc16 = loc("conv3_bias")
#loc17 = loc("residual_add")
#loc18 = loc("final_relu")
#loc19 = loc("reshape1")
#loc20 = loc("final_transpose")
#loc21 = loc("mean")
#loc22 = loc("final_reshape")
#loc23 = loc("matmul")
#loc24 = loc("final_add")
