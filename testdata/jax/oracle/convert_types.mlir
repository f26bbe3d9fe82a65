module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x4xf32>, %arg1: tensor<4x4xi32>, %arg2: tensor<4x4xf16>) -> (tensor<4x4xbf16> {jax.result_info = "result[0]"}, tensor<4x4xi32> {jax.result_info = "result[1]"}, tensor<4x4xf32> {jax.result_info = "result[2]"}, tensor<4x4xi1> {jax.result_info = "result[3]"}, tensor<4x4xf32> {jax.result_info = "result[4]"}, tensor<4x4xf16> {jax.result_info = "result[5]"}, tensor<4x4xui8> {jax.result_info = "result[6]"}, tensor<4x4xi8> {jax.result_info = "result[7]"}, tensor<4x4xi32> {jax.result_info = "result[8]"}, tensor<4x4xf32> {jax.result_info = "result[9]"}) {
    %0 = stablehlo.convert %arg0 : (tensor<4x4xf32>) -> tensor<4x4xbf16>
    %1 = stablehlo.convert %arg0 : (tensor<4x4xf32>) -> tensor<4x4xi32>
    %2 = stablehlo.convert %arg1 : (tensor<4x4xi32>) -> tensor<4x4xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %3 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<4x4xi32>
    %4 = stablehlo.compare NE, %arg1, %3, SIGNED : (tensor<4x4xi32>, tensor<4x4xi32>) -> tensor<4x4xi1>
    %5 = stablehlo.convert %4 : tensor<4x4xi1>
    %6 = stablehlo.convert %arg2 : (tensor<4x4xf16>) -> tensor<4x4xf32>
    %7 = stablehlo.convert %arg0 : (tensor<4x4xf32>) -> tensor<4x4xf16>
    %8 = stablehlo.convert %arg1 : (tensor<4x4xi32>) -> tensor<4x4xui8>
    %9 = stablehlo.convert %arg1 : (tensor<4x4xi32>) -> tensor<4x4xi8>
    %10 = stablehlo.bitcast_convert %arg0 : (tensor<4x4xf32>) -> tensor<4x4xi32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
    %12 = stablehlo.compare GT, %arg0, %11, FLOAT : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xi1>
    %13 = stablehlo.convert %12 : (tensor<4x4xi1>) -> tensor<4x4xf32>
    return %0, %1, %2, %5, %6, %7, %8, %9, %10, %13 : tensor<4x4xbf16>, tensor<4x4xi32>, tensor<4x4xf32>, tensor<4x4xi1>, tensor<4x4xf32>, tensor<4x4xf16>, tensor<4x4xui8>, tensor<4x4xi8>, tensor<4x4xi32>, tensor<4x4xf32>
  }
}
