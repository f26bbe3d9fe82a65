"builtin.module"() <{sym_name = "jit_f"}> ({
  "func.func"() <{function_type = (tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>, tensor<3x4x5xbf16>, tensor<3x5x6xbf16>) -> (tensor<2x4x8x8xf32>, tensor<3x4x6xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<2x4x8x16xf32>, %arg1: tensor<2x4x8x16xf32>, %arg2: tensor<3x4x5xbf16>, %arg3: tensor<3x5x6xbf16>):
    %0 = "stablehlo.dot_general"(%arg0, %arg1) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [3]>, precision_config = [#stablehlo<precision HIGHEST>, #stablehlo<precision HIGHEST>]}> : (tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>) -> tensor<2x4x8x8xf32>
    %1 = "stablehlo.dot_general"(%arg2, %arg3) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<3x4x5xbf16>, tensor<3x5x6xbf16>) -> tensor<3x4x6xf32>
    "func.return"(%0, %1) : (tensor<2x4x8x8xf32>, tensor<3x4x6xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
