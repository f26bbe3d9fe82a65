module @jit_outer attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["batch"=2, "model"=4]> {stablehlo.mesh = {axes = [{name = "batch", size = 2 : i64}, {name = "model", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"batch"}, {"model"}]>}, %arg1: tensor<64x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, %arg2: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) -> (tensor<16x32xf32> {jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{"batch"}, {}]>}) {
    %cst = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_1 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %cst_2 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %0 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"batch"}, {"model"}]>, <@mesh, [{"model"}, {}]>] out_shardings=[<@mesh, [{"batch"}, {}]>] manual_axes={"batch", "model"} (%arg3: tensor<8x16xf32>, %arg4: tensor<16x32xf32>) {
      %c = stablehlo.constant dense<2> : tensor<ui32>
      %c_3 = stablehlo.constant dense<4> : tensor<ui32>
      %cst_4 = stablehlo.constant dense<0xFF800000> : tensor<f32>
      %17 = stablehlo.dot_general %arg3, %arg4, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
      %18 = "stablehlo.all_reduce"(%17) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> ({
      ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
        %31 = stablehlo.add %arg5, %arg6 : tensor<f32>
        stablehlo.return %31 : tensor<f32>
      }) : (tensor<8x32xf32>) -> tensor<8x32xf32>
      %19 = stablehlo.reduce(%18 init: %cst_4) applies stablehlo.maximum across dimensions = [1] : (tensor<8x32xf32>, tensor<f32>) -> tensor<8xf32>
      %20 = stablehlo.broadcast_in_dim %19, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
      %21 = "stablehlo.all_reduce"(%20) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> ({
      ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
        %31 = stablehlo.maximum %arg5, %arg6 : tensor<f32>
        stablehlo.return %31 : tensor<f32>
      }) : (tensor<8x1xf32>) -> tensor<8x1xf32>
      %22 = stablehlo.partition_id : tensor<ui32>
      %23 = stablehlo.divide %22, %c_3 : tensor<ui32>
      %24 = stablehlo.remainder %23, %c : tensor<ui32>
      %25 = stablehlo.convert %24 : (tensor<ui32>) -> tensor<i32>
      %26 = stablehlo.broadcast_in_dim %21, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x32xf32>
      %27 = stablehlo.subtract %18, %26 : tensor<8x32xf32>
      %28 = stablehlo.convert %25 : (tensor<i32>) -> tensor<f32>
      %29 = stablehlo.broadcast_in_dim %28, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
      %30 = stablehlo.add %27, %29 : tensor<8x32xf32>
      sdy.return %30 : tensor<8x32xf32>
    } : (tensor<16x64xf32>, tensor<64x32xf32>) -> tensor<16x32xf32>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<32xf32>) -> tensor<1x32xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}]>]>} : (tensor<1x32xf32>) -> tensor<16x32xf32>
    %3 = stablehlo.add %0, %2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}]>]>} : tensor<16x32xf32>
    %4 = stablehlo.multiply %3, %3 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}]>]>} : tensor<16x32xf32>
    %5 = stablehlo.multiply %4, %3 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}]>]>} : tensor<16x32xf32>
    %6 = stablehlo.broadcast_in_dim %cst_2, dims = [] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}]>]>} : (tensor<f32>) -> tensor<16x32xf32>
    %7 = stablehlo.multiply %6, %5 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}]>]>} : tensor<16x32xf32>
    %8 = stablehlo.add %3, %7 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}]>]>} : tensor<16x32xf32>
    %9 = stablehlo.broadcast_in_dim %cst_1, dims = [] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}]>]>} : (tensor<f32>) -> tensor<16x32xf32>
    %10 = stablehlo.multiply %9, %8 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}]>]>} : tensor<16x32xf32>
    %11 = stablehlo.tanh %10 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}]>]>} : tensor<16x32xf32>
    %12 = stablehlo.broadcast_in_dim %cst_0, dims = [] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}]>]>} : (tensor<f32>) -> tensor<16x32xf32>
    %13 = stablehlo.add %12, %11 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}]>]>} : tensor<16x32xf32>
    %14 = stablehlo.broadcast_in_dim %cst, dims = [] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}]>]>} : (tensor<f32>) -> tensor<16x32xf32>
    %15 = stablehlo.multiply %14, %13 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}]>]>} : tensor<16x32xf32>
    %16 = stablehlo.multiply %3, %15 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}]>]>} : tensor<16x32xf32>
    return %16 : tensor<16x32xf32>
  }
}
