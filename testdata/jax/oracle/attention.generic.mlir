"builtin.module"() <{sym_name = "jit__attention"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["batch"=2, "model"=4]>, sym_name = "mesh"}> {stablehlo.mesh = {axes = [{name = "batch", size = 2 : i64}, {name = "model", size = 4 : i64}]}} : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"batch"}, {}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}], function_type = (tensor<4x16x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<4x16x64xf32>, res_attrs = [{jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{"batch"}, {}, {}]>}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg4: tensor<4x16x64xf32>, %arg5: tensor<64x64xf32>, %arg6: tensor<64x64xf32>, %arg7: tensor<64x64xf32>, %arg8: tensor<64x64xf32>):
    %13 = "stablehlo.dot_general"(%arg4, %arg5) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<4x16x64xf32>, tensor<64x64xf32>) -> tensor<4x16x64xf32>
    %14 = "stablehlo.reshape"(%13) : (tensor<4x16x64xf32>) -> tensor<4x16x4x16xf32>
    %15 = "stablehlo.transpose"(%14) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<4x16x4x16xf32>) -> tensor<4x4x16x16xf32>
    %16 = "stablehlo.dot_general"(%arg4, %arg6) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<4x16x64xf32>, tensor<64x64xf32>) -> tensor<4x16x64xf32>
    %17 = "stablehlo.reshape"(%16) : (tensor<4x16x64xf32>) -> tensor<4x16x4x16xf32>
    %18 = "stablehlo.transpose"(%17) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<4x16x4x16xf32>) -> tensor<4x4x16x16xf32>
    %19 = "stablehlo.dot_general"(%arg4, %arg7) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<4x16x64xf32>, tensor<64x64xf32>) -> tensor<4x16x64xf32>
    %20 = "stablehlo.reshape"(%19) : (tensor<4x16x64xf32>) -> tensor<4x16x4x16xf32>
    %21 = "stablehlo.transpose"(%20) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<4x16x4x16xf32>) -> tensor<4x4x16x16xf32>
    %22 = "stablehlo.dot_general"(%15, %18) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [3]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<4x4x16x16xf32>, tensor<4x4x16x16xf32>) -> tensor<4x4x16x16xf32>
    %23 = "stablehlo.constant"() <{value = dense<4.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %24 = "stablehlo.broadcast_in_dim"(%23) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x4x16x16xf32>
    %25 = "stablehlo.divide"(%22, %24) : (tensor<4x4x16x16xf32>, tensor<4x4x16x16xf32>) -> tensor<4x4x16x16xf32>
    %26 = "stablehlo.constant"() <{value = dense<true> : tensor<i1>}> : () -> tensor<i1>
    %27 = "stablehlo.broadcast_in_dim"(%26) <{broadcast_dimensions = array<i64>}> : (tensor<i1>) -> tensor<16x16xi1>
    %28 = "func.call"(%27) <{callee = @tril}> : (tensor<16x16xi1>) -> tensor<16x16xi1>
    %29 = "stablehlo.constant"() <{value = dense<-1.000000e+09> : tensor<f32>}> : () -> tensor<f32>
    %30 = "func.call"(%28, %25, %29) <{callee = @_where}> : (tensor<16x16xi1>, tensor<4x4x16x16xf32>, tensor<f32>) -> tensor<4x4x16x16xf32>
    %31 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %32 = "stablehlo.reduce"(%30, %31) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg11: tensor<f32>, %arg12: tensor<f32>):
      %50 = "stablehlo.maximum"(%arg11, %arg12) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%50) : (tensor<f32>) -> ()
    }) : (tensor<4x4x16x16xf32>, tensor<f32>) -> tensor<4x4x16xf32>
    %33 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %34 = "stablehlo.broadcast_in_dim"(%33) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x4x16xf32>
    %35 = "stablehlo.maximum"(%34, %32) : (tensor<4x4x16xf32>, tensor<4x4x16xf32>) -> tensor<4x4x16xf32>
    %36 = "stablehlo.broadcast_in_dim"(%35) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<4x4x16xf32>) -> tensor<4x4x16x1xf32>
    %37 = "stablehlo.broadcast_in_dim"(%36) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<4x4x16x1xf32>) -> tensor<4x4x16x16xf32>
    %38 = "stablehlo.subtract"(%30, %37) : (tensor<4x4x16x16xf32>, tensor<4x4x16x16xf32>) -> tensor<4x4x16x16xf32>
    %39 = "stablehlo.exponential"(%38) : (tensor<4x4x16x16xf32>) -> tensor<4x4x16x16xf32>
    %40 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %41 = "stablehlo.reduce"(%39, %40) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg9: tensor<f32>, %arg10: tensor<f32>):
      %49 = "stablehlo.add"(%arg9, %arg10) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%49) : (tensor<f32>) -> ()
    }) : (tensor<4x4x16x16xf32>, tensor<f32>) -> tensor<4x4x16xf32>
    %42 = "stablehlo.broadcast_in_dim"(%41) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<4x4x16xf32>) -> tensor<4x4x16x1xf32>
    %43 = "stablehlo.broadcast_in_dim"(%42) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<4x4x16x1xf32>) -> tensor<4x4x16x16xf32>
    %44 = "stablehlo.divide"(%39, %43) : (tensor<4x4x16x16xf32>, tensor<4x4x16x16xf32>) -> tensor<4x4x16x16xf32>
    %45 = "stablehlo.dot_general"(%44, %21) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [2]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<4x4x16x16xf32>, tensor<4x4x16x16xf32>) -> tensor<4x4x16x16xf32>
    %46 = "stablehlo.transpose"(%45) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<4x4x16x16xf32>) -> tensor<4x16x4x16xf32>
    %47 = "stablehlo.reshape"(%46) : (tensor<4x16x4x16xf32>) -> tensor<4x16x64xf32>
    %48 = "stablehlo.dot_general"(%47, %arg8) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<4x16x64xf32>, tensor<64x64xf32>) -> tensor<4x16x64xf32>
    "func.return"(%48) : (tensor<4x16x64xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<16x16xi1>) -> tensor<16x16xi1>, sym_name = "tril", sym_visibility = "private"}> ({
  ^bb0(%arg3: tensor<16x16xi1>):
    %4 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<16x16xi32>
    %5 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %6 = "stablehlo.broadcast_in_dim"(%5) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<16x16xi32>
    %7 = "stablehlo.add"(%4, %6) : (tensor<16x16xi32>, tensor<16x16xi32>) -> tensor<16x16xi32>
    %8 = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<16x16xi32>
    %9 = "stablehlo.compare"(%7, %8) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<16x16xi32>, tensor<16x16xi32>) -> tensor<16x16xi1>
    %10 = "stablehlo.constant"() <{value = dense<false> : tensor<i1>}> : () -> tensor<i1>
    %11 = "stablehlo.broadcast_in_dim"(%10) <{broadcast_dimensions = array<i64>}> : (tensor<i1>) -> tensor<16x16xi1>
    %12 = "stablehlo.select"(%9, %arg3, %11) : (tensor<16x16xi1>, tensor<16x16xi1>, tensor<16x16xi1>) -> tensor<16x16xi1>
    "func.return"(%12) : (tensor<16x16xi1>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<16x16xi1>, tensor<4x4x16x16xf32>, tensor<f32>) -> tensor<4x4x16x16xf32>, sym_name = "_where", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<16x16xi1>, %arg1: tensor<4x4x16x16xf32>, %arg2: tensor<f32>):
    %0 = "stablehlo.convert"(%arg2) : (tensor<f32>) -> tensor<f32>
    %1 = "stablehlo.broadcast_in_dim"(%arg0) <{broadcast_dimensions = array<i64: 2, 3>}> : (tensor<16x16xi1>) -> tensor<4x4x16x16xi1>
    %2 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x4x16x16xf32>
    %3 = "stablehlo.select"(%1, %arg1, %2) : (tensor<4x4x16x16xi1>, tensor<4x4x16x16xf32>, tensor<4x4x16x16xf32>) -> tensor<4x4x16x16xf32>
    "func.return"(%3) : (tensor<4x4x16x16xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
