// RUN: ttopt opt %s --ttnn-optimizer --l1-interleaved-fallback-analysis-enabled --mlir-print-debuginfo | FileCheck %s
// RUN: ttopt opt %s --pass-pipeline='builtin.module(ttnn-optimizer{l1-interleaved-fallback-analysis-enabled=true})' --mlir-print-debuginfo | FileCheck %s
// RUN: ttopt opt %s --ttnn-optimizer --l1-interleaved-fallback-analysis-enabled --trace 2>&1 >/dev/null | FileCheck %s --check-prefix=TRACE
// RUN: ttopt opt %s --ttnn-optimizer --l1-interleaved-fallback-analysis-enabled --stats - -o %t | FileCheck %s --check-prefix=STATS
// RUN: ttopt opt %s --ttnn-optimizer --mlir-print-debuginfo | FileCheck %s --check-prefix=OFF
// RUN: ttopt opt %s --ttnn-optimizer --memory-layout-analysis-enabled --memory-layout-analysis-policy GreedyL1Interleaved --l1-interleaved-fallback-analysis-enabled --trace 2>&1 >/dev/null | FileCheck %s --check-prefix=GREEDY

// The L1-interleaved fallback after the policy (here none: every op starts DRAM interleaved). An op
// is upgraded when its result has one use, by the next op, which is not the return, and both
// validate with the L1-interleaved tensor: add1 and add2 (a chain of adds), right (feeds the join
// next) and join. fork has two uses; left's user (join) is not the next op; out is returned. No op
// is inserted: only result types change. After GreedyL1Interleaved the fallback only looks at the
// ops the policy left in DRAM.

// CHECK: #[[L1:ttnn_layout[0-9]+]] = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <8x8>, memref<1x2x!ttcore.tile<32x32, bf16>, #l1>, <interleaved>>
// CHECK: %[[A1:.*]] = "ttnn.add"(%arg0, %arg1) {{.*}} -> tensor<256x512xbf16, #[[L1]]> loc("add1")
// CHECK-NEXT: %[[A2:.*]] = "ttnn.add"(%[[A1]], %arg1) : (tensor<256x512xbf16, #[[L1]]>, {{.*}}) -> tensor<256x512xbf16, #[[L1]]> loc("add2")
// CHECK-NEXT: %[[F:.*]] = "ttnn.relu"(%[[A2]]) {{.*}} -> tensor<256x512xbf16, #ttnn_layout> loc("fork")
// CHECK-NEXT: %[[L:.*]] = "ttnn.exp"(%[[F]]) {{.*}} -> tensor<256x512xbf16, #ttnn_layout> loc("left")
// CHECK-NEXT: %[[R:.*]] = "ttnn.neg"(%[[F]]) {{.*}} -> tensor<256x512xbf16, #[[L1]]> loc("right")
// CHECK-NEXT: %[[J:.*]] = "ttnn.add"(%[[L]], %[[R]]) {{.*}} -> tensor<256x512xbf16, #[[L1]]> loc("join")
// CHECK-NEXT: %[[O:.*]] = "ttnn.add"(%[[J]], %arg1) {{.*}} -> tensor<256x512xbf16, #ttnn_layout> loc("out")
// CHECK-NEXT: return %[[O]]
// CHECK-NOT: {{to_layout|to_memory_config}}

// TRACE: l1-interleaved fallback add1: DRAM -> l1 interleaved 8x8 [1x2 tiles]
// TRACE-NEXT: l1-interleaved fallback add2: DRAM -> l1 interleaved 8x8 [1x2 tiles]
// TRACE-NEXT: l1-interleaved fallback fork: stays in DRAM (2 uses (needs exactly one))
// TRACE-NEXT: l1-interleaved fallback left: stays in DRAM (its user is not the next op)
// TRACE-NEXT: l1-interleaved fallback right: DRAM -> l1 interleaved 8x8 [1x2 tiles]
// TRACE-NEXT: l1-interleaved fallback join: DRAM -> l1 interleaved 8x8 [1x2 tiles]
// TRACE-NEXT: l1-interleaved fallback out: stays in DRAM (its result is returned)

// STATS: "l1_interleaved_fallback": [
// STATS-NEXT: "add1",
// STATS-NEXT: "add2",
// STATS-NEXT: "right",
// STATS-NEXT: "join"
// STATS-NEXT: ],

// OFF-NOT: #l1

// GREEDY: schedule: add1, add2, fork, left, right, join, out
// GREEDY: l1-interleaved fallback fork: stays in DRAM (2 uses (needs exactly one))
// GREEDY-NEXT: l1-interleaved fallback out: stays in DRAM (its result is returned)
// GREEDY-NOT: l1-interleaved fallback

#dram = #ttnn.buffer_type<dram>
#ttnn_layout = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<8x16x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
module {
  func.func @forward(%x: tensor<256x512xbf16, #ttnn_layout>, %y: tensor<256x512xbf16, #ttnn_layout>) -> tensor<256x512xbf16, #ttnn_layout> attributes {tt.function_type = "forward_device"} {
    %0 = "ttnn.add"(%x, %y) : (tensor<256x512xbf16, #ttnn_layout>, tensor<256x512xbf16, #ttnn_layout>) -> tensor<256x512xbf16, #ttnn_layout> loc("add1")
    %1 = "ttnn.add"(%0, %y) : (tensor<256x512xbf16, #ttnn_layout>, tensor<256x512xbf16, #ttnn_layout>) -> tensor<256x512xbf16, #ttnn_layout> loc("add2")
    %2 = "ttnn.relu"(%1) : (tensor<256x512xbf16, #ttnn_layout>) -> tensor<256x512xbf16, #ttnn_layout> loc("fork")
    %3 = "ttnn.exp"(%2) : (tensor<256x512xbf16, #ttnn_layout>) -> tensor<256x512xbf16, #ttnn_layout> loc("left")
    %4 = "ttnn.neg"(%2) : (tensor<256x512xbf16, #ttnn_layout>) -> tensor<256x512xbf16, #ttnn_layout> loc("right")
    %5 = "ttnn.add"(%3, %4) : (tensor<256x512xbf16, #ttnn_layout>, tensor<256x512xbf16, #ttnn_layout>) -> tensor<256x512xbf16, #ttnn_layout> loc("join")
    %6 = "ttnn.add"(%5, %y) : (tensor<256x512xbf16, #ttnn_layout>, tensor<256x512xbf16, #ttnn_layout>) -> tensor<256x512xbf16, #ttnn_layout> loc("out")
    return %6 : tensor<256x512xbf16, #ttnn_layout>
  }
}
