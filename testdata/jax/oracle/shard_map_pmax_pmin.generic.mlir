"builtin.module"() <{sym_name = "jit_body"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=2, "y"=4]>, sym_name = "mesh"}> {stablehlo.mesh = {axes = [{name = "x", size = 2 : i64}, {name = "y", size = 4 : i64}]}} : () -> ()
  "func.func"() <{function_type = (tensor<8x16xf32>) -> (tensor<8x4xf32>, tensor<4x4xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<8x16xf32>):
    %0:2 = "sdy.manual_computation"(%arg0) <{in_shardings = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>, manual_axes = #sdy<manual_axes{"x", "y"}>, out_shardings = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>, <@mesh, [{}, {}]>]>}> ({
    ^bb0(%arg1: tensor<4x4xf32>):
      %1 = "stablehlo.all_reduce"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> ({
      ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
        %4 = "stablehlo.maximum"(%arg4, %arg5) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%4) : (tensor<f32>) -> ()
      }) : (tensor<4x4xf32>) -> tensor<4x4xf32>
      %2 = "stablehlo.all_reduce"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, use_global_device_ids}> ({
      ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
        %3 = "stablehlo.minimum"(%arg2, %arg3) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%3) : (tensor<f32>) -> ()
      }) : (tensor<4x4xf32>) -> tensor<4x4xf32>
      "sdy.return"(%1, %2) : (tensor<4x4xf32>, tensor<4x4xf32>) -> ()
    }) : (tensor<8x16xf32>) -> (tensor<8x4xf32>, tensor<4x4xf32>)
    "func.return"(%0#0, %0#1) : (tensor<8x4xf32>, tensor<4x4xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
