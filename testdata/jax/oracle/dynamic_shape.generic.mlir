"builtin.module"() <{sym_name = "jit_f"}> ({
  "func.func"() <{arg_attrs = [{jax.global_constant = "b"}, {}, {}], function_type = (tensor<i32>, tensor<?x8xf32>, tensor<8x4xf32>) -> (tensor<4xf32>, tensor<i32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<i32>, %arg1: tensor<?x8xf32>, %arg2: tensor<8x4xf32>):
    %0 = "stablehlo.dot_general"(%arg1, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<?x8xf32>, tensor<8x4xf32>) -> tensor<?x4xf32>
    %1 = "stablehlo.tanh"(%0) : (tensor<?x4xf32>) -> tensor<?x4xf32>
    %2 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %3 = "stablehlo.reduce"(%1, %2) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %7 = "stablehlo.add"(%arg3, %arg4) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%7) : (tensor<f32>) -> ()
    }) : (tensor<?x4xf32>, tensor<f32>) -> tensor<4xf32>
    %4 = "stablehlo.convert"(%arg0) : (tensor<i32>) -> tensor<i32>
    %5 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %6 = "stablehlo.multiply"(%4, %5) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "func.return"(%3, %6) : (tensor<4xf32>, tensor<i32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
