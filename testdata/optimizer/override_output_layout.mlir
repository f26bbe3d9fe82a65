// RUN: ttopt opt %s --ttnn-optimizer --memory-layout-analysis-enabled --memory-layout-analysis-policy DFSharding --override-output-layout fc1=4x8:l1:block_sharded:tile,relu=dram --mlir-print-debuginfo | FileCheck %s
// RUN: ttopt opt %s --ttnn-optimizer --override-output-layout gelu=l1:interleaved,fc2=width_sharded --mlir-print-debuginfo | FileCheck %s --check-prefix=PARTIAL
// RUN: ttopt opt %s --pass-pipeline='builtin.module(ttnn-optimizer{override-output-layout=gelu=l1:interleaved,fc2=width_sharded})' --mlir-print-debuginfo | FileCheck %s --check-prefix=PARTIAL

// Output-layout overrides (reference §2.14). A full override (grid, buffer, memory layout, page)
// pins the op to exactly that layout: fc1 is 4x8 block sharded, and the chain follows it. "relu=dram"
// leaves relu no sharded config, so the chain ends at fc2 and is spilled before relu.
// CHECK: #[[B48:ttnn_layout[0-9]+]] = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <4x8>, memref<2x4x!ttcore.tile<32x32, bf16>, #l1>, <block_sharded>, core_ranges = <[#ttnn.core_range<(0, 0), (7, 3)>]>>
// CHECK: "ttnn.matmul"(%arg0, %arg1) <{matmul_program_config = #ttnn.matmul_multi_core_reuse_multi_cast_program_config<compute_with_storage_grid_size = #ttnn.core_coord<8, 4>{{.*}} -> tensor<256x1024xbf16, #[[B48]]> loc("fc1")
// CHECK-NEXT: "ttnn.gelu"{{.*}} -> tensor<256x1024xbf16, #[[B48]]> loc("gelu")
// CHECK-NEXT: "ttnn.matmul"
// CHECK-NEXT: %[[SP:.*]] = "ttnn.to_memory_config"{{.*}} -> tensor<256x512xbf16, #ttnn_layout> loc("fc2_spill")
// CHECK-NEXT: "ttnn.relu"(%[[SP]]) : (tensor<256x512xbf16, #ttnn_layout>) -> tensor<256x512xbf16, #ttnn_layout> loc("relu")

// Partial overrides without memory-layout analysis: each op takes its first config that agrees with
// the given fields (reference §2.10), so gelu is L1 interleaved and fc2 width sharded, with no chain.
// PARTIAL: #[[L1I:ttnn_layout[0-9]+]] = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <8x8>, memref<1x4x!ttcore.tile<32x32, bf16>, #l1>, <interleaved>>
// PARTIAL: #[[W:ttnn_layout[0-9]+]] = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x16>, memref<8x1x!ttcore.tile<32x32, bf16>, #l1>, <width_sharded>
// PARTIAL: "ttnn.matmul"(%arg0, %arg1) <{transpose_a = false, transpose_b = false}> {{.*}} -> tensor<256x1024xbf16, #ttnn_layout2> loc("fc1")
// PARTIAL-NEXT: "ttnn.gelu"{{.*}} -> tensor<256x1024xbf16, #[[L1I]]> loc("gelu")
// PARTIAL-NEXT: "ttnn.matmul"{{.*}}matmul_multi_core_reuse_multi_cast_1d_program_config{{.*}} -> tensor<256x512xbf16, #[[W]]> loc("fc2")
// PARTIAL-NEXT: "ttnn.relu"{{.*}} -> tensor<256x512xbf16, #ttnn_layout> loc("relu")
// PARTIAL-NOT: {{to_layout|to_memory_config}}

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
