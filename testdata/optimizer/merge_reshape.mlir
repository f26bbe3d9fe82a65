// RUN: ttopt opt %s --ttnn-optimizer --memory-layout-analysis-enabled --memory-layout-analysis-policy DFSharding  --verify-l1-budget --mlir-print-debuginfo | FileCheck %s --check-prefix=IR
// RUN: ttopt opt %s --ttnn-optimizer --memory-layout-analysis-enabled --memory-layout-analysis-policy DFSharding  --trace 2>&1 >/dev/null | FileCheck %s
// RUN: ttopt opt %s --ttnn-optimizer --memory-layout-analysis-enabled --memory-layout-analysis-policy DFSharding  --no-chain-merging --trace 2>&1 >/dev/null | FileCheck %s --check-prefix=OFF

// Reshape reservation: relu (end of chain 0) spills to L1 interleaved for the reshape right after it,
// and the reshape output stays in L1 interleaved until its last user.

// CHECK: spill-l1-interleaved relu -> reshape: accepted
// CHECK: reserve-reshape reshape: accepted (L1 interleaved, positions 2-3, 2048 B/core)
// OFF: spill relu -> dram
// IR: %[[S:.*]] = "ttnn.to_memory_config"{{.*}} loc("relu_spill")
// IR: "ttnn.reshape"(%[[S]]) {{.*}} -> tensor<512x128xbf16, #[[LI:ttnn_layout[0-9]*]]> loc("reshape")
// IR: "ttnn.softmax"{{.*}}(tensor<512x128xbf16, #[[LI]]>)

module {
  func.func @reshape(%x: tensor<256x256xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<8x8x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<dram>>, <interleaved>>>, %w: tensor<256x256xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<8x8x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<dram>>, <interleaved>>>) -> tensor<512x128xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<16x4x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<dram>>, <interleaved>>> attributes {tt.function_type = "forward_device"} {
    %0 = "ttnn.matmul"(%x, %w) <{transpose_a = false, transpose_b = false}> : (tensor<256x256xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<8x8x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<dram>>, <interleaved>>>, tensor<256x256xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<8x8x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<dram>>, <interleaved>>>) -> tensor<256x256xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<8x8x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<dram>>, <interleaved>>> loc("mm")
    %1 = "ttnn.relu"(%0) : (tensor<256x256xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<8x8x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<dram>>, <interleaved>>>) -> tensor<256x256xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<8x8x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<dram>>, <interleaved>>> loc("relu")
    %2 = "ttnn.reshape"(%1) <{shape = [512 : i32, 128 : i32]}> : (tensor<256x256xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<8x8x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<dram>>, <interleaved>>>) -> tensor<512x128xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<16x4x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<dram>>, <interleaved>>> loc("reshape")
    %3 = "ttnn.softmax"(%2) <{dimension = -1 : si32}> : (tensor<512x128xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<16x4x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<dram>>, <interleaved>>>) -> tensor<512x128xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<16x4x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<dram>>, <interleaved>>> loc("softmax")
    return %3 : tensor<512x128xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<16x4x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<dram>>, <interleaved>>>
  }
}
