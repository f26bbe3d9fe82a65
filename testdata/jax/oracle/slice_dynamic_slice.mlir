module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16x8xf32>, %arg1: tensor<i32>, %arg2: tensor<2x3xf32>) -> (tensor<4x4xf32> {jax.result_info = "result[0]"}, tensor<4x8xf32> {jax.result_info = "result[1]"}, tensor<16x8xf32> {jax.result_info = "result[2]"}, tensor<8xf32> {jax.result_info = "result[3]"}) {
    %0 = stablehlo.slice %arg0 [1:5, 0:8:2] : (tensor<16x8xf32>) -> tensor<4x4xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.compare LT, %arg1, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_0 = stablehlo.constant dense<16> : tensor<i32>
    %2 = stablehlo.add %arg1, %c_0 : tensor<i32>
    %3 = stablehlo.select %1, %2, %arg1 : tensor<i1>, tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %4 = stablehlo.dynamic_slice %arg0, %3, %c_1, sizes = [4, 8] : (tensor<16x8xf32>, tensor<i32>, tensor<i32>) -> tensor<4x8xf32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %5 = stablehlo.compare LT, %arg1, %c_2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_3 = stablehlo.constant dense<8> : tensor<i32>
    %6 = stablehlo.add %arg1, %c_3 : tensor<i32>
    %7 = stablehlo.select %5, %6, %arg1 : tensor<i1>, tensor<i32>
    %c_4 = stablehlo.constant dense<2> : tensor<i32>
    %8 = stablehlo.dynamic_update_slice %arg0, %arg2, %c_4, %7 : (tensor<16x8xf32>, tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<16x8xf32>
    %9 = stablehlo.slice %arg0 [15:16, 0:8] : (tensor<16x8xf32>) -> tensor<1x8xf32>
    %10 = stablehlo.reshape %9 : (tensor<1x8xf32>) -> tensor<8xf32>
    return %0, %4, %8, %10 : tensor<4x4xf32>, tensor<4x8xf32>, tensor<16x8xf32>, tensor<8xf32>
  }
}
