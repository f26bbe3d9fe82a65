// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline | FileCheck %s

// ttir.paged_fill_cache lowers one-to-one to ttnn.paged_fill_cache (no result). HEAD's workarounds
// then make the page table and the per-batch index row-major and pad the input's 40-row sequence
// to 64 rows (whole tiles).

// CHECK-LABEL: func.func @fill_batched
// CHECK: %[[X:.*]] = "ttnn.pad"(%arg1) <{padding = array<i32: 0, 0, 0, 0, 0, 24, 0, 0>
// CHECK-SAME: -> tensor<2x4x64x64xbf16
// CHECK: %[[P:.*]] = "ttnn.to_layout"(%arg2) {{.*}} -> tensor<4x8xsi32
// CHECK: %[[B:.*]] = "ttnn.to_layout"(%arg3) {{.*}} -> tensor<2xsi32
// CHECK: "ttnn.paged_fill_cache"(%arg0, %[[X]], %[[P]], %[[B]]) : ({{.*}}) -> ()
// CHECK-NOT: ttir.
func.func @fill_batched(%cache: tensor<32x4x32x64xbf16>, %x: tensor<2x4x40x64xbf16>, %pt: tensor<4x8xi32>, %b: tensor<2xi32>) -> tensor<32x4x32x64xbf16> {
  "ttir.paged_fill_cache"(%cache, %x, %pt, %b) : (tensor<32x4x32x64xbf16>, tensor<2x4x40x64xbf16>, tensor<4x8xi32>, tensor<2xi32>) -> ()
  return %cache : tensor<32x4x32x64xbf16>
}

// Without a batch index the input batch is 1 (tt-metal is called with batch index 0).
// CHECK-LABEL: func.func @fill_one
// CHECK: "ttnn.paged_fill_cache"(%arg0, %arg1, %{{.*}}) : (tensor<32x4x32x64xbf16, {{.*}}>, tensor<1x4x32x64xbf16, {{.*}}>, tensor<4x8xsi32, {{.*}}>) -> ()
func.func @fill_one(%cache: tensor<32x4x32x64xbf16>, %x: tensor<1x4x32x64xbf16>, %pt: tensor<4x8xi32>) -> tensor<32x4x32x64xbf16> {
  "ttir.paged_fill_cache"(%cache, %x, %pt) : (tensor<32x4x32x64xbf16>, tensor<1x4x32x64xbf16>, tensor<4x8xi32>) -> ()
  return %cache : tensor<32x4x32x64xbf16>
}
