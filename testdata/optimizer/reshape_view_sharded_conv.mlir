// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="optimization-level=2 verify-l1-budget=true enable-erase-inverse-ops-pass=false" | FileCheck %s
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="optimization-level=2 enable-erase-inverse-ops-pass=false" --trace 2>&1 >/dev/null | FileCheck %s --check-prefix=TRACE
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="optimization-level=2 enable-erase-inverse-ops-pass=false" | python %S/../../bench/ttnn_ods_check.py - | FileCheck %s --check-prefix=ODS

// A conv2d runs on the flattened 1x1x(N*H*W)xC tensor; a reshape back to NHWC keeps the last dim
// and whole-tile second-to-last dims (8192 -> 32), so tt-metal runs it as a view: the same buffer,
// the conv's shard spec included, with no program. The height-sharded conv output therefore flows
// through the reshape into the multiply without a reshard, and the view is estimated at no device time.
// (ttir-erase-inverse-ops is off: it would move the reshape below the multiply.)

// CHECK-DAG: #[[FLAT:ttnn_layout[0-9]+]] = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 8192 + d1 * 8192 + d2, d3), <64x1>, memref<4x2x!ttcore.tile<32x32, bf16>, #l1>, <height_sharded>
// CHECK-DAG: #[[NHWC:ttnn_layout[0-9]+]] = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 1024 + d1 * 32 + d2, d3), <64x1>, memref<4x2x!ttcore.tile<32x32, bf16>, #l1>, <height_sharded>
// CHECK: %[[CONV:.*]] = "ttnn.conv2d"{{.*}} -> tensor<1x1x8192x64xbf16, #[[FLAT]]>
// CHECK-NOT: to_memory_config
// CHECK: %[[VIEW:.*]] = "ttnn.reshape"(%[[CONV]]) {{.*}} -> tensor<8x32x32x64xbf16, #[[NHWC]]>
// CHECK-NOT: to_memory_config
// CHECK: "ttnn.multiply"(%[[VIEW]], %[[VIEW]])

// ODS: 0 violation(s)

// TRACE: note: conv2d#{{[0-9]+}}: l1 height_sharded 64x1 [4x2 tiles]
// TRACE: note: reshape#{{[0-9]+}}: l1 height_sharded 64x1 [4x2 tiles] 0.0 ns (compute 0.0, dram 0.0, noc 0.0)

module {
  func.func @forward(%x: tensor<8x32x32x64xbf16>, %w: tensor<64x64x3x3xbf16>, %b: tensor<1x1x1x64xbf16>) -> tensor<8x32x32x64xbf16> {
    %0 = "ttir.conv2d"(%x, %w, %b) <{stride = 1 : i32, padding = 1 : i32, dilation = 1 : i32, groups = 1 : i32}> : (tensor<8x32x32x64xbf16>, tensor<64x64x3x3xbf16>, tensor<1x1x1x64xbf16>) -> tensor<8x32x32x64xbf16>
    %1 = "ttir.multiply"(%0, %0) : (tensor<8x32x32x64xbf16>, tensor<8x32x32x64xbf16>) -> tensor<8x32x32x64xbf16>
    return %1 : tensor<8x32x32x64xbf16>
  }
}
