// RUN: ttopt opt %s --ttnn-optimizer --memory-layout-analysis-enabled --memory-layout-analysis-policy DFSharding --tensor-l1-usage-cap 0.03 | FileCheck %s
// RUN: ttopt opt %s --ttnn-optimizer --memory-layout-analysis-enabled --memory-layout-analysis-policy DFSharding --tensor-l1-usage-cap 0.03 --trace 2>&1 >/dev/null | FileCheck %s --check-prefix=TRACE

// A chain that fails for lack of L1 falls back to DRAM interleaved without failing the module.
// Nothing fits in L1 twice: with 3% of L1 (44943 B/core) one 8x8 block shard of a 1024x1024 bf16
// tensor (32 KiB per core) fits next to a DRAM input, but not next to another such shard, and no
// reshard layout is smaller; the chain relu -> gelu fails.
#dram = #ttnn.buffer_type<dram>
#ttnn_layout = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<32x32x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
// CHECK-LABEL: func.func @too_big
// CHECK: "ttnn.relu"(%arg0) : (tensor<1024x1024xbf16, #ttnn_layout>) -> tensor<1024x1024xbf16, #ttnn_layout>
// CHECK-NEXT: "ttnn.gelu"
// CHECK-NOT: {{to_layout|to_memory_config}}
// TRACE: preprocess: first op relu: 1 config(s) take an interleaved input
// TRACE: edge: edge relu -> gelu#0: no compatible path
// TRACE: chain 0 failed: no reshard layout makes gelu valid on relu -> gelu#0; its ops fall back to DRAM
module {
  func.func @too_big(%x: tensor<1024x1024xbf16, #ttnn_layout>) -> tensor<1024x1024xbf16, #ttnn_layout> attributes {tt.function_type = "forward_device"} {
    %0 = "ttnn.relu"(%x) : (tensor<1024x1024xbf16, #ttnn_layout>) -> tensor<1024x1024xbf16, #ttnn_layout> loc("relu")
    %1 = "ttnn.gelu"(%0) : (tensor<1024x1024xbf16, #ttnn_layout>) -> tensor<1024x1024xbf16, #ttnn_layout> loc("gelu")
    return %1 : tensor<1024x1024xbf16, #ttnn_layout>
  }
}
