module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16x8xf32>, %arg1: tensor<1x8x8x4xf32>) -> (tensor<16x8xf32> {jax.result_info = "result[0]"}, tensor<16x8xf32> {jax.result_info = "result[1]"}, tensor<1x4x4x4xf32> {jax.result_info = "result[2]"}, tensor<1x8x8x4xf32> {jax.result_info = "result[3]"}) {
    %0 = call @cumsum(%arg0) : (tensor<16x8xf32>) -> tensor<16x8xf32>
    %1 = call @cummax(%arg0) : (tensor<16x8xf32>) -> tensor<16x8xf32>
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<f32>
    %3 = "stablehlo.reduce_window"(%arg1, %2) <{base_dilations = array<i64: 1, 1, 1, 1>, padding = dense<[[0, 0], [0, 1], [0, 1], [0, 0]]> : tensor<4x2xi64>, window_dilations = array<i64: 1, 1, 1, 1>, window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %6 = stablehlo.maximum %arg2, %arg3 : tensor<f32>
      stablehlo.return %6 : tensor<f32>
    }) : (tensor<1x8x8x4xf32>, tensor<f32>) -> tensor<1x4x4x4xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<f32>
    %5 = "stablehlo.reduce_window"(%arg1, %4) <{base_dilations = array<i64: 1, 1, 1, 1>, padding = dense<[[0, 0], [1, 0], [0, 1], [0, 0]]> : tensor<4x2xi64>, window_dilations = array<i64: 1, 1, 1, 1>, window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 1, 1, 1>}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %6 = stablehlo.add %arg2, %arg3 : tensor<f32>
      stablehlo.return %6 : tensor<f32>
    }) : (tensor<1x8x8x4xf32>, tensor<f32>) -> tensor<1x8x8x4xf32>
    return %0, %1, %3, %5 : tensor<16x8xf32>, tensor<16x8xf32>, tensor<1x4x4x4xf32>, tensor<1x8x8x4xf32>
  }
  func.func private @cumsum(%arg0: tensor<16x8xf32>) -> tensor<16x8xf32> {
    %0 = call @cumsum_0(%arg0) : (tensor<16x8xf32>) -> tensor<16x8xf32>
    return %0 : tensor<16x8xf32>
  }
  func.func private @cumsum_0(%arg0: tensor<16x8xf32>) -> tensor<16x8xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<f32>
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{base_dilations = array<i64: 1, 1>, padding = dense<[[15, 0], [0, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 16, 1>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %2 = stablehlo.add %arg1, %arg2 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<16x8xf32>, tensor<f32>) -> tensor<16x8xf32>
    return %1 : tensor<16x8xf32>
  }
  func.func private @cummax(%arg0: tensor<16x8xf32>) -> tensor<16x8xf32> {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<f32>
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{base_dilations = array<i64: 1, 1>, padding = dense<[[0, 0], [7, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 1, 8>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %2 = stablehlo.maximum %arg1, %arg2 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<16x8xf32>, tensor<f32>) -> tensor<16x8xf32>
    return %1 : tensor<16x8xf32>
  }
}
