"builtin.module"() <{sym_name = "jit_f"}> ({
  "func.func"() <{function_type = (tensor<16x8xf32>, tensor<1x8x8x4xf32>) -> (tensor<16x8xf32>, tensor<16x8xf32>, tensor<1x4x4x4xf32>, tensor<1x8x8x4xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}, {jax.result_info = "result[3]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg7: tensor<16x8xf32>, %arg8: tensor<1x8x8x4xf32>):
    %9 = "func.call"(%arg7) <{callee = @cumsum}> : (tensor<16x8xf32>) -> tensor<16x8xf32>
    %10 = "func.call"(%arg7) <{callee = @cummax}> : (tensor<16x8xf32>) -> tensor<16x8xf32>
    %11 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %12 = "stablehlo.broadcast_in_dim"(%11) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<f32>
    %13 = "stablehlo.reduce_window"(%arg8, %12) <{base_dilations = array<i64: 1, 1, 1, 1>, padding = dense<[[0, 0], [0, 1], [0, 1], [0, 0]]> : tensor<4x2xi64>, window_dilations = array<i64: 1, 1, 1, 1>, window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
    ^bb0(%arg11: tensor<f32>, %arg12: tensor<f32>):
      %18 = "stablehlo.maximum"(%arg11, %arg12) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%18) : (tensor<f32>) -> ()
    }) : (tensor<1x8x8x4xf32>, tensor<f32>) -> tensor<1x4x4x4xf32>
    %14 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %15 = "stablehlo.broadcast_in_dim"(%14) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<f32>
    %16 = "stablehlo.reduce_window"(%arg8, %15) <{base_dilations = array<i64: 1, 1, 1, 1>, padding = dense<[[0, 0], [1, 0], [0, 1], [0, 0]]> : tensor<4x2xi64>, window_dilations = array<i64: 1, 1, 1, 1>, window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 1, 1, 1>}> ({
    ^bb0(%arg9: tensor<f32>, %arg10: tensor<f32>):
      %17 = "stablehlo.add"(%arg9, %arg10) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%17) : (tensor<f32>) -> ()
    }) : (tensor<1x8x8x4xf32>, tensor<f32>) -> tensor<1x8x8x4xf32>
    "func.return"(%9, %10, %13, %16) : (tensor<16x8xf32>, tensor<16x8xf32>, tensor<1x4x4x4xf32>, tensor<1x8x8x4xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<16x8xf32>) -> tensor<16x8xf32>, sym_name = "cumsum", sym_visibility = "private"}> ({
  ^bb0(%arg6: tensor<16x8xf32>):
    %8 = "func.call"(%arg6) <{callee = @cumsum_0}> : (tensor<16x8xf32>) -> tensor<16x8xf32>
    "func.return"(%8) : (tensor<16x8xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<16x8xf32>) -> tensor<16x8xf32>, sym_name = "cumsum_0", sym_visibility = "private"}> ({
  ^bb0(%arg3: tensor<16x8xf32>):
    %4 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %5 = "stablehlo.broadcast_in_dim"(%4) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<f32>
    %6 = "stablehlo.reduce_window"(%arg3, %5) <{base_dilations = array<i64: 1, 1>, padding = dense<[[15, 0], [0, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 16, 1>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
      %7 = "stablehlo.add"(%arg4, %arg5) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%7) : (tensor<f32>) -> ()
    }) : (tensor<16x8xf32>, tensor<f32>) -> tensor<16x8xf32>
    "func.return"(%6) : (tensor<16x8xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<16x8xf32>) -> tensor<16x8xf32>, sym_name = "cummax", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<16x8xf32>):
    %0 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %1 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<f32>
    %2 = "stablehlo.reduce_window"(%arg0, %1) <{base_dilations = array<i64: 1, 1>, padding = dense<[[0, 0], [7, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 1, 8>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %3 = "stablehlo.maximum"(%arg1, %arg2) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%3) : (tensor<f32>) -> ()
    }) : (tensor<16x8xf32>, tensor<f32>) -> tensor<16x8xf32>
    "func.return"(%2) : (tensor<16x8xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
