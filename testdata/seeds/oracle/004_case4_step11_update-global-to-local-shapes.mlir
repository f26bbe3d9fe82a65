module {
  sdy.mesh @mesh = <["x"=1, "batch"=8]>
  func.func public @main(%arg0: tensor<1024x2x32x32xf32> {ttcore.shard_status = #ttcore.shard_status<sharded>}) -> (tensor<2048x1024xf32> {jax.result_info = ""}) {
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"batch"}, {}, {}, {}]>] out_shardings=[<@mesh, [{"batch", ?}, {?}]>] manual_axes={"x", "batch"} (%arg1: tensor<128x2x32x32xf32>) {
      %1 = stablehlo.reshape %arg1 : (tensor<128x2x32x32xf32>) -> tensor<256x1024xf32>
      sdy.return %1 : tensor<256x1024xf32>
    } : (tensor<1024x2x32x32xf32>) -> tensor<2048x1024xf32>
    return %0 : tensor<2048x1024xf32>
  }
}
