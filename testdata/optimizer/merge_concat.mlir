// RUN: ttopt opt %s --ttnn-optimizer --memory-layout-analysis-enabled --memory-layout-analysis-policy DFSharding  --verify-l1-budget --mlir-print-debuginfo | FileCheck %s --check-prefix=IR
// RUN: ttopt opt %s --ttnn-optimizer --memory-layout-analysis-enabled --memory-layout-analysis-policy DFSharding  --trace 2>&1 >/dev/null | FileCheck %s
// RUN: ttopt opt %s --ttnn-optimizer --memory-layout-analysis-enabled --memory-layout-analysis-policy DFSharding  --no-chain-merging --trace 2>&1 >/dev/null | FileCheck %s --check-prefix=OFF

// DFSharding 2.0 concat chain (reference §2.9 steps 1-2): cat concatenates the outputs of three
// chains on the last dim, so it gets a chain of its own, its producer chains prefer height-sharded
// outputs, and the N-way check validates each input chain with the earlier inputs reserved. All
// three inputs stay in L1 height sharded (no spills), cat runs height sharded on their grid, and its
// output then merges into the consumer chain (operand 0 is allowed for a concat-chain source).
// Needs sharded legal configs for concat, i.e. validated with *all* inputs in the output's spec.

// CHECK: cat        ttnn.concat   {{[0-9]+}} {{ +}}{{[1-9][0-9]*}} {{ +}}l1 height_sharded
// CHECK: chain 3 (concat): [cat]
// CHECK: concat cat: accepted (3 inputs kept in L1)
// CHECK: merge cat -> relu_out operand 0 (chain 4): accepted
// CHECK-NOT: spill relu_0
// CHECK-NOT: spill gelu_1
// CHECK-NOT: spill neg_2
// CHECK: spill relu_out -> dram
// CHECK: relu_0 {{ +}}l1 height_sharded 64x1 [1x2 tiles]
// CHECK: gelu_1 {{ +}}l1 height_sharded 64x1 [1x2 tiles]
// CHECK: neg_2 {{ +}}l1 height_sharded 64x1 [1x2 tiles]
// CHECK: cat {{ +}}l1 height_sharded 64x1 [1x6 tiles]
// CHECK: 5/5 chains completed, 0 reshard(s), 1 spill(s)

// OFF: chain 3 failed: concat chains are resolved by chain merging (disabled: --no-chain-merging)
// OFF: spill relu_0 -> dram
// OFF: spill gelu_1 -> dram
// OFF: spill neg_2 -> dram
// OFF: 4/5 chains completed, 0 reshard(s), 4 spill(s)

// IR: #[[HS:ttnn_layout[0-9]*]] = #ttnn.ttnn_layout<{{.*}}<64x1>, memref<1x2x{{.*}}#l1>, <height_sharded>
// IR-NOT: relu_0_spill
// IR-NOT: gelu_1_spill
// IR-NOT: neg_2_spill
// IR: %[[A:.*]] = "ttnn.relu"{{.*}} -> tensor<2048x64xbf16, #[[HS]]> loc("relu_0")
// IR: %[[B:.*]] = "ttnn.gelu"{{.*}} loc("gelu_1")
// IR: %[[C:.*]] = "ttnn.neg"{{.*}} loc("neg_2")
// IR: "ttnn.concat"(%[[A]], %[[B]], %[[C]]) {{.*}} loc("cat")
// IR: relu_out_spill

module {
  func.func @concat3(%x: tensor<2048x64xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<64x2x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<dram>>, <interleaved>>>, %w1: tensor<64x64xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x2x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<dram>>, <interleaved>>>, %w2: tensor<64x64xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x2x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<dram>>, <interleaved>>>, %w3: tensor<64x64xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x2x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<dram>>, <interleaved>>>) -> tensor<2048x192xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<64x6x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<dram>>, <interleaved>>> attributes {tt.function_type = "forward_device"} {
    %m0 = "ttnn.matmul"(%x, %w1) <{transpose_a = false, transpose_b = false}> : (tensor<2048x64xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<64x2x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<dram>>, <interleaved>>>, tensor<64x64xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x2x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<dram>>, <interleaved>>>) -> tensor<2048x64xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<64x2x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<dram>>, <interleaved>>> loc("mm_0")
    %a0 = "ttnn.relu"(%m0) : (tensor<2048x64xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<64x2x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<dram>>, <interleaved>>>) -> tensor<2048x64xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<64x2x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<dram>>, <interleaved>>> loc("relu_0")
    %m1 = "ttnn.matmul"(%x, %w2) <{transpose_a = false, transpose_b = false}> : (tensor<2048x64xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<64x2x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<dram>>, <interleaved>>>, tensor<64x64xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x2x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<dram>>, <interleaved>>>) -> tensor<2048x64xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<64x2x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<dram>>, <interleaved>>> loc("mm_1")
    %a1 = "ttnn.gelu"(%m1) : (tensor<2048x64xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<64x2x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<dram>>, <interleaved>>>) -> tensor<2048x64xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<64x2x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<dram>>, <interleaved>>> loc("gelu_1")
    %m2 = "ttnn.matmul"(%x, %w3) <{transpose_a = false, transpose_b = false}> : (tensor<2048x64xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<64x2x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<dram>>, <interleaved>>>, tensor<64x64xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x2x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<dram>>, <interleaved>>>) -> tensor<2048x64xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<64x2x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<dram>>, <interleaved>>> loc("mm_2")
    %a2 = "ttnn.neg"(%m2) : (tensor<2048x64xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<64x2x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<dram>>, <interleaved>>>) -> tensor<2048x64xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<64x2x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<dram>>, <interleaved>>> loc("neg_2")
    %c = "ttnn.concat"(%a0, %a1, %a2) <{dim = 1 : si32}> : (tensor<2048x64xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<64x2x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<dram>>, <interleaved>>>, tensor<2048x64xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<64x2x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<dram>>, <interleaved>>>, tensor<2048x64xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<64x2x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<dram>>, <interleaved>>>) -> tensor<2048x192xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<64x6x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<dram>>, <interleaved>>> loc("cat")
    %r = "ttnn.relu"(%c) : (tensor<2048x192xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<64x6x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<dram>>, <interleaved>>>) -> tensor<2048x192xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<64x6x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<dram>>, <interleaved>>> loc("relu_out")
    return %r : tensor<2048x192xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<64x6x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<dram>>, <interleaved>>>
  }
}
