"builtin.module"() <{sym_name = "jit_f"}> ({
  "func.func"() <{function_type = (tensor<16x8xf32>, tensor<i32>, tensor<2x3xf32>) -> (tensor<4x4xf32>, tensor<4x8xf32>, tensor<16x8xf32>, tensor<8xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}, {jax.result_info = "result[3]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<16x8xf32>, %arg1: tensor<i32>, %arg2: tensor<2x3xf32>):
    %0 = "stablehlo.slice"(%arg0) <{limit_indices = array<i64: 5, 8>, start_indices = array<i64: 1, 0>, strides = array<i64: 1, 2>}> : (tensor<16x8xf32>) -> tensor<4x4xf32>
    %1 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %2 = "stablehlo.compare"(%arg1, %1) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %3 = "stablehlo.constant"() <{value = dense<16> : tensor<i32>}> : () -> tensor<i32>
    %4 = "stablehlo.add"(%arg1, %3) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %5 = "stablehlo.select"(%2, %4, %arg1) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %6 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %7 = "stablehlo.dynamic_slice"(%arg0, %5, %6) <{slice_sizes = array<i64: 4, 8>}> : (tensor<16x8xf32>, tensor<i32>, tensor<i32>) -> tensor<4x8xf32>
    %8 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %9 = "stablehlo.compare"(%arg1, %8) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %10 = "stablehlo.constant"() <{value = dense<8> : tensor<i32>}> : () -> tensor<i32>
    %11 = "stablehlo.add"(%arg1, %10) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %12 = "stablehlo.select"(%9, %11, %arg1) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %13 = "stablehlo.constant"() <{value = dense<2> : tensor<i32>}> : () -> tensor<i32>
    %14 = "stablehlo.dynamic_update_slice"(%arg0, %arg2, %13, %12) : (tensor<16x8xf32>, tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<16x8xf32>
    %15 = "stablehlo.slice"(%arg0) <{limit_indices = array<i64: 16, 8>, start_indices = array<i64: 15, 0>, strides = array<i64: 1, 1>}> : (tensor<16x8xf32>) -> tensor<1x8xf32>
    %16 = "stablehlo.reshape"(%15) : (tensor<1x8xf32>) -> tensor<8xf32>
    "func.return"(%0, %7, %14, %16) : (tensor<4x4xf32>, tensor<4x8xf32>, tensor<16x8xf32>, tensor<8xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
