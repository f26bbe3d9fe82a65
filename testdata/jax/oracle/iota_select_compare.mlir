module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x8xf32>, %arg1: tensor<8x8xf32>) -> (tensor<8x8xf32> {jax.result_info = "result[0]"}, tensor<8x8xf32> {jax.result_info = "result[1]"}, tensor<8x8xf32> {jax.result_info = "result[2]"}, tensor<8xi1> {jax.result_info = "result[3]"}) {
    %0 = stablehlo.iota dim = 0 : tensor<8x8xi32>
    %1 = stablehlo.iota dim = 1 : tensor<8x8xi32>
    %2 = stablehlo.compare GE, %0, %1, SIGNED : (tensor<8x8xi32>, tensor<8x8xi32>) -> tensor<8x8xi1>
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %3 = call @_where(%2, %arg0, %cst) : (tensor<8x8xi1>, tensor<8x8xf32>, tensor<f32>) -> tensor<8x8xf32>
    %4 = stablehlo.compare GT, %arg0, %arg1, FLOAT : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xi1>
    %5 = call @_where_0(%4, %arg0, %arg1) : (tensor<8x8xi1>, tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    %6 = stablehlo.compare NE, %arg0, %arg0, FLOAT : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xi1>
    %7 = stablehlo.compare NE, %arg0, %arg1, FLOAT : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xi1>
    %8 = stablehlo.or %6, %7 : tensor<8x8xi1>
    %cst_0 = stablehlo.constant dense<-1.000000e+00> : tensor<f32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %9 = call @clip(%arg0, %cst_0, %cst_1) : (tensor<8x8xf32>, tensor<f32>, tensor<f32>) -> tensor<8x8xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %10 = call @_where_1(%8, %cst_2, %9) : (tensor<8x8xi1>, tensor<f32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    %11 = stablehlo.iota dim = 0 : tensor<8xui32>
    %c = stablehlo.constant dense<3> : tensor<ui32>
    %12 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<ui32>) -> tensor<8xui32>
    %13 = stablehlo.compare LT, %11, %12, UNSIGNED : (tensor<8xui32>, tensor<8xui32>) -> tensor<8xi1>
    return %3, %5, %10, %13 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8xi1>
  }
  func.func private @_where(%arg0: tensor<8x8xi1>, %arg1: tensor<8x8xf32>, %arg2: tensor<f32>) -> tensor<8x8xf32> {
    %0 = stablehlo.convert %arg2 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %2 = stablehlo.select %arg0, %arg1, %1 : tensor<8x8xi1>, tensor<8x8xf32>
    return %2 : tensor<8x8xf32>
  }
  func.func private @_where_0(%arg0: tensor<8x8xi1>, %arg1: tensor<8x8xf32>, %arg2: tensor<8x8xf32>) -> tensor<8x8xf32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<8x8xi1>, tensor<8x8xf32>
    return %0 : tensor<8x8xf32>
  }
  func.func private @clip(%arg0: tensor<8x8xf32>, %arg1: tensor<f32>, %arg2: tensor<f32>) -> tensor<8x8xf32> {
    %0 = stablehlo.convert %arg1 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %2 = stablehlo.maximum %1, %arg0 : tensor<8x8xf32>
    %3 = stablehlo.convert %arg2 : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %5 = stablehlo.minimum %4, %2 : tensor<8x8xf32>
    return %5 : tensor<8x8xf32>
  }
  func.func private @_where_1(%arg0: tensor<8x8xi1>, %arg1: tensor<f32>, %arg2: tensor<8x8xf32>) -> tensor<8x8xf32> {
    %0 = stablehlo.convert %arg1 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %2 = stablehlo.select %arg0, %1, %arg2 : tensor<8x8xi1>, tensor<8x8xf32>
    return %2 : tensor<8x8xf32>
  }
}
