module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x8x16xf32>, %arg1: tensor<4x8xi1>) -> (tensor<4x16xf32> {jax.result_info = "result[0]"}, tensor<8xf32> {jax.result_info = "result[1]"}, tensor<f32> {jax.result_info = "result[2]"}, tensor<8x16xf32> {jax.result_info = "result[3]"}, tensor<4xi1> {jax.result_info = "result[4]"}, tensor<i1> {jax.result_info = "result[5]"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<4x8x16xf32>, tensor<f32>) -> tensor<4x16xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1 = stablehlo.reduce(%arg0 init: %cst_0) applies stablehlo.maximum across dimensions = [0, 2] : (tensor<4x8x16xf32>, tensor<f32>) -> tensor<8xf32>
    %cst_1 = stablehlo.constant dense<0x7F800000> : tensor<f32>
    %2 = stablehlo.reduce(%arg0 init: %cst_1) applies stablehlo.minimum across dimensions = [0, 1, 2] : (tensor<4x8x16xf32>, tensor<f32>) -> tensor<f32>
    %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %3 = stablehlo.reduce(%arg0 init: %cst_2) applies stablehlo.multiply across dimensions = [0] : (tensor<4x8x16xf32>, tensor<f32>) -> tensor<8x16xf32>
    %c = stablehlo.constant dense<false> : tensor<i1>
    %4 = stablehlo.reduce(%arg1 init: %c) applies stablehlo.or across dimensions = [1] : (tensor<4x8xi1>, tensor<i1>) -> tensor<4xi1>
    %c_3 = stablehlo.constant dense<true> : tensor<i1>
    %5 = stablehlo.reduce(%arg1 init: %c_3) applies stablehlo.and across dimensions = [0, 1] : (tensor<4x8xi1>, tensor<i1>) -> tensor<i1>
    return %0, %1, %2, %3, %4, %5 : tensor<4x16xf32>, tensor<8xf32>, tensor<f32>, tensor<8x16xf32>, tensor<4xi1>, tensor<i1>
  }
}
