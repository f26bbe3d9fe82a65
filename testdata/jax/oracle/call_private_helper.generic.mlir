"builtin.module"() <{sym_name = "jit_model"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=2, "y"=4]>, sym_name = "mesh"}> {stablehlo.mesh = {axes = [{name = "x", size = 2 : i64}, {name = "y", size = 4 : i64}]}} : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}]>}], function_type = (tensor<16x32xf32>, tensor<32x64xf32>, tensor<64xf32>, tensor<64x32xf32>, tensor<32xf32>) -> tensor<16x32xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg8: tensor<16x32xf32>, %arg9: tensor<32x64xf32>, %arg10: tensor<64xf32>, %arg11: tensor<64x32xf32>, %arg12: tensor<32xf32>):
    %44 = "func.call"(%arg8, %arg9, %arg10) <{callee = @dense}> : (tensor<16x32xf32>, tensor<32x64xf32>, tensor<64xf32>) -> tensor<16x64xf32>
    %45 = "func.call"(%44, %arg11, %arg12) <{callee = @dense_0}> : (tensor<16x64xf32>, tensor<64x32xf32>, tensor<32xf32>) -> tensor<16x32xf32>
    "func.return"(%45) : (tensor<16x32xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<16x32xf32>, tensor<32x64xf32>, tensor<64xf32>) -> tensor<16x64xf32>, sym_name = "dense", sym_visibility = "private"}> ({
  ^bb0(%arg5: tensor<16x32xf32>, %arg6: tensor<32x64xf32>, %arg7: tensor<64xf32>):
    %39 = "stablehlo.dot_general"(%arg5, %arg6) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x32xf32>, tensor<32x64xf32>) -> tensor<16x64xf32>
    %40 = "stablehlo.broadcast_in_dim"(%arg7) <{broadcast_dimensions = array<i64: 1>}> : (tensor<64xf32>) -> tensor<1x64xf32>
    %41 = "stablehlo.broadcast_in_dim"(%40) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x64xf32>) -> tensor<16x64xf32>
    %42 = "stablehlo.add"(%39, %41) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
    %43 = "func.call"(%42) <{callee = @act}> : (tensor<16x64xf32>) -> tensor<16x64xf32>
    "func.return"(%43) : (tensor<16x64xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<16x64xf32>) -> tensor<16x64xf32>, sym_name = "act", sym_visibility = "private"}> ({
  ^bb0(%arg4: tensor<16x64xf32>):
    %22 = "stablehlo.multiply"(%arg4, %arg4) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
    %23 = "stablehlo.multiply"(%22, %arg4) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
    %24 = "stablehlo.constant"() <{value = dense<4.471500e-02> : tensor<f32>}> : () -> tensor<f32>
    %25 = "stablehlo.broadcast_in_dim"(%24) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x64xf32>
    %26 = "stablehlo.multiply"(%25, %23) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
    %27 = "stablehlo.add"(%arg4, %26) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
    %28 = "stablehlo.constant"() <{value = dense<0.797884583> : tensor<f32>}> : () -> tensor<f32>
    %29 = "stablehlo.broadcast_in_dim"(%28) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x64xf32>
    %30 = "stablehlo.multiply"(%29, %27) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
    %31 = "stablehlo.tanh"(%30) : (tensor<16x64xf32>) -> tensor<16x64xf32>
    %32 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %33 = "stablehlo.broadcast_in_dim"(%32) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x64xf32>
    %34 = "stablehlo.add"(%33, %31) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
    %35 = "stablehlo.constant"() <{value = dense<5.000000e-01> : tensor<f32>}> : () -> tensor<f32>
    %36 = "stablehlo.broadcast_in_dim"(%35) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x64xf32>
    %37 = "stablehlo.multiply"(%36, %34) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
    %38 = "stablehlo.multiply"(%arg4, %37) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
    "func.return"(%38) : (tensor<16x64xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<16x64xf32>, tensor<64x32xf32>, tensor<32xf32>) -> tensor<16x32xf32>, sym_name = "dense_0", sym_visibility = "private"}> ({
  ^bb0(%arg1: tensor<16x64xf32>, %arg2: tensor<64x32xf32>, %arg3: tensor<32xf32>):
    %17 = "stablehlo.dot_general"(%arg1, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x64xf32>, tensor<64x32xf32>) -> tensor<16x32xf32>
    %18 = "stablehlo.broadcast_in_dim"(%arg3) <{broadcast_dimensions = array<i64: 1>}> : (tensor<32xf32>) -> tensor<1x32xf32>
    %19 = "stablehlo.broadcast_in_dim"(%18) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x32xf32>) -> tensor<16x32xf32>
    %20 = "stablehlo.add"(%17, %19) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %21 = "func.call"(%20) <{callee = @act_1}> : (tensor<16x32xf32>) -> tensor<16x32xf32>
    "func.return"(%21) : (tensor<16x32xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<16x32xf32>) -> tensor<16x32xf32>, sym_name = "act_1", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<16x32xf32>):
    %0 = "stablehlo.multiply"(%arg0, %arg0) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %1 = "stablehlo.multiply"(%0, %arg0) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %2 = "stablehlo.constant"() <{value = dense<4.471500e-02> : tensor<f32>}> : () -> tensor<f32>
    %3 = "stablehlo.broadcast_in_dim"(%2) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x32xf32>
    %4 = "stablehlo.multiply"(%3, %1) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %5 = "stablehlo.add"(%arg0, %4) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %6 = "stablehlo.constant"() <{value = dense<0.797884583> : tensor<f32>}> : () -> tensor<f32>
    %7 = "stablehlo.broadcast_in_dim"(%6) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x32xf32>
    %8 = "stablehlo.multiply"(%7, %5) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %9 = "stablehlo.tanh"(%8) : (tensor<16x32xf32>) -> tensor<16x32xf32>
    %10 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %11 = "stablehlo.broadcast_in_dim"(%10) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x32xf32>
    %12 = "stablehlo.add"(%11, %9) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %13 = "stablehlo.constant"() <{value = dense<5.000000e-01> : tensor<f32>}> : () -> tensor<f32>
    %14 = "stablehlo.broadcast_in_dim"(%13) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x32xf32>
    %15 = "stablehlo.multiply"(%14, %12) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %16 = "stablehlo.multiply"(%arg0, %15) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    "func.return"(%16) : (tensor<16x32xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
