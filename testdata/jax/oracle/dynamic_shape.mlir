module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<?x8xf32>, %arg2: tensor<8x4xf32>) -> (tensor<4xf32> {jax.result_info = "result[0]"}, tensor<i32> {jax.result_info = "result[1]"}) {
    %0 = stablehlo.dot_general %arg1, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x8xf32>, tensor<8x4xf32>) -> tensor<?x4xf32>
    %1 = stablehlo.tanh %0 : tensor<?x4xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.reduce(%1 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<?x4xf32>, tensor<f32>) -> tensor<4xf32>
    %3 = stablehlo.convert %arg0 : tensor<i32>
    %c = stablehlo.constant dense<1> : tensor<i32>
    %4 = stablehlo.multiply %3, %c : tensor<i32>
    return %2, %4 : tensor<4xf32>, tensor<i32>
  }
}
