// RUN: ttopt opt %s --split-input-file --ttir-fusing | FileCheck %s
// RUN: ttopt opt %s --split-input-file --ttir-fusing --trace 2>&1 >/dev/null | FileCheck %s --check-prefix=TRACE

// RepVGG: a 3x3 (padding 1) and a 1x1 (padding 0) conv of one input, summed, become the 3x3 conv on
// the 1x1 weight padded to 3x3 plus the 3x3 weight, and the summed biases (tt-mlir's
// RepVGGConvSumFusionPattern). The weights are parameters: const-eval computes the pad and the sums once.
// CHECK-LABEL: func.func @repvgg
// CHECK: %[[P:.*]] = "ttir.pad"(%arg3) <{padding = array<i32: 0, 0, 0, 0, 1, 1, 1, 1>, value = 0.000000e+00 : f32}> : (tensor<64x64x1x1xbf16>) -> tensor<64x64x3x3xbf16>
// CHECK-NEXT: %[[W:.*]] = "ttir.add"(%[[P]], %arg1)
// CHECK-NEXT: %[[B:.*]] = "ttir.add"(%arg2, %arg4)
// CHECK-NEXT: %[[C:.*]] = "ttir.conv2d"(%arg0, %[[W]], %[[B]]) <{dilation = array<i32: 1, 1>, groups = 1 : i32, padding = array<i32: 1, 1, 1, 1>, stride = array<i32: 1, 1>}>
// CHECK-NEXT: return %[[C]]
// TRACE: ttir-fusing: repvgg_conv_sum at "sum": applied: ttir.conv2d
func.func @repvgg(%x: tensor<1x16x16x64xbf16>,
                  %w3: tensor<64x64x3x3xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>},
                  %b3: tensor<1x1x1x64xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>},
                  %w1: tensor<64x64x1x1xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>},
                  %b1: tensor<1x1x1x64xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>}) -> tensor<1x16x16x64xbf16> {
  %0 = "ttir.conv2d"(%x, %w1, %b1) <{dilation = array<i32: 1, 1>, groups = 1 : i32, padding = array<i32: 0, 0, 0, 0>, stride = array<i32: 1, 1>}> : (tensor<1x16x16x64xbf16>, tensor<64x64x1x1xbf16>, tensor<1x1x1x64xbf16>) -> tensor<1x16x16x64xbf16>
  %1 = "ttir.conv2d"(%x, %w3, %b3) <{dilation = array<i32: 1, 1>, groups = 1 : i32, padding = array<i32: 1, 1, 1, 1>, stride = array<i32: 1, 1>}> : (tensor<1x16x16x64xbf16>, tensor<64x64x3x3xbf16>, tensor<1x1x1x64xbf16>) -> tensor<1x16x16x64xbf16>
  %2 = "ttir.add"(%0, %1) : (tensor<1x16x16x64xbf16>, tensor<1x16x16x64xbf16>) -> tensor<1x16x16x64xbf16> loc("sum")
  return %2 : tensor<1x16x16x64xbf16>
}

// -----

// Different groups (the 1x1 conv depthwise): not a RepVGG pair, both convs stay. (Different
// strides cannot give the two convs one result shape.)
// CHECK-LABEL: func.func @groups
// CHECK-COUNT-2: "ttir.conv2d"
// CHECK: "ttir.add"
// TRACE: ttir-fusing: repvgg_conv_sum at "grouped": not applied: not a 3x3 conv with padding 1 and a 1x1 conv with padding 0 of one stride, dilation and groups
func.func @groups(%x: tensor<1x16x16x64xbf16>, %w3: tensor<64x64x3x3xbf16>, %w1: tensor<64x1x1x1xbf16>) -> tensor<1x8x8x64xbf16> {
  %0 = "ttir.conv2d"(%x, %w3) <{dilation = array<i32: 1, 1>, groups = 1 : i32, padding = array<i32: 1, 1, 1, 1>, stride = array<i32: 2, 2>}> : (tensor<1x16x16x64xbf16>, tensor<64x64x3x3xbf16>) -> tensor<1x8x8x64xbf16>
  %1 = "ttir.conv2d"(%x, %w1) <{dilation = array<i32: 1, 1>, groups = 64 : i32, padding = array<i32: 0, 0, 0, 0>, stride = array<i32: 2, 2>}> : (tensor<1x16x16x64xbf16>, tensor<64x1x1x1xbf16>) -> tensor<1x8x8x64xbf16>
  %2 = "ttir.add"(%0, %1) : (tensor<1x8x8x64xbf16>, tensor<1x8x8x64xbf16>) -> tensor<1x8x8x64xbf16> loc("grouped")
  return %2 : tensor<1x8x8x64xbf16>
}
