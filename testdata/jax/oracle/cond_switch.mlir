module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<i1>, %arg1: tensor<i32>, %arg2: tensor<8xf32>) -> (tensor<8xf32> {jax.result_info = "result[0]"}, tensor<8xf32> {jax.result_info = "result[1]"}) {
    %0 = stablehlo.convert %arg0 : (tensor<i1>) -> tensor<i32>
    %1 = "stablehlo.case"(%0) ({
      %4 = stablehlo.cosine %arg2 : tensor<8xf32>
      stablehlo.return %4 : tensor<8xf32>
    }, {
      %4 = stablehlo.sine %arg2 : tensor<8xf32>
      stablehlo.return %4 : tensor<8xf32>
    }) : (tensor<i32>) -> tensor<8xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<2> : tensor<i32>
    %2 = stablehlo.clamp %c, %arg1, %c_0 : tensor<i32>
    %3 = "stablehlo.case"(%2) ({
      %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8xf32>
      %5 = stablehlo.add %arg2, %4 : tensor<8xf32>
      stablehlo.return %5 : tensor<8xf32>
    }, {
      %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
      %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8xf32>
      %5 = stablehlo.multiply %arg2, %4 : tensor<8xf32>
      stablehlo.return %5 : tensor<8xf32>
    }, {
      %4 = stablehlo.negate %arg2 : tensor<8xf32>
      stablehlo.return %4 : tensor<8xf32>
    }) : (tensor<i32>) -> tensor<8xf32>
    return %1, %3 : tensor<8xf32>, tensor<8xf32>
  }
}
