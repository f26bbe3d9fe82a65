// RUN: ttopt opt %s --split-input-file --ttir-fusing | FileCheck %s
// RUN: ttopt opt %s --split-input-file --ttir-fusing --trace 2>&1 >/dev/null | FileCheck %s --check-prefix=TRACE

// A zero pad of the spatial dimensions folded into the conv3d's padding (tt-mlir's
// PadConv3dFusionPattern); the amounts add to the conv's own padding, and the conv keeps its location.
// CHECK-LABEL: func.func @ndhwc
// CHECK-NOT: ttir.pad
// CHECK: %[[C:.*]] = "ttir.conv3d"(%arg0, %arg1) <{groups = 1 : i32, padding = array<i32: 1, 2, 1>, padding_mode = "zeros", stride = array<i32: 1, 1, 1>}>
// CHECK-NEXT: return %[[C]]
// TRACE: ttir-fusing: pad_conv3d at "conv": applied: ttir.conv3d {{.*}} (padding [1, 2, 1])
func.func @ndhwc(%x: tensor<1x4x6x6x16xbf16>, %w: tensor<16x16x3x3x3xbf16>) -> tensor<1x4x8x6x16xbf16> {
  %0 = "ttir.pad"(%x) <{padding = array<i32: 0, 0, 0, 0, 1, 1, 0, 0, 0, 0>, value = 0.000000e+00 : f32}> : (tensor<1x4x6x6x16xbf16>) -> tensor<1x4x8x6x16xbf16>
  %1 = "ttir.conv3d"(%0, %w) <{groups = 1 : i32, padding = array<i32: 1, 1, 1>, padding_mode = "zeros", stride = array<i32: 1, 1, 1>}> : (tensor<1x4x8x6x16xbf16>, tensor<16x16x3x3x3xbf16>) -> tensor<1x4x8x6x16xbf16> loc("conv")
  return %1 : tensor<1x4x8x6x16xbf16>
}

// -----

// NCDHW: decomposed to NDHWC first, so the pad is read through the permute, which now reads the
// unpadded input.
// CHECK-LABEL: func.func @ncdhw
// CHECK: %[[P:.*]] = "ttir.permute"(%arg0) <{permutation = array<i64: 0, 2, 3, 4, 1>}> : (tensor<1x16x4x6x6xbf16>) -> tensor<1x4x6x6x16xbf16>
// CHECK-NEXT: "ttir.conv3d"(%[[P]], %arg1) <{groups = 1 : i32, padding = array<i32: 0, 1, 1>
// CHECK-NOT: ttir.pad
func.func @ncdhw(%x: tensor<1x16x4x6x6xbf16>, %w: tensor<16x16x3x3x3xbf16>) -> tensor<1x16x2x6x6xbf16> {
  %0 = "ttir.pad"(%x) <{padding = array<i32: 0, 0, 0, 0, 0, 0, 1, 1, 1, 1>, value = 0.000000e+00 : f32}> : (tensor<1x16x4x6x6xbf16>) -> tensor<1x16x4x8x8xbf16>
  %1 = "ttir.conv3d"(%0, %w) <{batch_dim = 0 : i64, channel_dim = 1 : i64, depth_dim = 2 : i64, groups = 1 : i32, height_dim = 3 : i64, padding = array<i32: 0, 0, 0>, padding_mode = "zeros", stride = array<i32: 1, 1, 1>, width_dim = 4 : i64}> : (tensor<1x16x4x8x8xbf16>, tensor<16x16x3x3x3xbf16>) -> tensor<1x16x2x6x6xbf16>
  return %1 : tensor<1x16x2x6x6xbf16>
}

// -----

// An asymmetric pad cannot be a conv3d padding: both stay.
// CHECK-LABEL: func.func @asymmetric
// CHECK: "ttir.pad"
// CHECK: "ttir.conv3d"
// TRACE: ttir-fusing: pad_conv3d at "asym": not applied: the pad is not symmetric
func.func @asymmetric(%x: tensor<1x4x6x6x16xbf16>, %w: tensor<16x16x3x3x3xbf16>) -> tensor<1x2x5x4x16xbf16> {
  %0 = "ttir.pad"(%x) <{padding = array<i32: 0, 0, 0, 0, 1, 0, 0, 0, 0, 0>, value = 0.000000e+00 : f32}> : (tensor<1x4x6x6x16xbf16>) -> tensor<1x4x7x6x16xbf16>
  %1 = "ttir.conv3d"(%0, %w) <{groups = 1 : i32, padding = array<i32: 0, 0, 0>, padding_mode = "zeros", stride = array<i32: 1, 1, 1>}> : (tensor<1x4x7x6x16xbf16>, tensor<16x16x3x3x3xbf16>) -> tensor<1x2x5x4x16xbf16> loc("asym")
  return %1 : tensor<1x2x5x4x16xbf16>
}
