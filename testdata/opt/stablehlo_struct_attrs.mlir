// RUN: ttopt opt %s --split-input-file --verify-diagnostics | FileCheck %s
// StableHLO's struct attributes read as StableHLO reads them (each case cross-checked with jaxlib):
// ODS structs (channel_handle) take every key once and no trailing comma; parseStruct ones
// (gather, scatter, dot, output_operand_alias, type_extensions) take a trailing comma.
func.func @channel_two_ints(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+5 {{expected ','}}
  %0 = "stablehlo.all_reduce"(%a) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {channel_handle = #stablehlo.channel_handle<handle = 1 1, type = 1>, replica_groups = dense<[[0]]> : tensor<1x1xi64>} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @channel_trailing_comma(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+5 {{expected '>'}}
  %0 = "stablehlo.all_reduce"(%a) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 1,>, replica_groups = dense<[[0]]> : tensor<1x1xi64>} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @channel_missing_type(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+5 {{expected ','}}
  %0 = "stablehlo.all_reduce"(%a) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {channel_handle = #stablehlo.channel_handle<handle = 1>, replica_groups = dense<[[0]]> : tensor<1x1xi64>} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @channel_unknown_key(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+5 {{duplicate or unknown struct parameter name: hndl}}
  %0 = "stablehlo.all_reduce"(%a) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {channel_handle = #stablehlo.channel_handle<hndl = 1, type = 1>, replica_groups = dense<[[0]]> : tensor<1x1xi64>} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @channel_too_large(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+5 {{integer value too large}}
  %0 = "stablehlo.all_reduce"(%a) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {channel_handle = #stablehlo.channel_handle<handle = 99999999999999999999, type = 1>, replica_groups = dense<[[0]]> : tensor<1x1xi64>} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @gather_missing_comma(%x: tensor<8x7x3xf32>, %i: tensor<2xi32>) -> tensor<3xf32> {
  // expected-error@+1 {{expected '>'}}
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [0] collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 0>, slice_sizes = array<i64: 1, 1, 3>}> : (tensor<8x7x3xf32>, tensor<2xi32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @gather_twice(%x: tensor<8x7x3xf32>, %i: tensor<2xi32>) -> tensor<3xf32> {
  // expected-error@+1 {{duplicated `offset_dims` entry}}
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [0], offset_dims = [0], collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 0>, slice_sizes = array<i64: 1, 1, 3>}> : (tensor<8x7x3xf32>, tensor<2xi32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @gather_trailing_comma_in_list(%x: tensor<8x7x3xf32>, %i: tensor<2xi32>) -> tensor<3xf32> {
  // expected-error@+1 {{expected integer value}}
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [0], collapsed_slice_dims = [0, 1,], start_index_map = [0, 1], index_vector_dim = 0>, slice_sizes = array<i64: 1, 1, 3>}> : (tensor<8x7x3xf32>, tensor<2xi32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// A dialect attribute keeps its spelling (MLIR reads this one back as it reads the input).
// CHECK-LABEL: func.func @gather_trailing_comma
// CHECK: #stablehlo.gather<offset_dims = [0], collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 0,>
func.func @gather_trailing_comma(%x: tensor<8x7x3xf32>, %i: tensor<2xi32>) -> tensor<3xf32> {
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [0], collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 0,>, slice_sizes = array<i64: 1, 1, 3>}> : (tensor<8x7x3xf32>, tensor<2xi32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
