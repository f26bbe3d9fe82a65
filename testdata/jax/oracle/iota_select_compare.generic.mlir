"builtin.module"() <{sym_name = "jit_f"}> ({
  "func.func"() <{function_type = (tensor<8x8xf32>, tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8xi1>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}, {jax.result_info = "result[3]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg12: tensor<8x8xf32>, %arg13: tensor<8x8xf32>):
    %13 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<8x8xi32>
    %14 = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<8x8xi32>
    %15 = "stablehlo.compare"(%13, %14) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<8x8xi32>, tensor<8x8xi32>) -> tensor<8x8xi1>
    %16 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %17 = "func.call"(%15, %arg12, %16) <{callee = @_where}> : (tensor<8x8xi1>, tensor<8x8xf32>, tensor<f32>) -> tensor<8x8xf32>
    %18 = "stablehlo.compare"(%arg12, %arg13) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xi1>
    %19 = "func.call"(%18, %arg12, %arg13) <{callee = @_where_0}> : (tensor<8x8xi1>, tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    %20 = "stablehlo.compare"(%arg12, %arg12) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xi1>
    %21 = "stablehlo.compare"(%arg12, %arg13) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xi1>
    %22 = "stablehlo.or"(%20, %21) : (tensor<8x8xi1>, tensor<8x8xi1>) -> tensor<8x8xi1>
    %23 = "stablehlo.constant"() <{value = dense<-1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %24 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %25 = "func.call"(%arg12, %23, %24) <{callee = @clip}> : (tensor<8x8xf32>, tensor<f32>, tensor<f32>) -> tensor<8x8xf32>
    %26 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %27 = "func.call"(%22, %26, %25) <{callee = @_where_1}> : (tensor<8x8xi1>, tensor<f32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    %28 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<8xui32>
    %29 = "stablehlo.constant"() <{value = dense<3> : tensor<ui32>}> : () -> tensor<ui32>
    %30 = "stablehlo.broadcast_in_dim"(%29) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<8xui32>
    %31 = "stablehlo.compare"(%28, %30) <{compare_type = #stablehlo<comparison_type UNSIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<8xui32>, tensor<8xui32>) -> tensor<8xi1>
    "func.return"(%17, %19, %27, %31) : (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8xi1>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<8x8xi1>, tensor<8x8xf32>, tensor<f32>) -> tensor<8x8xf32>, sym_name = "_where", sym_visibility = "private"}> ({
  ^bb0(%arg9: tensor<8x8xi1>, %arg10: tensor<8x8xf32>, %arg11: tensor<f32>):
    %10 = "stablehlo.convert"(%arg11) : (tensor<f32>) -> tensor<f32>
    %11 = "stablehlo.broadcast_in_dim"(%10) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x8xf32>
    %12 = "stablehlo.select"(%arg9, %arg10, %11) : (tensor<8x8xi1>, tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    "func.return"(%12) : (tensor<8x8xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<8x8xi1>, tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>, sym_name = "_where_0", sym_visibility = "private"}> ({
  ^bb0(%arg6: tensor<8x8xi1>, %arg7: tensor<8x8xf32>, %arg8: tensor<8x8xf32>):
    %9 = "stablehlo.select"(%arg6, %arg7, %arg8) : (tensor<8x8xi1>, tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    "func.return"(%9) : (tensor<8x8xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<8x8xf32>, tensor<f32>, tensor<f32>) -> tensor<8x8xf32>, sym_name = "clip", sym_visibility = "private"}> ({
  ^bb0(%arg3: tensor<8x8xf32>, %arg4: tensor<f32>, %arg5: tensor<f32>):
    %3 = "stablehlo.convert"(%arg4) : (tensor<f32>) -> tensor<f32>
    %4 = "stablehlo.broadcast_in_dim"(%3) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x8xf32>
    %5 = "stablehlo.maximum"(%4, %arg3) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    %6 = "stablehlo.convert"(%arg5) : (tensor<f32>) -> tensor<f32>
    %7 = "stablehlo.broadcast_in_dim"(%6) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x8xf32>
    %8 = "stablehlo.minimum"(%7, %5) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    "func.return"(%8) : (tensor<8x8xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<8x8xi1>, tensor<f32>, tensor<8x8xf32>) -> tensor<8x8xf32>, sym_name = "_where_1", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<8x8xi1>, %arg1: tensor<f32>, %arg2: tensor<8x8xf32>):
    %0 = "stablehlo.convert"(%arg1) : (tensor<f32>) -> tensor<f32>
    %1 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x8xf32>
    %2 = "stablehlo.select"(%arg0, %1, %arg2) : (tensor<8x8xi1>, tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    "func.return"(%2) : (tensor<8x8xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
