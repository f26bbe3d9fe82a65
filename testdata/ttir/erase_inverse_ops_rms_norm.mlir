// RUN: ttopt opt %s --ttir-erase-inverse-ops="enable-commute-downwards=false" | FileCheck %s --check-prefix=UP
// RUN: ttopt opt %s --ttir-erase-inverse-ops="enable-commute-upwards=false" | FileCheck %s --check-prefix=DOWN

// Reshapes upwards through ttir.rms_norm and ttir.distributed_rms_norm, which normalize along the
// trailing dimensions: a reshape keeping them moves above the norm; nothing moves downwards.

// UP-LABEL: func.func @rms_norm_between_inverse_reshapes
// UP-NEXT: %[[N:.*]] = "ttir.rms_norm"(%arg0, %arg1) <{epsilon = 9.99999974E-6 : f32, normalized_shape = array<i64: 64>, operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<8x64xf32>, tensor<64xf32>) -> tensor<8x64xf32>
// UP-NEXT: return %[[N]]
// DOWN-LABEL: func.func @rms_norm_between_inverse_reshapes
// DOWN-NEXT: "ttir.reshape"(%arg0)
// DOWN-NEXT: "ttir.rms_norm"
// DOWN-NEXT: "ttir.reshape"
func.func @rms_norm_between_inverse_reshapes(%arg0: tensor<8x64xf32>, %arg1: tensor<64xf32>) -> tensor<8x64xf32> {
  %0 = "ttir.reshape"(%arg0) <{shape = [8 : i32, 1 : i32, 64 : i32]}> : (tensor<8x64xf32>) -> tensor<8x1x64xf32>
  %1 = "ttir.rms_norm"(%0, %arg1) <{epsilon = 1.000000e-05 : f32, normalized_shape = array<i64: 64>, operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<8x1x64xf32>, tensor<64xf32>) -> tensor<8x1x64xf32>
  %2 = "ttir.reshape"(%1) <{shape = [8 : i32, 64 : i32]}> : (tensor<8x1x64xf32>) -> tensor<8x64xf32>
  return %2 : tensor<8x64xf32>
}

// The weight and bias, of the normalized shape, stay as they are.
// UP-LABEL: func.func @rms_norm_with_bias_regroups_outer_dims
// UP-NEXT: %[[R:.*]] = "ttir.reshape"(%arg0) <{shape = [8 : i32, 16 : i32]}> : (tensor<2x4x16xf32>) -> tensor<8x16xf32>
// UP-NEXT: "ttir.rms_norm"(%[[R]], %arg1, %arg2) {{.*}} : (tensor<8x16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<8x16xf32>
func.func @rms_norm_with_bias_regroups_outer_dims(%arg0: tensor<2x4x16xf32>, %arg1: tensor<16xf32>, %arg2: tensor<16xf32>) -> tensor<8x16xf32> {
  %0 = "ttir.rms_norm"(%arg0, %arg1, %arg2) <{epsilon = 1.000000e-05 : f32, normalized_shape = array<i64: 16>, operandSegmentSizes = array<i32: 1, 1, 1>}> : (tensor<2x4x16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<2x4x16xf32>
  %1 = "ttir.reshape"(%0) <{shape = [8 : i32, 16 : i32]}> : (tensor<2x4x16xf32>) -> tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}

// Not viable: the reshape splits the normalized dimension.
// UP-LABEL: func.func @rms_norm_last_dim_split_stays
// UP-NEXT: "ttir.rms_norm"(%arg0)
// UP-NEXT: "ttir.reshape"
func.func @rms_norm_last_dim_split_stays(%arg0: tensor<4x64xf32>) -> tensor<4x8x8xf32> {
  %0 = "ttir.rms_norm"(%arg0) <{epsilon = 1.000000e-05 : f32, normalized_shape = array<i64: 64>, operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<4x64xf32>) -> tensor<4x64xf32>
  %1 = "ttir.reshape"(%0) <{shape = [4 : i32, 8 : i32, 8 : i32]}> : (tensor<4x64xf32>) -> tensor<4x8x8xf32>
  return %1 : tensor<4x8x8xf32>
}

// Not favorable: the readers are two different reshapes.
// UP-LABEL: func.func @rms_norm_read_by_two_different_reshapes_stays
// UP-NEXT: "ttir.rms_norm"(%arg0)
// UP-NEXT: "ttir.reshape"
// UP-NEXT: "ttir.reshape"
func.func @rms_norm_read_by_two_different_reshapes_stays(%arg0: tensor<2x4x16xf32>) -> (tensor<8x16xf32>, tensor<1x8x16xf32>) {
  %0 = "ttir.rms_norm"(%arg0) <{epsilon = 1.000000e-05 : f32, normalized_shape = array<i64: 16>, operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  %1 = "ttir.reshape"(%0) <{shape = [8 : i32, 16 : i32]}> : (tensor<2x4x16xf32>) -> tensor<8x16xf32>
  %2 = "ttir.reshape"(%0) <{shape = [1 : i32, 8 : i32, 16 : i32]}> : (tensor<2x4x16xf32>) -> tensor<1x8x16xf32>
  return %1, %2 : tensor<8x16xf32>, tensor<1x8x16xf32>
}

// The residual, of the input's shape, is reshaped with it.
// UP-LABEL: func.func @distributed_rms_norm_reshapes_its_residual
// UP-NEXT: %[[X:.*]] = "ttir.reshape"(%arg0) <{shape = [8 : i32, 16 : i32]}> : (tensor<2x4x16xf32>) -> tensor<8x16xf32>
// UP-NEXT: %[[RES:.*]] = "ttir.reshape"(%arg2) <{shape = [8 : i32, 16 : i32]}> : (tensor<2x4x16xf32>) -> tensor<8x16xf32>
// UP-NEXT: "ttir.distributed_rms_norm"(%[[X]], %arg1, %[[RES]]) {{.*}} : (tensor<8x16xf32>, tensor<16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
func.func @distributed_rms_norm_reshapes_its_residual(%arg0: tensor<2x4x16xf32>, %arg1: tensor<16xf32>, %arg2: tensor<2x4x16xf32>) -> tensor<8x16xf32> {
  %0 = "ttir.distributed_rms_norm"(%arg0, %arg1, %arg2) <{cluster_axis = 0 : ui32, epsilon = 1.000000e-05 : f32, operandSegmentSizes = array<i32: 1, 1, 1>}> : (tensor<2x4x16xf32>, tensor<16xf32>, tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  %1 = "ttir.reshape"(%0) <{shape = [8 : i32, 16 : i32]}> : (tensor<2x4x16xf32>) -> tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}

// Reshapes do not move downwards through a norm (HEAD neither).
// DOWN-LABEL: func.func @reshape_above_rms_norm_stays
// DOWN-NEXT: "ttir.reshape"(%arg0)
// DOWN-NEXT: "ttir.rms_norm"
func.func @reshape_above_rms_norm_stays(%arg0: tensor<8x64xf32>) -> tensor<8x1x64xf32> {
  %0 = "ttir.reshape"(%arg0) <{shape = [8 : i32, 1 : i32, 64 : i32]}> : (tensor<8x64xf32>) -> tensor<8x1x64xf32>
  %1 = "ttir.rms_norm"(%0) <{epsilon = 1.000000e-05 : f32, normalized_shape = array<i64: 64>, operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<8x1x64xf32>) -> tensor<8x1x64xf32>
  return %1 : tensor<8x1x64xf32>
}
