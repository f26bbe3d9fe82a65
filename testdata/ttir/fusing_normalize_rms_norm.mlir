// RUN: ttopt opt %s --split-input-file --ttir-fusing | FileCheck %s
// RUN: ttopt opt %s --split-input-file --ttir-fusing --trace 2>&1 >/dev/null | FileCheck %s --check-prefix=TRACE

// torch's F.normalize over the channels, times sqrt(C) and a per-channel gamma: an RMS norm over
// dimension 1 (tt-mlir's NormalizeRMSNormFusionPattern), permuted last and back, gamma as its weight,
// the clamp floor 1e-12 as epsilon 1e-24 / 64 (the trace names the gamma multiply, the op replaced).
// CHECK-LABEL: func.func @channels
// CHECK: %[[P:.*]] = "ttir.permute"(%arg0) <{permutation = array<i64: 0, 2, 1>}> : (tensor<1x64x32xbf16>) -> tensor<1x32x64xbf16>
// CHECK-NEXT: %[[N:.*]] = "ttir.rms_norm"(%[[P]], %arg1) <{epsilon = 1.562500e-26 : f32, normalized_shape = array<i64: 64>, operandSegmentSizes = array<i32: 1, 1, 0>}>
// CHECK-NEXT: %[[R:.*]] = "ttir.permute"(%[[N]]) <{permutation = array<i64: 0, 2, 1>}> : (tensor<1x32x64xbf16>) -> tensor<1x64x32xbf16>
// CHECK-NEXT: return %[[R]]
// TRACE: ttir-fusing: normalize_rms_norm at "norm": applied: ttir.rms_norm {{.*}} (over dimension 1, gamma as its weight)
func.func @channels(%x: tensor<1x64x32xbf16>, %g: tensor<64xbf16>) -> tensor<1x64x32xbf16> {
  %two = "ttir.full"() <{shape = array<i32: 1, 64, 32>, fill_value = 2.0 : f32}> : () -> tensor<1x64x32xbf16>
  %sq = "ttir.pow"(%x, %two) : (tensor<1x64x32xbf16>, tensor<1x64x32xbf16>) -> tensor<1x64x32xbf16>
  %sum = "ttir.sum"(%sq) <{dim_arg = [1 : i32], keep_dim = true}> : (tensor<1x64x32xbf16>) -> tensor<1x1x32xbf16>
  %sqrt = "ttir.sqrt"(%sum) : (tensor<1x1x32xbf16>) -> tensor<1x1x32xbf16>
  %min = "ttir.full"() <{shape = array<i32: 1, 1, 32>, fill_value = 1.000000e-12 : f32}> : () -> tensor<1x1x32xbf16>
  %max = "ttir.full"() <{shape = array<i32: 1, 1, 32>, fill_value = 3.40282347E+38 : f32}> : () -> tensor<1x1x32xbf16>
  %clamp = "ttir.clamp_tensor"(%sqrt, %min, %max) : (tensor<1x1x32xbf16>, tensor<1x1x32xbf16>, tensor<1x1x32xbf16>) -> tensor<1x1x32xbf16>
  %bcast = "ttir.broadcast"(%clamp) <{broadcast_dimensions = array<i64: 1, 64, 1>}> : (tensor<1x1x32xbf16>) -> tensor<1x64x32xbf16>
  %div = "ttir.div"(%x, %bcast) : (tensor<1x64x32xbf16>, tensor<1x64x32xbf16>) -> tensor<1x64x32xbf16>
  %scale = "ttir.full"() <{shape = array<i32: 1, 64, 32>, fill_value = 8.0 : f32}> : () -> tensor<1x64x32xbf16>
  %scaled = "ttir.multiply"(%div, %scale) : (tensor<1x64x32xbf16>, tensor<1x64x32xbf16>) -> tensor<1x64x32xbf16>
  %gr = "ttir.reshape"(%g) <{shape = [1 : i32, 64 : i32, 1 : i32]}> : (tensor<64xbf16>) -> tensor<1x64x1xbf16>
  %gb = "ttir.broadcast"(%gr) <{broadcast_dimensions = array<i64: 1, 1, 32>}> : (tensor<1x64x1xbf16>) -> tensor<1x64x32xbf16>
  %out = "ttir.multiply"(%scaled, %gb) : (tensor<1x64x32xbf16>, tensor<1x64x32xbf16>) -> tensor<1x64x32xbf16> loc("norm")
  return %out : tensor<1x64x32xbf16>
}

// -----

// A plain L2 normalization (no sqrt(D) scale) is not an RMS norm.
// CHECK-LABEL: func.func @l2
// CHECK-NOT: ttir.rms_norm
// TRACE: ttir-fusing: normalize_rms_norm at "l2": not applied: the scale is not sqrt(32) (an L2 normalization, not an RMS norm)
func.func @l2(%x: tensor<1x64x32xbf16>) -> tensor<1x64x32xbf16> {
  %sq = "ttir.multiply"(%x, %x) : (tensor<1x64x32xbf16>, tensor<1x64x32xbf16>) -> tensor<1x64x32xbf16>
  %sum = "ttir.sum"(%sq) <{dim_arg = [2 : i32], keep_dim = true}> : (tensor<1x64x32xbf16>) -> tensor<1x64x1xbf16>
  %sqrt = "ttir.sqrt"(%sum) : (tensor<1x64x1xbf16>) -> tensor<1x64x1xbf16>
  %bcast = "ttir.broadcast"(%sqrt) <{broadcast_dimensions = array<i64: 1, 1, 32>}> : (tensor<1x64x1xbf16>) -> tensor<1x64x32xbf16>
  %div = "ttir.div"(%x, %bcast) : (tensor<1x64x32xbf16>, tensor<1x64x32xbf16>) -> tensor<1x64x32xbf16>
  %one = "ttir.full"() <{shape = array<i32: 1, 64, 32>, fill_value = 1.0 : f32}> : () -> tensor<1x64x32xbf16>
  %out = "ttir.multiply"(%div, %one) : (tensor<1x64x32xbf16>, tensor<1x64x32xbf16>) -> tensor<1x64x32xbf16> loc("l2")
  return %out : tensor<1x64x32xbf16>
}
