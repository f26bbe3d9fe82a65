// RUN: ttopt opt %s --ttnn-optimizer --memory-layout-analysis-enabled --memory-layout-analysis-policy GreedyL1Interleaved --mlir-print-debuginfo | FileCheck %s
// RUN: ttopt opt %s --pass-pipeline='builtin.module(ttnn-optimizer{memory-layout-analysis-enabled=true memory-layout-analysis-policy=GreedyL1Interleaved})' --mlir-print-debuginfo | FileCheck %s
// RUN: ttopt opt %s --ttnn-optimizer --memory-layout-analysis-enabled --memory-layout-analysis-policy GreedyL1Interleaved --tensor-l1-usage-cap 0.175 --mlir-print-debuginfo | FileCheck %s --check-prefix=TIGHT
// RUN: ttopt opt %s --ttnn-optimizer --memory-layout-analysis-enabled --memory-layout-analysis-policy GreedyL1Interleaved --tensor-l1-usage-cap 0.175 --trace 2>&1 >/dev/null | FileCheck %s --check-prefix=TRACE

// GreedyL1Interleaved on d = add(p, q2) with q2 = neg(exp(y)); 2048x2048 bf16 tensors take 131072 B
// per core in L1 interleaved. At the join the candidates are p (output 131072, its subtree needs
// 131072), q2 (131072, needs 262144: q1 and q2) and d itself. All fit; running q2's subtree first
// peaks at 262144 (then p: 131072 + 131072), p first would peak at 131072 + 262144. The schedule is
// the DFS over each op's precedence, so q1 and q2 move before p. The returned e stays in DRAM; no
// reshard, no spill, one pseudo-chain.
//
// With a 0.175 cap (usable 262169 B) only two of p, q2, d fit at the join: the first such subset
// is {p, q2}. By tensor sizes q2 fits next to q1 (262144 B), but the op model adds circular
// buffers, so the check of the final plan moves q2 back to DRAM.

// CHECK: #[[L1:ttnn_layout[0-9]+]] = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <8x8>, memref<1x64x!ttcore.tile<32x32, bf16>, #l1>, <interleaved>>
// CHECK: %[[Q1:.*]] = "ttnn.exp"(%arg1) {{.*}} -> tensor<2048x2048xbf16, #[[L1]]> loc("q1")
// CHECK-NEXT: %[[Q2:.*]] = "ttnn.neg"(%[[Q1]]) {{.*}} -> tensor<2048x2048xbf16, #[[L1]]> loc("q2")
// CHECK-NEXT: %[[P:.*]] = "ttnn.relu"(%arg0) {{.*}} -> tensor<2048x2048xbf16, #[[L1]]> loc("p")
// CHECK-NEXT: %[[D:.*]] = "ttnn.add"(%[[P]], %[[Q2]]) {{.*}} -> tensor<2048x2048xbf16, #[[L1]]> loc("d")
// CHECK-NEXT: %[[E:.*]] = "ttnn.relu"(%[[D]]) : (tensor<2048x2048xbf16, #[[L1]]>) -> tensor<2048x2048xbf16, #ttnn_layout> loc("e")
// CHECK-NEXT: return %[[E]]
// CHECK-NOT: {{to_layout|to_memory_config}}

// TIGHT: "ttnn.exp"(%arg1) {{.*}} -> tensor<2048x2048xbf16, #ttnn_layout1> loc("q1")
// TIGHT-NEXT: "ttnn.neg"{{.*}} -> tensor<2048x2048xbf16, #ttnn_layout> loc("q2")
// TIGHT-NEXT: "ttnn.relu"(%arg0) {{.*}} -> tensor<2048x2048xbf16, #ttnn_layout1> loc("p")
// TIGHT-NEXT: "ttnn.add"{{.*}} -> tensor<2048x2048xbf16, #ttnn_layout> loc("d")

// TRACE: note: q2 back to DRAM: q2 does not validate with it in L1 (L1 peak 270336 B/core (CBs 8192 + tensors 262144) exceeds usable 262169 B)
// TRACE: GreedyL1Interleaved (usable L1 262169 B/core; sizes in B/core)
// TRACE: d {{ *}}p 131072/131072 {{ *}}p {{ *}}q2, p {{ *}}262144 {{ *}}exhaustive, 3 orders
// TRACE-NEXT: q2 131072/262144
// TRACE-NEXT: d 131072/0
// TRACE: schedule: q1, q2, p, d, e

#dram = #ttnn.buffer_type<dram>
#ttnn_layout = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<64x64x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
module {
  func.func @forward(%x: tensor<2048x2048xbf16, #ttnn_layout>, %y: tensor<2048x2048xbf16, #ttnn_layout>) -> tensor<2048x2048xbf16, #ttnn_layout> attributes {tt.function_type = "forward_device"} {
    %0 = "ttnn.relu"(%x) : (tensor<2048x2048xbf16, #ttnn_layout>) -> tensor<2048x2048xbf16, #ttnn_layout> loc("p")
    %1 = "ttnn.exp"(%y) : (tensor<2048x2048xbf16, #ttnn_layout>) -> tensor<2048x2048xbf16, #ttnn_layout> loc("q1")
    %2 = "ttnn.neg"(%1) : (tensor<2048x2048xbf16, #ttnn_layout>) -> tensor<2048x2048xbf16, #ttnn_layout> loc("q2")
    %3 = "ttnn.add"(%0, %2) : (tensor<2048x2048xbf16, #ttnn_layout>, tensor<2048x2048xbf16, #ttnn_layout>) -> tensor<2048x2048xbf16, #ttnn_layout> loc("d")
    %4 = "ttnn.relu"(%3) : (tensor<2048x2048xbf16, #ttnn_layout>) -> tensor<2048x2048xbf16, #ttnn_layout> loc("e")
    return %4 : tensor<2048x2048xbf16, #ttnn_layout>
  }
}
