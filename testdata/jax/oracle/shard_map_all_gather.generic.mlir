"builtin.module"() <{sym_name = "jit_body"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=2, "y"=4]>, sym_name = "mesh"}> {stablehlo.mesh = {axes = [{name = "x", size = 2 : i64}, {name = "y", size = 4 : i64}]}} : () -> ()
  "func.func"() <{function_type = (tensor<16x32xf32>) -> (tensor<16x32xf32>, tensor<16x4x32xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<16x32xf32>):
    %0:2 = "sdy.manual_computation"(%arg0) <{in_shardings = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>, manual_axes = #sdy<manual_axes{"x", "y"}>, out_shardings = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>, <@mesh, [{"x"}, {}, {"y"}]>]>}> ({
    ^bb0(%arg1: tensor<8x8xf32>):
      %1 = "stablehlo.all_gather"(%arg1) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 4], [1, 5], [2, 6], [3, 7]]> : tensor<4x2xi64>, use_global_device_ids}> : (tensor<8x8xf32>) -> tensor<16x8xf32>
      %2 = "stablehlo.broadcast_in_dim"(%arg1) <{broadcast_dimensions = array<i64: 0, 2>}> : (tensor<8x8xf32>) -> tensor<8x1x8xf32>
      %3 = "stablehlo.all_gather"(%2) <{all_gather_dim = 1 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> : (tensor<8x1x8xf32>) -> tensor<8x4x8xf32>
      "sdy.return"(%1, %3) : (tensor<16x8xf32>, tensor<8x4x8xf32>) -> ()
    }) : (tensor<16x32xf32>) -> (tensor<16x32xf32>, tensor<16x4x32xf32>)
    "func.return"(%0#0, %0#1) : (tensor<16x32xf32>, tensor<16x4x32xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
