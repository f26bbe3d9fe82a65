// RUN: ttopt opt %s --ttnn-optimizer --memory-layout-analysis-enabled --memory-layout-analysis-policy DFSharding --no-chain-merging --mlir-print-debuginfo | FileCheck %s
// RUN: ttopt opt %s --ttnn-optimizer --memory-layout-analysis-enabled --memory-layout-analysis-policy DFSharding --no-chain-merging --trace 2>&1 >/dev/null | FileCheck %s --check-prefix=TRACE

// DFSharding 1.0 (--no-chain-merging; merge_fork_*.mlir show 2.0). A fork: the matmul has two users, so its chain ends there (single-use rule, seed 002 §3.2.3)
// and its L1 output is spilled to DRAM; both consumers read the spill (seed 002 §4.1.1: "an op with
// multiple users spills to DRAM"). relu cannot continue into the add (the add's operand 0 is
// gelu's result), so relu's chain is spilled too; gelu -> add is one chain ending before return.

#dram = #ttnn.buffer_type<dram>
#ttnn_layout = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<8x16x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout1 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<16x16x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>

// CHECK: #[[L1:ttnn_layout[0-9]+]] = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <8x8>, memref<1x2x!ttcore.tile<32x32, bf16>, #l1>, <block_sharded>
// CHECK: %[[MM:.*]] = "ttnn.matmul"(%arg0, %arg1) {{.*}} -> tensor<256x512xbf16, #[[L1]]> loc("mm")
// CHECK-NEXT: %[[SPILL:.*]] = "ttnn.to_memory_config"(%[[MM]]) : (tensor<256x512xbf16, #[[L1]]>) -> tensor<256x512xbf16, #ttnn_layout> loc("mm_spill")
// CHECK-NEXT: %[[RELU:.*]] = "ttnn.relu"(%[[SPILL]]) : (tensor<256x512xbf16, #ttnn_layout>) -> tensor<256x512xbf16, #[[L1]]> loc("relu")
// CHECK-NEXT: %[[RSPILL:.*]] = "ttnn.to_memory_config"(%[[RELU]]) {{.*}} loc("relu_spill")
// CHECK-NEXT: %[[GELU:.*]] = "ttnn.gelu"(%[[SPILL]]) : (tensor<256x512xbf16, #ttnn_layout>) -> tensor<256x512xbf16, #[[L1]]> loc("gelu")
// CHECK-NEXT: %[[ADD:.*]] = "ttnn.add"(%[[GELU]], %[[RSPILL]]) : (tensor<256x512xbf16, #[[L1]]>, tensor<256x512xbf16, #ttnn_layout>) -> tensor<256x512xbf16, #[[L1]]> loc("add")
// CHECK-NEXT: %[[ASPILL:.*]] = "ttnn.to_memory_config"(%[[ADD]]) {{.*}} loc("add_spill")
// CHECK-NEXT: return %[[ASPILL]]

// TRACE: schedule: mm, relu, gelu, add
// TRACE: chain 0: [mm]
// TRACE-NEXT: chain 1: [relu]
// TRACE-NEXT: chain 2: [gelu, add]
// TRACE: spill mm -> dram interleaved 1x1 [8x16 tiles] (inserted mm_spill)

module {
  func.func @fork(%x: tensor<256x512xbf16, #ttnn_layout>, %w: tensor<512x512xbf16, #ttnn_layout1>) -> tensor<256x512xbf16, #ttnn_layout> attributes {tt.function_type = "forward_device"} {
    %0 = "ttnn.matmul"(%x, %w) <{transpose_a = false, transpose_b = false}> : (tensor<256x512xbf16, #ttnn_layout>, tensor<512x512xbf16, #ttnn_layout1>) -> tensor<256x512xbf16, #ttnn_layout> loc("mm")
    %1 = "ttnn.relu"(%0) : (tensor<256x512xbf16, #ttnn_layout>) -> tensor<256x512xbf16, #ttnn_layout> loc("relu")
    %2 = "ttnn.gelu"(%0) : (tensor<256x512xbf16, #ttnn_layout>) -> tensor<256x512xbf16, #ttnn_layout> loc("gelu")
    %3 = "ttnn.add"(%2, %1) : (tensor<256x512xbf16, #ttnn_layout>, tensor<256x512xbf16, #ttnn_layout>) -> tensor<256x512xbf16, #ttnn_layout> loc("add")
    return %3 : tensor<256x512xbf16, #ttnn_layout>
  }
}
