// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="optimization-level=1" | FileCheck %s
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline | FileCheck %s --check-prefix=L0

// With the optimizer, a conv_transpose2d reads its parameter weight and bias through
// prepare_conv_transpose2d_weights / _bias, each computed once in a const-eval function.
// CHECK-LABEL: func.func private @main_const_eval_0
// CHECK: "ttnn.prepare_conv_transpose2d_weights"(%arg0, %{{[0-9]+}})
// CHECK-SAME: has_bias = true
// CHECK-SAME: mirror_kernel = true
// CHECK-SAME: output_padding = array<i32: 1, 1>
// CHECK-SAME: weights_format = "IOHW"
// CHECK-SAME: -> tensor<1x1x576x32xbf16
// CHECK-LABEL: func.func private @main_const_eval_1
// CHECK: "ttnn.prepare_conv_transpose2d_bias"(%arg0, %{{[0-9]+}})
// CHECK-LABEL: func.func @main
// CHECK: %[[W:.*]] = ttcore.load_cached(@main_const_eval_0, [%arg1])
// CHECK: %[[B:.*]] = ttcore.load_cached(@main_const_eval_1, [%arg2])
// CHECK: "ttnn.conv_transpose2d"(%{{[0-9]+}}, %[[W]], %[[B]], %{{[0-9]+}})
// L0-NOT: prepare_conv_transpose2d
func.func @main(%x: tensor<1x16x16x64xbf16>, %w: tensor<64x32x3x3xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>},
                %b: tensor<1x1x1x32xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>}) -> tensor<1x34x34x32xbf16> {
  %0 = "ttir.conv_transpose2d"(%x, %w, %b) <{dilation = array<i32: 1, 1>, groups = 1 : i32, output_padding = array<i32: 1, 1>, padding = array<i32: 0, 0, 0, 0>, stride = array<i32: 2, 2>}> : (tensor<1x16x16x64xbf16>, tensor<64x32x3x3xbf16>, tensor<1x1x1x32xbf16>) -> tensor<1x34x34x32xbf16>
  return %0 : tensor<1x34x34x32xbf16>
}
