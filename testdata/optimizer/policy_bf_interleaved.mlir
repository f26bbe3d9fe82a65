// RUN: ttopt opt %s --ttnn-optimizer --memory-layout-analysis-enabled --memory-layout-analysis-policy BFInterleaved --mlir-print-debuginfo | FileCheck %s
// RUN: ttopt opt %s --ttnn-optimizer --memory-layout-analysis-enabled --memory-layout-analysis-policy BFInterleaved --tensor-l1-usage-cap 0.2003 --mlir-print-debuginfo | FileCheck %s --check-prefix=TWO
// RUN: ttopt opt %s --ttnn-optimizer --memory-layout-analysis-enabled --memory-layout-analysis-policy BFInterleaved --tensor-l1-usage-cap 0.2003 --trace 2>&1 >/dev/null | FileCheck %s --check-prefix=TRACE
// RUN: ttopt opt %s --ttnn-optimizer --memory-layout-analysis-enabled --memory-layout-analysis-policy BFInterleaved --stats - -o %t | FileCheck %s --check-prefix=STATS

// BFInterleaved on a fork/join: a = relu(x) feeds b = exp(a) and c = neg(a), d = add(b, c), e is
// returned. Each 2048x2048 bf16 tensor takes 131072 B per core in L1 interleaved. With the whole L1
// every output but the returned e is L1 interleaved; the fork a stays allocated until its last user
// c has run (reference counts per user), b and c are freed by the join.
//
// With a 0.2003 cap (usable 300071 B, two tensors) c cannot be allocated while a and b are alive:
// it writes DRAM and frees a; d then fits again.

// CHECK: #[[L1:ttnn_layout[0-9]+]] = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <8x8>, memref<1x64x!ttcore.tile<32x32, bf16>, #l1>, <interleaved>>
// CHECK: %[[A:.*]] = "ttnn.relu"(%arg0) {{.*}} -> tensor<2048x2048xbf16, #[[L1]]> loc("a")
// CHECK-NEXT: %[[B:.*]] = "ttnn.exp"(%[[A]]) {{.*}} -> tensor<2048x2048xbf16, #[[L1]]> loc("b")
// CHECK-NEXT: %[[C:.*]] = "ttnn.neg"(%[[A]]) {{.*}} -> tensor<2048x2048xbf16, #[[L1]]> loc("c")
// CHECK-NEXT: %[[D:.*]] = "ttnn.add"(%[[B]], %[[C]]) {{.*}} -> tensor<2048x2048xbf16, #[[L1]]> loc("d")
// CHECK-NEXT: "ttnn.relu"(%[[D]]) {{.*}} -> tensor<2048x2048xbf16, #ttnn_layout> loc("e")
// CHECK-NOT: {{to_layout|to_memory_config}}

// TWO: "ttnn.relu"(%arg0) {{.*}} -> tensor<2048x2048xbf16, #ttnn_layout1> loc("a")
// TWO-NEXT: "ttnn.exp"{{.*}} -> tensor<2048x2048xbf16, #ttnn_layout1> loc("b")
// TWO-NEXT: "ttnn.neg"{{.*}} -> tensor<2048x2048xbf16, #ttnn_layout> loc("c")
// TWO-NEXT: "ttnn.add"{{.*}} -> tensor<2048x2048xbf16, #ttnn_layout1> loc("d")

// TRACE: BFInterleaved (usable L1 300071 B/core; sizes in B/core)
// TRACE: step {{ *}}op {{ *}}change {{ *}}output {{ *}}freed {{ *}}L1 in use
// TRACE: 0 {{ *}}a {{ *}}+131072 {{ *}}L1 (131072) {{ *}}- {{ *}}131072
// TRACE-NEXT: 1 {{ *}}b {{ *}}+131072 {{ *}}L1 (131072) {{ *}}- {{ *}}262144
// TRACE-NEXT: 2 {{ *}}c {{ *}}-131072 {{ *}}DRAM {{ *}}a {{ *}}131072
// TRACE-NEXT: 3 {{ *}}d {{ *}}+0 {{ *}}L1 (131072) {{ *}}b {{ *}}131072
// TRACE-NEXT: 4 {{ *}}e {{ *}}-131072 {{ *}}DRAM {{ *}}d {{ *}}0

// STATS: "chains": [
// STATS: "ops": [
// STATS-NEXT: "a",
// STATS-NEXT: "b",
// STATS-NEXT: "c",
// STATS-NEXT: "d"
// STATS-NEXT: ],
// STATS: "spill_location": "None",
// STATS-NEXT: "state": "Completed"
// STATS: "memory_layout_analysis_policy": "BFInterleaved"
// STATS: "reshards": 0,
// STATS-NEXT: "spills": 0,

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
