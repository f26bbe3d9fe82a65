"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{function_type = (tensor<4x4xf32>) -> tensor<4x4xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg1: tensor<4x4xf32>):
    %23 = "stablehlo.transpose"(%arg1) <{permutation = array<i64: 1, 0>}> : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %24 = "stablehlo.dot_general"(%arg1, %23) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %25 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<4x4xi32>
    %26 = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<4x4xi32>
    %27 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %28 = "stablehlo.broadcast_in_dim"(%27) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<4x4xi32>
    %29 = "stablehlo.add"(%25, %28) : (tensor<4x4xi32>, tensor<4x4xi32>) -> tensor<4x4xi32>
    %30 = "stablehlo.compare"(%29, %26) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<4x4xi32>, tensor<4x4xi32>) -> tensor<4x4xi1>
    %31 = "stablehlo.convert"(%30) : (tensor<4x4xi1>) -> tensor<4x4xf32>
    %32 = "stablehlo.constant"() <{value = dense<4.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %33 = "stablehlo.broadcast_in_dim"(%32) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x4xf32>
    %34 = "stablehlo.multiply"(%33, %31) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %35 = "stablehlo.add"(%24, %34) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %36 = "func.call"(%35) <{callee = @cholesky}> : (tensor<4x4xf32>) -> tensor<4x4xf32>
    "func.return"(%36) : (tensor<4x4xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<4x4xf32>) -> tensor<4x4xf32>, sym_name = "cholesky", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<4x4xf32>):
    %0 = "stablehlo.transpose"(%arg0) <{permutation = array<i64: 1, 0>}> : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %1 = "stablehlo.add"(%arg0, %0) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %2 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %3 = "stablehlo.broadcast_in_dim"(%2) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x4xf32>
    %4 = "stablehlo.divide"(%1, %3) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %5:2 = "stablehlo.custom_call"(%4) <{backend_config = "", call_target_name = "lapack_spotrf_ffi", operand_layouts = [dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<> : tensor<0xindex>]}> {mhlo.backend_config = {uplo = 76 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "0"}, sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([k, l], []) {i=4, j=4, k=4, l=4}, custom>} : (tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<i32>)
    %6 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %7 = "stablehlo.broadcast_in_dim"(%6) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<i32>
    %8 = "stablehlo.compare"(%5#1, %7) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %9 = "stablehlo.broadcast_in_dim"(%8) <{broadcast_dimensions = array<i64>}> : (tensor<i1>) -> tensor<1x1xi1>
    %10 = "stablehlo.constant"() <{value = dense<0x7FC00000> : tensor<f32>}> : () -> tensor<f32>
    %11 = "stablehlo.broadcast_in_dim"(%10) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x4xf32>
    %12 = "stablehlo.broadcast_in_dim"(%9) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x1xi1>) -> tensor<4x4xi1>
    %13 = "stablehlo.select"(%12, %5#0, %11) : (tensor<4x4xi1>, tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %14 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<4x4xi32>
    %15 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %16 = "stablehlo.broadcast_in_dim"(%15) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<4x4xi32>
    %17 = "stablehlo.add"(%14, %16) : (tensor<4x4xi32>, tensor<4x4xi32>) -> tensor<4x4xi32>
    %18 = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<4x4xi32>
    %19 = "stablehlo.compare"(%17, %18) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<4x4xi32>, tensor<4x4xi32>) -> tensor<4x4xi1>
    %20 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %21 = "stablehlo.broadcast_in_dim"(%20) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x4xf32>
    %22 = "stablehlo.select"(%19, %13, %21) : (tensor<4x4xi1>, tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    "func.return"(%22) : (tensor<4x4xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
