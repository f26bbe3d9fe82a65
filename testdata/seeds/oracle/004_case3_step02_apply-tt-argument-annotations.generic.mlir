"builtin.module"() ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=2, "y"=4]>, sym_name = "mesh"}> : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>, ttcore.argument_type = #ttcore.argument_type<input>}, {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>, ttcore.argument_type = #ttcore.argument_type<parameter>}], function_type = (tensor<8192x784xf32>, tensor<784x16384xf32>) -> tensor<8192x16384xf32>, res_attrs = [{jax.result_info = ""}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<8192x784xf32>, %arg1: tensor<784x16384xf32>):
    %0 = "sdy.manual_computation"(%arg0, %arg1) <{in_shardings = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>, <@mesh, [{"y"}, {}]>]>, manual_axes = #sdy<manual_axes{"x", "y"}>, out_shardings = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>}> ({
    ^bb0(%arg2: tensor<4096x196xf32>, %arg3: tensor<196x16384xf32>):
      %1 = "stablehlo.dot_general"(%arg2, %arg3) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<4096x196xf32>, tensor<196x16384xf32>) -> tensor<4096x16384xf32>
      %2 = "stablehlo.all_reduce"(%1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> ({
      ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
        %3 = "stablehlo.add"(%arg4, %arg5) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%3) : (tensor<f32>) -> ()
      }) : (tensor<4096x16384xf32>) -> tensor<4096x16384xf32>
      "sdy.return"(%2) : (tensor<4096x16384xf32>) -> ()
    }) : (tensor<8192x784xf32>, tensor<784x16384xf32>) -> tensor<8192x16384xf32>
    "func.return"(%0) : (tensor<8192x16384xf32>) -> ()
  }) : () -> ()
}) : () -> ()
