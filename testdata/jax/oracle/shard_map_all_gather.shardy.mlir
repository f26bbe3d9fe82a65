module @jit_body attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=4]> {stablehlo.mesh = {axes = [{name = "x", size = 2 : i64}, {name = "y", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<16x32xf32> {jax.result_info = "result[0]", sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}, tensor<16x4x32xf32> {jax.result_info = "result[1]", sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {"y"}]>}) {
    %0:2 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {"y"}]>] out_shardings=[<@mesh, [{}, {"y"}]>, <@mesh, [{"x"}, {}, {"y"}]>] manual_axes={"x", "y"} (%arg1: tensor<8x8xf32>) {
      %1 = "stablehlo.all_gather"(%arg1) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 4], [1, 5], [2, 6], [3, 7]]> : tensor<4x2xi64>, use_global_device_ids}> : (tensor<8x8xf32>) -> tensor<16x8xf32>
      %2 = stablehlo.broadcast_in_dim %arg1, dims = [0, 2] : (tensor<8x8xf32>) -> tensor<8x1x8xf32>
      %3 = "stablehlo.all_gather"(%2) <{all_gather_dim = 1 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> : (tensor<8x1x8xf32>) -> tensor<8x4x8xf32>
      sdy.return %1, %3 : tensor<16x8xf32>, tensor<8x4x8xf32>
    } : (tensor<16x32xf32>) -> (tensor<16x32xf32>, tensor<16x4x32xf32>)
    return %0#0, %0#1 : tensor<16x32xf32>, tensor<16x4x32xf32>
  }
}
