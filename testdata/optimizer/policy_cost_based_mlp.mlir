// RUN: ttopt opt %s --ttnn-optimizer --memory-layout-analysis-enabled --memory-layout-analysis-policy CostBased --verify-l1-budget --mlir-print-debuginfo | FileCheck %s
// RUN: ttopt opt %s --ttnn-optimizer --memory-layout-analysis-enabled --memory-layout-analysis-policy CostBased --cost-exact-max-ops 0 --mlir-print-debuginfo | FileCheck %s
// RUN: ttopt opt %s --ttnn-optimizer --memory-layout-analysis-enabled --memory-layout-analysis-policy CostBased --trace 2>&1 >/dev/null | FileCheck %s --check-prefix=TRACE

// A matmul chain (testdata/device/mlp.mlir's MLP): fc1 writes 4x8 block shards with a 2-D multicast
// program and the bias add reads and writes the same shards in place; relu writes DRAM interleaved
// and fc2 reads it there and writes DRAM, which softmax reads and returns in DRAM. fc2 (M = 128,
// four tile rows) reading relu's shards would run the 1-D program, whose activation is handed on
// one semaphore-gated block per K tile (8 hand-offs of ~1.1 us); all in DRAM it runs the 2-D
// program. Exact MIP (first RUN) and beam search (second) agree.

// CHECK: #[[S:ttnn_layout[0-9]+]] = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <4x8>, memref<1x1x!ttcore.tile<32x32, bf16>, #l1>, <block_sharded>
// CHECK: %[[FC1:.*]] = "ttnn.matmul"(%arg0, %arg1) <{matmul_program_config = #ttnn.matmul_multi_core_reuse_multi_cast_program_config<compute_with_storage_grid_size = #ttnn.core_coord<8, 4>{{.*}} -> tensor<128x256xbf16, #[[S]]> loc("fc1")
// CHECK-NEXT: %[[B:.*]] = "ttnn.add"(%[[FC1]], %arg2) : (tensor<128x256xbf16, #[[S]]>, {{.*}}) -> tensor<128x256xbf16, #[[S]]> loc("bias1")
// CHECK-NEXT: %[[R:.*]] = "ttnn.relu"(%[[B]]) : (tensor<128x256xbf16, #[[S]]>) -> tensor<128x256xbf16, #ttnn_layout2> loc("relu1")
// CHECK-NEXT: %[[FC2:.*]] = "ttnn.matmul"(%[[R]], %arg3) {{.*}} -> tensor<128x128xbf16, #ttnn_layout4> loc("fc2")
// CHECK-NEXT: "ttnn.softmax"(%[[FC2]]) {{.*}} -> tensor<128x128xbf16, #ttnn_layout4> loc("softmax")
// CHECK-NOT: {{to_layout|to_memory_config}}

// TRACE: note: CostBased: 4 decisions over 5 ops, exact MIP (Optimal, bound 32384.1 ns)
// TRACE-NEXT: note: CostBased: estimate 33793.5 ns -> 32384.1 ns, 0 reshard(s)
// TRACE-NEXT: note: fc1: l1 block_sharded 4x8 [1x1 tiles] 7479.3 ns (compute 358.2, dram 2449.9, noc 0.0); runner-up
// TRACE-NEXT: note: bias1: l1 block_sharded 4x8 [1x1 tiles]
// TRACE-NEXT: note: relu1: dram interleaved 1x1 [4x8 tiles]
// TRACE-NEXT: note: fc2: dram interleaved 1x1 [4x4 tiles]

#dram = #ttnn.buffer_type<dram>
#ttnn_layout = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<4x8x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout1 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<8x8x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout2 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<4x8x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout3 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x8x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout4 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<4x4x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout5 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<8x4x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
module {
  func.func @mlp(%x: tensor<128x256xbf16, #ttnn_layout>, %w1: tensor<256x256xbf16, #ttnn_layout1>, %b1: tensor<1x256xbf16, #ttnn_layout3>, %w2: tensor<256x128xbf16, #ttnn_layout5>) -> tensor<128x128xbf16, #ttnn_layout4> {
    %0 = "ttnn.matmul"(%x, %w1) <{transpose_a = false, transpose_b = false}> : (tensor<128x256xbf16, #ttnn_layout>, tensor<256x256xbf16, #ttnn_layout1>) -> tensor<128x256xbf16, #ttnn_layout2> loc("fc1")
    %1 = "ttnn.add"(%0, %b1) : (tensor<128x256xbf16, #ttnn_layout2>, tensor<1x256xbf16, #ttnn_layout3>) -> tensor<128x256xbf16, #ttnn_layout2> loc("bias1")
    %2 = "ttnn.relu"(%1) : (tensor<128x256xbf16, #ttnn_layout2>) -> tensor<128x256xbf16, #ttnn_layout2> loc("relu1")
    %3 = "ttnn.matmul"(%2, %w2) <{transpose_a = false, transpose_b = false}> : (tensor<128x256xbf16, #ttnn_layout2>, tensor<256x128xbf16, #ttnn_layout5>) -> tensor<128x128xbf16, #ttnn_layout4> loc("fc2")
    %4 = "ttnn.softmax"(%3) <{dimension = -1 : si32}> : (tensor<128x128xbf16, #ttnn_layout4>) -> tensor<128x128xbf16, #ttnn_layout4> loc("softmax")
    return %4 : tensor<128x128xbf16, #ttnn_layout4>
  }
}
