"builtin.module"() <{sym_name = "jit_f"}> ({
  "func.func"() <{function_type = (tensor<4xui32>) -> (tensor<4xui32>, tensor<4x8xui32>, tensor<4x8xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<4xui32>):
    %0 = "stablehlo.reshape"(%arg0) : (tensor<4xui32>) -> tensor<2x2xui32>
    %1 = "stablehlo.bitcast_convert"(%0) : (tensor<2x2xui32>) -> tensor<2xui64>
    %2:2 = "stablehlo.rng_bit_generator"(%1) <{rng_algorithm = #stablehlo<rng_algorithm DEFAULT>}> : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4x8xui32>)
    %3 = "stablehlo.bitcast_convert"(%2#0) : (tensor<2xui64>) -> tensor<2x2xui32>
    %4 = "stablehlo.reshape"(%3) : (tensor<2x2xui32>) -> tensor<4xui32>
    %5 = "stablehlo.convert"(%2#1) : (tensor<4x8xui32>) -> tensor<4x8xf32>
    %6 = "stablehlo.optimization_barrier"(%5) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    "func.return"(%4, %2#1, %6) : (tensor<4xui32>, tensor<4x8xui32>, tensor<4x8xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
