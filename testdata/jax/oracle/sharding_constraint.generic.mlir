"builtin.module"() <{sym_name = "jit_f"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=2, "y"=4]>, sym_name = "mesh"}> {stablehlo.mesh = {axes = [{name = "x", size = 2 : i64}, {name = "y", size = 4 : i64}]}} : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}], function_type = (tensor<16x32xf32>, tensor<32x64xf32>) -> tensor<16x64xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<16x32xf32>, %arg1: tensor<32x64xf32>):
    %0 = "stablehlo.dot_general"(%arg0, %arg1) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x32xf32>, tensor<32x64xf32>) -> tensor<16x64xf32>
    %1 = "sdy.sharding_constraint"(%0) <{sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}> : (tensor<16x64xf32>) -> tensor<16x64xf32>
    %2 = "stablehlo.exponential"(%1) : (tensor<16x64xf32>) -> tensor<16x64xf32>
    %3 = "sdy.sharding_constraint"(%2) <{sharding = #sdy.sharding<@mesh, [{"x"}, {?}]>}> : (tensor<16x64xf32>) -> tensor<16x64xf32>
    %4 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %5 = "stablehlo.broadcast_in_dim"(%4) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x64xf32>
    %6 = "stablehlo.add"(%3, %5) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
    %7 = "stablehlo.log"(%6) : (tensor<16x64xf32>) -> tensor<16x64xf32>
    "func.return"(%7) : (tensor<16x64xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
