// RUN: ttopt opt %s --split-input-file --verify-diagnostics
// StableHLO's own verifier checks that MLIR runs when it reads a module: replica groups,
// window attributes and the reduce_window result type they imply, custom_call's api_version.

func.func @replica_id_missing(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@below {{replica id #2 not seen in replica groups}}
  %0 = "stablehlo.all_reduce"(%a) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {replica_groups = dense<[[0, 1, 3]]> : tensor<1x3xi64>} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @replica_id_twice(%a: tensor<4xf32>) -> tensor<8xf32> {
  // expected-error@below {{replica id #1 seen more than once}}
  %0 = "stablehlo.all_gather"(%a) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>} : (tensor<4xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @padded_group_needs_equal_sizes(%a: tensor<4xf32>) -> tensor<8xf32> {
  // expected-error@below {{Invalid replica id -1}}
  %0 = "stablehlo.all_gather"(%a) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1], [2, -1]]> : tensor<2x2xi64>} : (tensor<4xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @window_dilation(%a: tensor<8xf32>, %z: tensor<f32>) -> tensor<4xf32> {
  // expected-error@below {{expects window to have positive base dilation factor for 0-th window dimension, but got 0.}}
  %0 = "stablehlo.reduce_window"(%a, %z) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %m = stablehlo.maximum %x, %y : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) {window_dimensions = array<i64: 2>, window_strides = array<i64: 2>, base_dilations = array<i64: 0>} : (tensor<8xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @window_result_shape(%a: tensor<8xf32>, %z: tensor<f32>) -> tensor<5xf32> {
  // expected-error@below {{inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<5xf32>'}}
  %0 = "stablehlo.reduce_window"(%a, %z) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %m = stablehlo.maximum %x, %y : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) {window_dimensions = array<i64: 2>, window_strides = array<i64: 2>} : (tensor<8xf32>, tensor<f32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

func.func @api_version(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@below {{attribute 'api_version' failed to satisfy constraint: Custom call API version}}
  %0 = stablehlo.custom_call @foo(%a) {api_version = 7 : i32} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
