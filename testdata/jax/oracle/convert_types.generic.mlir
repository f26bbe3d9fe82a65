"builtin.module"() <{sym_name = "jit_f"}> ({
  "func.func"() <{function_type = (tensor<4x4xf32>, tensor<4x4xi32>, tensor<4x4xf16>) -> (tensor<4x4xbf16>, tensor<4x4xi32>, tensor<4x4xf32>, tensor<4x4xi1>, tensor<4x4xf32>, tensor<4x4xf16>, tensor<4x4xui8>, tensor<4x4xi8>, tensor<4x4xi32>, tensor<4x4xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}, {jax.result_info = "result[3]"}, {jax.result_info = "result[4]"}, {jax.result_info = "result[5]"}, {jax.result_info = "result[6]"}, {jax.result_info = "result[7]"}, {jax.result_info = "result[8]"}, {jax.result_info = "result[9]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<4x4xf32>, %arg1: tensor<4x4xi32>, %arg2: tensor<4x4xf16>):
    %0 = "stablehlo.convert"(%arg0) : (tensor<4x4xf32>) -> tensor<4x4xbf16>
    %1 = "stablehlo.convert"(%arg0) : (tensor<4x4xf32>) -> tensor<4x4xi32>
    %2 = "stablehlo.convert"(%arg1) : (tensor<4x4xi32>) -> tensor<4x4xf32>
    %3 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %4 = "stablehlo.broadcast_in_dim"(%3) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<4x4xi32>
    %5 = "stablehlo.compare"(%arg1, %4) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<4x4xi32>, tensor<4x4xi32>) -> tensor<4x4xi1>
    %6 = "stablehlo.convert"(%5) : (tensor<4x4xi1>) -> tensor<4x4xi1>
    %7 = "stablehlo.convert"(%arg2) : (tensor<4x4xf16>) -> tensor<4x4xf32>
    %8 = "stablehlo.convert"(%arg0) : (tensor<4x4xf32>) -> tensor<4x4xf16>
    %9 = "stablehlo.convert"(%arg1) : (tensor<4x4xi32>) -> tensor<4x4xui8>
    %10 = "stablehlo.convert"(%arg1) : (tensor<4x4xi32>) -> tensor<4x4xi8>
    %11 = "stablehlo.bitcast_convert"(%arg0) : (tensor<4x4xf32>) -> tensor<4x4xi32>
    %12 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %13 = "stablehlo.broadcast_in_dim"(%12) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x4xf32>
    %14 = "stablehlo.compare"(%arg0, %13) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xi1>
    %15 = "stablehlo.convert"(%14) : (tensor<4x4xi1>) -> tensor<4x4xf32>
    "func.return"(%0, %1, %2, %6, %7, %8, %9, %10, %11, %15) : (tensor<4x4xbf16>, tensor<4x4xi32>, tensor<4x4xf32>, tensor<4x4xi1>, tensor<4x4xf32>, tensor<4x4xf16>, tensor<4x4xui8>, tensor<4x4xi8>, tensor<4x4xi32>, tensor<4x4xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
