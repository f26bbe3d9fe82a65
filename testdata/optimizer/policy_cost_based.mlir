// RUN: ttopt opt %s --ttnn-optimizer --memory-layout-analysis-enabled --memory-layout-analysis-policy CostBased --verify-l1-budget --mlir-print-debuginfo | FileCheck %s
// RUN: ttopt opt %s --ttnn-optimizer --memory-layout-analysis-enabled --memory-layout-analysis-policy CostBased --tensor-l1-usage-cap 0.2003 --verify-l1-budget --mlir-print-debuginfo | FileCheck %s --check-prefix=FULL
// RUN: ttopt opt %s --ttnn-optimizer --memory-layout-analysis-enabled --memory-layout-analysis-policy CostBased --tensor-l1-usage-cap 0.2003 --trace 2>&1 >/dev/null | FileCheck %s --check-prefix=TRACE
// RUN: ttopt opt %s --ttnn-optimizer --memory-layout-analysis-enabled --memory-layout-analysis-policy CostBased --stats - -o %t | FileCheck %s --check-prefix=STATS
// RUN: ttopt opt %s --ttnn-optimizer --memory-layout-analysis-enabled --memory-layout-analysis-policy CostBased | ttopt opt --ttnn-optimizer --memory-layout-analysis-enabled --memory-layout-analysis-policy CostBased --trace 2>&1 >/dev/null | FileCheck %s --check-prefix=KEEP

// CostBased on BFInterleaved's fork/join (policy_bf_interleaved.mlir): a = relu(x) feeds b = exp(a)
// and c = neg(a), d = add(b, c), e = relu(d) is returned. Each 2048x2048 bf16 tensor takes 131072 B
// per core in L1. With the whole L1, a..d stay in one L1 sharded layout (no reshard anywhere: each
// eltwise reads its producer's shards in place) and only the returned e is written to DRAM: the
// estimate drops from 490.4 us to 168.0 us, the exact MIP's proven optimum.
//
// L1 full: with a 0.2003 cap (two tensors fit) a, b and c cannot all be alive when c runs. The
// solver writes b to DRAM; BFInterleaved moves c instead, which the MIP also weighed and found
// dearer (the trace shows b's L1 runner-up).

// CHECK: %[[A:.*]] = "ttnn.relu"(%arg0) {{.*}} -> tensor<2048x2048xbf16, #[[S:ttnn_layout[0-9]+]]> loc("a")
// CHECK-NEXT: %[[B:.*]] = "ttnn.exp"(%[[A]]) {{.*}} -> tensor<2048x2048xbf16, #[[S]]> loc("b")
// CHECK-NEXT: %[[C:.*]] = "ttnn.neg"(%[[A]]) {{.*}} -> tensor<2048x2048xbf16, #[[S]]> loc("c")
// CHECK-NEXT: %[[D:.*]] = "ttnn.add"(%[[B]], %[[C]]) {{.*}} -> tensor<2048x2048xbf16, #[[S]]> loc("d")
// CHECK-NEXT: "ttnn.relu"(%[[D]]) {{.*}} -> tensor<2048x2048xbf16, #ttnn_layout> loc("e")
// CHECK-NOT: {{to_layout|to_memory_config}}

// FULL: "ttnn.relu"(%arg0) {{.*}} -> tensor<2048x2048xbf16, #[[S:ttnn_layout[0-9]+]]> loc("a")
// FULL-NEXT: "ttnn.exp"{{.*}} -> tensor<2048x2048xbf16, #ttnn_layout> loc("b")
// FULL-NEXT: "ttnn.neg"{{.*}} -> tensor<2048x2048xbf16, #[[S]]> loc("c")
// FULL-NEXT: "ttnn.add"{{.*}} -> tensor<2048x2048xbf16, #[[S]]> loc("d")
// FULL-NOT: {{to_layout|to_memory_config}}

// TRACE: note: CostBased: 4 decisions over 5 ops, exact MIP (Optimal, bound 215930.8 ns)
// TRACE-NEXT: note: CostBased: estimate 493361.5 ns -> 215930.8 ns, 0 reshard(s)
// TRACE-NEXT: note: a: l1 block_sharded 8x8 [8x8 tiles] 47928.1 ns (compute 7939.8, dram 41183.0, noc 0.0); runner-up l1 interleaved 8x8 [1x64 tiles] 47928.1 ns (compute 7939.8, dram 41183.0, noc 23999.3)
// TRACE-NEXT: note: b: dram interleaved 1x1 [64x64 tiles] 60134.6 ns (compute 46784.0, dram 41183.0, noc 0.0); runner-up l1 block_sharded 8x8 [8x8 tiles] 51951.5 ns (compute 46784.0, dram 0.0, noc 0.0)

// STATS: "cost_based": {
// STATS-NEXT: "bound_ns": 168508.9,
// STATS: "gap": 0.0,
// STATS-NEXT: "input_ns": 493361.5,
// STATS-NEXT: "kept_input": false,
// STATS-NEXT: "method": "exact",
// STATS-NEXT: "nodes": 5,
// STATS-NEXT: "plan_ns": 168508.9,
// STATS-NEXT: "solver_status": "Optimal"
// STATS: "estimated_ns": 168508.9,
// STATS: "estimated_ns_before": 493361.5,

// Never worse than the input: on its own output no plan is cheaper, so the function is kept.
// KEEP: note: CostBased: no plan beats the input (168508.9 ns); the function is kept as given

#dram = #ttnn.buffer_type<dram>
#ttnn_layout = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<64x64x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
module {
  func.func @forward(%x: tensor<2048x2048xbf16, #ttnn_layout>) -> tensor<2048x2048xbf16, #ttnn_layout> attributes {tt.function_type = "forward_device"} {
    %0 = "ttnn.relu"(%x) : (tensor<2048x2048xbf16, #ttnn_layout>) -> tensor<2048x2048xbf16, #ttnn_layout> loc("a")
    %1 = "ttnn.exp"(%0) : (tensor<2048x2048xbf16, #ttnn_layout>) -> tensor<2048x2048xbf16, #ttnn_layout> loc("b")
    %2 = "ttnn.neg"(%0) : (tensor<2048x2048xbf16, #ttnn_layout>) -> tensor<2048x2048xbf16, #ttnn_layout> loc("c")
    %3 = "ttnn.add"(%1, %2) : (tensor<2048x2048xbf16, #ttnn_layout>, tensor<2048x2048xbf16, #ttnn_layout>) -> tensor<2048x2048xbf16, #ttnn_layout> loc("d")
    %4 = "ttnn.relu"(%3) : (tensor<2048x2048xbf16, #ttnn_layout>) -> tensor<2048x2048xbf16, #ttnn_layout> loc("e")
    return %4 : tensor<2048x2048xbf16, #ttnn_layout>
  }
}
