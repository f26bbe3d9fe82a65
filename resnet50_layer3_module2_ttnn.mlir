#loc = loc("ResNetForImageClassification")
#dram = #ttnn.buffer_type<dram>
#ttnn_layout = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 448 + d1 * 32 + d2, d3), <1x1>, memref<112x32x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout1 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 32 + d1 * 32 + d2, d3), <1x1>, memref<1x8x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout2 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 32 + d1 * 32 + d2, d3), <1x1>, memref<1x32x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#system_memory = #ttnn.buffer_type<system_memory>
#ttnn_layout3 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 1024 + d1 + d2, d3), <1x1>, memref<262144x1xbf16, #system_memory>>
#ttnn_layout4 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 768 + d1 * 3 + d2, d3), <1x1>, memref<196608x3xbf16, #system_memory>>
#ttnn_layout5 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 256 + d1 + d2, d3), <1x1>, memref<262144x1xbf16, #system_memory>>
#ttnn_layout6 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 1568 + d1 * 1568 + d2, d3), <1x1>, memref<49x32x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout7 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 1568 + d1 * 1568 + d2, d3), <1x1>, memref<49x8x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout8 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 448 + d1 * 32 + d2, d3), <1x1>, memref<112x8x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#l1 = #ttnn.buffer_type<l1>
#ttnn_layout9 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 448 + d1 * 32 + d2, d3), <8x8>, memref<14x4x!ttcore.tile<32x32, bf16>, #l1>, <block_sharded>, core_ranges = <[#ttnn.core_range<(0, 0), (7, 7)>]>>
#ttnn_layout10 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 1568 + d1 * 1568 + d2, d3), <7x8>, memref<7x1x!ttcore.tile<32x32, bf16>, #l1>, <block_sharded>, core_ranges = <[#ttnn.core_range<(0, 0), (7, 6)>]>>
#ttnn_layout11 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 448 + d1 * 32 + d2, d3), <8x8>, memref<1x14x!ttcore.tile<32x32, bf16>, #l1>, <interleaved>>
#ttnn_layout12 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 448 + d1 * 32 + d2, d3), <8x8>, memref<14x1x!ttcore.tile<32x32, bf16>, #l1>, <block_sharded>, core_ranges = <[#ttnn.core_range<(0, 0), (7, 7)>]>>
#ttnn_layout13 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 1568 + d1 * 1568 + d2, d3), <8x8>, memref<1x7x!ttcore.tile<32x32, bf16>, #l1>, <interleaved>>
#ttnn_layout14 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 1568 + d1 * 1568 + d2, d3), <7x8>, memref<7x4x!ttcore.tile<32x32, bf16>, #l1>, <block_sharded>, core_ranges = <[#ttnn.core_range<(0, 0), (7, 6)>]>>
#ttnn_layout15 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 448 + d1 * 32 + d2, d3), <8x8>, memref<1x56x!ttcore.tile<32x32, bf16>, #l1>, <interleaved>>
#ttnn_layout16 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 1568 + d1 * 1568 + d2, d3), <8x8>, memref<1x25x!ttcore.tile<32x32, bf16>, #l1>, <interleaved>>
module @ResNetLayer3Module2 {
  func.func @forward(%arg0: tensor<8x14x14x1024xbf16, #ttnn_layout> {ttcore.argument_type = #ttcore.argument_type<input>, ttir.name = "input"}, %arg1: tensor<1x1x1x256xbf16, #ttnn_layout1> {ttcore.argument_type = #ttcore.argument_type<constant>, ttir.name = "input_0_multiply_458"}, %arg2: tensor<1x1x1x256xbf16, #ttnn_layout1> {ttcore.argument_type = #ttcore.argument_type<constant>, ttir.name = "input_0_multiply_458_fork_clone692"}, %arg3: tensor<1x1x1x256xbf16, #ttnn_layout1> {ttcore.argument_type = #ttcore.argument_type<constant>, ttir.name = "input_0_multiply_474"}, %arg4: tensor<1x1x1x256xbf16, #ttnn_layout1> {ttcore.argument_type = #ttcore.argument_type<constant>, ttir.name = "input_0_multiply_474_fork_clone580"}, %arg5: tensor<1x1x1x1024xbf16, #ttnn_layout2> {ttcore.argument_type = #ttcore.argument_type<constant>, ttir.name = "input_0_multiply_490"}, %arg6: tensor<1x1x1x1024xbf16, #ttnn_layout2> {ttcore.argument_type = #ttcore.argument_type<constant>, ttir.name = "input_0_multiply_490_fork_clone453"}, %arg7: tensor<256x1024x1x1xbf16, #ttnn_layout3> {ttcore.argument_type = #ttcore.argument_type<parameter>, ttir.name = "resnet.encoder.stages.2.layers.1.layer.0.convolution.weight"}, %arg8: tensor<256x256x3x3xbf16, #ttnn_layout4> {ttcore.argument_type = #ttcore.argument_type<parameter>, ttir.name = "resnet.encoder.stages.2.layers.1.layer.1.convolution.weight"}, %arg9: tensor<1024x256x1x1xbf16, #ttnn_layout5> {ttcore.argument_type = #ttcore.argument_type<parameter>, ttir.name = "resnet.encoder.stages.2.layers.1.layer.2.convolution.weight"}) -> (tensor<8x14x14x1024xbf16, #ttnn_layout> {ttir.name = "output"}) {
    %0 = "ttnn.relu"(%arg0) : (tensor<8x14x14x1024xbf16, #ttnn_layout>) -> tensor<8x14x14x1024xbf16, #ttnn_layout9> loc(#loc1)
    %1 = "ttnn.to_layout"(%0) : (tensor<8x14x14x1024xbf16, #ttnn_layout9>) -> tensor<8x14x14x1024xbf16, #ttnn_layout15> loc("initial_relu_spill")
    "ttnn.deallocate"(%0) <{force = false}> : (tensor<8x14x14x1024xbf16, #ttnn_layout9>) -> ()
    %2 = "ttnn.reshape"(%1) <{shape = [1 : i32, 1 : i32, 1568 : i32, 1024 : i32]}> : (tensor<8x14x14x1024xbf16, #ttnn_layout15>) -> tensor<1x1x1568x1024xbf16, #ttnn_layout6> loc(#loc2)
    %3 = "ttnn.get_device"() <{mesh_shape = #ttnn<mesh_shape 1x1>}> : () -> !ttnn.device
    %4 = "ttnn.to_layout"(%2) : (tensor<1x1x1568x1024xbf16, #ttnn_layout6>) -> tensor<1x1x1568x1024xbf16, #ttnn_layout14> loc("conv1_mem_reconfig")
    "ttnn.deallocate"(%2) <{force = false}> : (tensor<1x1x1568x1024xbf16, #ttnn_layout6>) -> ()
    %5 = "ttnn.conv2d"(%4, %arg7, %3) <{batch_size = 8 : i32, conv2d_config = #ttnn.conv2d_config<weights_dtype = bf16, deallocate_activation = true, act_block_h_override = 0>, conv2d_slice_config = #ttnn.conv2d_slice_config<l1_full, 0>, dilation = array<i32: 1, 1>, groups = 1 : i32, in_channels = 1024 : i32, input_height = 14 : i32, input_width = 14 : i32, kernel_size = array<i32: 1, 1>, out_channels = 256 : i32, padding = array<i32: 0, 0, 0, 0>, stride = array<i32: 1, 1>}> : (tensor<1x1x1568x1024xbf16, #ttnn_layout14>, tensor<256x1024x1x1xbf16, #ttnn_layout3>, !ttnn.device) -> tensor<1x1x1568x256xbf16, #ttnn_layout10> loc(#loc2)
    "ttnn.deallocate"(%4) <{force = false}> : (tensor<1x1x1568x1024xbf16, #ttnn_layout14>) -> ()
    %6 = "ttnn.to_layout"(%5) : (tensor<1x1x1568x256xbf16, #ttnn_layout10>) -> tensor<1x1x1568x256xbf16, #ttnn_layout13> loc("conv1_spill")
    "ttnn.deallocate"(%5) <{force = false}> : (tensor<1x1x1568x256xbf16, #ttnn_layout10>) -> ()
    %7 = "ttnn.reshape"(%6) <{shape = [8 : i32, 14 : i32, 14 : i32, 256 : i32]}> : (tensor<1x1x1568x256xbf16, #ttnn_layout13>) -> tensor<8x14x14x256xbf16, #ttnn_layout11> loc(#loc2)
    "ttnn.deallocate"(%6) <{force = false}> : (tensor<1x1x1568x256xbf16, #ttnn_layout13>) -> ()
    %8 = "ttnn.multiply"(%7, %arg1) : (tensor<8x14x14x256xbf16, #ttnn_layout11>, tensor<1x1x1x256xbf16, #ttnn_layout1>) -> tensor<8x14x14x256xbf16, #ttnn_layout12> loc(#loc3)
    "ttnn.deallocate"(%7) <{force = false}> : (tensor<8x14x14x256xbf16, #ttnn_layout11>) -> ()
    %9 = "ttnn.add"(%8, %arg2) : (tensor<8x14x14x256xbf16, #ttnn_layout12>, tensor<1x1x1x256xbf16, #ttnn_layout1>) -> tensor<8x14x14x256xbf16, #ttnn_layout12> loc(#loc4)
    "ttnn.deallocate"(%8) <{force = false}> : (tensor<8x14x14x256xbf16, #ttnn_layout12>) -> ()
    %10 = "ttnn.relu"(%9) : (tensor<8x14x14x256xbf16, #ttnn_layout12>) -> tensor<8x14x14x256xbf16, #ttnn_layout12> loc(#loc5)
    "ttnn.deallocate"(%9) <{force = false}> : (tensor<8x14x14x256xbf16, #ttnn_layout12>) -> ()
    %11 = "ttnn.to_layout"(%10) : (tensor<8x14x14x256xbf16, #ttnn_layout12>) -> tensor<8x14x14x256xbf16, #ttnn_layout11> loc("conv1_relu_spill")
    "ttnn.deallocate"(%10) <{force = false}> : (tensor<8x14x14x256xbf16, #ttnn_layout12>) -> ()
    %12 = "ttnn.reshape"(%11) <{shape = [1 : i32, 1 : i32, 1568 : i32, 256 : i32]}> : (tensor<8x14x14x256xbf16, #ttnn_layout11>) -> tensor<1x1x1568x256xbf16, #ttnn_layout13> loc(#loc6)
    "ttnn.deallocate"(%11) <{force = false}> : (tensor<8x14x14x256xbf16, #ttnn_layout11>) -> ()
    %13 = "ttnn.to_layout"(%12) : (tensor<1x1x1568x256xbf16, #ttnn_layout13>) -> tensor<1x1x1568x256xbf16, #ttnn_layout10> loc("conv2_mem_reconfig")
    "ttnn.deallocate"(%12) <{force = false}> : (tensor<1x1x1568x256xbf16, #ttnn_layout13>) -> ()
    %14 = "ttnn.conv2d"(%13, %arg8, %3) <{batch_size = 8 : i32, conv2d_config = #ttnn.conv2d_config<weights_dtype = bf16, deallocate_activation = true, act_block_h_override = 0>, conv2d_slice_config = #ttnn.conv2d_slice_config<l1_full, 0>, dilation = array<i32: 1, 1>, groups = 1 : i32, in_channels = 256 : i32, input_height = 14 : i32, input_width = 14 : i32, kernel_size = array<i32: 3, 3>, out_channels = 256 : i32, padding = array<i32: 1, 1, 1, 1>, stride = array<i32: 1, 1>}> : (tensor<1x1x1568x256xbf16, #ttnn_layout10>, tensor<256x256x3x3xbf16, #ttnn_layout4>, !ttnn.device) -> tensor<1x1x1568x256xbf16, #ttnn_layout10> loc(#loc6)
    "ttnn.deallocate"(%13) <{force = false}> : (tensor<1x1x1568x256xbf16, #ttnn_layout10>) -> ()
    %15 = "ttnn.to_layout"(%14) : (tensor<1x1x1568x256xbf16, #ttnn_layout10>) -> tensor<1x1x1568x256xbf16, #ttnn_layout13> loc("conv2_spill")
    "ttnn.deallocate"(%14) <{force = false}> : (tensor<1x1x1568x256xbf16, #ttnn_layout10>) -> ()
    %16 = "ttnn.reshape"(%15) <{shape = [8 : i32, 14 : i32, 14 : i32, 256 : i32]}> : (tensor<1x1x1568x256xbf16, #ttnn_layout13>) -> tensor<8x14x14x256xbf16, #ttnn_layout11> loc(#loc6)
    "ttnn.deallocate"(%15) <{force = false}> : (tensor<1x1x1568x256xbf16, #ttnn_layout13>) -> ()
    %17 = "ttnn.multiply"(%16, %arg3) : (tensor<8x14x14x256xbf16, #ttnn_layout11>, tensor<1x1x1x256xbf16, #ttnn_layout1>) -> tensor<8x14x14x256xbf16, #ttnn_layout12> loc(#loc7)
    "ttnn.deallocate"(%16) <{force = false}> : (tensor<8x14x14x256xbf16, #ttnn_layout11>) -> ()
    %18 = "ttnn.add"(%17, %arg4) : (tensor<8x14x14x256xbf16, #ttnn_layout12>, tensor<1x1x1x256xbf16, #ttnn_layout1>) -> tensor<8x14x14x256xbf16, #ttnn_layout12> loc(#loc8)
    "ttnn.deallocate"(%17) <{force = false}> : (tensor<8x14x14x256xbf16, #ttnn_layout12>) -> ()
    %19 = "ttnn.relu"(%18) : (tensor<8x14x14x256xbf16, #ttnn_layout12>) -> tensor<8x14x14x256xbf16, #ttnn_layout12> loc(#loc9)
    "ttnn.deallocate"(%18) <{force = false}> : (tensor<8x14x14x256xbf16, #ttnn_layout12>) -> ()
    %20 = "ttnn.to_layout"(%19) : (tensor<8x14x14x256xbf16, #ttnn_layout12>) -> tensor<8x14x14x256xbf16, #ttnn_layout11> loc("conv2_relu_spill")
    "ttnn.deallocate"(%19) <{force = false}> : (tensor<8x14x14x256xbf16, #ttnn_layout12>) -> ()
    %21 = "ttnn.reshape"(%20) <{shape = [1 : i32, 1 : i32, 1568 : i32, 256 : i32]}> : (tensor<8x14x14x256xbf16, #ttnn_layout11>) -> tensor<1x1x1568x256xbf16, #ttnn_layout13> loc(#loc10)
    "ttnn.deallocate"(%20) <{force = false}> : (tensor<8x14x14x256xbf16, #ttnn_layout11>) -> ()
    %22 = "ttnn.to_layout"(%21) : (tensor<1x1x1568x256xbf16, #ttnn_layout13>) -> tensor<1x1x1568x256xbf16, #ttnn_layout10> loc("conv3_mem_reconfig")
    "ttnn.deallocate"(%21) <{force = false}> : (tensor<1x1x1568x256xbf16, #ttnn_layout13>) -> ()
    %23 = "ttnn.conv2d"(%22, %arg9, %3) <{batch_size = 8 : i32, conv2d_config = #ttnn.conv2d_config<weights_dtype = bf16, deallocate_activation = true, act_block_h_override = 0>, conv2d_slice_config = #ttnn.conv2d_slice_config<l1_full, 0>, dilation = array<i32: 1, 1>, groups = 1 : i32, in_channels = 256 : i32, input_height = 14 : i32, input_width = 14 : i32, kernel_size = array<i32: 1, 1>, out_channels = 1024 : i32, padding = array<i32: 0, 0, 0, 0>, stride = array<i32: 1, 1>}> : (tensor<1x1x1568x256xbf16, #ttnn_layout10>, tensor<1024x256x1x1xbf16, #ttnn_layout5>, !ttnn.device) -> tensor<1x1x1568x1024xbf16, #ttnn_layout14> loc(#loc10)
    "ttnn.deallocate"(%22) <{force = false}> : (tensor<1x1x1568x256xbf16, #ttnn_layout10>) -> ()
    %24 = "ttnn.to_layout"(%23) : (tensor<1x1x1568x1024xbf16, #ttnn_layout14>) -> tensor<1x1x1568x1024xbf16, #ttnn_layout16> loc("conv3_spill")
    "ttnn.deallocate"(%23) <{force = false}> : (tensor<1x1x1568x1024xbf16, #ttnn_layout14>) -> ()
    %25 = "ttnn.reshape"(%24) <{shape = [8 : i32, 14 : i32, 14 : i32, 1024 : i32]}> : (tensor<1x1x1568x1024xbf16, #ttnn_layout16>) -> tensor<8x14x14x1024xbf16, #ttnn_layout15> loc(#loc10)
    "ttnn.deallocate"(%24) <{force = false}> : (tensor<1x1x1568x1024xbf16, #ttnn_layout16>) -> ()
    %26 = "ttnn.multiply"(%25, %arg5) : (tensor<8x14x14x1024xbf16, #ttnn_layout15>, tensor<1x1x1x1024xbf16, #ttnn_layout2>) -> tensor<8x14x14x1024xbf16, #ttnn_layout9> loc(#loc11)
    "ttnn.deallocate"(%25) <{force = false}> : (tensor<8x14x14x1024xbf16, #ttnn_layout15>) -> ()
    %27 = "ttnn.add"(%26, %arg6) : (tensor<8x14x14x1024xbf16, #ttnn_layout9>, tensor<1x1x1x1024xbf16, #ttnn_layout2>) -> tensor<8x14x14x1024xbf16, #ttnn_layout9> loc(#loc12)
    "ttnn.deallocate"(%26) <{force = false}> : (tensor<8x14x14x1024xbf16, #ttnn_layout9>) -> ()
    %28 = "ttnn.add"(%27, %1) : (tensor<8x14x14x1024xbf16, #ttnn_layout9>, tensor<8x14x14x1024xbf16, #ttnn_layout15>) -> tensor<8x14x14x1024xbf16, #ttnn_layout9> loc(#loc13)
    "ttnn.deallocate"(%1) <{force = false}> : (tensor<8x14x14x1024xbf16, #ttnn_layout15>) -> ()
    "ttnn.deallocate"(%27) <{force = false}> : (tensor<8x14x14x1024xbf16, #ttnn_layout9>) -> ()
    %29 = "ttnn.to_layout"(%28) : (tensor<8x14x14x1024xbf16, #ttnn_layout9>) -> tensor<8x14x14x1024xbf16, #ttnn_layout> loc("residual_add_spill")
    "ttnn.deallocate"(%28) <{force = false}> : (tensor<8x14x14x1024xbf16, #ttnn_layout9>) -> ()
    return %29 : tensor<8x14x14x1024xbf16, #ttnn_layout>
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
#loc13 = loc("residual_add")
