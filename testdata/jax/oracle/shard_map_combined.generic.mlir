"builtin.module"() <{sym_name = "jit_outer"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["batch"=2, "model"=4]>, sym_name = "mesh"}> {stablehlo.mesh = {axes = [{name = "batch", size = 2 : i64}, {name = "model", size = 4 : i64}]}} : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"batch"}, {"model"}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}]>}], function_type = (tensor<16x64xf32>, tensor<64x32xf32>, tensor<32xf32>) -> tensor<16x32xf32>, res_attrs = [{jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{"batch"}, {}]>}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<16x64xf32>, %arg1: tensor<64x32xf32>, %arg2: tensor<32xf32>):
    %0 = "sdy.manual_computation"(%arg0, %arg1) <{in_shardings = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {"model"}]>, <@mesh, [{"model"}, {}]>]>, manual_axes = #sdy<manual_axes{"batch", "model"}>, out_shardings = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}]>]>}> ({
    ^bb0(%arg3: tensor<8x16xf32>, %arg4: tensor<16x32xf32>):
      %21 = "stablehlo.dot_general"(%arg3, %arg4) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
      %22 = "stablehlo.all_reduce"(%21) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> ({
      ^bb0(%arg9: tensor<f32>, %arg10: tensor<f32>):
        %40 = "stablehlo.add"(%arg9, %arg10) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%40) : (tensor<f32>) -> ()
      }) : (tensor<8x32xf32>) -> tensor<8x32xf32>
      %23 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
      %24 = "stablehlo.reduce"(%22, %23) <{dimensions = array<i64: 1>}> ({
      ^bb0(%arg7: tensor<f32>, %arg8: tensor<f32>):
        %39 = "stablehlo.maximum"(%arg7, %arg8) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%39) : (tensor<f32>) -> ()
      }) : (tensor<8x32xf32>, tensor<f32>) -> tensor<8xf32>
      %25 = "stablehlo.broadcast_in_dim"(%24) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
      %26 = "stablehlo.all_reduce"(%25) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> ({
      ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
        %38 = "stablehlo.maximum"(%arg5, %arg6) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%38) : (tensor<f32>) -> ()
      }) : (tensor<8x1xf32>) -> tensor<8x1xf32>
      %27 = "stablehlo.constant"() <{value = dense<4> : tensor<ui32>}> : () -> tensor<ui32>
      %28 = "stablehlo.constant"() <{value = dense<2> : tensor<ui32>}> : () -> tensor<ui32>
      %29 = "stablehlo.partition_id"() : () -> tensor<ui32>
      %30 = "stablehlo.divide"(%29, %27) : (tensor<ui32>, tensor<ui32>) -> tensor<ui32>
      %31 = "stablehlo.remainder"(%30, %28) : (tensor<ui32>, tensor<ui32>) -> tensor<ui32>
      %32 = "stablehlo.convert"(%31) : (tensor<ui32>) -> tensor<i32>
      %33 = "stablehlo.broadcast_in_dim"(%26) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x32xf32>
      %34 = "stablehlo.subtract"(%22, %33) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
      %35 = "stablehlo.convert"(%32) : (tensor<i32>) -> tensor<f32>
      %36 = "stablehlo.broadcast_in_dim"(%35) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x32xf32>
      %37 = "stablehlo.add"(%34, %36) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
      "sdy.return"(%37) : (tensor<8x32xf32>) -> ()
    }) : (tensor<16x64xf32>, tensor<64x32xf32>) -> tensor<16x32xf32>
    %1 = "stablehlo.broadcast_in_dim"(%arg2) <{broadcast_dimensions = array<i64: 1>}> : (tensor<32xf32>) -> tensor<1x32xf32>
    %2 = "stablehlo.broadcast_in_dim"(%1) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x32xf32>) -> tensor<16x32xf32>
    %3 = "stablehlo.add"(%0, %2) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %4 = "stablehlo.multiply"(%3, %3) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %5 = "stablehlo.multiply"(%4, %3) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %6 = "stablehlo.constant"() <{value = dense<4.471500e-02> : tensor<f32>}> : () -> tensor<f32>
    %7 = "stablehlo.broadcast_in_dim"(%6) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x32xf32>
    %8 = "stablehlo.multiply"(%7, %5) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %9 = "stablehlo.add"(%3, %8) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %10 = "stablehlo.constant"() <{value = dense<0.797884583> : tensor<f32>}> : () -> tensor<f32>
    %11 = "stablehlo.broadcast_in_dim"(%10) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x32xf32>
    %12 = "stablehlo.multiply"(%11, %9) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %13 = "stablehlo.tanh"(%12) : (tensor<16x32xf32>) -> tensor<16x32xf32>
    %14 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %15 = "stablehlo.broadcast_in_dim"(%14) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x32xf32>
    %16 = "stablehlo.add"(%15, %13) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %17 = "stablehlo.constant"() <{value = dense<5.000000e-01> : tensor<f32>}> : () -> tensor<f32>
    %18 = "stablehlo.broadcast_in_dim"(%17) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x32xf32>
    %19 = "stablehlo.multiply"(%18, %16) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %20 = "stablehlo.multiply"(%3, %19) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    "func.return"(%20) : (tensor<16x32xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
