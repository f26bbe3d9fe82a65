module @jit_step attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=8]> {stablehlo.mesh = {axes = [{name = "x", size = 8 : i64}]}}
  func.func public @main(%arg0: tensor<64x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) -> (tensor<64x16xf32> {jax.result_info = "result[0]", sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, tensor<f32> {jax.result_info = "result[1]", sdy.sharding = #sdy.sharding<@mesh, []>}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<64x16xf32>, tensor<16x16xf32>) -> tensor<64x16xf32>
    %1 = sdy.all_gather [{"x"}, {}] %0 out_sharding=<@mesh, [{}, {}]> : tensor<64x16xf32>
    %2 = call @relu(%1) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<64x16xf32>) -> tensor<64x16xf32>
    %3 = stablehlo.multiply %0, %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<64x16xf32>
    %4 = stablehlo.reduce(%3 init: %cst) applies stablehlo.add across dimensions = [0, 1] : (tensor<64x16xf32>, tensor<f32>) -> tensor<f32>
    %5 = sdy.all_reduce {"x"} %4 out_sharding=<@mesh, []> : tensor<f32>
    return %2, %5 : tensor<64x16xf32>, tensor<f32>
  }
  func.func private @relu(%arg0: tensor<64x16xf32>) -> tensor<64x16xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<64x16xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<64x16xf32>
    return %1 : tensor<64x16xf32>
  }
}
