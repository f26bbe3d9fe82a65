"builtin.module"() <{sym_name = "jit_f"}> ({
  "func.func"() <{function_type = (tensor<4x4xf32>, tensor<i32>) -> (tensor<4x4xf32>, tensor<f32>, tensor<4x4xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg6: tensor<4x4xf32>, %arg7: tensor<i32>):
    %10 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %11 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %12 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %13:5 = "stablehlo.while"(%arg6, %12, %10, %arg6, %11) ({
    ^bb0(%arg19: tensor<4x4xf32>, %arg20: tensor<i32>, %arg21: tensor<i32>, %arg22: tensor<4x4xf32>, %arg23: tensor<f32>):
      %25 = "stablehlo.constant"() <{value = dense<5> : tensor<i32>}> : () -> tensor<i32>
      %26 = "stablehlo.compare"(%arg20, %25) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      "stablehlo.return"(%26) : (tensor<i1>) -> ()
    }, {
    ^bb0(%arg14: tensor<4x4xf32>, %arg15: tensor<i32>, %arg16: tensor<i32>, %arg17: tensor<4x4xf32>, %arg18: tensor<f32>):
      %22:3 = "func.call"(%arg14, %arg16, %arg17, %arg18) <{callee = @closed_call}> : (tensor<4x4xf32>, tensor<i32>, tensor<4x4xf32>, tensor<f32>) -> (tensor<i32>, tensor<4x4xf32>, tensor<f32>)
      %23 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
      %24 = "stablehlo.add"(%arg15, %23) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%arg14, %24, %22#0, %22#1, %22#2) : (tensor<4x4xf32>, tensor<i32>, tensor<i32>, tensor<4x4xf32>, tensor<f32>) -> ()
    }) : (tensor<4x4xf32>, tensor<i32>, tensor<i32>, tensor<4x4xf32>, tensor<f32>) -> (tensor<4x4xf32>, tensor<i32>, tensor<i32>, tensor<4x4xf32>, tensor<f32>)
    %14 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %15:3 = "stablehlo.while"(%arg7, %14, %arg6) ({
    ^bb0(%arg11: tensor<i32>, %arg12: tensor<i32>, %arg13: tensor<4x4xf32>):
      %21 = "stablehlo.compare"(%arg12, %arg11) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      "stablehlo.return"(%21) : (tensor<i1>) -> ()
    }, {
    ^bb0(%arg8: tensor<i32>, %arg9: tensor<i32>, %arg10: tensor<4x4xf32>):
      %16 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
      %17 = "stablehlo.add"(%arg9, %16) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      %18 = "stablehlo.constant"() <{value = dense<5.000000e-01> : tensor<f32>}> : () -> tensor<f32>
      %19 = "stablehlo.broadcast_in_dim"(%18) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x4xf32>
      %20 = "stablehlo.multiply"(%arg10, %19) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
      "stablehlo.return"(%arg8, %17, %20) : (tensor<i32>, tensor<i32>, tensor<4x4xf32>) -> ()
    }) : (tensor<i32>, tensor<i32>, tensor<4x4xf32>) -> (tensor<i32>, tensor<i32>, tensor<4x4xf32>)
    "func.return"(%13#3, %13#4, %15#2) : (tensor<4x4xf32>, tensor<f32>, tensor<4x4xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<4x4xf32>, tensor<i32>, tensor<4x4xf32>, tensor<f32>) -> (tensor<i32>, tensor<4x4xf32>, tensor<f32>), sym_name = "closed_call", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<4x4xf32>, %arg1: tensor<i32>, %arg2: tensor<4x4xf32>, %arg3: tensor<f32>):
    %0 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %1 = "stablehlo.add"(%arg1, %0) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %2 = "stablehlo.dot_general"(%arg2, %arg0) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %3 = "stablehlo.convert"(%arg1) : (tensor<i32>) -> tensor<f32>
    %4 = "stablehlo.broadcast_in_dim"(%3) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x4xf32>
    %5 = "stablehlo.add"(%2, %4) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %6 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %7 = "stablehlo.reduce"(%arg2, %6) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
      %9 = "stablehlo.add"(%arg4, %arg5) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%9) : (tensor<f32>) -> ()
    }) : (tensor<4x4xf32>, tensor<f32>) -> tensor<f32>
    %8 = "stablehlo.add"(%arg3, %7) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "func.return"(%1, %5, %8) : (tensor<i32>, tensor<4x4xf32>, tensor<f32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
