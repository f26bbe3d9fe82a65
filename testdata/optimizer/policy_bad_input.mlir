// RUN: not ttopt opt %s --ttnn-optimizer --memory-layout-analysis-enabled --memory-layout-analysis-policy Greedy 2>&1 | FileCheck %s --check-prefix=FLAG
// RUN: not ttopt opt %s --pass-pipeline='builtin.module(ttnn-optimizer{memory-layout-analysis-enabled=true memory-layout-analysis-policy=bfinterleaved})' 2>&1 | FileCheck %s --check-prefix=PIPE

// An unknown policy name is a usage error (exit 2) that lists the valid ones; names are case-sensitive.
// FLAG: Error: Invalid value for '--memory-layout-analysis-policy': 'Greedy' is not one of 'DFSharding', 'GreedyL1Interleaved', 'BFInterleaved', 'CostBased'.
// PIPE: Error: --pass-pipeline: option 'memory-layout-analysis-policy' of pass 'ttnn-optimizer': expected one of DFSharding, GreedyL1Interleaved, BFInterleaved, CostBased, got 'bfinterleaved'

#dram = #ttnn.buffer_type<dram>
#ttnn_layout = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<8x16x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
module {
  func.func @forward(%x: tensor<256x512xbf16, #ttnn_layout>) -> tensor<256x512xbf16, #ttnn_layout> attributes {tt.function_type = "forward_device"} {
    %0 = "ttnn.relu"(%x) : (tensor<256x512xbf16, #ttnn_layout>) -> tensor<256x512xbf16, #ttnn_layout> loc("relu")
    return %0 : tensor<256x512xbf16, #ttnn_layout>
  }
}
