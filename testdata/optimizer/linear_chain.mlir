// RUN: ttopt opt %s --ttnn-optimizer --memory-layout-analysis-enabled --memory-layout-analysis-policy DFSharding --mlir-print-debuginfo | FileCheck %s
// RUN: ttopt opt %s --pass-pipeline='builtin.module(ttnn-optimizer{memory-layout-analysis-enabled=true memory-layout-analysis-policy=DFSharding})' --mlir-print-debuginfo | FileCheck %s
// RUN: ttopt opt %s --ttnn-optimizer --mlir-print-debuginfo | FileCheck %s --check-prefix=OFF

// A linear chain matmul -> gelu -> matmul -> relu (DRAM interleaved inputs): DFSharding builds one
// L1 chain of all four ops (each op's result has one use, operand 0 of the next op), the solver
// picks the configs with the most accumulated cores (8x8 block sharding), and the chain's last op
// is spilled to DRAM right before the return. Without memory-layout-analysis every op keeps its
// first legal config: DRAM interleaved.

#dram = #ttnn.buffer_type<dram>
#ttnn_layout = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<8x16x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout1 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<16x32x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout2 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<8x32x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout3 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<32x16x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>

// CHECK: #l1 = #ttnn.buffer_type<l1>
// CHECK: #[[SH1:ttnn_layout[0-9]+]] = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <8x8>, memref<1x4x!ttcore.tile<32x32, bf16>, #l1>, <block_sharded>, core_ranges = <[#ttnn.core_range<(0, 0), (7, 7)>]>>
// CHECK: #[[SH2:ttnn_layout[0-9]+]] = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <8x8>, memref<1x2x!ttcore.tile<32x32, bf16>, #l1>, <block_sharded>, core_ranges = <[#ttnn.core_range<(0, 0), (7, 7)>]>>
// CHECK: func.func @forward({{.*}}) -> tensor<256x512xbf16, #ttnn_layout>
// CHECK: %[[A:.*]] = "ttnn.matmul"(%arg0, %arg1) <{matmul_program_config = #ttnn.matmul_multi_core_reuse_multi_cast_program_config<compute_with_storage_grid_size = #ttnn.core_coord<8, 8>, {{.*}}per_core_m = 1, per_core_n = 4{{.*}} -> tensor<256x1024xbf16, #[[SH1]]> loc("fc1")
// CHECK-NEXT: %[[B:.*]] = "ttnn.gelu"(%[[A]]) {{.*}} -> tensor<256x1024xbf16, #[[SH1]]> loc("gelu")
// CHECK-NEXT: %[[C:.*]] = "ttnn.matmul"(%[[B]], %arg2) <{matmul_program_config = {{.*}}per_core_m = 1, per_core_n = 2{{.*}} -> tensor<256x512xbf16, #[[SH2]]> loc("fc2")
// CHECK-NEXT: %[[D:.*]] = "ttnn.relu"(%[[C]]) {{.*}} -> tensor<256x512xbf16, #[[SH2]]> loc("relu")
// CHECK-NEXT: %[[S:.*]] = "ttnn.to_memory_config"(%[[D]]) : (tensor<256x512xbf16, #[[SH2]]>) -> tensor<256x512xbf16, #ttnn_layout> loc("relu_spill")
// CHECK-NEXT: return %[[S]] : tensor<256x512xbf16, #ttnn_layout>
// CHECK-NOT: {{to_layout|to_memory_config}}

// OFF-NOT: l1
// OFF: "ttnn.matmul"(%arg0, %arg1) <{transpose_a = false, transpose_b = false}> {{.*}} -> tensor<256x1024xbf16, #ttnn_layout2> loc("fc1")
// OFF-NOT: {{to_layout|to_memory_config}}
// OFF: return

module {
  func.func @forward(%x: tensor<256x512xbf16, #ttnn_layout>, %w1: tensor<512x1024xbf16, #ttnn_layout1>, %w2: tensor<1024x512xbf16, #ttnn_layout3>) -> tensor<256x512xbf16, #ttnn_layout> attributes {tt.function_type = "forward_device"} {
    %0 = "ttnn.matmul"(%x, %w1) <{transpose_a = false, transpose_b = false}> : (tensor<256x512xbf16, #ttnn_layout>, tensor<512x1024xbf16, #ttnn_layout1>) -> tensor<256x1024xbf16, #ttnn_layout2> loc("fc1")
    %1 = "ttnn.gelu"(%0) : (tensor<256x1024xbf16, #ttnn_layout2>) -> tensor<256x1024xbf16, #ttnn_layout2> loc("gelu")
    %2 = "ttnn.matmul"(%1, %w2) <{transpose_a = false, transpose_b = false}> : (tensor<256x1024xbf16, #ttnn_layout2>, tensor<1024x512xbf16, #ttnn_layout3>) -> tensor<256x512xbf16, #ttnn_layout> loc("fc2")
    %3 = "ttnn.relu"(%2) : (tensor<256x512xbf16, #ttnn_layout>) -> tensor<256x512xbf16, #ttnn_layout> loc("relu")
    return %3 : tensor<256x512xbf16, #ttnn_layout>
  }
}
