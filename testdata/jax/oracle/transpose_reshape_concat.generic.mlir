"builtin.module"() <{sym_name = "jit_f"}> ({
  "func.func"() <{function_type = (tensor<4x6x8xf32>, tensor<8x3xf32>) -> (tensor<2x8x27xf32>, tensor<1x4x6x8xf32>, tensor<4x6x8xf32>, tensor<5x8x8xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}, {jax.result_info = "result[3]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg3: tensor<4x6x8xf32>, %arg4: tensor<8x3xf32>):
    %3 = "stablehlo.transpose"(%arg3) <{permutation = array<i64: 2, 0, 1>}> : (tensor<4x6x8xf32>) -> tensor<8x4x6xf32>
    %4 = "stablehlo.reshape"(%3) : (tensor<8x4x6xf32>) -> tensor<8x24xf32>
    %5 = "stablehlo.concatenate"(%4, %arg4) <{dimension = 1 : i64}> : (tensor<8x24xf32>, tensor<8x3xf32>) -> tensor<8x27xf32>
    %6 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %7 = "stablehlo.broadcast_in_dim"(%6) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x27xf32>
    %8 = "stablehlo.multiply"(%5, %7) : (tensor<8x27xf32>, tensor<8x27xf32>) -> tensor<8x27xf32>
    %9 = "stablehlo.broadcast_in_dim"(%5) <{broadcast_dimensions = array<i64: 1, 2>}> : (tensor<8x27xf32>) -> tensor<1x8x27xf32>
    %10 = "stablehlo.broadcast_in_dim"(%8) <{broadcast_dimensions = array<i64: 1, 2>}> : (tensor<8x27xf32>) -> tensor<1x8x27xf32>
    %11 = "stablehlo.concatenate"(%9, %10) <{dimension = 0 : i64}> : (tensor<1x8x27xf32>, tensor<1x8x27xf32>) -> tensor<2x8x27xf32>
    %12 = "stablehlo.broadcast_in_dim"(%11) <{broadcast_dimensions = array<i64: 0, 2, 3>}> : (tensor<2x8x27xf32>) -> tensor<2x1x8x27xf32>
    %13 = "stablehlo.reshape"(%12) : (tensor<2x1x8x27xf32>) -> tensor<2x8x27xf32>
    %14 = "stablehlo.broadcast_in_dim"(%arg3) <{broadcast_dimensions = array<i64: 1, 2, 3>}> : (tensor<4x6x8xf32>) -> tensor<1x4x6x8xf32>
    %15 = "func.call"(%arg3) <{callee = @_flip}> : (tensor<4x6x8xf32>) -> tensor<4x6x8xf32>
    %16 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %17 = "func.call"(%arg3, %16) <{callee = @_pad}> : (tensor<4x6x8xf32>, tensor<i32>) -> tensor<5x8x8xf32>
    "func.return"(%13, %14, %15, %17) : (tensor<2x8x27xf32>, tensor<1x4x6x8xf32>, tensor<4x6x8xf32>, tensor<5x8x8xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<4x6x8xf32>) -> tensor<4x6x8xf32>, sym_name = "_flip", sym_visibility = "private"}> ({
  ^bb0(%arg2: tensor<4x6x8xf32>):
    %2 = "stablehlo.reverse"(%arg2) <{dimensions = array<i64: 2>}> : (tensor<4x6x8xf32>) -> tensor<4x6x8xf32>
    "func.return"(%2) : (tensor<4x6x8xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<4x6x8xf32>, tensor<i32>) -> tensor<5x8x8xf32>, sym_name = "_pad", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<4x6x8xf32>, %arg1: tensor<i32>):
    %0 = "stablehlo.convert"(%arg1) : (tensor<i32>) -> tensor<f32>
    %1 = "stablehlo.pad"(%arg0, %0) <{edge_padding_high = array<i64: 0, 2, 0>, edge_padding_low = array<i64: 1, 0, 0>, interior_padding = array<i64: 0, 0, 0>}> : (tensor<4x6x8xf32>, tensor<f32>) -> tensor<5x8x8xf32>
    "func.return"(%1) : (tensor<5x8x8xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
