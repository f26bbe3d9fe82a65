// RUN: ttopt opt %s --ttnn-optimizer --memory-layout-analysis-enabled --memory-layout-analysis-policy DFSharding  --verify-l1-budget --mlir-print-debuginfo | FileCheck %s --check-prefix=IR
// RUN: ttopt opt %s --ttnn-optimizer --memory-layout-analysis-enabled --memory-layout-analysis-policy DFSharding  --trace 2>&1 >/dev/null | FileCheck %s
// RUN: ttopt opt %s --ttnn-optimizer --memory-layout-analysis-enabled --memory-layout-analysis-policy DFSharding  --no-chain-merging --trace 2>&1 >/dev/null | FileCheck %s --check-prefix=OFF

// A fork kept in L1 sharded: mm's two users (relu, gelu) accept its block-sharded output and
// produce their planned layouts, so it stays in L1 (no spill); relu is then merged into add (operand 1).

// CHECK: reserve-fork mm: accepted (sharded, positions 0-2, 4096 B/core)
// CHECK: merge relu -> add operand 1 (chain 2): accepted
// CHECK-NOT: spill mm
// OFF: spill mm -> dram
// IR-NOT: mm_spill
// IR-NOT: relu_spill
// IR: add_spill

#dram = #ttnn.buffer_type<dram>
#ttnn_layout = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<8x16x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout1 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<16x16x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>



module {
  func.func @fork(%x: tensor<256x512xbf16, #ttnn_layout>, %w: tensor<512x512xbf16, #ttnn_layout1>) -> tensor<256x512xbf16, #ttnn_layout> attributes {tt.function_type = "forward_device"} {
    %0 = "ttnn.matmul"(%x, %w) <{transpose_a = false, transpose_b = false}> : (tensor<256x512xbf16, #ttnn_layout>, tensor<512x512xbf16, #ttnn_layout1>) -> tensor<256x512xbf16, #ttnn_layout> loc("mm")
    %1 = "ttnn.relu"(%0) : (tensor<256x512xbf16, #ttnn_layout>) -> tensor<256x512xbf16, #ttnn_layout> loc("relu")
    %2 = "ttnn.gelu"(%0) : (tensor<256x512xbf16, #ttnn_layout>) -> tensor<256x512xbf16, #ttnn_layout> loc("gelu")
    %3 = "ttnn.add"(%2, %1) : (tensor<256x512xbf16, #ttnn_layout>, tensor<256x512xbf16, #ttnn_layout>) -> tensor<256x512xbf16, #ttnn_layout> loc("add")
    return %3 : tensor<256x512xbf16, #ttnn_layout>
  }
}
