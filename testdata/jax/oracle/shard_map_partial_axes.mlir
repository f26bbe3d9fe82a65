module @jit_f attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=4]> {stablehlo.mesh = {axes = [{name = "x", size = 2 : i64}, {name = "y", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<4x16xf32> {jax.result_info = "result"}) {
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x", ?}, {?}]>] out_shardings=[<@mesh, [{?}, {?}]>] manual_axes={"x"} (%arg1: tensor<4x16xf32>) {
      %3 = stablehlo.sine %arg1 : tensor<4x16xf32>
      %4 = sdy.sharding_constraint %3 <@mesh, [{?}, {?}]> : tensor<4x16xf32>
      %5 = "stablehlo.all_reduce"(%4) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 4], [1, 5], [2, 6], [3, 7]]> : tensor<4x2xi64>, use_global_device_ids}> ({
      ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
        %6 = stablehlo.add %arg2, %arg3 : tensor<f32>
        %7 = sdy.sharding_constraint %6 <@mesh, []> : tensor<f32>
        stablehlo.return %7 : tensor<f32>
      }) : (tensor<4x16xf32>) -> tensor<4x16xf32>
      sdy.return %5 : tensor<4x16xf32>
    } : (tensor<8x16xf32>) -> tensor<4x16xf32>
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
    %2 = stablehlo.multiply %0, %1 : tensor<4x16xf32>
    return %2 : tensor<4x16xf32>
  }
}
