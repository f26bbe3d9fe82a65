// RUN: ttopt opt %s --ttnn-optimizer --memory-layout-analysis-enabled --memory-layout-analysis-policy DFSharding --override-output-layout relu=height_sharded,gelu=block_sharded --mlir-print-debuginfo | FileCheck %s
// RUN: ttopt opt %s --ttnn-optimizer --memory-layout-analysis-enabled --memory-layout-analysis-policy DFSharding --override-output-layout relu=height_sharded,gelu=block_sharded --trace 2>&1 >/dev/null | FileCheck %s --check-prefix=TRACE

// An edge that needs a reshard: relu may only produce height-sharded layouts and gelu only
// block-sharded ones (partial output-layout overrides). An eltwise op's output copies its input's
// shard spec, so no relu config reaches any gelu config directly; the solver inserts a reshard on
// the edge (seed 002 §3.3.6) and the rewrite puts a `ttnn.to_memory_config` named
// `gelu_mem_reconfig` in front of gelu. neg continues gelu's layout; the chain spills before return.

#dram = #ttnn.buffer_type<dram>
#ttnn_layout = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<8x16x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>

// CHECK: #[[H:ttnn_layout[0-9]+]] = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <8x1>, memref<1x16x!ttcore.tile<32x32, bf16>, #l1>, <height_sharded>
// CHECK: #[[B:ttnn_layout[0-9]+]] = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <8x8>, memref<1x2x!ttcore.tile<32x32, bf16>, #l1>, <block_sharded>
// CHECK: %[[R:.*]] = "ttnn.relu"(%arg0) : {{.*}} -> tensor<256x512xbf16, #[[H]]> loc("relu")
// CHECK-NEXT: %[[RS:.*]] = "ttnn.to_memory_config"(%[[R]]) : (tensor<256x512xbf16, #[[H]]>) -> tensor<256x512xbf16, #[[B]]> loc("gelu_mem_reconfig")
// CHECK-NEXT: %[[G:.*]] = "ttnn.gelu"(%[[RS]]) : (tensor<256x512xbf16, #[[B]]>) -> tensor<256x512xbf16, #[[B]]> loc("gelu")
// CHECK-NEXT: %[[N:.*]] = "ttnn.neg"(%[[G]]) {{.*}} -> tensor<256x512xbf16, #[[B]]> loc("neg")
// CHECK-NEXT: "ttnn.to_memory_config"(%[[N]]) {{.*}} loc("neg_spill")

// TRACE: edge: edge relu -> gelu#0: no compatible path
// TRACE: reshard: reshard on relu -> gelu#0: 8 consumer config(s) reachable
// TRACE-NEXT: reshard -> config 0: l1 block_sharded 8x8 [1x2 tiles]
// TRACE: edge: edge relu -> gelu#0: 40 path(s) via reshard
// TRACE: pick relu: config 0 (accumulated core usage 136)
// TRACE: chain 0 completed, spill location DRAM
// TRACE: reshard relu -> gelu#0: l1 block_sharded 8x8 [1x2 tiles] (inserted gelu_mem_reconfig)

module {
  func.func @reshard(%x: tensor<256x512xbf16, #ttnn_layout>) -> tensor<256x512xbf16, #ttnn_layout> attributes {tt.function_type = "forward_device"} {
    %0 = "ttnn.relu"(%x) : (tensor<256x512xbf16, #ttnn_layout>) -> tensor<256x512xbf16, #ttnn_layout> loc("relu")
    %1 = "ttnn.gelu"(%0) : (tensor<256x512xbf16, #ttnn_layout>) -> tensor<256x512xbf16, #ttnn_layout> loc("gelu")
    %2 = "ttnn.neg"(%1) : (tensor<256x512xbf16, #ttnn_layout>) -> tensor<256x512xbf16, #ttnn_layout> loc("neg")
    return %2 : tensor<256x512xbf16, #ttnn_layout>
  }
}
