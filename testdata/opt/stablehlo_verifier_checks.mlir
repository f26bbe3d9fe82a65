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

// INT64_MIN is an unknown window size to reduce_window's shape inference, not an unknown stride or
// dilation: MLIR (jaxlib) rejects it in those three.
func.func @window_stride_int64_min(%a: tensor<1x4x4x1xf32>, %z: tensor<f32>) -> tensor<1x2x2x1xf32> {
  // expected-error@below {{expects window to have positive stride for 2-th window dimension, but got -9223372036854775808.}}
  %0 = "stablehlo.reduce_window"(%a, %z) <{window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, -9223372036854775808, 1>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<1x4x4x1xf32>, tensor<f32>) -> tensor<1x2x2x1xf32>
  return %0 : tensor<1x2x2x1xf32>
}

// -----

func.func @base_dilation_int64_min(%a: tensor<1x4x4x1xf32>, %z: tensor<f32>) -> tensor<1x2x2x1xf32> {
  // expected-error@below {{expects window to have positive base dilation factor for 2-th window dimension, but got -9223372036854775808.}}
  %0 = "stablehlo.reduce_window"(%a, %z) <{window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>, base_dilations = array<i64: 1, 1, -9223372036854775808, 1>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<1x4x4x1xf32>, tensor<f32>) -> tensor<1x2x2x1xf32>
  return %0 : tensor<1x2x2x1xf32>
}

// -----

func.func @window_dilation_int64_min(%a: tensor<1x4x4x1xf32>, %z: tensor<f32>) -> tensor<1x2x2x1xf32> {
  // expected-error@below {{expects window to have positive window dilation factor for 2-th window dimension, but got -9223372036854775808.}}
  %0 = "stablehlo.reduce_window"(%a, %z) <{window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>, window_dilations = array<i64: 1, 1, -9223372036854775808, 1>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<1x4x4x1xf32>, tensor<f32>) -> tensor<1x2x2x1xf32>
  return %0 : tensor<1x2x2x1xf32>
}

// -----

func.func @window_size_int64_min_is_unknown(%a: tensor<1x4x4x1xf32>, %z: tensor<f32>) -> tensor<1x2x2x1xf32> {
  %0 = "stablehlo.reduce_window"(%a, %z) <{window_dimensions = array<i64: 1, 2, -9223372036854775808, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<1x4x4x1xf32>, tensor<f32>) -> tensor<1x2x2x1xf32>
  return %0 : tensor<1x2x2x1xf32>
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

// -----

// An i64 literal up to 2^64 - 1 holds its two's-complement bits: 18446744073709551615 is -1, the
// padding id of an uneven replica group (MLIR reads it so; no diagnostic).
func.func @replica_id_as_unsigned_bits(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.all_reduce"(%a) <{replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 18446744073709551615]]> : tensor<2x4xi64>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @conv_batch_groups(%x: tensor<2x8x8x4xf32>, %w: tensor<3x3x4x4xf32>) -> tensor<2x6x6x4xf32> {
  // expected-error@below {{expects input batch dimension (2) to be divisible by batch_group_count. Got batch_group_count = 3.}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1]} {batch_group_count = 3 : i64, feature_group_count = 1 : i64} : (tensor<2x8x8x4xf32>, tensor<3x3x4x4xf32>) -> tensor<2x6x6x4xf32>
  return %0 : tensor<2x6x6x4xf32>
}

// -----

func.func @conv_feature_groups(%x: tensor<2x8x8x4xf32>, %w: tensor<3x3x4x4xf32>) -> tensor<2x6x6x4xf32> {
  // expected-error@below {{expects input feature dimension (4) to be a multiple of feature_group_count. Got feature_group_count = 3.}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 3 : i64} : (tensor<2x8x8x4xf32>, tensor<3x3x4x4xf32>) -> tensor<2x6x6x4xf32>
  return %0 : tensor<2x6x6x4xf32>
}

// -----

// INT64_MIN is an unknown size to reduce_window's shape inference, but select_and_scatter's
// strides must be positive, that one included.
func.func @select_and_scatter_stride(%x: tensor<6x6x3xf32>, %g: tensor<3x3x3xf32>) -> tensor<6x6x3xf32> {
  %c = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  // expected-error@below {{expects window to have positive stride for 1-th window dimension, but got -9223372036854775808.}}
  %0 = "stablehlo.select_and_scatter"(%x, %g, %c) <{window_dimensions = array<i64: 2, 2, 1>, window_strides = array<i64: 2, -9223372036854775808, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<6x6x3xf32>, tensor<3x3x3xf32>, tensor<f32>) -> tensor<6x6x3xf32>
  return %0 : tensor<6x6x3xf32>
}

// -----

func.func private @dec(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
func.func @composite_name(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@below {{name must be a valid namespaced op name}}
  %0 = stablehlo.composite "no.operand\0Cs" %a {decomposition = @dec} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// INT64_MIN as padding is a number to reduce_window's shape inference (as a window size or stride
// it stands for an unknown one): this window covers nothing of dimension 0.
func.func @reduce_window_min_padding(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %c = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  // expected-error@below {{inferred type(s) 'tensor<0x4xf32>' are incompatible with return type(s) of operation 'tensor<2x4xf32>'}}
  %0 = "stablehlo.reduce_window"(%x, %c) <{padding = dense<[[-9223372036854775808, 0], [0, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) : (tensor<2x4xf32>, tensor<f32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}
