module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x4xf32>, %arg1: tensor<i32>) -> (tensor<4x4xf32> {jax.result_info = "result[0]"}, tensor<f32> {jax.result_info = "result[1]"}, tensor<4x4xf32> {jax.result_info = "result[2]"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0:5 = stablehlo.while(%iterArg = %arg0, %iterArg_2 = %c_0, %iterArg_3 = %c, %iterArg_4 = %arg0, %iterArg_5 = %cst) : tensor<4x4xf32>, tensor<i32>, tensor<i32>, tensor<4x4xf32>, tensor<f32>
    cond {
      %c_6 = stablehlo.constant dense<5> : tensor<i32>
      %2 = stablehlo.compare LT, %iterArg_2, %c_6, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %2 : tensor<i1>
    } do {
      %2:3 = func.call @closed_call(%iterArg, %iterArg_3, %iterArg_4, %iterArg_5) : (tensor<4x4xf32>, tensor<i32>, tensor<4x4xf32>, tensor<f32>) -> (tensor<i32>, tensor<4x4xf32>, tensor<f32>)
      %c_6 = stablehlo.constant dense<1> : tensor<i32>
      %3 = stablehlo.add %iterArg_2, %c_6 : tensor<i32>
      stablehlo.return %iterArg, %3, %2#0, %2#1, %2#2 : tensor<4x4xf32>, tensor<i32>, tensor<i32>, tensor<4x4xf32>, tensor<f32>
    }
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %1:3 = stablehlo.while(%iterArg = %arg1, %iterArg_2 = %c_1, %iterArg_3 = %arg0) : tensor<i32>, tensor<i32>, tensor<4x4xf32>
    cond {
      %2 = stablehlo.compare LT, %iterArg_2, %iterArg, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %2 : tensor<i1>
    } do {
      %c_4 = stablehlo.constant dense<1> : tensor<i32>
      %2 = stablehlo.add %iterArg_2, %c_4 : tensor<i32>
      %cst_5 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
      %3 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
      %4 = stablehlo.multiply %iterArg_3, %3 : tensor<4x4xf32>
      stablehlo.return %iterArg, %2, %4 : tensor<i32>, tensor<i32>, tensor<4x4xf32>
    }
    return %0#3, %0#4, %1#2 : tensor<4x4xf32>, tensor<f32>, tensor<4x4xf32>
  }
  func.func private @closed_call(%arg0: tensor<4x4xf32>, %arg1: tensor<i32>, %arg2: tensor<4x4xf32>, %arg3: tensor<f32>) -> (tensor<i32>, tensor<4x4xf32>, tensor<f32>) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.add %arg1, %c : tensor<i32>
    %1 = stablehlo.dot_general %arg2, %arg0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %2 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<f32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
    %4 = stablehlo.add %1, %3 : tensor<4x4xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.reduce(%arg2 init: %cst) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x4xf32>, tensor<f32>) -> tensor<f32>
    %6 = stablehlo.add %arg3, %5 : tensor<f32>
    return %0, %4, %6 : tensor<i32>, tensor<4x4xf32>, tensor<f32>
  }
}
