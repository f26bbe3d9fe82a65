"builtin.module"() <{sym_name = "jit_f"}> ({
  "func.func"() <{function_type = (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xi32>, tensor<4x4xui32>) -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xi32>, tensor<4x4xi32>, tensor<4x4xi32>, tensor<4x4xi32>, tensor<4x4xi32>, tensor<4x4xi32>, tensor<4x4xi32>, tensor<4x4xui32>, tensor<4x4xi1>, tensor<4x4xf32>, tensor<4x4xi1>, tensor<4x4xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}, {jax.result_info = "result[3]"}, {jax.result_info = "result[4]"}, {jax.result_info = "result[5]"}, {jax.result_info = "result[6]"}, {jax.result_info = "result[7]"}, {jax.result_info = "result[8]"}, {jax.result_info = "result[9]"}, {jax.result_info = "result[10]"}, {jax.result_info = "result[11]"}, {jax.result_info = "result[12]"}, {jax.result_info = "result[13]"}, {jax.result_info = "result[14]"}, {jax.result_info = "result[15]"}, {jax.result_info = "result[16]"}, {jax.result_info = "result[17]"}, {jax.result_info = "result[18]"}, {jax.result_info = "result[19]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg3: tensor<4x4xf32>, %arg4: tensor<4x4xf32>, %arg5: tensor<4x4xi32>, %arg6: tensor<4x4xui32>):
    %15 = "stablehlo.abs"(%arg3) : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %16 = "stablehlo.constant"() <{value = dense<2.500000e+00> : tensor<f32>}> : () -> tensor<f32>
    %17 = "stablehlo.broadcast_in_dim"(%16) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x4xf32>
    %18 = "stablehlo.power"(%15, %17) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %19 = "stablehlo.sign"(%arg4) : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %20 = "stablehlo.floor"(%arg3) : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %21 = "stablehlo.ceil"(%arg4) : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %22 = "stablehlo.add"(%20, %21) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %23 = "func.call"(%arg3) <{callee = @round}> : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %24 = "stablehlo.add"(%22, %23) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %25 = "func.call"(%arg3, %arg4) <{callee = @remainder}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %26 = "stablehlo.atan2"(%arg3, %arg4) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %27 = "stablehlo.negate"(%arg3) : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %28 = "stablehlo.exponential"(%27) : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %29 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %30 = "stablehlo.broadcast_in_dim"(%29) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x4xf32>
    %31 = "stablehlo.add"(%30, %28) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %32 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %33 = "stablehlo.broadcast_in_dim"(%32) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x4xf32>
    %34 = "stablehlo.divide"(%33, %31) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %35 = "stablehlo.cbrt"(%arg4) : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %36 = "stablehlo.exponential_minus_one"(%arg3) : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %37 = "stablehlo.log_plus_one"(%arg4) : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %38 = "stablehlo.add"(%36, %37) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %39 = "stablehlo.constant"() <{value = dense<2> : tensor<i32>}> : () -> tensor<i32>
    %40 = "stablehlo.broadcast_in_dim"(%39) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<4x4xi32>
    %41 = "stablehlo.shift_right_arithmetic"(%arg5, %40) : (tensor<4x4xi32>, tensor<4x4xi32>) -> tensor<4x4xi32>
    %42 = "stablehlo.convert"(%arg6) : (tensor<4x4xui32>) -> tensor<4x4xi32>
    %43 = "stablehlo.shift_left"(%arg5, %42) : (tensor<4x4xi32>, tensor<4x4xi32>) -> tensor<4x4xi32>
    %44 = "stablehlo.convert"(%arg6) : (tensor<4x4xui32>) -> tensor<4x4xi32>
    %45 = "stablehlo.and"(%arg5, %44) : (tensor<4x4xi32>, tensor<4x4xi32>) -> tensor<4x4xi32>
    %46 = "stablehlo.convert"(%arg6) : (tensor<4x4xui32>) -> tensor<4x4xi32>
    %47 = "stablehlo.or"(%arg5, %46) : (tensor<4x4xi32>, tensor<4x4xi32>) -> tensor<4x4xi32>
    %48 = "stablehlo.convert"(%arg6) : (tensor<4x4xui32>) -> tensor<4x4xi32>
    %49 = "stablehlo.xor"(%arg5, %48) : (tensor<4x4xi32>, tensor<4x4xi32>) -> tensor<4x4xi32>
    %50 = "stablehlo.not"(%arg5) : (tensor<4x4xi32>) -> tensor<4x4xi32>
    %51 = "stablehlo.popcnt"(%arg5) : (tensor<4x4xi32>) -> tensor<4x4xi32>
    %52 = "stablehlo.count_leading_zeros"(%arg6) : (tensor<4x4xui32>) -> tensor<4x4xui32>
    %53 = "stablehlo.compare"(%arg3, %arg4) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xi1>
    %54 = "stablehlo.not"(%53) : (tensor<4x4xi1>) -> tensor<4x4xi1>
    %55 = "chlo.erf"(%arg3) : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %56 = "stablehlo.is_finite"(%arg4) : (tensor<4x4xf32>) -> tensor<4x4xi1>
    %57 = "chlo.next_after"(%arg3, %arg4) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    "func.return"(%18, %19, %24, %25, %26, %34, %35, %38, %41, %43, %45, %47, %49, %50, %51, %52, %54, %55, %56, %57) : (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xi32>, tensor<4x4xi32>, tensor<4x4xi32>, tensor<4x4xi32>, tensor<4x4xi32>, tensor<4x4xi32>, tensor<4x4xi32>, tensor<4x4xui32>, tensor<4x4xi1>, tensor<4x4xf32>, tensor<4x4xi1>, tensor<4x4xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<4x4xf32>) -> tensor<4x4xf32>, sym_name = "round", sym_visibility = "private"}> ({
  ^bb0(%arg2: tensor<4x4xf32>):
    %14 = "stablehlo.round_nearest_even"(%arg2) : (tensor<4x4xf32>) -> tensor<4x4xf32>
    "func.return"(%14) : (tensor<4x4xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>, sym_name = "remainder", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<4x4xf32>, %arg1: tensor<4x4xf32>):
    %0 = "stablehlo.remainder"(%arg0, %arg1) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %1 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %2 = "stablehlo.broadcast_in_dim"(%1) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x4xf32>
    %3 = "stablehlo.compare"(%0, %2) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xi1>
    %4 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %5 = "stablehlo.broadcast_in_dim"(%4) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x4xf32>
    %6 = "stablehlo.compare"(%0, %5) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xi1>
    %7 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %8 = "stablehlo.broadcast_in_dim"(%7) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x4xf32>
    %9 = "stablehlo.compare"(%arg1, %8) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xi1>
    %10 = "stablehlo.compare"(%6, %9) <{compare_type = #stablehlo<comparison_type UNSIGNED>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<4x4xi1>, tensor<4x4xi1>) -> tensor<4x4xi1>
    %11 = "stablehlo.and"(%10, %3) : (tensor<4x4xi1>, tensor<4x4xi1>) -> tensor<4x4xi1>
    %12 = "stablehlo.add"(%0, %arg1) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %13 = "stablehlo.select"(%11, %12, %0) : (tensor<4x4xi1>, tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    "func.return"(%13) : (tensor<4x4xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
