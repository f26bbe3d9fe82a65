"builtin.module"() <{sym_name = "jit_step"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=8]>, sym_name = "mesh"}> {stablehlo.mesh = {axes = [{name = "x", size = 8 : i64}]}} : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}], function_type = (tensor<64x16xf32>, tensor<16x16xf32>) -> (tensor<64x16xf32>, tensor<f32>), res_attrs = [{jax.result_info = "result[0]", sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, {jax.result_info = "result[1]", sdy.sharding = #sdy.sharding<@mesh, []>}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg1: tensor<64x16xf32>, %arg2: tensor<16x16xf32>):
    %3 = "stablehlo.dot_general"(%arg1, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<64x16xf32>, tensor<16x16xf32>) -> tensor<64x16xf32>
    %4 = "func.call"(%3) <{callee = @relu}> : (tensor<64x16xf32>) -> tensor<64x16xf32>
    %5 = "stablehlo.multiply"(%3, %3) : (tensor<64x16xf32>, tensor<64x16xf32>) -> tensor<64x16xf32>
    %6 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %7 = "stablehlo.reduce"(%5, %6) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %8 = "stablehlo.add"(%arg3, %arg4) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%8) : (tensor<f32>) -> ()
    }) : (tensor<64x16xf32>, tensor<f32>) -> tensor<f32>
    "func.return"(%4, %7) : (tensor<64x16xf32>, tensor<f32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<64x16xf32>) -> tensor<64x16xf32>, sym_name = "relu", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<64x16xf32>):
    %0 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %1 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<64x16xf32>
    %2 = "stablehlo.maximum"(%arg0, %1) : (tensor<64x16xf32>, tensor<64x16xf32>) -> tensor<64x16xf32>
    "func.return"(%2) : (tensor<64x16xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
