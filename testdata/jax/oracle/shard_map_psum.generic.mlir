"builtin.module"() <{sym_name = "jit_body"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=2, "y"=4]>, sym_name = "mesh"}> {stablehlo.mesh = {axes = [{name = "x", size = 2 : i64}, {name = "y", size = 4 : i64}]}} : () -> ()
  "func.func"() <{function_type = (tensor<16x32xf32>, tensor<32x64xf32>) -> tensor<16x64xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<16x32xf32>, %arg1: tensor<32x64xf32>):
    %0 = "sdy.manual_computation"(%arg0, %arg1) <{in_shardings = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>, <@mesh, [{"y"}, {}]>]>, manual_axes = #sdy<manual_axes{"x", "y"}>, out_shardings = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>}> ({
    ^bb0(%arg2: tensor<8x8xf32>, %arg3: tensor<8x64xf32>):
      %1 = "stablehlo.dot_general"(%arg2, %arg3) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x8xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
      %2 = "stablehlo.all_reduce"(%1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> ({
      ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
        %3 = "stablehlo.add"(%arg4, %arg5) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%3) : (tensor<f32>) -> ()
      }) : (tensor<8x64xf32>) -> tensor<8x64xf32>
      "sdy.return"(%2) : (tensor<8x64xf32>) -> ()
    }) : (tensor<16x32xf32>, tensor<32x64xf32>) -> tensor<16x64xf32>
    "func.return"(%0) : (tensor<16x64xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
