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

// -----

// A channels-first conv is decomposed into permute -> NHWC conv -> permute before fusing: the
// [1, C, 1, 1] scale folds through the permute into the weight (reshaped to [1, 1, 1, C] first).
// CHECK-LABEL: func.func @channels_first
// CHECK: "ttir.reshape"(%arg2) <{shape = [1 : i32, 1 : i32, 1 : i32, 64 : i32]}>
// CHECK: "ttir.multiply"(%arg1, %{{.*}}) : (tensor<64x32x3x3xbf16>, tensor<64x1x1x1xbf16>)
// CHECK: %[[C:.*]] = "ttir.conv2d"
// CHECK-NEXT: %[[P:.*]] = "ttir.permute"(%[[C]]) <{permutation = array<i64: 0, 3, 1, 2>}>
// CHECK-NEXT: return %[[P]]
func.func @channels_first(%x: tensor<1x32x16x16xbf16>, %w: tensor<64x32x3x3xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>},
                          %s: tensor<1x64x1x1xbf16> {ttcore.argument_type = #ttcore.argument_type<constant>}) -> tensor<1x64x14x14xbf16> {
  %0 = "ttir.conv2d"(%x, %w) <{stride = array<i32: 1, 1>, padding = array<i32: 0, 0, 0, 0>, dilation = array<i32: 1, 1>, groups = 1 : i32, batch_dim = 0 : i64, height_dim = 2 : i64, width_dim = 3 : i64, channel_dim = 1 : i64}> : (tensor<1x32x16x16xbf16>, tensor<64x32x3x3xbf16>) -> tensor<1x64x14x14xbf16>
  %1 = "ttir.multiply"(%0, %s) : (tensor<1x64x14x14xbf16>, tensor<1x64x1x1xbf16>) -> tensor<1x64x14x14xbf16>
  return %1 : tensor<1x64x14x14xbf16>
}

// -----

// A scale broadcast wider than the conv's output (batch 2) is not the conv's result: no fold.
// CHECK-LABEL: func.func @wider_broadcast
// CHECK: "ttir.multiply"
// TRACE: ttir-fusing: conv_scale at "wide": not applied: the multiply's result is not the conv's
func.func @wider_broadcast(%x: tensor<1x16x16x32xbf16>, %w: tensor<64x32x3x3xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>},
                           %s: tensor<1x1x1x64xbf16> {ttcore.argument_type = #ttcore.argument_type<constant>}) -> tensor<2x14x14x64xbf16> {
  %0 = "ttir.conv2d"(%x, %w) <{stride = 1 : i32, padding = 0 : i32, dilation = 1 : i32, groups = 1 : i32}> : (tensor<1x16x16x32xbf16>, tensor<64x32x3x3xbf16>) -> tensor<1x14x14x64xbf16>
  %1 = "ttir.broadcast"(%s) <{broadcast_dimensions = array<i64: 2, 14, 14, 1>}> : (tensor<1x1x1x64xbf16>) -> tensor<2x14x14x64xbf16>
  %2 = "ttir.multiply"(%0, %1) : (tensor<1x14x14x64xbf16>, tensor<2x14x14x64xbf16>) -> tensor<2x14x14x64xbf16> loc("wide")
  return %2 : tensor<2x14x14x64xbf16>
}

// -----

// A grouped conv_transpose2d's IOHW weight holds a group's output channels (8 of 16): no fold.
// CHECK-LABEL: func.func @grouped_transpose
// CHECK: "ttir.multiply"
// TRACE: ttir-fusing: conv_scale at "grouped": not applied: a grouped conv_transpose2d's weight holds a group's output channels
func.func @grouped_transpose(%x: tensor<1x8x8x32xbf16>, %w: tensor<32x8x3x3xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>},
                             %s: tensor<1x1x1x16xbf16> {ttcore.argument_type = #ttcore.argument_type<constant>}) -> tensor<1x10x10x16xbf16> {
  %0 = "ttir.conv_transpose2d"(%x, %w) <{stride = array<i32: 1, 1>, padding = array<i32: 0, 0, 0, 0>, output_padding = array<i32: 0, 0>, dilation = array<i32: 1, 1>, groups = 2 : i32}> : (tensor<1x8x8x32xbf16>, tensor<32x8x3x3xbf16>) -> tensor<1x10x10x16xbf16>
  %1 = "ttir.multiply"(%0, %s) : (tensor<1x10x10x16xbf16>, tensor<1x1x1x16xbf16>) -> tensor<1x10x10x16xbf16> loc("grouped")
  return %1 : tensor<1x10x10x16xbf16>
}

// -----

// conv_transpose2d's IOHW weight takes the scale along its dim 1.
// CHECK-LABEL: func.func @transpose
// CHECK: "ttir.reshape"(%arg2) <{shape = [1 : i32, 16 : i32, 1 : i32, 1 : i32]}>
// CHECK: "ttir.multiply"(%arg1, %{{.*}}) : (tensor<32x16x3x3xbf16>, tensor<1x16x1x1xbf16>)
// CHECK: "ttir.conv_transpose2d"
// CHECK-NOT: "ttir.multiply"
func.func @transpose(%x: tensor<1x8x8x32xbf16>, %w: tensor<32x16x3x3xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>},
                     %s: tensor<1x1x1x16xbf16> {ttcore.argument_type = #ttcore.argument_type<constant>}) -> tensor<1x10x10x16xbf16> {
  %0 = "ttir.conv_transpose2d"(%x, %w) <{stride = array<i32: 1, 1>, padding = array<i32: 0, 0, 0, 0>, output_padding = array<i32: 0, 0>, dilation = array<i32: 1, 1>, groups = 1 : i32}> : (tensor<1x8x8x32xbf16>, tensor<32x16x3x3xbf16>) -> tensor<1x10x10x16xbf16>
  %1 = "ttir.multiply"(%0, %s) : (tensor<1x10x10x16xbf16>, tensor<1x1x1x16xbf16>) -> tensor<1x10x10x16xbf16>
  return %1 : tensor<1x10x10x16xbf16>
}

// -----

// Statistics of different shapes do not fold (the batch norm stays as it is).
// CHECK-LABEL: func.func @mixed_statistics
// CHECK: "ttir.batch_norm_inference"
// TRACE: ttir-fusing: conv_batch_norm at {{.*}}: not applied: the statistics must share one shape, 1-D or 4-D
func.func @mixed_statistics(%x: tensor<1x16x16x32xbf16>, %w: tensor<64x32x3x3xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>},
                            %g: tensor<64xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>}, %o: tensor<64xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>},
                            %m: tensor<64xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>}, %v: tensor<1x1x1x64xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>}) -> tensor<1x14x14x64xbf16> {
  %0 = "ttir.conv2d"(%x, %w) <{stride = 1 : i32, padding = 0 : i32, dilation = 1 : i32, groups = 1 : i32}> : (tensor<1x16x16x32xbf16>, tensor<64x32x3x3xbf16>) -> tensor<1x14x14x64xbf16>
  %1 = "ttir.batch_norm_inference"(%0, %g, %o, %m, %v) <{dimension = 3 : i32, epsilon = 9.99999974E-6 : f32}> : (tensor<1x14x14x64xbf16>, tensor<64xbf16>, tensor<64xbf16>, tensor<64xbf16>, tensor<1x1x1x64xbf16>) -> tensor<1x14x14x64xbf16>
  return %1 : tensor<1x14x14x64xbf16>
}
