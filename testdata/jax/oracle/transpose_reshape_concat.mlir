module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x6x8xf32>, %arg1: tensor<8x3xf32>) -> (tensor<2x8x27xf32> {jax.result_info = "result[0]"}, tensor<1x4x6x8xf32> {jax.result_info = "result[1]"}, tensor<4x6x8xf32> {jax.result_info = "result[2]"}, tensor<5x8x8xf32> {jax.result_info = "result[3]"}) {
    %0 = stablehlo.transpose %arg0, dims = [2, 0, 1] : (tensor<4x6x8xf32>) -> tensor<8x4x6xf32>
    %1 = stablehlo.reshape %0 : (tensor<8x4x6xf32>) -> tensor<8x24xf32>
    %2 = stablehlo.concatenate %1, %arg1, dim = 1 : (tensor<8x24xf32>, tensor<8x3xf32>) -> tensor<8x27xf32>
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x27xf32>
    %4 = stablehlo.multiply %2, %3 : tensor<8x27xf32>
    %5 = stablehlo.broadcast_in_dim %2, dims = [1, 2] : (tensor<8x27xf32>) -> tensor<1x8x27xf32>
    %6 = stablehlo.broadcast_in_dim %4, dims = [1, 2] : (tensor<8x27xf32>) -> tensor<1x8x27xf32>
    %7 = stablehlo.concatenate %5, %6, dim = 0 : (tensor<1x8x27xf32>, tensor<1x8x27xf32>) -> tensor<2x8x27xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0, 2, 3] : (tensor<2x8x27xf32>) -> tensor<2x1x8x27xf32>
    %9 = stablehlo.reshape %8 : (tensor<2x1x8x27xf32>) -> tensor<2x8x27xf32>
    %10 = stablehlo.broadcast_in_dim %arg0, dims = [1, 2, 3] : (tensor<4x6x8xf32>) -> tensor<1x4x6x8xf32>
    %11 = call @_flip(%arg0) : (tensor<4x6x8xf32>) -> tensor<4x6x8xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %12 = call @_pad(%arg0, %c) : (tensor<4x6x8xf32>, tensor<i32>) -> tensor<5x8x8xf32>
    return %9, %10, %11, %12 : tensor<2x8x27xf32>, tensor<1x4x6x8xf32>, tensor<4x6x8xf32>, tensor<5x8x8xf32>
  }
  func.func private @_flip(%arg0: tensor<4x6x8xf32>) -> tensor<4x6x8xf32> {
    %0 = stablehlo.reverse %arg0, dims = [2] : tensor<4x6x8xf32>
    return %0 : tensor<4x6x8xf32>
  }
  func.func private @_pad(%arg0: tensor<4x6x8xf32>, %arg1: tensor<i32>) -> tensor<5x8x8xf32> {
    %0 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<f32>
    %1 = stablehlo.pad %arg0, %0, low = [1, 0, 0], high = [0, 2, 0], interior = [0, 0, 0] : (tensor<4x6x8xf32>, tensor<f32>) -> tensor<5x8x8xf32>
    return %1 : tensor<5x8x8xf32>
  }
}
