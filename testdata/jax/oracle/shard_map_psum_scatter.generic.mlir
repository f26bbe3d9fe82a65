"builtin.module"() <{sym_name = "jit_body"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["batch"=2, "model"=4]>, sym_name = "mesh"}> {stablehlo.mesh = {axes = [{name = "batch", size = 2 : i64}, {name = "model", size = 4 : i64}]}} : () -> ()
  "func.func"() <{function_type = (tensor<16x32xf32>) -> tensor<16x32xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<16x32xf32>):
    %0 = "sdy.manual_computation"(%arg0) <{in_shardings = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}]>]>, manual_axes = #sdy<manual_axes{"batch", "model"}>, out_shardings = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {"model"}]>]>}> ({
    ^bb0(%arg1: tensor<8x32xf32>):
      %1 = "stablehlo.reduce_scatter"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, scatter_dimension = 1 : i64, use_global_device_ids}> ({
      ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
        %2 = "stablehlo.add"(%arg2, %arg3) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%2) : (tensor<f32>) -> ()
      }) : (tensor<8x32xf32>) -> tensor<8x8xf32>
      "sdy.return"(%1) : (tensor<8x8xf32>) -> ()
    }) : (tensor<16x32xf32>) -> tensor<16x32xf32>
    "func.return"(%0) : (tensor<16x32xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
