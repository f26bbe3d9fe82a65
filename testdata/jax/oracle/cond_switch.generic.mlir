"builtin.module"() <{sym_name = "jit_f"}> ({
  "func.func"() <{function_type = (tensor<i1>, tensor<i32>, tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<i1>, %arg1: tensor<i32>, %arg2: tensor<8xf32>):
    %0 = "stablehlo.convert"(%arg0) : (tensor<i1>) -> tensor<i32>
    %1 = "stablehlo.case"(%0) ({
      %14 = "stablehlo.cosine"(%arg2) : (tensor<8xf32>) -> tensor<8xf32>
      "stablehlo.return"(%14) : (tensor<8xf32>) -> ()
    }, {
      %13 = "stablehlo.sine"(%arg2) : (tensor<8xf32>) -> tensor<8xf32>
      "stablehlo.return"(%13) : (tensor<8xf32>) -> ()
    }) : (tensor<i32>) -> tensor<8xf32>
    %2 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %3 = "stablehlo.constant"() <{value = dense<2> : tensor<i32>}> : () -> tensor<i32>
    %4 = "stablehlo.clamp"(%2, %arg1, %3) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %5 = "stablehlo.case"(%4) ({
      %10 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %11 = "stablehlo.broadcast_in_dim"(%10) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8xf32>
      %12 = "stablehlo.add"(%arg2, %11) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
      "stablehlo.return"(%12) : (tensor<8xf32>) -> ()
    }, {
      %7 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %8 = "stablehlo.broadcast_in_dim"(%7) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8xf32>
      %9 = "stablehlo.multiply"(%arg2, %8) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
      "stablehlo.return"(%9) : (tensor<8xf32>) -> ()
    }, {
      %6 = "stablehlo.negate"(%arg2) : (tensor<8xf32>) -> tensor<8xf32>
      "stablehlo.return"(%6) : (tensor<8xf32>) -> ()
    }) : (tensor<i32>) -> tensor<8xf32>
    "func.return"(%1, %5) : (tensor<8xf32>, tensor<8xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
