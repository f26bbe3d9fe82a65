module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x4xf32>, %arg1: tensor<4x4xf32>, %arg2: tensor<4x4xi32>, %arg3: tensor<4x4xui32>) -> (tensor<4x4xf32> {jax.result_info = "result[0]"}, tensor<4x4xf32> {jax.result_info = "result[1]"}, tensor<4x4xf32> {jax.result_info = "result[2]"}, tensor<4x4xf32> {jax.result_info = "result[3]"}, tensor<4x4xf32> {jax.result_info = "result[4]"}, tensor<4x4xf32> {jax.result_info = "result[5]"}, tensor<4x4xf32> {jax.result_info = "result[6]"}, tensor<4x4xf32> {jax.result_info = "result[7]"}, tensor<4x4xi32> {jax.result_info = "result[8]"}, tensor<4x4xi32> {jax.result_info = "result[9]"}, tensor<4x4xi32> {jax.result_info = "result[10]"}, tensor<4x4xi32> {jax.result_info = "result[11]"}, tensor<4x4xi32> {jax.result_info = "result[12]"}, tensor<4x4xi32> {jax.result_info = "result[13]"}, tensor<4x4xi32> {jax.result_info = "result[14]"}, tensor<4x4xui32> {jax.result_info = "result[15]"}, tensor<4x4xi1> {jax.result_info = "result[16]"}, tensor<4x4xf32> {jax.result_info = "result[17]"}, tensor<4x4xi1> {jax.result_info = "result[18]"}, tensor<4x4xf32> {jax.result_info = "result[19]"}) {
    %0 = stablehlo.abs %arg0 : tensor<4x4xf32>
    %cst = stablehlo.constant dense<2.500000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
    %2 = stablehlo.power %0, %1 : tensor<4x4xf32>
    %3 = stablehlo.sign %arg1 : tensor<4x4xf32>
    %4 = stablehlo.floor %arg0 : tensor<4x4xf32>
    %5 = stablehlo.ceil %arg1 : tensor<4x4xf32>
    %6 = stablehlo.add %4, %5 : tensor<4x4xf32>
    %7 = call @round(%arg0) : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %8 = stablehlo.add %6, %7 : tensor<4x4xf32>
    %9 = call @remainder(%arg0, %arg1) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %10 = stablehlo.atan2 %arg0, %arg1 : tensor<4x4xf32>
    %11 = stablehlo.negate %arg0 : tensor<4x4xf32>
    %12 = stablehlo.exponential %11 : tensor<4x4xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
    %14 = stablehlo.add %13, %12 : tensor<4x4xf32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
    %16 = stablehlo.divide %15, %14 : tensor<4x4xf32>
    %17 = stablehlo.cbrt %arg1 : tensor<4x4xf32>
    %18 = stablehlo.exponential_minus_one %arg0 : tensor<4x4xf32>
    %19 = stablehlo.log_plus_one %arg1 : tensor<4x4xf32>
    %20 = stablehlo.add %18, %19 : tensor<4x4xf32>
    %c = stablehlo.constant dense<2> : tensor<i32>
    %21 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<4x4xi32>
    %22 = stablehlo.shift_right_arithmetic %arg2, %21 : tensor<4x4xi32>
    %23 = stablehlo.convert %arg3 : (tensor<4x4xui32>) -> tensor<4x4xi32>
    %24 = stablehlo.shift_left %arg2, %23 : tensor<4x4xi32>
    %25 = stablehlo.convert %arg3 : (tensor<4x4xui32>) -> tensor<4x4xi32>
    %26 = stablehlo.and %arg2, %25 : tensor<4x4xi32>
    %27 = stablehlo.convert %arg3 : (tensor<4x4xui32>) -> tensor<4x4xi32>
    %28 = stablehlo.or %arg2, %27 : tensor<4x4xi32>
    %29 = stablehlo.convert %arg3 : (tensor<4x4xui32>) -> tensor<4x4xi32>
    %30 = stablehlo.xor %arg2, %29 : tensor<4x4xi32>
    %31 = stablehlo.not %arg2 : tensor<4x4xi32>
    %32 = stablehlo.popcnt %arg2 : tensor<4x4xi32>
    %33 = stablehlo.count_leading_zeros %arg3 : tensor<4x4xui32>
    %34 = stablehlo.compare GT, %arg0, %arg1, FLOAT : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xi1>
    %35 = stablehlo.not %34 : tensor<4x4xi1>
    %36 = chlo.erf %arg0 : tensor<4x4xf32> -> tensor<4x4xf32>
    %37 = stablehlo.is_finite %arg1 : (tensor<4x4xf32>) -> tensor<4x4xi1>
    %38 = chlo.next_after %arg0, %arg1 : tensor<4x4xf32>, tensor<4x4xf32> -> tensor<4x4xf32>
    return %2, %3, %8, %9, %10, %16, %17, %20, %22, %24, %26, %28, %30, %31, %32, %33, %35, %36, %37, %38 : tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xi32>, tensor<4x4xi32>, tensor<4x4xi32>, tensor<4x4xi32>, tensor<4x4xi32>, tensor<4x4xi32>, tensor<4x4xi32>, tensor<4x4xui32>, tensor<4x4xi1>, tensor<4x4xf32>, tensor<4x4xi1>, tensor<4x4xf32>
  }
  func.func private @round(%arg0: tensor<4x4xf32>) -> tensor<4x4xf32> {
    %0 = stablehlo.round_nearest_even %arg0 : tensor<4x4xf32>
    return %0 : tensor<4x4xf32>
  }
  func.func private @remainder(%arg0: tensor<4x4xf32>, %arg1: tensor<4x4xf32>) -> tensor<4x4xf32> {
    %0 = stablehlo.remainder %arg0, %arg1 : tensor<4x4xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
    %2 = stablehlo.compare NE, %0, %1, FLOAT : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xi1>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
    %4 = stablehlo.compare LT, %0, %3, FLOAT : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xi1>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
    %6 = stablehlo.compare LT, %arg1, %5, FLOAT : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xi1>
    %7 = stablehlo.compare NE, %4, %6, UNSIGNED : (tensor<4x4xi1>, tensor<4x4xi1>) -> tensor<4x4xi1>
    %8 = stablehlo.and %7, %2 : tensor<4x4xi1>
    %9 = stablehlo.add %0, %arg1 : tensor<4x4xf32>
    %10 = stablehlo.select %8, %9, %0 : tensor<4x4xi1>, tensor<4x4xf32>
    return %10 : tensor<4x4xf32>
  }
}
