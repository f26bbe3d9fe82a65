module @jit_layernorm attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=4]> {stablehlo.mesh = {axes = [{name = "x", size = 2 : i64}, {name = "y", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg2: tensor<64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) -> (tensor<16x64xf32> {jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
    %cst = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %cst_0 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst_1) applies stablehlo.add across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : (tensor<16x64xf32>, tensor<f32>) -> tensor<16xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<16xf32>) -> tensor<16x1xf32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<f32>) -> tensor<16x1xf32>
    %3 = stablehlo.divide %1, %2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<16x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<16x1xf32>) -> tensor<16x64xf32>
    %5 = stablehlo.subtract %arg0, %4 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<16x64xf32>
    %6 = chlo.square %5 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<16x64xf32> -> tensor<16x64xf32>
    %7 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : (tensor<16x64xf32>, tensor<f32>) -> tensor<16xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<16xf32>) -> tensor<16x1xf32>
    %9 = stablehlo.broadcast_in_dim %cst_0, dims = [] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<f32>) -> tensor<16x1xf32>
    %10 = stablehlo.divide %8, %9 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<16x1xf32>
    %11 = stablehlo.broadcast_in_dim %3, dims = [0, 1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<16x1xf32>) -> tensor<16x64xf32>
    %12 = stablehlo.subtract %arg0, %11 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<16x64xf32>
    %13 = stablehlo.broadcast_in_dim %cst, dims = [] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<f32>) -> tensor<16x1xf32>
    %14 = stablehlo.add %10, %13 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<16x1xf32>
    %15 = stablehlo.rsqrt %14 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<16x1xf32>
    %16 = stablehlo.broadcast_in_dim %15, dims = [0, 1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<16x1xf32>) -> tensor<16x64xf32>
    %17 = stablehlo.multiply %12, %16 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<16x64xf32>
    %18 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %19 = stablehlo.broadcast_in_dim %18, dims = [0, 1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<1x64xf32>) -> tensor<16x64xf32>
    %20 = stablehlo.multiply %17, %19 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<16x64xf32>
    %21 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %22 = stablehlo.broadcast_in_dim %21, dims = [0, 1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<1x64xf32>) -> tensor<16x64xf32>
    %23 = stablehlo.add %20, %22 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<16x64xf32>
    return %23 : tensor<16x64xf32>
  }
}
