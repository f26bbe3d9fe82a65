// RUN: ttopt opt %s --ttnn-optimizer --memory-layout-analysis-enabled --memory-layout-analysis-policy DFSharding | FileCheck %s
// RUN: ttopt opt %s --ttnn-optimizer | FileCheck %s --check-prefix=DRAM

// A matmul with a fused activation (reference §2.10): in an L1 chain it gets a program config that
// carries the activation (`fused_activation`), and its own `activation` attribute is removed
// (tt-metal #35060). Outside a chain (DRAM interleaved) it keeps the attribute and gets no program config.
// CHECK: "ttnn.matmul"(%arg0, %arg1) <{matmul_program_config = #ttnn.matmul_multi_core_reuse_multi_cast_program_config<{{.*}}fused_activation = #ttnn.unary_with_param<op_type = relu>{{.*}}>, transpose_a = false, transpose_b = false}>
// CHECK-NOT: activation = "relu"
// DRAM: "ttnn.matmul"(%arg0, %arg1) <{activation = "relu", transpose_a = false, transpose_b = false}>

#dram = #ttnn.buffer_type<dram>
#ttnn_layout = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<8x16x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout1 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<16x32x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout2 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<8x32x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout3 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<32x16x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
module {
  func.func @forward(%x: tensor<256x512xbf16, #ttnn_layout>, %w1: tensor<512x1024xbf16, #ttnn_layout1>, %w2: tensor<1024x512xbf16, #ttnn_layout3>) -> tensor<256x512xbf16, #ttnn_layout> attributes {tt.function_type = "forward_device"} {
    %0 = "ttnn.matmul"(%x, %w1) <{activation = "relu", transpose_a = false, transpose_b = false}> : (tensor<256x512xbf16, #ttnn_layout>, tensor<512x1024xbf16, #ttnn_layout1>) -> tensor<256x1024xbf16, #ttnn_layout2> loc("fc1")
    %1 = "ttnn.gelu"(%0) : (tensor<256x1024xbf16, #ttnn_layout2>) -> tensor<256x1024xbf16, #ttnn_layout2> loc("gelu")
    %2 = "ttnn.matmul"(%1, %w2) <{transpose_a = false, transpose_b = false}> : (tensor<256x1024xbf16, #ttnn_layout2>, tensor<1024x512xbf16, #ttnn_layout3>) -> tensor<256x512xbf16, #ttnn_layout> loc("fc2")
    %3 = "ttnn.relu"(%2) : (tensor<256x512xbf16, #ttnn_layout>) -> tensor<256x512xbf16, #ttnn_layout> loc("relu")
    return %3 : tensor<256x512xbf16, #ttnn_layout>
  }
}
