module @jit_model attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=4]> {stablehlo.mesh = {axes = [{name = "x", size = 2 : i64}, {name = "y", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<32x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}, %arg2: tensor<64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}, %arg3: tensor<64x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}, %arg4: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) -> (tensor<16x32xf32> {jax.result_info = "result"}) {
    %0 = call @dense(%arg0, %arg1, %arg2) : (tensor<16x32xf32>, tensor<32x64xf32>, tensor<64xf32>) -> tensor<16x64xf32>
    %1 = call @dense_0(%0, %arg3, %arg4) : (tensor<16x64xf32>, tensor<64x32xf32>, tensor<32xf32>) -> tensor<16x32xf32>
    return %1 : tensor<16x32xf32>
  }
  func.func private @dense(%arg0: tensor<16x32xf32>, %arg1: tensor<32x64xf32>, %arg2: tensor<64xf32>) -> tensor<16x64xf32> {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x32xf32>, tensor<32x64xf32>) -> tensor<16x64xf32>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x64xf32>) -> tensor<16x64xf32>
    %3 = stablehlo.add %0, %2 : tensor<16x64xf32>
    %4 = call @act(%3) : (tensor<16x64xf32>) -> tensor<16x64xf32>
    return %4 : tensor<16x64xf32>
  }
  func.func private @act(%arg0: tensor<16x64xf32>) -> tensor<16x64xf32> {
    %0 = stablehlo.multiply %arg0, %arg0 : tensor<16x64xf32>
    %1 = stablehlo.multiply %0, %arg0 : tensor<16x64xf32>
    %cst = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %3 = stablehlo.multiply %2, %1 : tensor<16x64xf32>
    %4 = stablehlo.add %arg0, %3 : tensor<16x64xf32>
    %cst_0 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %6 = stablehlo.multiply %5, %4 : tensor<16x64xf32>
    %7 = stablehlo.tanh %6 : tensor<16x64xf32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %9 = stablehlo.add %8, %7 : tensor<16x64xf32>
    %cst_2 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %10 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %11 = stablehlo.multiply %10, %9 : tensor<16x64xf32>
    %12 = stablehlo.multiply %arg0, %11 : tensor<16x64xf32>
    return %12 : tensor<16x64xf32>
  }
  func.func private @dense_0(%arg0: tensor<16x64xf32>, %arg1: tensor<64x32xf32>, %arg2: tensor<32xf32>) -> tensor<16x32xf32> {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x64xf32>, tensor<64x32xf32>) -> tensor<16x32xf32>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<32xf32>) -> tensor<1x32xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x32xf32>) -> tensor<16x32xf32>
    %3 = stablehlo.add %0, %2 : tensor<16x32xf32>
    %4 = call @act_1(%3) : (tensor<16x32xf32>) -> tensor<16x32xf32>
    return %4 : tensor<16x32xf32>
  }
  func.func private @act_1(%arg0: tensor<16x32xf32>) -> tensor<16x32xf32> {
    %0 = stablehlo.multiply %arg0, %arg0 : tensor<16x32xf32>
    %1 = stablehlo.multiply %0, %arg0 : tensor<16x32xf32>
    %cst = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %3 = stablehlo.multiply %2, %1 : tensor<16x32xf32>
    %4 = stablehlo.add %arg0, %3 : tensor<16x32xf32>
    %cst_0 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %6 = stablehlo.multiply %5, %4 : tensor<16x32xf32>
    %7 = stablehlo.tanh %6 : tensor<16x32xf32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %9 = stablehlo.add %8, %7 : tensor<16x32xf32>
    %cst_2 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %10 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %11 = stablehlo.multiply %10, %9 : tensor<16x32xf32>
    %12 = stablehlo.multiply %arg0, %11 : tensor<16x32xf32>
    return %12 : tensor<16x32xf32>
  }
}
