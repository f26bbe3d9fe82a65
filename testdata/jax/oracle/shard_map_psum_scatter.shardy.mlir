module @jit_body attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["batch"=2, "model"=4]> {stablehlo.mesh = {axes = [{name = "batch", size = 2 : i64}, {name = "model", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"batch"}, {}]>}) -> (tensor<16x32xf32> {jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{"batch"}, {"model"}]>}) {
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"batch"}, {}]>] out_shardings=[<@mesh, [{"batch"}, {"model"}]>] manual_axes={"batch", "model"} (%arg1: tensor<8x32xf32>) {
      %1 = "stablehlo.reduce_scatter"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, scatter_dimension = 1 : i64, use_global_device_ids}> ({
      ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
        %2 = stablehlo.add %arg2, %arg3 : tensor<f32>
        stablehlo.return %2 : tensor<f32>
      }) : (tensor<8x32xf32>) -> tensor<8x8xf32>
      sdy.return %1 : tensor<8x8xf32>
    } : (tensor<16x32xf32>) -> tensor<16x32xf32>
    return %0 : tensor<16x32xf32>
  }
}
