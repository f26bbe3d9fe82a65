// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="optimization-level=1" | FileCheck %s
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="optimization-level=0" | FileCheck %s --check-prefix=NOOPT

// With the optimizer, the pipeline validates every op afterwards (as tt-mlir does): upsample takes
// row-major, so its tiled input is converted and its row-major output reverted to the program's
// tiled type; the conversions are then decomposed (page layout only: one ttnn.to_layout each).
// Without the optimizer nothing validates, and ttnn-workaround gives upsample the same row-major
// operand and result (tt-mlir's layout workarounds apply to every op at level 0).
// CHECK: %[[IN:.*]] = "ttnn.to_layout"(%arg0) {{.*}} -> tensor<1x8x8x32xbf16, #[[RM:ttnn_layout[0-9]*]]>
// CHECK: %[[UP:.*]] = "ttnn.upsample"(%[[IN]]) {{.*}} -> tensor<1x16x16x32xbf16, #[[RMOUT:ttnn_layout[0-9]*]]>
// CHECK: "ttnn.to_layout"(%[[UP]]) : (tensor<1x16x16x32xbf16, #[[RMOUT]]>) -> tensor<1x16x16x32xbf16, #ttnn_layout
// CHECK-NOT: to_tensor_spec
// NOOPT: %[[IN:.*]] = "ttnn.to_layout"(%arg0) {{.*}} -> tensor<1x8x8x32xbf16, #[[RM:ttnn_layout[0-9]*]]>
// NOOPT: %[[UP:.*]] = "ttnn.upsample"(%[[IN]]) {{.*}} -> tensor<1x16x16x32xbf16, #[[RMOUT:ttnn_layout[0-9]*]]>
// NOOPT: "ttnn.to_layout"(%[[UP]]) : (tensor<1x16x16x32xbf16, #[[RMOUT]]>) -> tensor<1x16x16x32xbf16, #ttnn_layout
func.func @main(%arg0: tensor<1x8x8x32xbf16>) -> tensor<1x16x16x32xbf16> {
  %0 = "ttir.upsample2d"(%arg0) <{mode = "nearest", scale_factor = 2 : si32}> {channel_last = true} : (tensor<1x8x8x32xbf16>) -> tensor<1x16x16x32xbf16>
  return %0 : tensor<1x16x16x32xbf16>
}
