module @jit_body attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=4]> {stablehlo.mesh = {axes = [{name = "x", size = 2 : i64}, {name = "y", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<8x4xf32> {jax.result_info = "result[0]", sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, tensor<4x4xf32> {jax.result_info = "result[1]"}) {
    %0:2 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {"y"}]>] out_shardings=[<@mesh, [{"x"}, {}]>, <@mesh, [{}, {}]>] manual_axes={"x", "y"} (%arg1: tensor<4x4xf32>) {
      %1 = "stablehlo.all_reduce"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> ({
      ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
        %3 = stablehlo.maximum %arg2, %arg3 : tensor<f32>
        stablehlo.return %3 : tensor<f32>
      }) : (tensor<4x4xf32>) -> tensor<4x4xf32>
      %2 = "stablehlo.all_reduce"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, use_global_device_ids}> ({
      ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
        %3 = stablehlo.minimum %arg2, %arg3 : tensor<f32>
        stablehlo.return %3 : tensor<f32>
      }) : (tensor<4x4xf32>) -> tensor<4x4xf32>
      sdy.return %1, %2 : tensor<4x4xf32>, tensor<4x4xf32>
    } : (tensor<8x16xf32>) -> (tensor<8x4xf32>, tensor<4x4xf32>)
    return %0#0, %0#1 : tensor<8x4xf32>, tensor<4x4xf32>
  }
}
