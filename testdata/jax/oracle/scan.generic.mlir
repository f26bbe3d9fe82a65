"builtin.module"() <{sym_name = "jit_f"}> ({
  "func.func"() <{function_type = (tensor<2x8xf32>, tensor<5x2x8xf32>, tensor<8x8xf32>) -> (tensor<2x8xf32>, tensor<5xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg10: tensor<2x8xf32>, %arg11: tensor<5x2x8xf32>, %arg12: tensor<8x8xf32>):
    %12 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %13 = "stablehlo.broadcast_in_dim"(%12) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<5xf32>
    %14 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %15:5 = "stablehlo.while"(%arg11, %arg12, %14, %arg10, %13) ({
    ^bb0(%arg18: tensor<5x2x8xf32>, %arg19: tensor<8x8xf32>, %arg20: tensor<i32>, %arg21: tensor<2x8xf32>, %arg22: tensor<5xf32>):
      %21 = "stablehlo.constant"() <{value = dense<5> : tensor<i32>}> : () -> tensor<i32>
      %22 = "stablehlo.compare"(%arg20, %21) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      "stablehlo.return"(%22) : (tensor<i1>) -> ()
    }, {
    ^bb0(%arg13: tensor<5x2x8xf32>, %arg14: tensor<8x8xf32>, %arg15: tensor<i32>, %arg16: tensor<2x8xf32>, %arg17: tensor<5xf32>):
      %16 = "func.call"(%arg13, %arg15) <{callee = @dynamic_index_in_dim}> : (tensor<5x2x8xf32>, tensor<i32>) -> tensor<2x8xf32>
      %17:2 = "func.call"(%arg14, %arg16, %16) <{callee = @closed_call}> : (tensor<8x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>) -> (tensor<2x8xf32>, tensor<f32>)
      %18 = "func.call"(%arg17, %17#1, %arg15) <{callee = @dynamic_update_index_in_dim}> : (tensor<5xf32>, tensor<f32>, tensor<i32>) -> tensor<5xf32>
      %19 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
      %20 = "stablehlo.add"(%arg15, %19) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%arg13, %arg14, %20, %17#0, %18) : (tensor<5x2x8xf32>, tensor<8x8xf32>, tensor<i32>, tensor<2x8xf32>, tensor<5xf32>) -> ()
    }) : (tensor<5x2x8xf32>, tensor<8x8xf32>, tensor<i32>, tensor<2x8xf32>, tensor<5xf32>) -> (tensor<5x2x8xf32>, tensor<8x8xf32>, tensor<i32>, tensor<2x8xf32>, tensor<5xf32>)
    "func.return"(%15#3, %15#4) : (tensor<2x8xf32>, tensor<5xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<5x2x8xf32>, tensor<i32>) -> tensor<2x8xf32>, sym_name = "dynamic_index_in_dim", sym_visibility = "private"}> ({
  ^bb0(%arg8: tensor<5x2x8xf32>, %arg9: tensor<i32>):
    %8 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %9 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %10 = "stablehlo.dynamic_slice"(%arg8, %arg9, %8, %9) <{slice_sizes = array<i64: 1, 2, 8>}> : (tensor<5x2x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x2x8xf32>
    %11 = "stablehlo.reshape"(%10) : (tensor<1x2x8xf32>) -> tensor<2x8xf32>
    "func.return"(%11) : (tensor<2x8xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<8x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>) -> (tensor<2x8xf32>, tensor<f32>), sym_name = "closed_call", sym_visibility = "private"}> ({
  ^bb0(%arg3: tensor<8x8xf32>, %arg4: tensor<2x8xf32>, %arg5: tensor<2x8xf32>):
    %2 = "stablehlo.dot_general"(%arg4, %arg3) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x8xf32>, tensor<8x8xf32>) -> tensor<2x8xf32>
    %3 = "stablehlo.add"(%2, %arg5) : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
    %4 = "stablehlo.tanh"(%3) : (tensor<2x8xf32>) -> tensor<2x8xf32>
    %5 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %6 = "stablehlo.reduce"(%4, %5) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg6: tensor<f32>, %arg7: tensor<f32>):
      %7 = "stablehlo.add"(%arg6, %arg7) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%7) : (tensor<f32>) -> ()
    }) : (tensor<2x8xf32>, tensor<f32>) -> tensor<f32>
    "func.return"(%4, %6) : (tensor<2x8xf32>, tensor<f32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<5xf32>, tensor<f32>, tensor<i32>) -> tensor<5xf32>, sym_name = "dynamic_update_index_in_dim", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<5xf32>, %arg1: tensor<f32>, %arg2: tensor<i32>):
    %0 = "stablehlo.broadcast_in_dim"(%arg1) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<1xf32>
    %1 = "stablehlo.dynamic_update_slice"(%arg0, %0, %arg2) : (tensor<5xf32>, tensor<1xf32>, tensor<i32>) -> tensor<5xf32>
    "func.return"(%1) : (tensor<5xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
