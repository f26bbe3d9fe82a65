// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline | FileCheck %s

// ttir.paged_update_cache lowers one-to-one to ttnn.paged_update_cache (no result, share_cache
// kept). HEAD's workarounds then move the input to L1 height-sharded on a [users, 1] grid (3 users:
// cores (0,0)..(2,0)) and make the update index and page table row-major.

// CHECK-DAG: #[[HS:ttnn_layout[0-9]*]] = #ttnn.ttnn_layout<{{.*}}, <3x1>, memref<1x2x!ttcore.tile<32x32, bf16>, #l1>, <height_sharded>, core_ranges = <[#ttnn.core_range<(0, 0), (2, 0)>]>>
// CHECK-LABEL: func.func @paged
// CHECK: %[[I:.*]] = "ttnn.to_layout"(%arg2) {{.*}} -> tensor<3xsi32
// CHECK: %[[P:.*]] = "ttnn.to_layout"(%arg3) {{.*}} -> tensor<3x4xsi32
// CHECK: %[[X:.*]] = "ttnn.to_memory_config"(%arg1) {{.*}} -> tensor<1x3x8x64xbf16, #[[HS]]>
// CHECK: "ttnn.paged_update_cache"(%arg0, %[[X]], %[[I]], %[[P]]) <{share_cache = true}> : ({{.*}}) -> ()
// CHECK-NOT: ttir.
func.func @paged(%cache: tensor<16x8x32x64xbf16>, %x: tensor<1x3x8x64xbf16>, %idx: tensor<3xi32>, %pt: tensor<3x4xi32>) -> tensor<16x8x32x64xbf16> {
  "ttir.paged_update_cache"(%cache, %x, %idx, %pt) <{share_cache = true}> : (tensor<16x8x32x64xbf16>, tensor<1x3x8x64xbf16>, tensor<3xi32>, tensor<3x4xi32>) -> ()
  return %cache : tensor<16x8x32x64xbf16>
}

// Without a page table the cache is static (one row per user) and share_cache defaults to false.
// CHECK-LABEL: func.func @static
// CHECK: "ttnn.paged_update_cache"(%arg0, %{{.*}}, %{{.*}}) <{share_cache = false}> : (tensor<3x8x128x64xbf16, {{.*}}>, tensor<1x3x8x64xbf16, {{.*}}>, tensor<3xsi32, {{.*}}>) -> ()
func.func @static(%cache: tensor<3x8x128x64xbf16>, %x: tensor<1x3x8x64xbf16>, %idx: tensor<3xi32>) -> tensor<3x8x128x64xbf16> {
  "ttir.paged_update_cache"(%cache, %x, %idx) : (tensor<3x8x128x64xbf16>, tensor<1x3x8x64xbf16>, tensor<3xi32>) -> ()
  return %cache : tensor<3x8x128x64xbf16>
}
