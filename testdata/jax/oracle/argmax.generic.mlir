"builtin.module"() <{sym_name = "jit_f"}> ({
  "func.func"() <{function_type = (tensor<8x32xf32>) -> (tensor<8xi32>, tensor<32xi32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg10: tensor<8x32xf32>):
    %26 = "func.call"(%arg10) <{callee = @argmax}> : (tensor<8x32xf32>) -> tensor<8xi32>
    %27 = "func.call"(%arg10) <{callee = @argmin}> : (tensor<8x32xf32>) -> tensor<32xi32>
    "func.return"(%26, %27) : (tensor<8xi32>, tensor<32xi32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<8x32xf32>) -> tensor<8xi32>, sym_name = "argmax", sym_visibility = "private"}> ({
  ^bb0(%arg5: tensor<8x32xf32>):
    %13 = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<8x32xi32>
    %14 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %15 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %16:2 = "stablehlo.reduce"(%arg5, %13, %14, %15) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg6: tensor<f32>, %arg7: tensor<i32>, %arg8: tensor<f32>, %arg9: tensor<i32>):
      %17 = "stablehlo.compare"(%arg6, %arg8) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %18 = "stablehlo.compare"(%arg6, %arg6) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %19 = "stablehlo.or"(%17, %18) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %20 = "stablehlo.compare"(%arg6, %arg8) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %21 = "stablehlo.compare"(%arg7, %arg9) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %22 = "stablehlo.and"(%20, %21) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %23 = "stablehlo.or"(%19, %22) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %24 = "stablehlo.select"(%19, %arg6, %arg8) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
      %25 = "stablehlo.select"(%23, %arg7, %arg9) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%24, %25) : (tensor<f32>, tensor<i32>) -> ()
    }) : (tensor<8x32xf32>, tensor<8x32xi32>, tensor<f32>, tensor<i32>) -> (tensor<8xf32>, tensor<8xi32>)
    "func.return"(%16#1) : (tensor<8xi32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<8x32xf32>) -> tensor<32xi32>, sym_name = "argmin", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<8x32xf32>):
    %0 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<8x32xi32>
    %1 = "stablehlo.constant"() <{value = dense<0x7F800000> : tensor<f32>}> : () -> tensor<f32>
    %2 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %3:2 = "stablehlo.reduce"(%arg0, %0, %1, %2) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<i32>, %arg3: tensor<f32>, %arg4: tensor<i32>):
      %4 = "stablehlo.compare"(%arg1, %arg3) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %5 = "stablehlo.compare"(%arg1, %arg1) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %6 = "stablehlo.or"(%4, %5) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %7 = "stablehlo.compare"(%arg1, %arg3) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %8 = "stablehlo.compare"(%arg2, %arg4) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %9 = "stablehlo.and"(%7, %8) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %10 = "stablehlo.or"(%6, %9) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %11 = "stablehlo.select"(%6, %arg1, %arg3) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
      %12 = "stablehlo.select"(%10, %arg2, %arg4) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%11, %12) : (tensor<f32>, tensor<i32>) -> ()
    }) : (tensor<8x32xf32>, tensor<8x32xi32>, tensor<f32>, tensor<i32>) -> (tensor<32xf32>, tensor<32xi32>)
    "func.return"(%3#1) : (tensor<32xi32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
