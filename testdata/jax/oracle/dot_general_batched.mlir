module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x4x8x16xf32>, %arg1: tensor<2x4x8x16xf32>, %arg2: tensor<3x4x5xbf16>, %arg3: tensor<3x5x6xbf16>) -> (tensor<2x4x8x8xf32> {jax.result_info = "result[0]"}, tensor<3x4x6xf32> {jax.result_info = "result[1]"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [3], precision = [HIGHEST, HIGHEST] : (tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>) -> tensor<2x4x8x8xf32>
    %1 = stablehlo.dot_general %arg2, %arg3, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<3x4x5xbf16>, tensor<3x5x6xbf16>) -> tensor<3x4x6xf32>
    return %0, %1 : tensor<2x4x8x8xf32>, tensor<3x4x6xf32>
  }
}
