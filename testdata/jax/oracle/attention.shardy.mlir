module @jit__attention attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["batch"=2, "model"=4]> {stablehlo.mesh = {axes = [{name = "batch", size = 2 : i64}, {name = "model", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<4x16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"batch"}, {}, {}]>}, %arg1: tensor<64x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg2: tensor<64x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg3: tensor<64x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg4: tensor<64x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}) -> (tensor<4x16x64xf32> {jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{"batch"}, {}, {}]>}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %cst_1 = stablehlo.constant dense<-1.000000e+09> : tensor<f32>
    %c = stablehlo.constant dense<true> : tensor<i1>
    %cst_2 = stablehlo.constant dense<4.000000e+00> : tensor<f32>
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : (tensor<4x16x64xf32>, tensor<64x64xf32>) -> tensor<4x16x64xf32>
    %1 = stablehlo.reshape %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}, {}]>]>} : (tensor<4x16x64xf32>) -> tensor<4x16x4x16xf32>
    %2 = stablehlo.transpose %1, dims = [0, 2, 1, 3] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {"model"}, {}, {}]>]>} : (tensor<4x16x4x16xf32>) -> tensor<4x4x16x16xf32>
    %3 = stablehlo.dot_general %arg0, %arg2, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : (tensor<4x16x64xf32>, tensor<64x64xf32>) -> tensor<4x16x64xf32>
    %4 = stablehlo.reshape %3 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}, {}]>]>} : (tensor<4x16x64xf32>) -> tensor<4x16x4x16xf32>
    %5 = stablehlo.transpose %4, dims = [0, 2, 1, 3] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {"model"}, {}, {}]>]>} : (tensor<4x16x4x16xf32>) -> tensor<4x4x16x16xf32>
    %6 = stablehlo.dot_general %arg0, %arg3, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : (tensor<4x16x64xf32>, tensor<64x64xf32>) -> tensor<4x16x64xf32>
    %7 = stablehlo.reshape %6 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}, {}]>]>} : (tensor<4x16x64xf32>) -> tensor<4x16x4x16xf32>
    %8 = stablehlo.transpose %7, dims = [0, 2, 1, 3] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {"model"}, {}, {}]>]>} : (tensor<4x16x4x16xf32>) -> tensor<4x4x16x16xf32>
    %9 = stablehlo.dot_general %2, %5, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {"model"}, {}, {}]>]>} : (tensor<4x4x16x16xf32>, tensor<4x4x16x16xf32>) -> tensor<4x4x16x16xf32>
    %10 = stablehlo.broadcast_in_dim %cst_2, dims = [] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {"model"}, {}, {}]>]>} : (tensor<f32>) -> tensor<4x4x16x16xf32>
    %11 = stablehlo.divide %9, %10 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {"model"}, {}, {}]>]>} : tensor<4x4x16x16xf32>
    %12 = sdy.all_gather [{"batch"}, {"model"}, {}, {}] %11 out_sharding=<@mesh, [{}, {}, {}, {}]> : tensor<4x4x16x16xf32>
    %13 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i1>) -> tensor<16x16xi1>
    %14 = call @tril(%13) : (tensor<16x16xi1>) -> tensor<16x16xi1>
    %15 = call @_where(%14, %12, %cst_1) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {"model"}, {}, {}]>]>} : (tensor<16x16xi1>, tensor<4x4x16x16xf32>, tensor<f32>) -> tensor<4x4x16x16xf32>
    %16 = stablehlo.reduce(%15 init: %cst_0) applies stablehlo.maximum across dimensions = [3] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {"model"}, {}]>]>} : (tensor<4x4x16x16xf32>, tensor<f32>) -> tensor<4x4x16xf32>
    %17 = stablehlo.broadcast_in_dim %cst_0, dims = [] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {"model"}, {}]>]>} : (tensor<f32>) -> tensor<4x4x16xf32>
    %18 = stablehlo.maximum %17, %16 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {"model"}, {}]>]>} : tensor<4x4x16xf32>
    %19 = stablehlo.broadcast_in_dim %18, dims = [0, 1, 2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {"model"}, {}, {}]>]>} : (tensor<4x4x16xf32>) -> tensor<4x4x16x1xf32>
    %20 = stablehlo.broadcast_in_dim %19, dims = [0, 1, 2, 3] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {"model"}, {}, {}]>]>} : (tensor<4x4x16x1xf32>) -> tensor<4x4x16x16xf32>
    %21 = stablehlo.subtract %15, %20 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {"model"}, {}, {}]>]>} : tensor<4x4x16x16xf32>
    %22 = stablehlo.exponential %21 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {"model"}, {}, {}]>]>} : tensor<4x4x16x16xf32>
    %23 = stablehlo.reduce(%22 init: %cst) applies stablehlo.add across dimensions = [3] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {"model"}, {}]>]>} : (tensor<4x4x16x16xf32>, tensor<f32>) -> tensor<4x4x16xf32>
    %24 = stablehlo.broadcast_in_dim %23, dims = [0, 1, 2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {"model"}, {}, {}]>]>} : (tensor<4x4x16xf32>) -> tensor<4x4x16x1xf32>
    %25 = stablehlo.broadcast_in_dim %24, dims = [0, 1, 2, 3] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {"model"}, {}, {}]>]>} : (tensor<4x4x16x1xf32>) -> tensor<4x4x16x16xf32>
    %26 = stablehlo.divide %22, %25 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {"model"}, {}, {}]>]>} : tensor<4x4x16x16xf32>
    %27 = stablehlo.dot_general %26, %8, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {"model"}, {}, {}]>]>} : (tensor<4x4x16x16xf32>, tensor<4x4x16x16xf32>) -> tensor<4x4x16x16xf32>
    %28 = stablehlo.transpose %27, dims = [0, 2, 1, 3] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}, {}]>]>} : (tensor<4x4x16x16xf32>) -> tensor<4x16x4x16xf32>
    %29 = stablehlo.reshape %28 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : (tensor<4x16x4x16xf32>) -> tensor<4x16x64xf32>
    %30 = stablehlo.dot_general %29, %arg4, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {}]>]>} : (tensor<4x16x64xf32>, tensor<64x64xf32>) -> tensor<4x16x64xf32>
    %31 = sdy.all_reduce {"model"} %30 out_sharding=<@mesh, [{"batch"}, {}, {}]> : tensor<4x16x64xf32>
    return %31 : tensor<4x16x64xf32>
  }
  func.func private @tril(%arg0: tensor<16x16xi1>) -> tensor<16x16xi1> {
    %c = stablehlo.constant dense<false> : tensor<i1>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.iota dim = 0 : tensor<16x16xi32>
    %1 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<16x16xi32>
    %2 = stablehlo.add %0, %1 : tensor<16x16xi32>
    %3 = stablehlo.iota dim = 1 : tensor<16x16xi32>
    %4 = stablehlo.compare GE, %2, %3, SIGNED : (tensor<16x16xi32>, tensor<16x16xi32>) -> tensor<16x16xi1>
    %5 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i1>) -> tensor<16x16xi1>
    %6 = stablehlo.select %4, %arg0, %5 : tensor<16x16xi1>, tensor<16x16xi1>
    return %6 : tensor<16x16xi1>
  }
  func.func private @_where(%arg0: tensor<16x16xi1>, %arg1: tensor<4x4x16x16xf32>, %arg2: tensor<f32>) -> tensor<4x4x16x16xf32> {
    %0 = stablehlo.convert %arg2 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %arg0, dims = [2, 3] : (tensor<16x16xi1>) -> tensor<4x4x16x16xi1>
    %2 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<4x4x16x16xf32>
    %3 = stablehlo.select %1, %arg1, %2 : tensor<4x4x16x16xi1>, tensor<4x4x16x16xf32>
    return %3 : tensor<4x4x16x16xf32>
  }
}
