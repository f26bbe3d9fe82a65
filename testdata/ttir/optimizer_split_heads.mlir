// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="optimization-level=2 verify-l1-budget=true" | FileCheck %s
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="optimization-level=0" | FileCheck %s --check-prefix=L0

// The optimizer places ttnn.split_query_key_value_and_split_heads: its three results take the
// input's interleaved memory config (tt-mlir's null output hint), so the split reads its input L1
// interleaved and writes query, key and value to L1 as well; each result keeps its own shape. The
// fused QKV matmul (M = 128: a 1-D program) writes width shards under tt-mlir's program config
// (in0_block_w 8: 8 activation hand-offs) and one to_memory_config makes them L1 interleaved: an
// L1-interleaved output would run ttnn's default config, in0_block_w 2, 32 hand-offs (tt-metal
// PR 42593 measures the default 1.7x slower than a wider block). At level 0 everything stays in DRAM.

// CHECK-DAG: #[[IN:ttnn_layout[0-9]*]] = #ttnn.ttnn_layout<(d0, d1, d2) -> (d0 * 128 + d1, d2), <8x8>, memref<1x6x!ttcore.tile<32x32, bf16>, #l1>, <interleaved>>
// CHECK-DAG: #[[Q:ttnn_layout[0-9]*]] = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 4096 + d1 * 128 + d2, d3), <8x8>, memref<1x4x!ttcore.tile<32x32, bf16>, #l1>, <interleaved>>
// CHECK-DAG: #[[KV:ttnn_layout[0-9]*]] = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 1024 + d1 * 128 + d2, d3), <8x8>, memref<1x1x!ttcore.tile<32x32, bf16>, #l1>, <interleaved>>
// CHECK-DAG: #[[W:ttnn_layout[0-9]*]] = #ttnn.ttnn_layout<(d0, d1, d2) -> (d0 * 128 + d1, d2), <1x48>, memref<4x2x!ttcore.tile<32x32, bf16>, #l1>, <width_sharded>
// CHECK: %[[M:.*]] = "ttnn.matmul"{{.*}} -> tensor<1x128x3072xbf16, #[[W]]>
// CHECK-NEXT: %[[R:.*]] = "ttnn.to_memory_config"(%[[M]]) : (tensor<1x128x3072xbf16, #[[W]]>) -> tensor<1x128x3072xbf16, #[[IN]]>
// CHECK: "ttnn.split_query_key_value_and_split_heads"(%[[R]])
// CHECK-SAME: (tensor<1x128x3072xbf16, #[[IN]]>) -> (tensor<1x32x128x64xbf16, #[[Q]]>, tensor<1x8x128x64xbf16, #[[KV]]>, tensor<1x8x128x64xbf16, #[[KV]]>)
// CHECK: "ttnn.relu"(%query) : (tensor<1x32x128x64xbf16, #[[Q]]>)
// CHECK: "ttnn.relu"(%key) : (tensor<1x8x128x64xbf16, #[[KV]]>)
// CHECK: "ttnn.relu"(%value) : (tensor<1x8x128x64xbf16, #[[KV]]>)

// L0-NOT: #l1
// L0: "ttnn.split_query_key_value_and_split_heads"
// L0-NOT: #l1

module {
  func.func @split_heads(%arg0: tensor<1x128x2048xbf16>, %w: tensor<2048x3072xbf16>) -> (tensor<1x32x128x64xbf16>, tensor<1x8x128x64xbf16>, tensor<1x8x128x64xbf16>) {
    %m = "ttir.matmul"(%arg0, %w) : (tensor<1x128x2048xbf16>, tensor<2048x3072xbf16>) -> tensor<1x128x3072xbf16>
    %q, %k, %v = "ttir.split_query_key_value_and_split_heads"(%m) <{num_heads = 32 : ui32, num_kv_heads = 8 : ui32, transpose_key = false}> : (tensor<1x128x3072xbf16>) -> (tensor<1x32x128x64xbf16>, tensor<1x8x128x64xbf16>, tensor<1x8x128x64xbf16>)
    %q2 = "ttir.relu"(%q) : (tensor<1x32x128x64xbf16>) -> tensor<1x32x128x64xbf16>
    %k2 = "ttir.relu"(%k) : (tensor<1x8x128x64xbf16>) -> tensor<1x8x128x64xbf16>
    %v2 = "ttir.relu"(%v) : (tensor<1x8x128x64xbf16>) -> tensor<1x8x128x64xbf16>
    return %q2, %k2, %v2 : tensor<1x32x128x64xbf16>, tensor<1x8x128x64xbf16>, tensor<1x8x128x64xbf16>
  }
}
