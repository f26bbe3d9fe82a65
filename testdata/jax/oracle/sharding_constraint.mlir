module @jit_f attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=4]> {stablehlo.mesh = {axes = [{name = "x", size = 2 : i64}, {name = "y", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<32x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) -> (tensor<16x64xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x32xf32>, tensor<32x64xf32>) -> tensor<16x64xf32>
    %1 = sdy.sharding_constraint %0 <@mesh, [{}, {"y"}]> : tensor<16x64xf32>
    %2 = stablehlo.exponential %1 : tensor<16x64xf32>
    %3 = sdy.sharding_constraint %2 <@mesh, [{"x"}, {?}]> : tensor<16x64xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %5 = stablehlo.add %3, %4 : tensor<16x64xf32>
    %6 = stablehlo.log %5 : tensor<16x64xf32>
    return %6 : tensor<16x64xf32>
  }
}
