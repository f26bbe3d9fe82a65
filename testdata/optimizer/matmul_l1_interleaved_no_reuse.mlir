// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="optimization-level=2 max-legal-layouts=0" | FileCheck %s
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="optimization-level=2 max-legal-layouts=0" --trace 2>&1 >/dev/null | FileCheck %s --check-prefix=TRACE
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="optimization-level=2 max-legal-layouts=0" | python %S/../../bench/ttnn_ods_check.py - | FileCheck %s --check-prefix=ODS

// Two small matmuls (each output within one 16x16-tile block). Without a program config, tt-metal's
// auto-picker runs an all-DRAM-interleaved one with 2-D multicast, but one with any L1-interleaved
// operand or output with its no-reuse MatmulMultiCoreProgramConfig: only the 12 cores holding an
// output tile work, each re-reading a row of A and a column of B. An L1-interleaved intermediate
// therefore costs both matmuls their reuse, and the plan keeps everything in DRAM.

// CHECK-NOT: #ttnn.buffer_type<l1>
// CHECK: "ttnn.matmul"{{.*}} -> tensor<96x128xbf16, #ttnn_layout{{[0-9]*}}>
// CHECK-NOT: to_memory_config
// CHECK: "ttnn.matmul"{{.*}} -> tensor<96x64xbf16, #ttnn_layout{{[0-9]*}}>

// TRACE: note: CostBased: no plan beats the input ({{[0-9.]+}} ns); the function is kept as given

// ODS: 0 violation(s)

module {
  func.func @forward(%x: tensor<96x64xbf16>, %w1: tensor<64x128xbf16>, %w2: tensor<128x64xbf16>) -> tensor<96x64xbf16> {
    %0 = "ttir.matmul"(%x, %w1) : (tensor<96x64xbf16>, tensor<64x128xbf16>) -> tensor<96x128xbf16>
    %1 = "ttir.matmul"(%0, %w2) : (tensor<96x128xbf16>, tensor<128x64xbf16>) -> tensor<96x64xbf16>
    return %1 : tensor<96x64xbf16>
  }
}
