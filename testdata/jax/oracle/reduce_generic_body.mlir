module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x16xf32>) -> (tensor<8xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) across dimensions = [1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
     reducer(%arg1: tensor<f32>, %arg2: tensor<f32>)  {
      %1 = stablehlo.maximum %arg1, %arg2 : tensor<f32>
      %2 = stablehlo.minimum %arg1, %arg2 : tensor<f32>
      %cst_0 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
      %3 = stablehlo.multiply %2, %cst_0 : tensor<f32>
      %4 = stablehlo.add %1, %3 : tensor<f32>
      stablehlo.return %4 : tensor<f32>
    }
    return %0 : tensor<8xf32>
  }
}
