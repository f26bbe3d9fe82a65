module @jit_mlp attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["batch"=2, "model"=4]> {stablehlo.mesh = {axes = [{name = "batch", size = 2 : i64}, {name = "model", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"batch"}, {}]>}, %arg1: tensor<32x128xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg2: tensor<128xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}]>}, %arg3: tensor<128x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, %arg4: tensor<64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) -> (tensor<16x64xf32> {jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{"batch"}, {}]>}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x32xf32>, tensor<32x128xf32>) -> tensor<16x128xf32>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<128xf32>) -> tensor<1x128xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x128xf32>) -> tensor<16x128xf32>
    %3 = stablehlo.add %0, %2 : tensor<16x128xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16x128xf32>
    %5 = stablehlo.maximum %3, %4 : tensor<16x128xf32>
    %6 = stablehlo.dot_general %5, %arg3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x128xf32>, tensor<128x64xf32>) -> tensor<16x64xf32>
    %7 = stablehlo.broadcast_in_dim %arg4, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0, 1] : (tensor<1x64xf32>) -> tensor<16x64xf32>
    %9 = stablehlo.add %6, %8 : tensor<16x64xf32>
    %10 = stablehlo.tanh %9 : tensor<16x64xf32>
    return %10 : tensor<16x64xf32>
  }
}
