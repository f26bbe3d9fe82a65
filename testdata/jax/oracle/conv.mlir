module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x16x16x4xf32>, %arg1: tensor<3x3x4x8xf32>, %arg2: tensor<8x4x3x3xf32>) -> (tensor<2x8x8x8xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[1, 2], [0, 1]], lhs_dilate = [1, 1], rhs_dilate = [2, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x16x16x4xf32>, tensor<3x3x4x8xf32>) -> tensor<2x8x8x8xf32>
    %1 = stablehlo.transpose %0, dims = [0, 3, 1, 2] : (tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
    %2 = stablehlo.convolution(%1, %arg2) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x8x8x8xf32>, tensor<8x4x3x3xf32>) -> tensor<2x8x8x8xf32>
    return %2 : tensor<2x8x8x8xf32>
  }
}
