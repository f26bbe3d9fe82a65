"builtin.module"() <{sym_name = "jit_mlp"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["batch"=2, "model"=4]>, sym_name = "mesh"}> {stablehlo.mesh = {axes = [{name = "batch", size = 2 : i64}, {name = "model", size = 4 : i64}]}} : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"batch"}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{"model"}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}]>}], function_type = (tensor<16x32xf32>, tensor<32x128xf32>, tensor<128xf32>, tensor<128x64xf32>, tensor<64xf32>) -> tensor<16x64xf32>, res_attrs = [{jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{"batch"}, {}]>}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<16x32xf32>, %arg1: tensor<32x128xf32>, %arg2: tensor<128xf32>, %arg3: tensor<128x64xf32>, %arg4: tensor<64xf32>):
    %0 = "stablehlo.dot_general"(%arg0, %arg1) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x32xf32>, tensor<32x128xf32>) -> tensor<16x128xf32>
    %1 = "stablehlo.broadcast_in_dim"(%arg2) <{broadcast_dimensions = array<i64: 1>}> : (tensor<128xf32>) -> tensor<1x128xf32>
    %2 = "stablehlo.broadcast_in_dim"(%1) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x128xf32>) -> tensor<16x128xf32>
    %3 = "stablehlo.add"(%0, %2) : (tensor<16x128xf32>, tensor<16x128xf32>) -> tensor<16x128xf32>
    %4 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %5 = "stablehlo.broadcast_in_dim"(%4) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x128xf32>
    %6 = "stablehlo.maximum"(%3, %5) : (tensor<16x128xf32>, tensor<16x128xf32>) -> tensor<16x128xf32>
    %7 = "stablehlo.dot_general"(%6, %arg3) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x128xf32>, tensor<128x64xf32>) -> tensor<16x64xf32>
    %8 = "stablehlo.broadcast_in_dim"(%arg4) <{broadcast_dimensions = array<i64: 1>}> : (tensor<64xf32>) -> tensor<1x64xf32>
    %9 = "stablehlo.broadcast_in_dim"(%8) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x64xf32>) -> tensor<16x64xf32>
    %10 = "stablehlo.add"(%7, %9) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
    %11 = "stablehlo.tanh"(%10) : (tensor<16x64xf32>) -> tensor<16x64xf32>
    "func.return"(%11) : (tensor<16x64xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
