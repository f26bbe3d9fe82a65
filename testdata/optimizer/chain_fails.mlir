// RUN: ttopt opt %s --ttnn-optimizer --memory-layout-analysis-enabled --memory-layout-analysis-policy DFSharding | FileCheck %s
// RUN: ttopt opt %s --ttnn-optimizer --memory-layout-analysis-enabled --memory-layout-analysis-policy DFSharding --trace 2>&1 >/dev/null | FileCheck %s --check-prefix=TRACE

// Chains that fail fall back to DRAM interleaved without failing the module (seed 002 §3.3.9:
// "a single edge failure breaks the entire chain").

#dram = #ttnn.buffer_type<dram>
#ttnn_layout = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x2x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout1 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x64x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>

// 1. relu (64x64) -> matmul (64x2048): the matmul's sharded configs are wide (width / 2xN block)
// while a sharded first operand must be block sharded on the output's grid or height sharded; no
// relu config and no reshard layout of the 64x64 tensor fits, so the chain fails.
// CHECK-LABEL: func.func @wide
// CHECK: "ttnn.relu"(%arg0) : (tensor<64x64xbf16, #ttnn_layout>) -> tensor<64x64xbf16, #ttnn_layout>
// CHECK-NEXT: "ttnn.matmul"({{.*}}) <{transpose_a = false, transpose_b = false}> : {{.*}} -> tensor<64x2048xbf16, #ttnn_layout1>
// CHECK-NOT: {{to_layout|to_memory_config}}
// TRACE: chain 0: [relu, wide]
// TRACE: edge: edge relu -> wide#0: no compatible path
// TRACE: chain 0 failed: no reshard layout makes wide valid on relu -> wide#0; its ops fall back to DRAM

module {
  func.func @wide(%x: tensor<64x64xbf16, #ttnn_layout>, %w: tensor<64x2048xbf16, #ttnn_layout1>) -> tensor<64x2048xbf16, #ttnn_layout1> attributes {tt.function_type = "forward_device"} {
    %0 = "ttnn.relu"(%x) : (tensor<64x64xbf16, #ttnn_layout>) -> tensor<64x64xbf16, #ttnn_layout> loc("relu")
    %1 = "ttnn.matmul"(%0, %w) <{transpose_a = false, transpose_b = false}> : (tensor<64x64xbf16, #ttnn_layout>, tensor<64x2048xbf16, #ttnn_layout1>) -> tensor<64x2048xbf16, #ttnn_layout1> loc("wide")
    return %1 : tensor<64x2048xbf16, #ttnn_layout1>
  }
}
