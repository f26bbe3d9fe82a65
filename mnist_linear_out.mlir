#dram = #ttnn.buffer_type<dram>
#ttnn_layout = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x25x!ttcore.tile<32x32, f32>, #dram>, <interleaved>>
#ttnn_layout1 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<25x8x!ttcore.tile<32x32, f32>, #dram>, <interleaved>>
#ttnn_layout2 = #ttnn.ttnn_layout<(d0) -> (0, d0), <1x1>, memref<1x8x!ttcore.tile<32x32, f32>, #dram>, <interleaved>>
#ttnn_layout3 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<8x1x!ttcore.tile<32x32, f32>, #dram>, <interleaved>>
#ttnn_layout4 = #ttnn.ttnn_layout<(d0) -> (0, d0), <1x1>, memref<1x1x!ttcore.tile<32x32, f32>, #dram>, <interleaved>>
#ttnn_layout5 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x8x!ttcore.tile<32x32, f32>, #dram>, <interleaved>>
#ttnn_layout6 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x1x!ttcore.tile<32x32, f32>, #dram>, <interleaved>>
module @MNISTLinear {
  func.func @forward(%arg0: tensor<1x784xf32, #ttnn_layout> {ttir.name = "input_1"}, %arg1: tensor<784x256xf32, #ttnn_layout1> {ttir.name = "l1.weight"}, %arg2: tensor<256xf32, #ttnn_layout2> {ttir.name = "l1.bias"}, %arg3: tensor<256x10xf32, #ttnn_layout3> {ttir.name = "l2.weight"}, %arg4: tensor<10xf32, #ttnn_layout4> {ttir.name = "l2.bias"}) -> (tensor<1x10xf32, #ttnn_layout6> {ttir.name = "MNISTLinear.output_softmax_9"}) {
    %0 = "ttnn.matmul"(%arg0, %arg1) <{transpose_a = false, transpose_b = false}> : (tensor<1x784xf32, #ttnn_layout>, tensor<784x256xf32, #ttnn_layout1>) -> tensor<1x256xf32, #ttnn_layout5>
    %1 = "ttnn.add"(%0, %arg2) : (tensor<1x256xf32, #ttnn_layout5>, tensor<256xf32, #ttnn_layout2>) -> tensor<1x256xf32, #ttnn_layout5>
    "ttnn.deallocate"(%0) <{force = false}> : (tensor<1x256xf32, #ttnn_layout5>) -> ()
    %2 = "ttnn.relu"(%1) : (tensor<1x256xf32, #ttnn_layout5>) -> tensor<1x256xf32, #ttnn_layout5>
    "ttnn.deallocate"(%1) <{force = false}> : (tensor<1x256xf32, #ttnn_layout5>) -> ()
    %3 = "ttnn.matmul"(%2, %arg3) <{transpose_a = false, transpose_b = false}> : (tensor<1x256xf32, #ttnn_layout5>, tensor<256x10xf32, #ttnn_layout3>) -> tensor<1x10xf32, #ttnn_layout6>
    "ttnn.deallocate"(%2) <{force = false}> : (tensor<1x256xf32, #ttnn_layout5>) -> ()
    %4 = "ttnn.add"(%3, %arg4) : (tensor<1x10xf32, #ttnn_layout6>, tensor<10xf32, #ttnn_layout4>) -> tensor<1x10xf32, #ttnn_layout6>
    "ttnn.deallocate"(%3) <{force = false}> : (tensor<1x10xf32, #ttnn_layout6>) -> ()
    %5 = "ttnn.softmax"(%4) <{dimension = 1 : si32, numericStable = false}> : (tensor<1x10xf32, #ttnn_layout6>) -> tensor<1x10xf32, #ttnn_layout6>
    "ttnn.deallocate"(%4) <{force = false}> : (tensor<1x10xf32, #ttnn_layout6>) -> ()
    return %5 : tensor<1x10xf32, #ttnn_layout6>
  }
}
