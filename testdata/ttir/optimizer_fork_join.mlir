// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="enable-greedy-optimizer=true" --mlir-print-debuginfo | FileCheck %s
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="enable-greedy-optimizer=true tensor-l1-usage-cap=0.2003" --mlir-print-debuginfo | FileCheck %s --check-prefix=FULL
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="optimization-level=2 memory-layout-analysis-policy=BFInterleaved tensor-l1-usage-cap=0.2003" --mlir-print-debuginfo | FileCheck %s --check-prefix=BF
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="enable-greedy-optimizer=true tensor-l1-usage-cap=0.2003" | ttopt opt --ttnn-optimizer --verify-l1-budget -o %t

// A fork/join in TTIR (testdata/optimizer/policy_bf_interleaved.mlir's graph): a = relu(x) feeds
// b = exp(a) and c = neg(a), d = add(b, c), e = relu(d) is returned. Each tensor takes 131072 B per
// core in L1. With all of L1, a..d share one L1 layout and e is written to DRAM (it is returned).
// With a 0.2003 cap (two tensors fit) one branch must go to DRAM: CostBased writes b there,
// BFInterleaved c (its order of placement decides), and each frees a's L1 after its last reader.

// CHECK: "ttnn.relu"(%arg0) {{.*}} -> tensor<2048x2048xbf16, #[[L1:ttnn_layout[0-9]+]]> loc("a")
// CHECK: "ttnn.exp"({{.*}} -> tensor<2048x2048xbf16, #[[L1]]> loc("b")
// CHECK: "ttnn.neg"({{.*}} -> tensor<2048x2048xbf16, #[[L1]]> loc("c")
// CHECK: "ttnn.add"({{.*}} -> tensor<2048x2048xbf16, #[[L1]]> loc("d")
// CHECK: "ttnn.relu"({{.*}} -> tensor<2048x2048xbf16, #ttnn_layout> loc("e")
// CHECK-NOT: {{to_layout|to_memory_config}}

// FULL: "ttnn.relu"(%arg0) {{.*}} -> tensor<2048x2048xbf16, #[[L1:ttnn_layout[0-9]+]]> loc("a")
// FULL: "ttnn.exp"({{.*}} -> tensor<2048x2048xbf16, #ttnn_layout> loc("b")
// FULL: "ttnn.neg"({{.*}} -> tensor<2048x2048xbf16, #[[L1]]> loc("c")
// FULL: "ttnn.deallocate"(%0)

// BF: "ttnn.exp"({{.*}} -> tensor<2048x2048xbf16, #[[L1:ttnn_layout[0-9]+]]> loc("b")
// BF: "ttnn.neg"({{.*}} -> tensor<2048x2048xbf16, #ttnn_layout> loc("c")

module {
  func.func @forward(%x: tensor<2048x2048xbf16>) -> tensor<2048x2048xbf16> {
    %0 = "ttir.relu"(%x) : (tensor<2048x2048xbf16>) -> tensor<2048x2048xbf16> loc("a")
    %1 = "ttir.exp"(%0) : (tensor<2048x2048xbf16>) -> tensor<2048x2048xbf16> loc("b")
    %2 = "ttir.neg"(%0) : (tensor<2048x2048xbf16>) -> tensor<2048x2048xbf16> loc("c")
    %3 = "ttir.add"(%1, %2) : (tensor<2048x2048xbf16>, tensor<2048x2048xbf16>) -> tensor<2048x2048xbf16> loc("d")
    %4 = "ttir.relu"(%3) : (tensor<2048x2048xbf16>) -> tensor<2048x2048xbf16> loc("e")
    return %4 : tensor<2048x2048xbf16>
  }
}
