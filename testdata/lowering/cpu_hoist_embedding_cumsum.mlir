// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline 2>&1 | FileCheck %s
// RUN: ttopt opt %s --ttir-to-ttnn-common-pipeline 2>&1 | FileCheck %s --check-prefix=TTIR
// A const-eval subgraph holding an embedding and a cumsum (token ids that are a constant argument,
// a table that is a parameter, as in the const-eval subgraphs of Hugging Face's Flax models) runs
// on the host: both ops move to the CPU module and lower to LLVM, with no "Skipping CPU hoisting"
// warning. The indices arrive as 32-bit integers, the table as f32.

// CHECK-NOT: warning
// CHECK-LABEL: func.func private @forward_const_eval_0
// CHECK: %[[W:[0-9]+]] = "ttnn.typecast"(%arg1) : (tensor<64x32xbf16, {{.*}}>) -> tensor<64x32xf32
// CHECK: call @[[HOST:cpu_hoisted_const_eval_[0-9a-f]+]](%arg0, %[[W]]) {ttir.cpu_hoisted_call} : (tensor<2x8xsi32, {{.*}}>, tensor<64x32xf32, {{.*}}>) -> tensor<2x8x32xf32
// CHECK-LABEL: func.func @forward(
// CHECK: ttcore.load_cached(@forward_const_eval_0, [%arg1, %arg2])
// CHECK-NOT: "ttnn.embedding"
// CHECK-NOT: cumsum
// CHECK: ttcore.cpu_module {
// CHECK: llvm.func @[[HOST]](
// CHECK-SAME: -> !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)> attributes {arg_ranks = [2, 2]
// The embedding: each index sign-extended to i64 and used as the table's row.
// CHECK: %[[I:[0-9]+]] = "llvm.load"
// CHECK-SAME: -> i32
// CHECK: "llvm.sext"(%[[I]]) : (i32) -> i64
// The cumsum: a running f32 sum along dim 1, each step stored.
// CHECK: "llvm.fadd"
// CHECK: llvm.func @[[HOST]]_helper(%arg0: !llvm.ptr) -> !llvm.ptr {
// CHECK-NOT: ttir.

// TTIR-NOT: warning
// TTIR: ttcore.cpu_module {
// TTIR: func.func @cpu_hoisted_const_eval_{{[0-9a-f]+}}(%arg0: tensor<2x8xi32> {bufferization.access = "read"}, %arg1: tensor<64x32xf32> {bufferization.access = "read"}) -> tensor<2x8x32xf32>
// TTIR-NEXT: %[[E:[0-9]+]] = "ttir.embedding"(%arg0, %arg1) : (tensor<2x8xi32>, tensor<64x32xf32>) -> tensor<2x8x32xf32>
// TTIR-NEXT: %[[C:[0-9]+]] = "ttir.cumsum"(%[[E]]) <{dim = 1 : i64}> : (tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
// TTIR-NEXT: return %[[C]] : tensor<2x8x32xf32>

module {
  func.func @forward(%arg0: tensor<2x8x32xbf16> {ttcore.argument_type = #ttcore.argument_type<input>},
                     %arg1: tensor<2x8xsi32> {ttcore.argument_type = #ttcore.argument_type<constant>},
                     %arg2: tensor<64x32xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>}) -> tensor<2x8x32xbf16> {
    %0 = "ttir.embedding"(%arg1, %arg2) : (tensor<2x8xsi32>, tensor<64x32xbf16>) -> tensor<2x8x32xbf16>
    %1 = "ttir.cumsum"(%0) <{dim = 1 : i64}> : (tensor<2x8x32xbf16>) -> tensor<2x8x32xbf16>
    %2 = "ttir.add"(%arg0, %1) : (tensor<2x8x32xbf16>, tensor<2x8x32xbf16>) -> tensor<2x8x32xbf16>
    return %2 : tensor<2x8x32xbf16>
  }
}
