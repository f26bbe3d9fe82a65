// RUN: ttopt opt %s --ttnn-optimizer --memory-layout-analysis-enabled --memory-layout-analysis-policy CostBased --verify-l1-budget --mlir-print-debuginfo | FileCheck %s
// RUN: ttopt opt %s --ttnn-optimizer --memory-layout-analysis-enabled --memory-layout-analysis-policy CostBased --cost-exact-max-ops 0 --mlir-print-debuginfo | FileCheck %s
// RUN: ttopt opt %s --ttnn-optimizer --memory-layout-analysis-enabled --memory-layout-analysis-policy CostBased --trace 2>&1 >/dev/null | FileCheck %s --check-prefix=TRACE
// RUN: ttopt opt %s --ttnn-optimizer --memory-layout-analysis-enabled --memory-layout-analysis-policy CostBased --tensor-l1-usage-cap 0.02 --verify-l1-budget --mlir-print-debuginfo | FileCheck %s --check-prefix=SPILL
// RUN: ttopt opt %s --ttnn-optimizer --memory-layout-analysis-enabled --memory-layout-analysis-policy CostBased --tensor-l1-usage-cap 0.02 --trace 2>&1 >/dev/null | FileCheck %s --check-prefix=SPILL-TRACE

// A fork resolved by a reshard rather than a spill, because that is cheaper (issue 15). p = relu(x)
// (1x8x256x128 bf16, 512 KiB) is read by norm = rms_norm(p), which takes width- or block-sharded
// inputs, and by rope = rotary_embedding(p), which takes height-sharded ones; both copy their input's
// shard spec to their output, and an interleaved input gives an interleaved output. No shard spec
// serves both readers, so the fork has three ways out:
//   spill:   p in DRAM; both readers (and their readers) stream it: no plan beats the input, 62896.9 ns
//            (tests/optimizer/test_cost_based.py: the exhaustive optimum with p held in DRAM);
//   edge spill: p height sharded for rope, p -> DRAM on norm's edge: 62426.6 ns (the SPILL run);
//   reshard: p height sharded (8 KiB/core on 64 cores) read in place by rope, and one L1 -> L1
//            to_layout into norm's 8x4 block shards: 7381.9 ns (mostly the 7.09 us launch floor), and
//            norm, rope and their readers stay sharded: 53729.2 ns, the exhaustive optimum.
// The exact MIP (first RUN) and the beam (second) both take the reshard.
//
// L1 full: with a 0.02 cap (29962 B per core) norm's block-sharded config needs 36864 B on its own
// (its input and output shards plus circular buffers), so norm cannot run sharded and its edge is
// spilled to DRAM instead; p stays height sharded for rope.

// CHECK: #[[H:ttnn_layout[0-9]+]] = #ttnn.ttnn_layout<{{.*}}<64x1>, memref<1x4x!ttcore.tile<32x32, bf16>, #l1>, <height_sharded>
// CHECK: #[[B:ttnn_layout[0-9]+]] = #ttnn.ttnn_layout<{{.*}}<8x4>, memref<8x1x!ttcore.tile<32x32, bf16>, #l1>, <block_sharded>
// CHECK: %[[P:.*]] = "ttnn.relu"(%arg0) {{.*}} -> tensor<1x8x256x128xbf16, #[[H]]> loc("p")
// CHECK-NEXT: %[[R:.*]] = "ttnn.to_layout"(%[[P]]) : (tensor<1x8x256x128xbf16, #[[H]]>) -> tensor<1x8x256x128xbf16, #[[B]]> loc("norm_mem_reconfig")
// CHECK-NEXT: %[[N:.*]] = "ttnn.rms_norm"(%[[R]], %arg1) {{.*}} -> tensor<1x8x256x128xbf16, #[[B]]> loc("norm")
// CHECK-NEXT: %[[Q:.*]] = "ttnn.rotary_embedding"(%[[P]], %arg2, %arg3) : (tensor<1x8x256x128xbf16, #[[H]]>, {{.*}}) -> tensor<1x8x256x128xbf16, #[[H]]> loc("rope")
// CHECK-NEXT: "ttnn.relu"(%[[N]]) : (tensor<1x8x256x128xbf16, #[[B]]>) -> tensor<1x8x256x128xbf16, #ttnn_layout> loc("norm_out")
// CHECK-NEXT: "ttnn.relu"(%[[Q]]) : (tensor<1x8x256x128xbf16, #[[H]]>) -> tensor<1x8x256x128xbf16, #ttnn_layout> loc("rope_out")
// CHECK-NOT: to_layout

// TRACE: note: CostBased: 3 decisions over 5 ops, exact MIP (Optimal, bound 53729.2 ns)
// TRACE-NEXT: note: CostBased: estimate 62896.9 ns -> 53729.2 ns, 1 reshard(s)
// TRACE-NEXT: note: p: l1 height_sharded 64x1 [1x4 tiles]
// TRACE-NEXT: note: norm: l1 block_sharded 8x4 [8x1 tiles] 16211.4 ns (compute 1728.0, dram 40.6, noc 0.0, 1 reshard(s) 7381.9)
// TRACE-NEXT: note: rope: l1 height_sharded 64x1 [1x4 tiles] 8231.3 ns

// SPILL: #[[H:ttnn_layout[0-9]+]] = #ttnn.ttnn_layout<{{.*}}<64x1>, memref<1x4x!ttcore.tile<32x32, bf16>, #l1>, <height_sharded>
// SPILL: %[[P:.*]] = "ttnn.relu"(%arg0) {{.*}} -> tensor<1x8x256x128xbf16, #[[H]]> loc("p")
// SPILL-NEXT: %[[R:.*]] = "ttnn.to_layout"(%[[P]]) : (tensor<1x8x256x128xbf16, #[[H]]>) -> tensor<1x8x256x128xbf16, #ttnn_layout> loc("norm_mem_reconfig")
// SPILL-NEXT: "ttnn.rms_norm"(%[[R]], %arg1) {{.*}} -> tensor<1x8x256x128xbf16, #ttnn_layout> loc("norm")
// SPILL-NEXT: "ttnn.rotary_embedding"(%[[P]], %arg2, %arg3) : (tensor<1x8x256x128xbf16, #[[H]]>, {{.*}}) -> tensor<1x8x256x128xbf16, #[[H]]> loc("rope")

// SPILL-TRACE: note: CostBased: estimate 62896.9 ns -> 62426.6 ns, 1 reshard(s)
// SPILL-TRACE: note: norm: dram interleaved 1x1 [64x4 tiles] 22308.2 ns (compute 960.0, dram 5241.9, noc 0.0, 1 reshard(s) 9708.7)

#dram = #ttnn.buffer_type<dram>
#ttnn_layout = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 2048 + d1 * 256 + d2, d3), <1x1>, memref<64x4x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout1 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 32 + d1 * 32 + d2, d3), <1x1>, memref<1x4x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout2 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 256 + d1 * 256 + d2, d3), <1x1>, memref<8x4x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
module {
  func.func @forward(%a0: tensor<1x8x256x128xbf16, #ttnn_layout>, %a1: tensor<1x1x1x128xbf16, #ttnn_layout1>, %a2: tensor<1x1x256x128xbf16, #ttnn_layout2>, %a3: tensor<1x1x256x128xbf16, #ttnn_layout2>) -> (tensor<1x8x256x128xbf16, #ttnn_layout>, tensor<1x8x256x128xbf16, #ttnn_layout>) attributes {tt.function_type = "forward_device"} {
    %v0 = "ttnn.relu"(%a0) : (tensor<1x8x256x128xbf16, #ttnn_layout>) -> tensor<1x8x256x128xbf16, #ttnn_layout> loc("p")
    %v1 = "ttnn.rms_norm"(%v0, %a1) <{epsilon = 1.000000e-05 : f32}> : (tensor<1x8x256x128xbf16, #ttnn_layout>, tensor<1x1x1x128xbf16, #ttnn_layout1>) -> tensor<1x8x256x128xbf16, #ttnn_layout> loc("norm")
    %v2 = "ttnn.rotary_embedding"(%v0, %a2, %a3) : (tensor<1x8x256x128xbf16, #ttnn_layout>, tensor<1x1x256x128xbf16, #ttnn_layout2>, tensor<1x1x256x128xbf16, #ttnn_layout2>) -> tensor<1x8x256x128xbf16, #ttnn_layout> loc("rope")
    %v3 = "ttnn.relu"(%v1) : (tensor<1x8x256x128xbf16, #ttnn_layout>) -> tensor<1x8x256x128xbf16, #ttnn_layout> loc("norm_out")
    %v4 = "ttnn.relu"(%v2) : (tensor<1x8x256x128xbf16, #ttnn_layout>) -> tensor<1x8x256x128xbf16, #ttnn_layout> loc("rope_out")
    return %v3, %v4 : tensor<1x8x256x128xbf16, #ttnn_layout>, tensor<1x8x256x128xbf16, #ttnn_layout>
  }
}
