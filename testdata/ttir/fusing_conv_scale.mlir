// RUN: ttopt opt %s --split-input-file --ttir-fusing="ttnn-enable-conv2d-with-multiply-pattern=true" | FileCheck %s
// RUN: ttopt opt %s --split-input-file --ttir-fusing | FileCheck %s --check-prefix=OFF
// RUN: ttopt opt %s --split-input-file --ttir-fusing="ttnn-enable-conv2d-with-multiply-pattern=true" --trace 2>&1 >/dev/null | FileCheck %s --check-prefix=TRACE

// A constant per-channel multiply of a conv folds into the conv's weight (tt-mlir's
// ConvWithMultiply): the scale is reshaped to the weight's output-feature dimension, multiplies the
// weight, and a bias is multiplied by the scale; only under ttnn-enable-conv2d-with-multiply-pattern.
// CHECK-LABEL: func.func @scale_with_bias
// CHECK: %[[R:.*]] = "ttir.reshape"(%arg3) <{shape = [64 : i32, 1 : i32, 1 : i32, 1 : i32]}> : (tensor<1x1x1x64xbf16>) -> tensor<64x1x1x1xbf16>
// CHECK-NEXT: %[[W:.*]] = "ttir.multiply"(%arg1, %[[R]]) : (tensor<64x32x3x3xbf16>, tensor<64x1x1x1xbf16>) -> tensor<64x32x3x3xbf16>
// CHECK-NEXT: %[[B:.*]] = "ttir.multiply"(%arg2, %arg3) : (tensor<1x1x1x64xbf16>, tensor<1x1x1x64xbf16>) -> tensor<1x1x1x64xbf16>
// CHECK-NEXT: %[[C:.*]] = "ttir.conv2d"(%arg0, %[[W]], %[[B]])
// CHECK-NEXT: return %[[C]]
// OFF-LABEL: func.func @scale_with_bias
// OFF: "ttir.multiply"(%0, %arg3)
// TRACE: ttir-fusing: conv_scale at "scale": applied: ttir.conv2d
func.func @scale_with_bias(%x: tensor<1x16x16x32xbf16>, %w: tensor<64x32x3x3xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>},
                           %b: tensor<1x1x1x64xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>},
                           %s: tensor<1x1x1x64xbf16> {ttcore.argument_type = #ttcore.argument_type<constant>}) -> tensor<1x14x14x64xbf16> {
  %0 = "ttir.conv2d"(%x, %w, %b) <{stride = 1 : i32, padding = 0 : i32, dilation = 1 : i32, groups = 1 : i32}> : (tensor<1x16x16x32xbf16>, tensor<64x32x3x3xbf16>, tensor<1x1x1x64xbf16>) -> tensor<1x14x14x64xbf16>
  %1 = "ttir.multiply"(%0, %s) : (tensor<1x14x14x64xbf16>, tensor<1x1x1x64xbf16>) -> tensor<1x14x14x64xbf16> loc("scale")
  return %1 : tensor<1x14x14x64xbf16>
}

// -----

// A scale computed from an input is not constant: the multiply stays.
// CHECK-LABEL: func.func @input_scale
// CHECK: "ttir.conv2d"(%arg0, %arg1)
// CHECK: "ttir.multiply"
// TRACE: ttir-fusing: conv_scale at "scale": not applied: the scale is not computed from parameters and constants only
func.func @input_scale(%x: tensor<1x16x16x32xbf16>, %w: tensor<64x32x3x3xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>},
                       %s: tensor<1x1x1x64xbf16> {ttcore.argument_type = #ttcore.argument_type<input>}) -> tensor<1x14x14x64xbf16> {
  %0 = "ttir.conv2d"(%x, %w) <{stride = 1 : i32, padding = 0 : i32, dilation = 1 : i32, groups = 1 : i32}> : (tensor<1x16x16x32xbf16>, tensor<64x32x3x3xbf16>) -> tensor<1x14x14x64xbf16>
  %1 = "ttir.multiply"(%0, %s) : (tensor<1x14x14x64xbf16>, tensor<1x1x1x64xbf16>) -> tensor<1x14x14x64xbf16> loc("scale")
  return %1 : tensor<1x14x14x64xbf16>
}

// -----

// A batch norm of a conv (HEAD's BatchNormDecomposition, then the multiply and the add folded):
// alpha = scale / sqrt(var + eps) scales the weight, beta = offset - alpha * mean is the bias.
// CHECK-LABEL: func.func @batch_norm
// CHECK: %[[EPS:.*]] = "ttir.full"() <{fill_value = 9.99999974E-6 : f32, shape = array<i32: 1>}> : () -> tensor<1xbf16>
// CHECK-NEXT: %[[V:.*]] = "ttir.add"(%arg5, %[[EPS]])
// CHECK-NEXT: %[[STD:.*]] = "ttir.sqrt"(%[[V]])
// CHECK-NEXT: %[[A:.*]] = "ttir.div"(%arg2, %[[STD]])
// CHECK-NEXT: %[[AM:.*]] = "ttir.multiply"(%arg4, %[[A]])
// CHECK-NEXT: %[[BETA:.*]] = "ttir.subtract"(%arg3, %[[AM]])
// CHECK-NEXT: %[[A4:.*]] = "ttir.reshape"(%[[A]]) <{shape = [1 : i32, 1 : i32, 1 : i32, 64 : i32]}>
// CHECK-NEXT: %[[B4:.*]] = "ttir.reshape"(%[[BETA]]) <{shape = [1 : i32, 1 : i32, 1 : i32, 64 : i32]}>
// CHECK-NEXT: %[[AW:.*]] = "ttir.reshape"(%[[A4]]) <{shape = [64 : i32, 1 : i32, 1 : i32, 1 : i32]}>
// CHECK-NEXT: %[[W:.*]] = "ttir.multiply"(%arg1, %[[AW]])
// CHECK-NEXT: %[[C:.*]] = "ttir.conv2d"(%arg0, %[[W]], %[[B4]])
// CHECK-NEXT: return %[[C]]
// OFF-LABEL: func.func @batch_norm
// OFF: "ttir.batch_norm_inference"
func.func @batch_norm(%x: tensor<1x16x16x32xbf16>, %w: tensor<64x32x3x3xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>},
                      %g: tensor<64xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>}, %o: tensor<64xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>},
                      %m: tensor<64xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>}, %v: tensor<64xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>}) -> tensor<1x14x14x64xbf16> {
  %0 = "ttir.conv2d"(%x, %w) <{stride = 1 : i32, padding = 0 : i32, dilation = 1 : i32, groups = 1 : i32}> : (tensor<1x16x16x32xbf16>, tensor<64x32x3x3xbf16>) -> tensor<1x14x14x64xbf16>
  %1 = "ttir.batch_norm_inference"(%0, %g, %o, %m, %v) <{dimension = 3 : i32, epsilon = 9.99999974E-6 : f32}> : (tensor<1x14x14x64xbf16>, tensor<64xbf16>, tensor<64xbf16>, tensor<64xbf16>, tensor<64xbf16>) -> tensor<1x14x14x64xbf16>
  return %1 : tensor<1x14x14x64xbf16>
}

// -----

// A conv read by something else too keeps its batch norm.
// CHECK-LABEL: func.func @shared_conv
// CHECK: "ttir.batch_norm_inference"
// TRACE: ttir-fusing: conv_batch_norm at {{.*}}: not applied: the conv has other users
func.func @shared_conv(%x: tensor<1x16x16x32xbf16>, %w: tensor<64x32x3x3xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>},
                       %g: tensor<64xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>}, %o: tensor<64xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>},
                       %m: tensor<64xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>}, %v: tensor<64xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>}) -> (tensor<1x14x14x64xbf16>, tensor<1x14x14x64xbf16>) {
  %0 = "ttir.conv2d"(%x, %w) <{stride = 1 : i32, padding = 0 : i32, dilation = 1 : i32, groups = 1 : i32}> : (tensor<1x16x16x32xbf16>, tensor<64x32x3x3xbf16>) -> tensor<1x14x14x64xbf16>
  %1 = "ttir.batch_norm_inference"(%0, %g, %o, %m, %v) <{dimension = 3 : i32, epsilon = 9.99999974E-6 : f32}> : (tensor<1x14x14x64xbf16>, tensor<64xbf16>, tensor<64xbf16>, tensor<64xbf16>, tensor<64xbf16>) -> tensor<1x14x14x64xbf16>
  return %1, %0 : tensor<1x14x14x64xbf16>, tensor<1x14x14x64xbf16>
}
