"builtin.module"() <{sym_name = "jit_f"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=2, "y"=4]>, sym_name = "mesh"}> {stablehlo.mesh = {axes = [{name = "x", size = 2 : i64}, {name = "y", size = 4 : i64}]}} : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}], function_type = (tensor<8x16xf32>) -> tensor<4x16xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<8x16xf32>):
    %0 = "sdy.manual_computation"(%arg0) <{in_shardings = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>, manual_axes = #sdy<manual_axes{"x"}>, out_shardings = #sdy.sharding_per_value<[<@mesh, [{?}, {?}]>]>}> ({
    ^bb0(%arg1: tensor<4x16xf32>):
      %4 = "stablehlo.sine"(%arg1) : (tensor<4x16xf32>) -> tensor<4x16xf32>
      %5 = "sdy.sharding_constraint"(%4) <{sharding = #sdy.sharding<@mesh, [{?}, {?}]>}> : (tensor<4x16xf32>) -> tensor<4x16xf32>
      %6 = "stablehlo.all_reduce"(%5) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 4], [1, 5], [2, 6], [3, 7]]> : tensor<4x2xi64>, use_global_device_ids}> ({
      ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
        %7 = "stablehlo.add"(%arg2, %arg3) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        %8 = "sdy.sharding_constraint"(%7) <{sharding = #sdy.sharding<@mesh, []>}> : (tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%8) : (tensor<f32>) -> ()
      }) : (tensor<4x16xf32>) -> tensor<4x16xf32>
      "sdy.return"(%6) : (tensor<4x16xf32>) -> ()
    }) : (tensor<8x16xf32>) -> tensor<4x16xf32>
    %1 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %2 = "stablehlo.broadcast_in_dim"(%1) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x16xf32>
    %3 = "stablehlo.multiply"(%0, %2) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    "func.return"(%3) : (tensor<4x16xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
