// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline | FileCheck %s
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="experimental-kv-cache-dtype=bfp_bf8" | FileCheck %s --check-prefix=BFP8
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="optimization-level=2 verify-l1-budget=true" | FileCheck %s --check-prefix=L2

// ttir.update_cache lowers as HEAD's pipeline leaves it: the canonical ttnn.paged_update_cache
// (share_cache = false, no batch_offset), the [1, heads, users, head_dim] input permuted to
// [1, users, heads, head_dim] and moved to L1 height-sharded on a [users, 1] grid, the one-element
// index repeated to one per user and made row-major.

// CHECK-DAG: #[[HS:ttnn_layout[0-9]*]] = #ttnn.ttnn_layout<{{.*}}, <4x1>, memref<1x2x!ttcore.tile<32x32, bf16>, #l1>, <height_sharded>
// CHECK-DAG: #[[RM:ttnn_layout[0-9]*]] = #ttnn.ttnn_layout<(d0) -> (0, d0), <1x1>, memref<1x4xsi32, #dram>, <interleaved>>
// CHECK: %[[P:.*]] = "ttnn.permute"(%arg1) <{permutation = array<i64: 0, 2, 1, 3>}> {{.*}} -> tensor<1x4x8x64xbf16
// CHECK: %[[R:.*]] = "ttnn.repeat"(%arg2) <{repeat_dims = #ttnn.shape<4>}> {{.*}} -> tensor<4xsi32
// CHECK: %[[I:.*]] = "ttnn.to_layout"(%[[R]]) {{.*}} -> tensor<4xsi32, #[[RM]]>
// CHECK: %[[X:.*]] = "ttnn.to_memory_config"(%[[P]]) {{.*}} -> tensor<1x4x8x64xbf16, #[[HS]]>
// CHECK: "ttnn.paged_update_cache"(%arg0, %[[X]], %[[I]]) <{share_cache = false}>
// CHECK-NOT: ttnn.update_cache

// paged_update_cache converts its input to the cache's block-float type itself: no typecast.
// BFP8-LABEL: func.func @decode
// BFP8-SAME: bfp_bf8
// BFP8-NOT: ttnn.typecast
// BFP8: "ttnn.paged_update_cache"

// At level 2 the repeated index stays in DRAM: the cost-based optimizer keeps a producer read by
// ttnn.to_layout in its default config (a to_layout may not change the memory config it reads).
// L2-DAG: #[[T:ttnn_layout[0-9]*]] = #ttnn.ttnn_layout<(d0) -> (0, d0), <1x1>, memref<1x1x!ttcore.tile<32x32, si32>, #dram>, <interleaved>>
// L2: %[[R:.*]] = "ttnn.repeat"(%arg2) {{.*}} -> tensor<4xsi32, #[[T]]>
// L2: "ttnn.to_layout"(%[[R]]) : (tensor<4xsi32, #[[T]]>)
// L2: "ttnn.paged_update_cache"

func.func @decode(%cache: tensor<4x8x128x64xbf16>, %x: tensor<1x8x4x64xbf16>, %idx: tensor<1xi32>) -> tensor<4x8x128x64xbf16> {
  "ttir.update_cache"(%cache, %x, %idx) <{batch_offset = 0 : i32}> : (tensor<4x8x128x64xbf16>, tensor<1x8x4x64xbf16>, tensor<1xi32>) -> ()
  return %cache : tensor<4x8x128x64xbf16>
}
