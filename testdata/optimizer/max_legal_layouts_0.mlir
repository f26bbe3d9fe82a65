// RUN: ttopt opt %s --ttnn-optimizer --memory-layout-analysis-enabled --memory-layout-analysis-policy DFSharding --max-legal-layouts 0 --mlir-print-local-scope | FileCheck %s
// RUN: ttopt opt %s --ttnn-optimizer --memory-layout-analysis-enabled --memory-layout-analysis-policy DFSharding --max-legal-layouts=0 --trace 2>&1 >/dev/null | FileCheck %s --check-prefix=TRACE

// max-legal-layouts 0: no op has a sharded config (reference §2.3), so no L1 chain is built and every
// op stays DRAM interleaved; nothing is inserted.
// CHECK-NOT: #ttnn.buffer_type<l1>
// CHECK-NOT: sharded
// CHECK-NOT: {{to_layout|to_memory_config}}
// CHECK: return
// TRACE: L1 chains (0)
// TRACE: 0/0 chains completed, 0 reshard(s), 0 spill(s)

#dram = #ttnn.buffer_type<dram>
#ttnn_layout = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<8x16x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout1 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<16x32x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout2 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<8x32x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout3 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<32x16x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
module {
  func.func @forward(%x: tensor<256x512xbf16, #ttnn_layout>, %w1: tensor<512x1024xbf16, #ttnn_layout1>, %w2: tensor<1024x512xbf16, #ttnn_layout3>) -> tensor<256x512xbf16, #ttnn_layout> attributes {tt.function_type = "forward_device"} {
    %0 = "ttnn.matmul"(%x, %w1) <{transpose_a = false, transpose_b = false}> : (tensor<256x512xbf16, #ttnn_layout>, tensor<512x1024xbf16, #ttnn_layout1>) -> tensor<256x1024xbf16, #ttnn_layout2> loc("fc1")
    %1 = "ttnn.gelu"(%0) : (tensor<256x1024xbf16, #ttnn_layout2>) -> tensor<256x1024xbf16, #ttnn_layout2> loc("gelu")
    %2 = "ttnn.matmul"(%1, %w2) <{transpose_a = false, transpose_b = false}> : (tensor<256x1024xbf16, #ttnn_layout2>, tensor<1024x512xbf16, #ttnn_layout3>) -> tensor<256x512xbf16, #ttnn_layout> loc("fc2")
    %3 = "ttnn.relu"(%2) : (tensor<256x512xbf16, #ttnn_layout>) -> tensor<256x512xbf16, #ttnn_layout> loc("relu")
    return %3 : tensor<256x512xbf16, #ttnn_layout>
  }
}
