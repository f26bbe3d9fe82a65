module @jit_body attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=8]> {stablehlo.mesh = {axes = [{name = "x", size = 8 : i64}]}}
  func.func public @main(%arg0: tensor<64x4xf32>) -> (tensor<64x4xf32> {jax.result_info = "result"}) {
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"} (%arg1: tensor<8x4xf32>) {
      %1 = "stablehlo.collective_permute"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 1], [1, 2], [2, 3], [3, 4], [4, 5], [5, 6], [6, 7], [7, 0]]> : tensor<8x2xi64>}> : (tensor<8x4xf32>) -> tensor<8x4xf32>
      %2 = "stablehlo.collective_permute"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 7], [1, 0], [2, 1], [3, 2], [4, 3], [5, 4], [6, 5], [7, 6]]> : tensor<8x2xi64>}> : (tensor<8x4xf32>) -> tensor<8x4xf32>
      %3 = stablehlo.subtract %1, %2 : tensor<8x4xf32>
      sdy.return %3 : tensor<8x4xf32>
    } : (tensor<64x4xf32>) -> tensor<64x4xf32>
    return %0 : tensor<64x4xf32>
  }
}
