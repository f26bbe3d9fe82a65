// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="optimization-level=2 verify-l1-budget=true" | FileCheck %s

// A DRAM-interleaved 3x3 conv over 1024 channels (segformer's depthwise MLP conv): split by output
// rows only, each core would hold a 9*1024 x 1024 weight block (19 MB); the op then splits the
// channels too (block sharded), which fits, so the L1 budget replay accepts the program.
// CHECK: "ttnn.conv2d"
// CHECK-SAME: in_channels = 1024 : i32
func.func @wide(%x: tensor<1x16x16x1024xbf16>, %w: tensor<1024x1x3x3xbf16>, %b: tensor<1x1x1x1024xbf16>) -> tensor<1x16x16x1024xbf16> {
  %0 = "ttir.conv2d"(%x, %w, %b) <{dilation = array<i32: 1, 1>, groups = 1024 : i32, padding = array<i32: 1, 1, 1, 1>, stride = array<i32: 1, 1>}> {channel_last = 1 : si32} : (tensor<1x16x16x1024xbf16>, tensor<1024x1x3x3xbf16>, tensor<1x1x1x1024xbf16>) -> tensor<1x16x16x1024xbf16>
  return %0 : tensor<1x16x16x1024xbf16>
}
