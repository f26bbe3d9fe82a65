"builtin.module"() <{sym_name = "jit_f"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=2, "y"=4]>, sym_name = "mesh"}> {stablehlo.mesh = {axes = [{name = "x", size = 2 : i64}, {name = "y", size = 4 : i64}]}} : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}], function_type = (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>, res_attrs = [{jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<8x16xf32>, %arg1: tensor<16x8xf32>):
    %0 = "stablehlo.dot_general"(%arg0, %arg1) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
    %1 = "sdy.sharding_constraint"(%0) <{sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}> : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %2 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %3 = "stablehlo.broadcast_in_dim"(%2) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x8xf32>
    %4 = "sdy.sharding_constraint"(%3) <{sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}> : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %5 = "stablehlo.multiply"(%1, %4) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    %6 = "sdy.sharding_constraint"(%5) <{sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}> : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %7 = "sdy.sharding_constraint"(%6) <{sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}> : (tensor<8x8xf32>) -> tensor<8x8xf32>
    "func.return"(%7) : (tensor<8x8xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
