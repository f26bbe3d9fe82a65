"builtin.module"() <{sym_name = "jit_body"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=8]>, sym_name = "mesh"}> {stablehlo.mesh = {axes = [{name = "x", size = 8 : i64}]}} : () -> ()
  "func.func"() <{function_type = (tensor<64x4xf32>) -> tensor<64x4xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<64x4xf32>):
    %0 = "sdy.manual_computation"(%arg0) <{in_shardings = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>, manual_axes = #sdy<manual_axes{"x"}>, out_shardings = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>}> ({
    ^bb0(%arg1: tensor<8x4xf32>):
      %1 = "stablehlo.collective_permute"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 1], [1, 2], [2, 3], [3, 4], [4, 5], [5, 6], [6, 7], [7, 0]]> : tensor<8x2xi64>}> : (tensor<8x4xf32>) -> tensor<8x4xf32>
      %2 = "stablehlo.collective_permute"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 7], [1, 0], [2, 1], [3, 2], [4, 3], [5, 4], [6, 5], [7, 6]]> : tensor<8x2xi64>}> : (tensor<8x4xf32>) -> tensor<8x4xf32>
      %3 = "stablehlo.subtract"(%1, %2) : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
      "sdy.return"(%3) : (tensor<8x4xf32>) -> ()
    }) : (tensor<64x4xf32>) -> tensor<64x4xf32>
    "func.return"(%0) : (tensor<64x4xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
