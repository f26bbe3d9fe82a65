// RUN: ttopt opt %s --ttnn-optimizer --memory-layout-analysis-enabled --memory-layout-analysis-policy CostBased --verify-l1-budget --mlir-print-debuginfo | FileCheck %s
// RUN: ttopt opt %s --ttnn-optimizer --memory-layout-analysis-enabled --memory-layout-analysis-policy CostBased --cost-exact-max-ops 0 --mlir-print-debuginfo | FileCheck %s --check-prefix=BEAM
// RUN: ttopt opt %s --ttnn-optimizer --memory-layout-analysis-enabled --memory-layout-analysis-policy CostBased --trace 2>&1 >/dev/null | FileCheck %s --check-prefix=TRACE
// RUN: ttopt opt %s --ttnn-optimizer --memory-layout-analysis-enabled --memory-layout-analysis-policy CostBased --tensor-l1-usage-cap 0.08 --verify-l1-budget --mlir-print-debuginfo | FileCheck %s --check-prefix=SPILL
// RUN: ttopt opt %s --ttnn-optimizer --memory-layout-analysis-enabled --memory-layout-analysis-policy CostBased --tensor-l1-usage-cap 0.08 --trace 2>&1 >/dev/null | FileCheck %s --check-prefix=SPILL-TRACE

// A fork resolved by a reshard rather than a spill, because that is cheaper. p = relu(x)
// (1x8x1024x256 bf16, 4 MiB) is read by norm = rms_norm(p), which takes width- or block-sharded
// inputs, and by rope = rotary_embedding(p), which takes height-sharded ones; both copy their input's
// shard spec to their output, and an interleaved input gives an interleaved output. No shard spec
// serves both readers, so the fork has three ways out:
//   spill:   p in DRAM; both readers stream it: 162368.3 ns at best
//            (tests/optimizer/test_cost_based.py: the exhaustive optimum with p held in DRAM);
//   L1 interleaved: p in L1 interleaved for both readers, whose pages then cross the NoC (measured
//            slower than sharded: tt-metal issue 14421): 142986.9 ns;
//   reshard: p height sharded (64 KiB/core on 64 cores) read in place by rope, and one L1 -> L1
//            to_layout into norm's 8x8 block shards: 4668.0 ns (mostly the launch and op-to-op
//            floor), and norm, rope and their readers stay sharded: 130450.1 ns, the exhaustive optimum.
// The reshard can go either way at the same cost: p in norm's block shards, read in place by norm,
// and one to_layout into rope's height shards (4668.0 ns too) is also 130450.1 ns. The exact MIP
// (first RUN) takes the first, the beam (second) the second.
// (With 128 columns, a 4-tile row, norm's block shards span only 8x4 cores, half the cores its
// interleaved program runs on (one per tile row), and p stays L1 interleaved for both readers.)
//
// L1 full: with a 0.08 cap (119848 B per core) no reader's shards fit beside p's pages, so p is
// L1 interleaved and norm and rope read it there and write DRAM.

// CHECK: #[[H:ttnn_layout[0-9]+]] = #ttnn.ttnn_layout<{{.*}}<64x1>, memref<4x8x!ttcore.tile<32x32, bf16>, #l1>, <height_sharded>
// CHECK: #[[B:ttnn_layout[0-9]+]] = #ttnn.ttnn_layout<{{.*}}<8x8>, memref<32x1x!ttcore.tile<32x32, bf16>, #l1>, <block_sharded>
// CHECK: %[[P:.*]] = "ttnn.relu"(%arg0) {{.*}} -> tensor<1x8x1024x256xbf16, #[[H]]> loc("p")
// CHECK-NEXT: %[[R:.*]] = "ttnn.to_memory_config"(%[[P]]) : (tensor<1x8x1024x256xbf16, #[[H]]>) -> tensor<1x8x1024x256xbf16, #[[B]]> loc("norm_mem_reconfig")
// CHECK-NEXT: %[[N:.*]] = "ttnn.rms_norm"(%[[R]], %arg1) {{.*}} -> tensor<1x8x1024x256xbf16, #[[B]]> loc("norm")
// CHECK-NEXT: %[[Q:.*]] = "ttnn.rotary_embedding"(%[[P]], %arg2, %arg3) : (tensor<1x8x1024x256xbf16, #[[H]]>, {{.*}}) -> tensor<1x8x1024x256xbf16, #[[H]]> loc("rope")
// CHECK-NEXT: "ttnn.relu"(%[[N]]) : (tensor<1x8x1024x256xbf16, #[[B]]>) -> tensor<1x8x1024x256xbf16, #ttnn_layout> loc("norm_out")
// CHECK-NEXT: "ttnn.relu"(%[[Q]]) : (tensor<1x8x1024x256xbf16, #[[H]]>) -> tensor<1x8x1024x256xbf16, #ttnn_layout> loc("rope_out")
// CHECK-NOT: {{to_layout|to_memory_config}}

// BEAM: #[[B:ttnn_layout[0-9]+]] = #ttnn.ttnn_layout<{{.*}}<8x8>, memref<32x1x!ttcore.tile<32x32, bf16>, #l1>, <block_sharded>
// BEAM: #[[H:ttnn_layout[0-9]+]] = #ttnn.ttnn_layout<{{.*}}<64x1>, memref<4x8x!ttcore.tile<32x32, bf16>, #l1>, <height_sharded>
// BEAM: %[[P:.*]] = "ttnn.relu"(%arg0) {{.*}} -> tensor<1x8x1024x256xbf16, #[[B]]> loc("p")
// BEAM-NEXT: "ttnn.rms_norm"(%[[P]], %arg1) {{.*}} -> tensor<1x8x1024x256xbf16, #[[B]]> loc("norm")
// BEAM-NEXT: %[[R:.*]] = "ttnn.to_memory_config"(%[[P]]) : (tensor<1x8x1024x256xbf16, #[[B]]>) -> tensor<1x8x1024x256xbf16, #[[H]]> loc("rope_mem_reconfig")
// BEAM-NEXT: "ttnn.rotary_embedding"(%[[R]], %arg2, %arg3) : (tensor<1x8x1024x256xbf16, #[[H]]>, {{.*}}) -> tensor<1x8x1024x256xbf16, #[[H]]> loc("rope")
// BEAM-NOT: {{to_layout|to_memory_config}}

// TRACE: note: CostBased: 3 decisions over 5 ops, exact MIP (Optimal, bound 130450.1 ns)
// TRACE-NEXT: note: CostBased: estimate 244279.5 ns -> 130450.1 ns, 1 reshard(s)
// TRACE-NEXT: note: p: l1 height_sharded 64x1 [4x8 tiles]
// TRACE-NEXT: note: norm: l1 block_sharded 8x8 [32x1 tiles] 27083.4 ns (compute 14836.6, dram 80.0, noc 0.0, 1 reshard(s) 4668.0)
// TRACE-NEXT: note: rope: l1 height_sharded 64x1 [4x8 tiles] 24131.7 ns

// SPILL: #[[I:ttnn_layout[0-9]+]] = #ttnn.ttnn_layout<{{.*}}<8x8>, memref<1x32x!ttcore.tile<32x32, bf16>, #l1>, <interleaved>>
// SPILL: %[[P:.*]] = "ttnn.relu"(%arg0) {{.*}} -> tensor<1x8x1024x256xbf16, #[[I]]> loc("p")
// SPILL-NEXT: "ttnn.rms_norm"(%[[P]], %arg1) {{.*}} -> tensor<1x8x1024x256xbf16, #ttnn_layout> loc("norm")
// SPILL-NEXT: "ttnn.rotary_embedding"(%[[P]], %arg2, %arg3) : (tensor<1x8x1024x256xbf16, #[[I]]>, {{.*}}) -> tensor<1x8x1024x256xbf16, #ttnn_layout> loc("rope")
// SPILL-NOT: {{to_layout|to_memory_config}}

// SPILL-TRACE: note: CostBased: estimate 244279.5 ns -> 182846.1 ns, 0 reshard(s)
// SPILL-TRACE: note: norm: dram interleaved 1x1 [256x8 tiles] 28515.0 ns (compute 14836.6, dram 20557.8, noc 11812.8)

#dram = #ttnn.buffer_type<dram>
#ttnn_layout = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 8192 + d1 * 1024 + d2, d3), <1x1>, memref<256x8x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout1 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 32 + d1 * 32 + d2, d3), <1x1>, memref<1x8x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout2 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 1024 + d1 * 1024 + d2, d3), <1x1>, memref<32x8x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
module {
  func.func @forward(%a0: tensor<1x8x1024x256xbf16, #ttnn_layout>, %a1: tensor<1x1x1x256xbf16, #ttnn_layout1>, %a2: tensor<1x1x1024x256xbf16, #ttnn_layout2>, %a3: tensor<1x1x1024x256xbf16, #ttnn_layout2>) -> (tensor<1x8x1024x256xbf16, #ttnn_layout>, tensor<1x8x1024x256xbf16, #ttnn_layout>) attributes {tt.function_type = "forward_device"} {
    %v0 = "ttnn.relu"(%a0) : (tensor<1x8x1024x256xbf16, #ttnn_layout>) -> tensor<1x8x1024x256xbf16, #ttnn_layout> loc("p")
    %v1 = "ttnn.rms_norm"(%v0, %a1) <{epsilon = 1.000000e-05 : f32}> : (tensor<1x8x1024x256xbf16, #ttnn_layout>, tensor<1x1x1x256xbf16, #ttnn_layout1>) -> tensor<1x8x1024x256xbf16, #ttnn_layout> loc("norm")
    %v2 = "ttnn.rotary_embedding"(%v0, %a2, %a3) : (tensor<1x8x1024x256xbf16, #ttnn_layout>, tensor<1x1x1024x256xbf16, #ttnn_layout2>, tensor<1x1x1024x256xbf16, #ttnn_layout2>) -> tensor<1x8x1024x256xbf16, #ttnn_layout> loc("rope")
    %v3 = "ttnn.relu"(%v1) : (tensor<1x8x1024x256xbf16, #ttnn_layout>) -> tensor<1x8x1024x256xbf16, #ttnn_layout> loc("norm_out")
    %v4 = "ttnn.relu"(%v2) : (tensor<1x8x1024x256xbf16, #ttnn_layout>) -> tensor<1x8x1024x256xbf16, #ttnn_layout> loc("rope_out")
    return %v3, %v4 : tensor<1x8x1024x256xbf16, #ttnn_layout>, tensor<1x8x1024x256xbf16, #ttnn_layout>
  }
}
