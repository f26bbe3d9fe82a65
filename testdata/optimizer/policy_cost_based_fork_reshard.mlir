// RUN: ttopt opt %s --ttnn-optimizer --memory-layout-analysis-enabled --memory-layout-analysis-policy CostBased --verify-l1-budget --mlir-print-debuginfo | FileCheck %s
// RUN: ttopt opt %s --ttnn-optimizer --memory-layout-analysis-enabled --memory-layout-analysis-policy CostBased --cost-exact-max-ops 0 --mlir-print-debuginfo | FileCheck %s
// RUN: ttopt opt %s --ttnn-optimizer --memory-layout-analysis-enabled --memory-layout-analysis-policy CostBased --trace 2>&1 >/dev/null | FileCheck %s --check-prefix=TRACE
// RUN: ttopt opt %s --ttnn-optimizer --memory-layout-analysis-enabled --memory-layout-analysis-policy CostBased --tensor-l1-usage-cap 0.05 --verify-l1-budget --mlir-print-debuginfo | FileCheck %s --check-prefix=SPILL
// RUN: ttopt opt %s --ttnn-optimizer --memory-layout-analysis-enabled --memory-layout-analysis-policy CostBased --tensor-l1-usage-cap 0.05 --trace 2>&1 >/dev/null | FileCheck %s --check-prefix=SPILL-TRACE

// A fork resolved by a reshard rather than a spill, because that is cheaper. p = relu(x)
// (1x8x1024x128 bf16, 2 MiB) is read by norm = rms_norm(p), which takes width- or block-sharded
// inputs, and by rope = rotary_embedding(p), which takes height-sharded ones; both copy their input's
// shard spec to their output, and an interleaved input gives an interleaved output. No shard spec
// serves both readers, so the fork has three ways out:
//   spill:   p in DRAM; both readers stream it: 132489.0 ns at best
//            (tests/optimizer/test_cost_based.py: the exhaustive optimum with p held in DRAM);
//   L1 interleaved: p in L1 interleaved for both readers, whose pages then cross the NoC (measured
//            slower than sharded: tt-metal issue 14421): 120585.0 ns;
//   reshard: p height sharded (32 KiB/core on 64 cores) read in place by rope, and one L1 -> L1
//            to_layout into norm's 8x4 block shards: 3623.9 ns (mostly the launch and op-to-op
//            floor), and norm, rope and their readers stay sharded: 114354.3 ns, the exhaustive optimum.
// (At 256 rows the NoC traffic of L1-interleaved pages no longer pays for a to_layout's floor, and
// p stays L1 interleaved for both readers.) The exact MIP (first RUN) and the beam (second) both
// take the reshard.
//
// L1 full: with a 0.05 cap (74905 B per core) norm's block shards (input and output shards plus
// circular buffers) do not fit, so norm reads p and writes DRAM; p is L1 interleaved and rope gets
// its height shards through a reshard.

// CHECK: #[[H:ttnn_layout[0-9]+]] = #ttnn.ttnn_layout<{{.*}}<64x1>, memref<4x4x!ttcore.tile<32x32, bf16>, #l1>, <height_sharded>
// CHECK: #[[B:ttnn_layout[0-9]+]] = #ttnn.ttnn_layout<{{.*}}<8x4>, memref<32x1x!ttcore.tile<32x32, bf16>, #l1>, <block_sharded>
// CHECK: %[[P:.*]] = "ttnn.relu"(%arg0) {{.*}} -> tensor<1x8x1024x128xbf16, #[[H]]> loc("p")
// CHECK-NEXT: %[[R:.*]] = "ttnn.to_memory_config"(%[[P]]) : (tensor<1x8x1024x128xbf16, #[[H]]>) -> tensor<1x8x1024x128xbf16, #[[B]]> loc("norm_mem_reconfig")
// CHECK-NEXT: %[[N:.*]] = "ttnn.rms_norm"(%[[R]], %arg1) {{.*}} -> tensor<1x8x1024x128xbf16, #[[B]]> loc("norm")
// CHECK-NEXT: %[[Q:.*]] = "ttnn.rotary_embedding"(%[[P]], %arg2, %arg3) : (tensor<1x8x1024x128xbf16, #[[H]]>, {{.*}}) -> tensor<1x8x1024x128xbf16, #[[H]]> loc("rope")
// CHECK-NEXT: "ttnn.relu"(%[[N]]) : (tensor<1x8x1024x128xbf16, #[[B]]>) -> tensor<1x8x1024x128xbf16, #ttnn_layout> loc("norm_out")
// CHECK-NEXT: "ttnn.relu"(%[[Q]]) : (tensor<1x8x1024x128xbf16, #[[H]]>) -> tensor<1x8x1024x128xbf16, #ttnn_layout> loc("rope_out")
// CHECK-NOT: {{to_layout|to_memory_config}}

// TRACE: note: CostBased: 3 decisions over 5 ops, exact MIP (Optimal, bound 114354.3 ns)
// TRACE-NEXT: note: CostBased: estimate 189970.5 ns -> 114354.3 ns, 1 reshard(s)
// TRACE-NEXT: note: p: l1 height_sharded 64x1 [4x4 tiles]
// TRACE-NEXT: note: norm: l1 block_sharded 8x4 [32x1 tiles] 21565.0 ns (compute 10632.2, dram 40.2, noc 0.0, 1 reshard(s) 3623.2)
// TRACE-NEXT: note: rope: l1 height_sharded 64x1 [4x4 tiles] 45216.3 ns

// SPILL: #[[I:ttnn_layout[0-9]+]] = #ttnn.ttnn_layout<{{.*}}<8x8>, memref<1x16x!ttcore.tile<32x32, bf16>, #l1>, <interleaved>>
// SPILL: #[[H:ttnn_layout[0-9]+]] = #ttnn.ttnn_layout<{{.*}}<64x1>, memref<4x4x!ttcore.tile<32x32, bf16>, #l1>, <height_sharded>
// SPILL: %[[P:.*]] = "ttnn.relu"(%arg0) {{.*}} -> tensor<1x8x1024x128xbf16, #[[I]]> loc("p")
// SPILL-NEXT: "ttnn.rms_norm"(%[[P]], %arg1) {{.*}} -> tensor<1x8x1024x128xbf16, #ttnn_layout> loc("norm")
// SPILL-NEXT: %[[R:.*]] = "ttnn.to_memory_config"(%[[P]]) : (tensor<1x8x1024x128xbf16, #[[I]]>) -> tensor<1x8x1024x128xbf16, #[[H]]> loc("rope_mem_reconfig")
// SPILL-NEXT: "ttnn.rotary_embedding"(%[[R]], %arg2, %arg3) : (tensor<1x8x1024x128xbf16, #[[H]]>, {{.*}}) -> tensor<1x8x1024x128xbf16, #[[H]]> loc("rope")

// SPILL-TRACE: note: CostBased: estimate 189970.5 ns -> 129217.0 ns, 1 reshard(s)
// SPILL-TRACE: note: norm: dram interleaved 1x1 [256x4 tiles] 16559.8 ns (compute 5316.1, dram 10336.0, noc 5999.8)

#dram = #ttnn.buffer_type<dram>
#ttnn_layout = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 8192 + d1 * 1024 + d2, d3), <1x1>, memref<256x4x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout1 = #ttnn.ttnn_layout<(d0) -> (0, d0), <1x1>, memref<1x4x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout2 = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 1024 + d1 * 1024 + d2, d3), <1x1>, memref<32x4x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
module {
  func.func @forward(%a0: tensor<1x8x1024x128xbf16, #ttnn_layout>, %a1: tensor<128xbf16, #ttnn_layout1>, %a2: tensor<1x1x1024x128xbf16, #ttnn_layout2>, %a3: tensor<1x1x1024x128xbf16, #ttnn_layout2>) -> (tensor<1x8x1024x128xbf16, #ttnn_layout>, tensor<1x8x1024x128xbf16, #ttnn_layout>) attributes {tt.function_type = "forward_device"} {
    %v0 = "ttnn.relu"(%a0) : (tensor<1x8x1024x128xbf16, #ttnn_layout>) -> tensor<1x8x1024x128xbf16, #ttnn_layout> loc("p")
    %v1 = "ttnn.rms_norm"(%v0, %a1) <{epsilon = 1.000000e-05 : f32}> : (tensor<1x8x1024x128xbf16, #ttnn_layout>, tensor<128xbf16, #ttnn_layout1>) -> tensor<1x8x1024x128xbf16, #ttnn_layout> loc("norm")
    %v2 = "ttnn.rotary_embedding"(%v0, %a2, %a3) : (tensor<1x8x1024x128xbf16, #ttnn_layout>, tensor<1x1x1024x128xbf16, #ttnn_layout2>, tensor<1x1x1024x128xbf16, #ttnn_layout2>) -> tensor<1x8x1024x128xbf16, #ttnn_layout> loc("rope")
    %v3 = "ttnn.relu"(%v1) : (tensor<1x8x1024x128xbf16, #ttnn_layout>) -> tensor<1x8x1024x128xbf16, #ttnn_layout> loc("norm_out")
    %v4 = "ttnn.relu"(%v2) : (tensor<1x8x1024x128xbf16, #ttnn_layout>) -> tensor<1x8x1024x128xbf16, #ttnn_layout> loc("rope_out")
    return %v3, %v4 : tensor<1x8x1024x128xbf16, #ttnn_layout>, tensor<1x8x1024x128xbf16, #ttnn_layout>
  }
}
